#include "sim/npu/stream_error.h"

#include <cstdarg>

namespace ethosu_sdk::npu {

Status StreamError(const char* format, ...) {
  va_list args;
  va_start(args, format);
  Status status = Status::ErrorV(ErrorCode::kNpuCommandStream, format, args);
  va_end(args);
  return status;
}

}  // namespace ethosu_sdk::npu
