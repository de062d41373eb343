// Formats text into a caller-owned buffer: no heap, no printf, so the same
// code logs on the host and on a bare-metal board. Output that does not fit
// is cut and flagged, never written past the buffer.
#ifndef ETHOSU_SDK_CC_SUPPORT_TEXT_BUILDER_H_
#define ETHOSU_SDK_CC_SUPPORT_TEXT_BUILDER_H_

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk {

class TextBuilder {
 public:
  // `capacity` includes the terminating NUL that c_str() relies on.
  TextBuilder(char* buffer, size_t capacity);

  TextBuilder& Str(const char* text);
  TextBuilder& Chars(const char* text, size_t size);
  TextBuilder& Char(char c);
  TextBuilder& Int(int64_t value);
  TextBuilder& UInt(uint64_t value);
  // Lower-case hex without a prefix, at least `min_digits` digits.
  TextBuilder& Hex(uint64_t value, int min_digits = 1);

  const char* c_str() const { return buffer_; }
  size_t size() const { return size_; }
  bool truncated() const { return truncated_; }
  void Clear();

 private:
  char* buffer_;
  size_t capacity_;
  size_t size_ = 0;
  bool truncated_ = false;
};

}  // namespace ethosu_sdk

#endif  // ETHOSU_SDK_CC_SUPPORT_TEXT_BUILDER_H_
