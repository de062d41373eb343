// Decoded weights and scale records kept across runs of a command stream,
// in memory the caller lends once (bounded, no heap). Blocks are keyed by
// a hash of everything they were decoded from (the encoded bytes and the
// layout), so a changed stream is never served stale. When the memory is
// full the cache starts over; a block larger than the whole cache is not
// kept (the operation decodes into its workspace every run).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::npu {

class WeightCache {
 public:
  // `memory` must stay valid, and untouched by others, while the cache lives.
  WeightCache(void* memory, size_t bytes);

  // The block stored under `key`, or null.
  const void* Find(uint64_t key) const;
  // Room for a new block of `bytes` under `key`, or null if it cannot fit
  // (may start the cache over). The block is found only after Commit(), so
  // a decode that fails half-way leaves nothing behind.
  void* Reserve(uint64_t key, size_t bytes);
  void Commit();
  void Clear();

  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

 private:
  struct Entry {
    uint64_t key;
    size_t offset, bytes;
  };
  static constexpr int kMaxEntries = 1024;
  static constexpr size_t kAlign = 64;

  uint8_t* data_ = nullptr;  // block storage after the directory
  size_t capacity_ = 0;
  size_t used_ = 0;
  Entry* entries_ = nullptr;
  int count_ = 0;
  bool reserved_ = false;
  mutable size_t hits_ = 0, misses_ = 0;
};

}  // namespace ethosu_sdk::npu
