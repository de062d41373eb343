// Bytes in one exactly-sized, 16-byte aligned heap block. The payload
// parser reads the command stream as 32-bit words and TensorFile reads
// 8-byte fields in place, so both need the alignment; the exact size lets
// AddressSanitizer see any read past the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ethosu_sdk::npu_harness {

class AlignedBytes {
 public:
  static constexpr size_t kAlignment = 16;

  AlignedBytes() = default;
  // `size` bytes, each `fill`.
  explicit AlignedBytes(size_t size, uint8_t fill = 0);
  // A copy of `size` bytes at `data`.
  AlignedBytes(const void* data, size_t size);

  uint8_t* data() { return bytes_.get(); }
  const uint8_t* data() const { return bytes_.get(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint8_t& operator[](size_t i) { return bytes_[i]; }
  uint8_t operator[](size_t i) const { return bytes_[i]; }

 private:
  struct Free {
    void operator()(uint8_t* bytes) const;
  };
  std::unique_ptr<uint8_t[], Free> bytes_;
  size_t size_ = 0;
};

// The whole file; false if it cannot be read.
bool ReadFile(const char* path, AlignedBytes* out);

}  // namespace ethosu_sdk::npu_harness
