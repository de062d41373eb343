// The driver's errors: one message in a fixed buffer, no heap.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_RESULT_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_RESULT_H_

#include <cstddef>

#include "cc/support/text_builder.h"

namespace ethosu_sdk::drivers::ethosu {

class [[nodiscard]] Result {
 public:
  static constexpr size_t kCapacity = 192;

  static Result Ok() { return Result(); }
  bool ok() const { return !failed_; }
  const char* message() const { return failed_ ? message_ : "ok"; }
  // Marks the result failed; the builder writes its message.
  TextBuilder Fail() {
    failed_ = true;
    return TextBuilder(message_, kCapacity);
  }

 private:
  bool failed_ = false;
  char message_[kCapacity] = "";
};

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_RESULT_H_
