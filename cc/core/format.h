// printf-style formatting into a fixed buffer, our own and not the C
// library's: newlib-nano's printf has no 64-bit conversions (%lld, %zu on
// some builds) and pulls in reentrancy state, and the host's would print the
// same message differently. One implementation means a Status reads the
// same on the host and on the board.
//
// Supported: flags - 0 + space, width and precision (numbers or *), length
// hh h l ll z j t, conversions d i u x X c s p %. Floating-point conversions
// (e f g a) consume their argument and print "?": no soft-float formatting
// in firmware.
#ifndef ETHOSU_SDK_CC_CORE_FORMAT_H_
#define ETHOSU_SDK_CC_CORE_FORMAT_H_

#include <cstdarg>
#include <cstddef>

// Lets the compiler check a printf-style format against its arguments
// (1-based positions; member functions count `this` as 1).
#define ESDK_PRINTF_FORMAT(format_index, first_arg) \
  __attribute__((format(printf, format_index, first_arg)))

namespace ethosu_sdk {

// Writes at most `capacity - 1` characters and a NUL (nothing if `capacity`
// is 0). Returns the length the whole text has, as snprintf does: larger
// than `capacity - 1` when it was cut.
size_t FormatV(char* buffer, size_t capacity, const char* format, va_list args);
size_t Format(char* buffer, size_t capacity, const char* format, ...) ESDK_PRINTF_FORMAT(3, 4);

// An integer or enum as the argument "%lld" reads. int64_t is `long` on the
// host and `long long` on Arm, size_t `unsigned long` or `unsigned int`, so
// one conversion for every integer keeps a message portable:
// Status::Error(code, "tensor of %lld bytes", Lld(nbytes)).
template <typename T>
constexpr long long Lld(T value) {
  return static_cast<long long>(value);
}

}  // namespace ethosu_sdk

#endif  // ETHOSU_SDK_CC_CORE_FORMAT_H_
