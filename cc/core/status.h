// Errors as values for all of the SDK's C++: a Status is a code, a short
// formatted reason ("value index (12, 9)") in a fixed buffer, and, for a
// failure inside an NPU command stream, the byte offset of the command that
// failed. Reporting an error never allocates.
#ifndef ETHOSU_SDK_CC_CORE_STATUS_H_
#define ETHOSU_SDK_CC_CORE_STATUS_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>

#include "cc/core/format.h"

namespace ethosu_sdk {

// Values are stable (they may be logged as numbers); new codes go at the end.
enum class ErrorCode : uint8_t {
  kOk = 0,
  kInvalidProgram = 1,   // the .pte is malformed: header, flatbuffer, segments, payloads
  kOutOfRange = 2,       // an index, offset or size from the .pte is out of range
  kNotSupported = 3,     // valid for ExecuTorch, not handled by this runtime
  kNotFound = 4,         // a method, operator or backend is not registered
  kOutOfMemory = 5,      // a caller-provided arena is too small
  kInvalidArgument = 6,  // a caller or kernel argument is wrong
  kBackendFailed = 7,    // a delegate failed for a reason of its own (none below)
  // The NPU, whether the functional model or the hardware through the
  // driver, each failure kind with its own code so that it survives the
  // delegate and the runtime up to the runner's report.
  kNpuCommandStream = 8,  // the command stream is invalid (parse error)
  kNpuBusError = 9,       // an access outside its region, to an unbound or read-only one
  kNpuUnsupported = 10,   // valid for some NPU, not for this one (or not modelled)
  kNpuLimit = 11,         // beyond the caller's run limits or workspace
  kNpuFault = 12,         // any other hardware fault: weight decoder, ECC, branch, reset
  kNpuTimeout = 13,       // the NPU did not complete in time
  kInternal = 14,         // a broken invariant inside the SDK (a bug)
};

// "InvalidProgram", "NpuBusError", ...: the names the runner prints.
const char* ErrorCodeName(ErrorCode code);

class [[nodiscard]] Status {
 public:
  static constexpr size_t kMessageCapacity = 224;  // the longest driver message fits
  static constexpr uint32_t kNoCommandOffset = 0xFFFFFFFFu;

  constexpr Status() = default;  // ok
  static constexpr Status Ok() { return Status(); }

  // A failure with a printf-style reason (see format.h for what is
  // supported). A reason that does not fit ends in "...". `code` kOk is a
  // caller's bug and becomes kInternal, so that an error is never lost.
  static Status Error(ErrorCode code, const char* format, ...) ESDK_PRINTF_FORMAT(2, 3);
  static Status ErrorV(ErrorCode code, const char* format, va_list args);

  // The same failure, located at the command at `offset` bytes into the NPU
  // command stream (kNoCommandOffset: none). An ok Status stays as it is.
  Status WithCommandOffset(uint32_t offset) const;

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const char* message() const { return message_; }
  bool has_command_offset() const { return command_offset_ != kNoCommandOffset; }
  uint32_t command_offset() const { return command_offset_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  uint32_t command_offset_ = kNoCommandOffset;
  char message_[kMessageCapacity] = "ok";
};

}  // namespace ethosu_sdk

// Returns the Status of `expr` from the enclosing function when it failed.
#define ESDK_RETURN_IF_ERROR(expr)                   \
  do {                                               \
    ::ethosu_sdk::Status esdk_status_ = (expr);      \
    if (!esdk_status_.ok()) return esdk_status_;     \
  } while (0)

#endif  // ETHOSU_SDK_CC_CORE_STATUS_H_
