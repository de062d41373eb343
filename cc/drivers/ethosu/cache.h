// Data cache maintenance around an NPU job: the NPU reads memory directly,
// so what the CPU wrote must be cleaned to memory before the job starts,
// and what the NPU wrote must be invalidated before the CPU reads it.
//
// Weak hooks: a firmware may define its own (say, for a system cache). The
// default on Cortex-M55/M85 maintains the core's D-cache by address through
// the SCB (nothing to do when the D-cache is off, as under QEMU); on the host
// they do nothing.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_CACHE_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_CACHE_H_

#include <cstddef>

extern "C" {
void ethosu_sdk_npu_cache_clean(const void* data, size_t size);
void ethosu_sdk_npu_cache_invalidate(void* data, size_t size);
}

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_CACHE_H_
