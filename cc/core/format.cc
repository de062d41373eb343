#include "cc/core/format.h"

#include <climits>
#include <cstdint>

namespace ethosu_sdk {
namespace {

// Appends to the caller's buffer, counting what does not fit.
class Output {
 public:
  Output(char* buffer, size_t capacity) : buffer_(buffer), capacity_(capacity) {}

  void Put(char c) {
    if (length_ + 1 < capacity_) buffer_[length_] = c;
    ++length_;
  }
  void Repeat(char c, int count) {
    for (; count > 0; --count) Put(c);
  }
  size_t Finish() {
    if (capacity_ > 0) buffer_[length_ < capacity_ ? length_ : capacity_ - 1] = '\0';
    return length_;
  }

 private:
  char* buffer_;
  size_t capacity_;
  size_t length_ = 0;
};

enum class Length { kInt, kChar, kShort, kLong, kLongLong, kSize, kMax, kPtrdiff, kLongDouble };

struct Spec {
  bool left = false;
  bool zero = false;
  char sign = '\0';  // '+' or ' ' for non-negative numbers
  int width = 0;
  int precision = -1;  // none given
  Length length = Length::kInt;
};

int Max(int a, int b) { return a > b ? a : b; }

// sign, prefix ("0x"), zeros to the precision (or the width, with the 0
// flag), then the digits; spaces to the width on the side the flag says.
void Number(Output& out, const Spec& spec, uint64_t magnitude, bool negative, unsigned base,
            bool upper, const char* prefix) {
  const char* digit_set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char digits[24];  // 2^64 - 1 has 22 octal, 20 decimal digits
  int count = 0;
  // Precision 0 prints nothing for the value 0, as printf does.
  if (magnitude != 0 || spec.precision != 0) {
    do {
      digits[count++] = digit_set[magnitude % base];
      magnitude /= base;
    } while (magnitude != 0);
  }
  const char sign = negative ? '-' : spec.sign;
  int prefix_size = 0;
  while (prefix[prefix_size] != '\0') ++prefix_size;
  const int head = (sign != '\0' ? 1 : 0) + prefix_size;
  int zeros = Max(spec.precision - count, 0);
  if (spec.zero && !spec.left && spec.precision < 0) zeros = Max(spec.width - head - count, zeros);
  const int padding = spec.width - head - zeros - count;
  if (!spec.left) out.Repeat(' ', padding);
  if (sign != '\0') out.Put(sign);
  for (int i = 0; i < prefix_size; ++i) out.Put(prefix[i]);
  out.Repeat('0', zeros);
  while (count > 0) out.Put(digits[--count]);
  if (spec.left) out.Repeat(' ', padding);
}

void Text(Output& out, const Spec& spec, const char* text, int max_size) {
  if (text == nullptr) text = "(null)";
  int size = 0;
  while ((max_size < 0 || size < max_size) && text[size] != '\0') ++size;
  if (!spec.left) out.Repeat(' ', spec.width - size);
  for (int i = 0; i < size; ++i) out.Put(text[i]);
  if (spec.left) out.Repeat(' ', spec.width - size);
}

// A decimal number in the format (width or precision); advances `p`.
int ReadNumber(const char*& p) {
  int value = 0;
  while (*p >= '0' && *p <= '9') {
    if (value < 100000) value = value * 10 + (*p - '0');  // bounded: no overflow
    ++p;
  }
  return value;
}

Length ReadLength(const char*& p) {
  switch (*p) {
    case 'h':
      ++p;
      if (*p == 'h') return ++p, Length::kChar;
      return Length::kShort;
    case 'l':
      ++p;
      if (*p == 'l') return ++p, Length::kLongLong;
      return Length::kLong;
    case 'z':
      return ++p, Length::kSize;
    case 'j':
      return ++p, Length::kMax;
    case 't':
      return ++p, Length::kPtrdiff;
    case 'L':
      return ++p, Length::kLongDouble;
    default:
      return Length::kInt;
  }
}

}  // namespace

size_t FormatV(char* buffer, size_t capacity, const char* format, va_list args) {
  Output out(buffer, capacity);
  for (const char* p = format; *p != '\0'; ++p) {
    if (*p != '%') {
      out.Put(*p);
      continue;
    }
    ++p;
    Spec spec;
    for (;; ++p) {
      if (*p == '-')
        spec.left = true;
      else if (*p == '0')
        spec.zero = true;
      else if (*p == '+')
        spec.sign = '+';
      else if (*p == ' ' && spec.sign == '\0')
        spec.sign = ' ';
      else if (*p != ' ')
        break;
    }
    if (*p == '*') {
      ++p;
      spec.width = va_arg(args, int);
      if (spec.width < 0) {
        spec.left = true;
        spec.width = spec.width == INT_MIN ? 0 : -spec.width;
      }
    } else {
      spec.width = ReadNumber(p);
    }
    if (*p == '.') {
      ++p;
      if (*p == '*') {
        ++p;
        spec.precision = Max(va_arg(args, int), -1);
      } else {
        spec.precision = ReadNumber(p);
      }
    }
    spec.length = ReadLength(p);
    switch (*p) {
      case 'd':
      case 'i': {
        int64_t value;
        switch (spec.length) {
          case Length::kChar:
            value = static_cast<signed char>(va_arg(args, int));
            break;
          case Length::kShort:
            value = static_cast<short>(va_arg(args, int));
            break;
          case Length::kLong:
            value = va_arg(args, long);
            break;
          case Length::kLongLong:
            value = va_arg(args, long long);
            break;
          case Length::kMax:
            value = va_arg(args, intmax_t);
            break;
          case Length::kSize:
          case Length::kPtrdiff:
            value = va_arg(args, ptrdiff_t);
            break;
          default:
            value = va_arg(args, int);
            break;
        }
        // Negate in unsigned arithmetic so INT64_MIN does not overflow.
        const uint64_t magnitude =
            value < 0 ? ~static_cast<uint64_t>(value) + 1 : static_cast<uint64_t>(value);
        Number(out, spec, magnitude, value < 0, 10, false, "");
        break;
      }
      case 'u':
      case 'x':
      case 'X': {
        uint64_t value;
        switch (spec.length) {
          case Length::kChar:
            value = static_cast<unsigned char>(va_arg(args, unsigned));
            break;
          case Length::kShort:
            value = static_cast<unsigned short>(va_arg(args, unsigned));
            break;
          case Length::kLong:
            value = va_arg(args, unsigned long);
            break;
          case Length::kLongLong:
            value = va_arg(args, unsigned long long);
            break;
          case Length::kMax:
            value = va_arg(args, uintmax_t);
            break;
          case Length::kSize:
            value = va_arg(args, size_t);
            break;
          case Length::kPtrdiff:
            value = static_cast<size_t>(va_arg(args, ptrdiff_t));
            break;
          default:
            value = va_arg(args, unsigned);
            break;
        }
        spec.sign = '\0';  // only signed conversions show a sign
        Number(out, spec, value, false, *p == 'u' ? 10 : 16, *p == 'X', "");
        break;
      }
      case 'p':
        spec.sign = '\0';
        Number(out, spec, reinterpret_cast<uintptr_t>(va_arg(args, void*)), false, 16, false, "0x");
        break;
      case 'c': {
        const char c[2] = {static_cast<char>(va_arg(args, int)), '\0'};
        Text(out, spec, c, 1);
        break;
      }
      case 's':
        Text(out, spec, va_arg(args, const char*), spec.precision);
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
      case 'a':
      case 'A':
        // Consumed so that later arguments stay in place; not printed.
        if (spec.length == Length::kLongDouble) {
          (void)va_arg(args, long double);
        } else {
          (void)va_arg(args, double);
        }
        Text(out, spec, "?", -1);
        break;
      case '%':
        out.Put('%');
        break;
      case '\0':
        --p;
        break;  // a lone '%' at the end
      default:  // not a conversion: shown as written
        out.Put('%');
        out.Put(*p);
        break;
    }
  }
  return out.Finish();
}

size_t Format(char* buffer, size_t capacity, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const size_t length = FormatV(buffer, capacity, format, args);
  va_end(args);
  return length;
}

}  // namespace ethosu_sdk
