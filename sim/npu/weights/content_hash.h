// A fast 64-bit hash of bytes, to key decoded weights by the encoded
// stream they came from. Not cryptographic: a guest that crafts colliding
// streams only confuses its own results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ethosu_sdk::npu {

class ContentHash {
 public:
  explicit ContentHash(uint64_t seed = 0) {
    for (int k = 0; k < kLanes; ++k) lanes_[k] = seed + kOdd[k];
  }
  void Add(const void* data, size_t size) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    length_ += size;
    // Four independent multiply-rotate lanes over 8-byte words keep the
    // multiplier busy; the tail goes in zero-padded.
    while (size >= 8 * kLanes) {
      for (int k = 0; k < kLanes; ++k) lanes_[k] = Round(lanes_[k], Load(p + 8 * k));
      p += 8 * kLanes;
      size -= 8 * kLanes;
    }
    while (size > 0) {
      uint64_t word = 0;
      const size_t n = size < 8 ? size : 8;
      memcpy(&word, p, n);
      lanes_[tail_lane_] = Round(lanes_[tail_lane_], word);
      tail_lane_ = (tail_lane_ + 1) % kLanes;
      p += n;
      size -= n;
    }
  }
  template <typename T>
  void AddValue(const T& value) {
    Add(&value, sizeof(value));
  }
  uint64_t Digest() const {
    uint64_t h = length_ * kOdd[0];
    for (int k = 0; k < kLanes; ++k) h = Round(h ^ Rotate(lanes_[k], 17 * k), lanes_[k]);
    h ^= h >> 29;
    h *= kOdd[1];
    return h ^ (h >> 32);
  }

 private:
  static constexpr int kLanes = 4;
  static constexpr uint64_t kOdd[kLanes] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full,
                                            0x165667B19E3779F9ull, 0xD6E8FEB86659FD93ull};
  static uint64_t Load(const uint8_t* p) {
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
  }
  static uint64_t Rotate(uint64_t v, int r) { return r == 0 ? v : (v << r) | (v >> (64 - r)); }
  static uint64_t Round(uint64_t lane, uint64_t word) {
    return Rotate(lane + word * kOdd[1], 31) * kOdd[0];
  }

  uint64_t lanes_[kLanes];
  uint64_t length_ = 0;
  int tail_lane_ = 0;
};

}  // namespace ethosu_sdk::npu
