#include "sim/npu/weights/weight_cache.h"

#include <cstdint>

namespace ethosu_sdk::npu {

WeightCache::WeightCache(void* memory, size_t bytes) {
  // Directory first (aligned for Entry), then 64-byte-aligned blocks.
  uint8_t* start = static_cast<uint8_t*>(memory);
  const uintptr_t dir =
      (reinterpret_cast<uintptr_t>(start) + alignof(Entry) - 1) & ~uintptr_t(alignof(Entry) - 1);
  const size_t dir_end =
      size_t(dir - reinterpret_cast<uintptr_t>(start)) + sizeof(Entry) * kMaxEntries;
  if (memory == nullptr || bytes < dir_end + kAlign) return;  // too small: caches nothing
  entries_ = reinterpret_cast<Entry*>(dir);
  const uintptr_t blocks =
      (reinterpret_cast<uintptr_t>(start) + dir_end + kAlign - 1) & ~uintptr_t(kAlign - 1);
  data_ = reinterpret_cast<uint8_t*>(blocks);
  capacity_ = bytes - size_t(blocks - reinterpret_cast<uintptr_t>(start));
}

const void* WeightCache::Find(uint64_t key) const {
  for (int i = 0; i < count_; ++i) {
    if (entries_[i].key == key) {
      ++hits_;
      return data_ + entries_[i].offset;
    }
  }
  ++misses_;
  return nullptr;
}

void* WeightCache::Reserve(uint64_t key, size_t bytes) {
  reserved_ = false;
  if (data_ == nullptr || bytes > capacity_) return nullptr;
  const size_t aligned = (bytes + kAlign - 1) & ~(kAlign - 1);
  if (count_ == kMaxEntries || aligned > capacity_ - used_) Clear();
  Entry& e = entries_[count_];
  e.key = key;
  e.offset = used_;
  e.bytes = aligned < capacity_ - used_ ? aligned : capacity_ - used_;
  reserved_ = true;
  return data_ + e.offset;
}

void WeightCache::Commit() {
  if (!reserved_) return;
  used_ += entries_[count_].bytes;
  ++count_;
  reserved_ = false;
}

void WeightCache::Clear() {
  reserved_ = false;
  count_ = 0;
  used_ = 0;
}

}  // namespace ethosu_sdk::npu
