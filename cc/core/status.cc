#include "cc/core/status.h"

#include "cc/core/error_detail.h"

namespace ethosu_sdk {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "Ok";
    case ErrorCode::kInvalidProgram:
      return "InvalidProgram";
    case ErrorCode::kOutOfRange:
      return "OutOfRange";
    case ErrorCode::kNotSupported:
      return "NotSupported";
    case ErrorCode::kNotFound:
      return "NotFound";
    case ErrorCode::kOutOfMemory:
      return "OutOfMemory";
    case ErrorCode::kInvalidArgument:
      return "InvalidArgument";
    case ErrorCode::kBackendFailed:
      return "BackendFailed";
    case ErrorCode::kNpuCommandStream:
      return "NpuCommandStream";
    case ErrorCode::kNpuBusError:
      return "NpuBusError";
    case ErrorCode::kNpuUnsupported:
      return "NpuUnsupported";
    case ErrorCode::kNpuLimit:
      return "NpuLimit";
    case ErrorCode::kNpuFault:
      return "NpuFault";
    case ErrorCode::kNpuTimeout:
      return "NpuTimeout";
    case ErrorCode::kInternal:
      return "Internal";
  }
  return "Unknown";
}

Status Status::ErrorV(ErrorCode code, const char* format, va_list args) {
  Status status;
  status.code_ = code == ErrorCode::kOk ? ErrorCode::kInternal : code;
  status.detail_ = error_detail::Record(format, args);
  return status;
}

Status Status::Error(ErrorCode code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  Status status = ErrorV(code, format, args);
  va_end(args);
  return status;
}

const char* Status::message() const { return ok() ? "ok" : error_detail::Find(detail_); }

Status Status::WithCommandOffset(uint32_t offset) const {
  Status status = *this;
  if (!ok()) status.command_offset_ = offset;
  return status;
}

}  // namespace ethosu_sdk
