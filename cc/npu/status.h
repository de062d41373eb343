// Errors as values: a Status carries a short formatted message, no heap.
// A failed Status also says what kind of failure it is and, for failures
// inside a command stream, the byte offset of the command that failed, so
// that a device model can report it as the hardware does (STATUS bits, QREAD).
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>

namespace npu {

enum class FaultKind : uint8_t {
  kNone = 0,     // ok
  kParse,        // the stream is invalid: unknown or malformed command, bad field value
  kBus,          // an access outside its region, to an unbound region, or a write to a
                 // read-only one (the hardware reports these as bus errors)
  kUnsupported,  // valid for the hardware, not implemented by the functional model
  kLimit,        // beyond the caller's RunLimits or workspace
};

class Status {
 public:
  static constexpr uint32_t kNoOffset = 0xFFFFFFFFu;

  static Status Ok() { return Status(); }
  // An invalid command stream (FaultKind::kParse), or an invalid argument.
  static Status Error(const char* fmt, ...) __attribute__((format(printf, 1, 2))) {
    va_list args;
    va_start(args, fmt);
    Status s = Make(FaultKind::kParse, fmt, args);
    va_end(args);
    return s;
  }
  // A failure of the given kind.
  static Status Failure(FaultKind kind, const char* fmt, ...)
      __attribute__((format(printf, 2, 3))) {
    va_list args;
    va_start(args, fmt);
    Status s = Make(kind, fmt, args);
    va_end(args);
    return s;
  }
  // The same failure with a new message (same kind and offset).
  Status Rephrased(const char* fmt, ...) const __attribute__((format(printf, 2, 3))) {
    va_list args;
    va_start(args, fmt);
    Status s = Make(kind_, fmt, args);
    va_end(args);
    s.command_offset_ = command_offset_;
    return s;
  }

  bool ok() const { return kind_ == FaultKind::kNone; }
  const char* message() const { return ok() ? "ok" : message_; }
  FaultKind kind() const { return kind_; }
  // Byte offset in the command stream of the command that failed, or
  // kNoOffset (not a stream failure, or ok).
  uint32_t command_offset() const { return command_offset_; }
  // Records where in the stream the failure happened (first caller wins).
  void SetCommandOffset(uint32_t offset) {
    if (!ok() && command_offset_ == kNoOffset) command_offset_ = offset;
  }

 private:
  static Status Make(FaultKind kind, const char* fmt, va_list args) {
    Status s;
    s.kind_ = kind;
    vsnprintf(s.message_, sizeof(s.message_), fmt, args);
    return s;
  }

  FaultKind kind_ = FaultKind::kNone;
  uint32_t command_offset_ = kNoOffset;
  char message_[160] = {0};
};

}  // namespace npu

// Propagates a failed Status to the caller.
#define NPU_RETURN_IF_ERROR(expr)        \
  do {                                   \
    ::npu::Status npu_status_ = (expr);  \
    if (!npu_status_.ok()) return npu_status_; \
  } while (0)
