// Errors as values for all of the SDK's C++, light enough to return from every
// kernel on a microcontroller stack: a Status is an error code, the byte
// offset of the failing NPU command (when there is one) and a ticket for its
// message. The message itself ("memory id 3 out of range: the program has 2
// memory arenas") is formatted once, where the error happens, into the error
// detail record (error_detail.h), as ExecuTorch (Error + ET_LOG) and Pigweed
// (pw::Status + pw_log) keep theirs out of the returned value. Reporting an
// error never allocates.
#ifndef ETHOSU_SDK_CC_CORE_STATUS_H_
#define ETHOSU_SDK_CC_CORE_STATUS_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>

#include "cc/core/error_detail.h"
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
  // The longest message kept, with its NUL (error_detail.h); a longer one
  // ends in "...".
  static constexpr size_t kMessageCapacity = error_detail::kMessageCapacity;
  static constexpr uint32_t kNoCommandOffset = 0xFFFFFFFFu;

  constexpr Status() = default;  // ok
  static constexpr Status Ok() { return Status(); }

  // A failure with a printf-style reason (see format.h for what is
  // supported), formatted now into the error detail record. A reason that
  // does not fit ends in "...". `code` kOk is a caller's bug and becomes
  // kInternal, so that an error is never lost.
  static Status Error(ErrorCode code, const char* format, ...) ESDK_PRINTF_FORMAT(2, 3);
  static Status ErrorV(ErrorCode code, const char* format, va_list args);

  // The same failure, located at the command at `offset` bytes into the NPU
  // command stream (kNoCommandOffset: none). An ok Status stays as it is.
  Status WithCommandOffset(uint32_t offset) const;

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  // "ok", the reason given to Error(), or, once later errors have taken its
  // place in the detail record (error_detail.h says how many it keeps), a
  // sentence saying so. Valid until the next errors are reported.
  const char* message() const;
  bool has_command_offset() const { return command_offset_ != kNoCommandOffset; }
  uint32_t command_offset() const { return command_offset_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  uint16_t detail_ = 0;  // the message's ticket in the detail record; 0: none
  uint32_t command_offset_ = kNoCommandOffset;
};

// Returned by value from every kernel: kept to two words (it was 232 bytes
// with the message inside). cc/core/status_test.cc checks it on each target.
static_assert(sizeof(Status) <= 8, "a Status must stay at most 8 bytes");

}  // namespace ethosu_sdk

// Returns the Status of `expr` from the enclosing function when it failed.
#define ESDK_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::ethosu_sdk::Status esdk_status_ = (expr);  \
    if (!esdk_status_.ok()) return esdk_status_; \
  } while (0)

#endif  // ETHOSU_SDK_CC_CORE_STATUS_H_
