#include "cc/runtime/status.h"

#include "cc/support/text_builder.h"

namespace ethosu_sdk::runtime {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "Ok";
    case ErrorCode::kInvalidProgram: return "InvalidProgram";
    case ErrorCode::kOutOfRange: return "OutOfRange";
    case ErrorCode::kNotSupported: return "NotSupported";
    case ErrorCode::kNotFound: return "NotFound";
    case ErrorCode::kOutOfMemory: return "OutOfMemory";
    case ErrorCode::kInvalidArgument: return "InvalidArgument";
    case ErrorCode::kBackendFailed: return "BackendFailed";
  }
  return "Unknown";
}

Status Status::Error(ErrorCode code, const char* what, int64_t a, int64_t b) {
  Status status;
  status.code_ = code;
  TextBuilder text(status.message_, kMessageCapacity);
  text.Str(what);
  if (a != kNoValue) {
    text.Str(" (").Int(a);
    if (b != kNoValue) text.Str(", ").Int(b);
    text.Char(')');
  }
  return status;
}

Status Status::ErrorNamed(ErrorCode code, const char* what, const char* name,
                          size_t name_size) {
  Status status;
  status.code_ = code;
  TextBuilder text(status.message_, kMessageCapacity);
  text.Str(what).Str(": ").Chars(name, name_size);
  return status;
}

}  // namespace ethosu_sdk::runtime
