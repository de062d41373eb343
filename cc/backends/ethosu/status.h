// Errors as values for the Ethos-U backend (payload parser, NPU interface):
// a short formatted message in a fixed buffer, no heap. Its own type, not
// the functional model's npu::Status, so firmware links nothing of cc/npu.
#pragma once

#include <cstdarg>
#include <cstdio>

namespace ethosu_sdk::backends::ethosu {

class [[nodiscard]] Status {
 public:
  static constexpr int kCapacity = 200;  // the driver's longest message fits

  static Status Ok() { return Status(); }
  static Status Error(const char* fmt, ...) __attribute__((format(printf, 1, 2))) {
    Status s;
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

}  // namespace ethosu_sdk::backends::ethosu

// Propagates a failed ethosu::Status to the caller.
#define ETHOSU_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::ethosu_sdk::backends::ethosu::Status ethosu_status_ = (expr);        \
    if (!ethosu_status_.ok()) return ethosu_status_; \
  } while (0)
