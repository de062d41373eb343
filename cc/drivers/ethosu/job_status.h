// Decodes the STATUS word an NPU job ended with: success is the end of the
// command stream with no fault bit; anything else is one error naming each
// fault and where the NPU was in the stream (QREAD).
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_JOB_STATUS_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_JOB_STATUS_H_

#include <cstdint>

#include "cc/drivers/ethosu/result.h"

namespace ethosu_sdk::drivers::ethosu {

Result DecodeJobStatus(uint32_t status, uint32_t qread);

// " (STATUS 0x..., QREAD n)", the context every job error ends with.
void AppendRegisters(uint32_t status, uint32_t qread, TextBuilder& text);

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_JOB_STATUS_H_
