// Errors as values: a Status carries a short formatted message, no heap.
#pragma once

#include <cstdarg>
#include <cstdio>

namespace npu {

class Status {
 public:
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
  char message_[160] = {0};
};

}  // namespace npu

// Propagates a failed Status to the caller.
#define NPU_RETURN_IF_ERROR(expr)        \
  do {                                   \
    ::npu::Status npu_status_ = (expr);  \
    if (!npu_status_.ok()) return npu_status_; \
  } while (0)
