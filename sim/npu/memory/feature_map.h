// A feature map as the command stream describes it: up to four tiles,
// NHWC or NHCWB16 (bricks of 16 channels), element precision and an
// optional transpose on output. An operation proves once, with Validate,
// that every element it touches lies inside the region; its kernel then
// addresses elements with the unchecked At/Load/Store.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cc/core/status.h"
#include "sim/npu/types.h"

namespace ethosu_sdk::npu {

// A box of logical coordinates [0, height) x [0, width) x [0, depth).
struct Extent {
  int height = 0, width = 0, depth = 0;
  bool empty() const { return height <= 0 || width <= 0 || depth <= 0; }
};

struct FeatureMap {
  const Region* region = nullptr;
  int region_index = 0;
  uint64_t base[4] = {0, 0, 0, 0};
  int height0 = 0, height1 = 0, width0 = 0;  // tile sizes
  int height = 0, width = 0, depth = 0;      // logical shape (pre-transpose)
  int64_t stride_x = 0, stride_y = 0, stride_c = 0;
  int element_bytes = 1;  // 1, 2, 4; 8 (signed) where an operation allows it
  bool is_signed = true;
  bool brick = false;  // NHCWB16
  int transpose = 0;   // activation_transpose (OFM only)
  int reverse = 0;     // activation_reverse (OFM only): kReverseH, W or C
  int broadcast = 0;   // broadcast_mode (IFM/IFM2 only)
  int32_t zero_point = 0;
  // Chained storage (U85): the tensor lives in the NPU's internal chain
  // buffer, not in memory, dense HWC with these sizes (UseChainBuffer).
  bool chained = false;
  int chain_height = 0, chain_width = 0, chain_depth = 0;

  // Places the map in a dense HWC chain buffer of the given sizes.
  void UseChainBuffer(const Region* buffer, int h, int w, int c);

  // Checks that every element of `box` (logical coordinates) lies inside
  // the region and, if `write`, that the region is writable.
  Status Validate(const Extent& box, bool write) const;

  // Checked access, for observers and tests: any coordinates.
  Status Offset(int y, int x, int c, size_t* offset) const;
  Status Read(int y, int x, int c, int32_t* value) const;
  Status Write(int y, int x, int c, int32_t value) const;

  // activation_reverse: the axis written backwards.
  static constexpr int kReverseH = 1, kReverseW = 2, kReverseC = 3;
  // Stored elsewhere than at (y, x, c): transposed or reversed.
  bool mapped() const { return transpose != 0 || reverse != 0; }

  // Unchecked access inside a validated box.
  size_t At(int y, int x, int c) const {
    if (mapped()) return MappedAt(y, x, c);
    return StoredAt(y, x, c);
  }
  // Maps neither transposed nor reversed: the offset of (y, x, c); of
  // channel c relative to channel 0.
  size_t StoredAt(int y, int x, int c) const { return size_t(StoredAddress(y, x, c)); }
  int64_t StoredAddress(int y, int x, int c) const {
    int tile = 0;
    if (x >= width0) {
      x -= width0;
      tile = 1;
      if (y >= height1) {
        y -= height1;
        tile = 3;
      }
    } else if (y >= height0) {
      y -= height0;
      tile = 2;
    }
    return int64_t(base[tile]) + y * stride_y + x * stride_x + ChannelOffset(c);
  }
  int64_t ChannelOffset(int c) const {
    return brick ? (c >> 4) * stride_c + (c & 15) * element_bytes : int64_t(c) * element_bytes;
  }
  int64_t Load(int y, int x, int c) const { return Decode(region->data + At(y, x, c)); }
  void Store(int y, int x, int c, int64_t value) const {
    Encode(region->data + At(y, x, c), value);
  }
  // Element sizes 1, 2, 4 and 8 (signed 64-bit only: U85 writes resize and
  // accumulator results as 64-bit OFMs that a later operation reads back).
  int64_t Decode(const uint8_t* p) const {
    switch (element_bytes) {
      case 1:
        return is_signed ? int64_t(int8_t(p[0])) : int64_t(p[0]);
      case 2: {
        const uint16_t u = uint16_t(p[0] | (p[1] << 8));
        return is_signed ? int64_t(int16_t(u)) : int64_t(u);
      }
      case 4:
        return int32_t(uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) |
                       (uint32_t(p[3]) << 24));
      default: {
        uint64_t u = 0;
        for (int i = 0; i < 8; ++i) u |= uint64_t(p[i]) << (8 * i);
        return int64_t(u);
      }
    }
  }
  void Encode(uint8_t* p, int64_t value) const {
    for (int i = 0; i < element_bytes; ++i) p[i] = uint8_t(uint64_t(value) >> (8 * i));
  }
  // Channels [0, count) at (y, x) minus the zero point (unchecked).
  void LoadChannels(int y, int x, int count, int32_t* out) const;
  void LoadChannels(int y, int x, int count, int16_t* out) const;  // 8-bit maps only

  // The tensor as stored, after any OFM transpose or reverse: its shape,
  // and the logical coordinates of stored element (y, x, c). Used to compare a
  // layer with a reference that holds the transposed tensor.
  void StoredShape(int* h, int* w, int* c) const;
  void LogicalOf(int y, int x, int c, int logical[3]) const;
  // Value range of the element type.
  int64_t MinValue() const {
    if (element_bytes == kMaxElementBytes) return INT64_MIN;
    return is_signed ? -(int64_t(1) << (8 * element_bytes - 1)) : 0;
  }
  int64_t MaxValue() const {
    if (element_bytes == kMaxElementBytes) return INT64_MAX;
    return is_signed ? (int64_t(1) << (8 * element_bytes - 1)) - 1
                     : (int64_t(1) << (8 * element_bytes)) - 1;
  }
  static constexpr int kMaxElementBytes = 8;

 private:
  size_t MappedAt(int y, int x, int c) const;
  // (y, x, c) mirrored on the reversed axis (an involution).
  void Reverse(int* y, int* x, int* c) const {
    if (reverse == kReverseH) *y = height - 1 - *y;
    if (reverse == kReverseW) *x = width - 1 - *x;
    if (reverse == kReverseC) *c = depth - 1 - *c;
  }
};

}  // namespace ethosu_sdk::npu
