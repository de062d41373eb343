#include "cc/core/arena.h"

namespace ethosu_sdk {

void* Arena::Allocate(size_t size, size_t align) {
  const uintptr_t start = reinterpret_cast<uintptr_t>(base_) + used_;
  const uintptr_t padding = (align - (start & (align - 1))) & (align - 1);
  if (padding > size_ - used_ || size > size_ - used_ - padding) return nullptr;
  used_ += padding;
  void* result = base_ + used_;
  used_ += size;
  return result;
}

}  // namespace ethosu_sdk
