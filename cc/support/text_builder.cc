#include "cc/support/text_builder.h"

namespace ethosu_sdk {

TextBuilder::TextBuilder(char* buffer, size_t capacity) : buffer_(buffer), capacity_(capacity) {
  if (capacity_ > 0) buffer_[0] = '\0';
}

void TextBuilder::Clear() {
  size_ = 0;
  truncated_ = false;
  if (capacity_ > 0) buffer_[0] = '\0';
}

TextBuilder& TextBuilder::Char(char c) {
  if (size_ + 1 < capacity_) {
    buffer_[size_++] = c;
    buffer_[size_] = '\0';
  } else {
    truncated_ = true;
  }
  return *this;
}

TextBuilder& TextBuilder::Chars(const char* text, size_t size) {
  for (size_t i = 0; i < size; ++i) Char(text[i]);
  return *this;
}

TextBuilder& TextBuilder::Str(const char* text) {
  if (text == nullptr) return Str("(null)");
  while (*text != '\0') Char(*text++);
  return *this;
}

TextBuilder& TextBuilder::UInt(uint64_t value) {
  char digits[20];  // 2^64 - 1 has 20 decimal digits
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (count > 0) Char(digits[--count]);
  return *this;
}

TextBuilder& TextBuilder::Int(int64_t value) {
  if (value < 0) {
    Char('-');
    // Negate in unsigned arithmetic so INT64_MIN does not overflow.
    return UInt(~static_cast<uint64_t>(value) + 1);
  }
  return UInt(static_cast<uint64_t>(value));
}

TextBuilder& TextBuilder::Hex(uint64_t value, int min_digits) {
  char digits[16];
  int count = 0;
  do {
    digits[count++] = "0123456789abcdef"[value & 0xF];
    value >>= 4;
  } while (value != 0);
  for (int pad = count; pad < min_digits && pad < 16; ++pad) Char('0');
  while (count > 0) Char(digits[--count]);
  return *this;
}

}  // namespace ethosu_sdk
