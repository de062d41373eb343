// Little-endian, least-significant-bit-first reader over a bounded buffer,
// the bit order of Ethos-U weight streams. Reads past the end fail softly:
// they return 0 and set overrun(), which decoders turn into an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ethosu_sdk::npu {

class BitReader {
 public:
  BitReader(const uint8_t* data, size_t size) : data_(data), size_bits_(size * 8) {}

  uint32_t Get(int bits) {
    // Away from the end, one 8-byte little-endian load holds every bit
    // asked for (at most 7 + 32 of its 64): the decoders' hot path.
    constexpr int kMaxFastBits = 32;
    const size_t byte = pos_ >> 3;
    if (bits >= 0 && bits <= kMaxFastBits && byte + sizeof(uint64_t) <= size_bits_ / 8) {
      uint64_t word;
      memcpy(&word, data_ + byte, sizeof(word));
      const int first_bit = int(pos_ & 7);
      pos_ += size_t(bits);
      return uint32_t((word >> first_bit) & ((uint64_t(1) << bits) - 1));
    }
    return GetBitwise(bits);
  }
  void AlignTo(size_t bits) { pos_ = (pos_ + bits - 1) / bits * bits; }
  void Skip(size_t bits) { pos_ += bits; }
  size_t position() const { return pos_; }
  size_t remaining() const { return pos_ >= size_bits_ ? 0 : size_bits_ - pos_; }
  bool overrun() const { return overrun_; }

 private:
  // Bit by bit, near the end of the buffer or past it.
  uint32_t GetBitwise(int bits) {
    uint32_t value = 0;
    for (int i = 0; i < bits; ++i) {
      if (pos_ >= size_bits_) {
        overrun_ = true;
        return 0;
      }
      value |= uint32_t((data_[pos_ >> 3] >> (pos_ & 7)) & 1u) << i;
      ++pos_;
    }
    return value;
  }

  const uint8_t* data_;
  size_t size_bits_;
  size_t pos_ = 0;
  bool overrun_ = false;
};

}  // namespace ethosu_sdk::npu
