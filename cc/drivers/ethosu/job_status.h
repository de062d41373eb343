// Decodes the STATUS word an NPU job ended with: success is the end of the
// command stream with no fault bit; anything else is one error naming each
// fault and where the NPU was in the stream (QREAD), with the code of the
// fault that matters most: a bus error, then a parse error, then any other.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_JOB_STATUS_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_JOB_STATUS_H_

#include <cstdint>

#include "cc/core/status.h"

namespace ethosu_sdk::drivers::ethosu {

Status DecodeJobStatus(uint32_t status, uint32_t qread);

// "<what> (STATUS 0x..., QREAD n)": every job error ends with the registers.
Status JobError(ErrorCode code, const char* what, uint32_t status, uint32_t qread);

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_JOB_STATUS_H_
