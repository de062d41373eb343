// A feature map as the command stream describes it: up to four tiles,
// NHWC or NHCWB16 (bricks of 16 channels), element precision and an
// optional transpose on output. Every access is bounds-checked against the
// region it lives in.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/npu/driver.h"
#include "cc/npu/status.h"

namespace npu {

struct FeatureMap {
  const Region* region = nullptr;
  int region_index = 0;
  uint64_t base[4] = {0, 0, 0, 0};
  int height0 = 0, height1 = 0, width0 = 0;  // tile sizes
  int height = 0, width = 0, depth = 0;       // logical shape (pre-transpose)
  int64_t stride_x = 0, stride_y = 0, stride_c = 0;
  int element_bytes = 1;
  bool is_signed = true;
  bool brick = false;      // NHCWB16
  int transpose = 0;       // activation_transpose (OFM only)
  int broadcast = 0;       // broadcast_mode (IFM/IFM2 only)
  int32_t zero_point = 0;
  // Chained storage (U85): the tensor lives in the NPU's internal chain
  // buffer, not in memory. The model keeps it dense HWC with these sizes.
  bool chained = false;
  int chain_height = 0, chain_width = 0, chain_depth = 0;

  // Byte offset inside the region of element (y, x, c), or an error.
  Status Offset(int y, int x, int c, size_t* offset) const;
  Status Read(int y, int x, int c, int32_t* value) const;
  Status Write(int y, int x, int c, int32_t value) const;
  // The tensor as stored, after any OFM transpose: its shape, and the
  // logical coordinates of stored element (y, x, c). Used to compare a
  // layer with a reference that holds the transposed tensor.
  void StoredShape(int* h, int* w, int* c) const;
  void LogicalOf(int y, int x, int c, int logical[3]) const;
  // Reads channels [0, count) at (y, x) minus the zero point into out.
  Status ReadChannels(int y, int x, int count, int32_t* out) const;
  // Value range of the element type.
  int64_t MinValue() const;
  int64_t MaxValue() const;
};

}  // namespace npu
