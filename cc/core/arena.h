// A bump allocator over caller-provided memory: the only way the runtime
// obtains memory. Nothing is ever freed individually; the caller reuses or
// drops the whole buffer.
#ifndef ETHOSU_SDK_CC_CORE_ARENA_H_
#define ETHOSU_SDK_CC_CORE_ARENA_H_

#include <cstddef>
#include <cstdint>
#include <new>

namespace ethosu_sdk {

class Arena {
 public:
  Arena() = default;
  Arena(void* base, size_t size) : base_(static_cast<uint8_t*>(base)), size_(size) {}

  // Null when the request does not fit; `align` must be a power of two.
  void* Allocate(size_t size, size_t align);

  // `count` default-constructed objects, or null when they do not fit.
  template <typename T>
  T* New(size_t count) {
    if (count > SIZE_MAX / sizeof(T)) return nullptr;
    void* memory = Allocate(count * sizeof(T), alignof(T));
    if (memory == nullptr) return nullptr;
    T* objects = static_cast<T*>(memory);
    for (size_t i = 0; i < count; ++i) new (&objects[i]) T();
    return objects;
  }

  size_t used() const { return used_; }
  size_t size() const { return size_; }

 private:
  uint8_t* base_ = nullptr;
  size_t size_ = 0;
  size_t used_ = 0;
};

}  // namespace ethosu_sdk

#endif  // ETHOSU_SDK_CC_CORE_ARENA_H_
