// The model's most common failure: the command stream asks for something
// invalid (an unknown command, a bad field value, an inconsistent
// operation). Its own code, so the delegate and the report can tell a bad
// stream from a bus error or an unsupported feature.
#pragma once

#include "cc/core/format.h"
#include "cc/core/status.h"

namespace ethosu_sdk::npu {

// Status::Error(ErrorCode::kNpuCommandStream, format, ...).
Status StreamError(const char* format, ...) ESDK_PRINTF_FORMAT(1, 2);

}  // namespace ethosu_sdk::npu
