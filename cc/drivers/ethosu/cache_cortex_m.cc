// Cortex-M55/M85 D-cache maintenance by address range (Armv8.1-M SCB cache
// maintenance registers, to the point of coherency), skipped while the
// D-cache is disabled (CCR.DC clear: the reset state, and what QEMU models).
#include <cstdint>

#include "cc/drivers/ethosu/cache.h"

namespace {

constexpr uintptr_t kCcr = 0xE000ED14;      // bit 16 DC: data cache enabled
constexpr uintptr_t kDcimvac = 0xE000EF5C;  // invalidate by address to PoC
constexpr uintptr_t kDccmvac = 0xE000EF68;  // clean by address to PoC
constexpr uintptr_t kLineBytes = 32;        // M55 and M85 D-cache line

bool DataCacheEnabled() { return (*reinterpret_cast<volatile uint32_t*>(kCcr) & (1u << 16)) != 0; }

void ByLine(uintptr_t operation, uintptr_t begin, size_t size) {
  if (size == 0 || !DataCacheEnabled()) return;
  const uintptr_t end = begin + size;
  __asm volatile("dsb" ::: "memory");
  for (uintptr_t line = begin & ~(kLineBytes - 1); line < end; line += kLineBytes) {
    *reinterpret_cast<volatile uint32_t*>(operation) = uint32_t(line);
  }
  __asm volatile("dsb\n isb" ::: "memory");
}

}  // namespace

extern "C" {
__attribute__((weak)) void ethosu_sdk_npu_cache_clean(const void* data, size_t size) {
  ByLine(kDccmvac, reinterpret_cast<uintptr_t>(data), size);
}
// Invalidating whole lines at a partial edge would drop CPU data next to the
// buffer; NPU regions are 16-byte aligned inside arenas the CPU does not
// write during a job, and were cleaned before it.
__attribute__((weak)) void ethosu_sdk_npu_cache_invalidate(void* data, size_t size) {
  ByLine(kDcimvac, reinterpret_cast<uintptr_t>(data), size);
}
}
