// Errors as values with a printf-formatted message in a fixed buffer, no
// heap: the functional NPU model (npu::Status) and the Ethos-U backend
// (ethosu::Status) share this one type.
#ifndef ETHOSU_SDK_CC_SUPPORT_FORMATTED_STATUS_H_
#define ETHOSU_SDK_CC_SUPPORT_FORMATTED_STATUS_H_

#include <cstdarg>
#include <cstdio>

namespace ethosu_sdk {

class FormattedStatus {
 public:
  static constexpr int kCapacity = 200;

  static FormattedStatus Ok() { return FormattedStatus(); }
  static FormattedStatus Error(const char* fmt, ...) __attribute__((format(printf, 1, 2))) {
    FormattedStatus s;
    s.ok_ = false;
    va_list args;
    va_start(args, fmt);
    vsnprintf(s.message_, sizeof(s.message_), fmt, args);
    va_end(args);
    return s;
  }
  bool ok() const { return ok_; }
  const char* message() const { return ok_ ? "ok" : message_; }

 private:
  bool ok_ = true;
  char message_[kCapacity] = {0};
};

}  // namespace ethosu_sdk

#endif  // ETHOSU_SDK_CC_SUPPORT_FORMATTED_STATUS_H_
