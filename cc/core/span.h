// A view of `size` contiguous objects owned by someone else: what the
// runtime hands out for lists, buffers and arguments. Copies are cheap and
// never own memory.
#ifndef ETHOSU_SDK_CC_CORE_SPAN_H_
#define ETHOSU_SDK_CC_CORE_SPAN_H_

#include <cstddef>
#include <type_traits>

namespace ethosu_sdk {

template <typename T>
class Span {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, size_t size) : data_(data), size_(size) {}
  template <size_t N>
  constexpr Span(T (&array)[N]) : data_(array), size_(N) {}
  // Span<T> to Span<const T> (and no other conversion).
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  constexpr Span(const Span<U>& other) : data_(other.data()), size_(other.size()) {}

  constexpr T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }
  // Unchecked, as for an array: callers index what they validated.
  constexpr T& operator[](size_t i) const { return data_[i]; }

  // `count` elements from `offset`, both clamped to this span, so a
  // subspan never reaches past the end.
  constexpr Span subspan(size_t offset, size_t count = static_cast<size_t>(-1)) const {
    if (offset > size_) offset = size_;
    if (count > size_ - offset) count = size_ - offset;
    return Span(data_ + offset, count);
  }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

// Whether `text` (NUL-terminated) is exactly the characters of `s`, which
// need not be: names and keys read from a program.
inline bool Equals(Span<const char> s, const char* text) {
  const size_t n = __builtin_strlen(text);
  return s.size() == n && __builtin_memcmp(s.data(), text, n) == 0;
}

}  // namespace ethosu_sdk

#endif  // ETHOSU_SDK_CC_CORE_SPAN_H_
