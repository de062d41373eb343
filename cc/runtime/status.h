// Errors as values: every fallible runtime call returns a Status that carries
// a code and a short reason ("value index 12 out of range (0..9)"), formatted
// into a fixed buffer so that reporting an error never allocates.
#ifndef ETHOSU_SDK_CC_RUNTIME_STATUS_H_
#define ETHOSU_SDK_CC_RUNTIME_STATUS_H_

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::runtime {

enum class ErrorCode : uint8_t {
  kOk = 0,
  kInvalidProgram,    // the .pte is malformed: header, flatbuffer, segments
  kOutOfRange,        // an index, offset or size from the .pte is out of range
  kNotSupported,      // valid for ExecuTorch, not handled by this runtime
  kNotFound,          // a method, operator or backend is not registered
  kOutOfMemory,       // a caller-provided arena is too small
  kInvalidArgument,   // a caller or kernel argument is wrong
  kBackendFailed,     // a delegate reported a failure
};

const char* ErrorCodeName(ErrorCode code);

class [[nodiscard]] Status {
 public:
  static constexpr size_t kMessageCapacity = 224;  // fits the NPU driver's errors
  static constexpr int64_t kNoValue = INT64_MIN;

  Status() = default;  // OK
  static Status Ok() { return Status(); }
  // "what" followed by up to two numbers, e.g. ("offset past end", 80, 64)
  // reads "offset past end (80, 64)".
  static Status Error(ErrorCode code, const char* what, int64_t a = kNoValue,
                      int64_t b = kNoValue);
  // Like Error, with a name in between: "operator not registered: aten::x.out".
  static Status ErrorNamed(ErrorCode code, const char* what, const char* name,
                           size_t name_size);

  bool ok() const { return code_ == ErrorCode::kOk; }
  ErrorCode code() const { return code_; }
  const char* message() const { return message_; }

 private:
  ErrorCode code_ = ErrorCode::kOk;
  char message_[kMessageCapacity] = "ok";
};

}  // namespace ethosu_sdk::runtime

// Returns from the enclosing function when `expr` yields an error Status.
#define ESDK_RETURN_IF_ERROR(expr)                             \
  do {                                                         \
    ::ethosu_sdk::runtime::Status esdk_status_ = (expr);       \
    if (!esdk_status_.ok()) return esdk_status_;               \
  } while (0)

#endif  // ETHOSU_SDK_CC_RUNTIME_STATUS_H_
