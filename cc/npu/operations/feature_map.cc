#include "cc/npu/operations/feature_map.h"

namespace npu {
namespace {

// activation_transpose: destination (H, W, C) takes these source axes
// (0 = H, 1 = W, 2 = C). Encodings 4 and 5 are unused.
constexpr int kTransposeAxes[8][3] = {
    {0, 1, 2},  // HWC
    {1, 0, 2},  // WHC
    {0, 2, 1},  // HCW
    {1, 2, 0},  // WCH
    {0, 1, 2}, {0, 1, 2},
    {2, 0, 1},  // CHW
    {2, 1, 0},  // CWH
};

}  // namespace

Status FeatureMap::Offset(int y, int x, int c, size_t* offset) const {
  if (chained) {
    if (y < 0 || y >= chain_height || x < 0 || x >= chain_width || c < 0 || c >= chain_depth) {
      return Status::Error("chain buffer access (%d,%d,%d) outside %dx%dx%d", y, x, c,
                           chain_height, chain_width, chain_depth);
    }
    *offset = ((size_t(y) * size_t(chain_width) + size_t(x)) * size_t(chain_depth) + size_t(c)) *
              size_t(element_bytes);
    if (region == nullptr || region->read == nullptr || *offset + element_bytes > region->size) {
      return Status::Error("chain buffer not produced by a previous operation");
    }
    return Status::Ok();
  }
  if (transpose != 0) {
    const int source[3] = {y, x, c};
    const int* axes = kTransposeAxes[transpose & 7];
    y = source[axes[0]];
    x = source[axes[1]];
    c = source[axes[2]];
  }
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
  int64_t channel_offset = brick ? (c / 16) * stride_c + (c % 16) * element_bytes
                                 : int64_t(c) * element_bytes;
  const int64_t address = int64_t(base[tile]) + y * stride_y + x * stride_x + channel_offset;
  if (region == nullptr || region->read == nullptr) {
    return Status::Failure(FaultKind::kBus, "feature map uses unbound region %d", region_index);
  }
  if (address < 0 || uint64_t(address) + uint64_t(element_bytes) > region->size) {
    return Status::Failure(FaultKind::kBus, "feature map access at 0x%llx outside region %d (%u bytes)",
                         (unsigned long long)address, region_index, unsigned(region->size));
  }
  *offset = size_t(address);
  return Status::Ok();
}

Status FeatureMap::Read(int y, int x, int c, int32_t* value) const {
  size_t at = 0;
  NPU_RETURN_IF_ERROR(Offset(y, x, c, &at));
  const uint8_t* p = region->read + at;
  switch (element_bytes) {
    case 1:
      *value = is_signed ? int32_t(int8_t(p[0])) : int32_t(p[0]);
      break;
    case 2: {
      const uint16_t u = uint16_t(p[0] | (p[1] << 8));
      *value = is_signed ? int32_t(int16_t(u)) : int32_t(u);
      break;
    }
    default:
      *value = int32_t(uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) |
                       (uint32_t(p[3]) << 24));
      break;
  }
  return Status::Ok();
}

Status FeatureMap::ReadChannels(int y, int x, int count, int32_t* out) const {
  if (count <= 0) return Status::Ok();
  // Fast path for 8-bit NHWC/NHCWB16 memory tensors: one bounds check per
  // 16-channel run instead of one per element.
  if (element_bytes == 1 && !chained && transpose == 0) {
    for (int c = 0; c < count; c += 16) {
      const int run = count - c < 16 ? count - c : 16;
      size_t first = 0, last = 0;
      NPU_RETURN_IF_ERROR(Offset(y, x, c, &first));
      NPU_RETURN_IF_ERROR(Offset(y, x, c + run - 1, &last));
      if (last != first + size_t(run - 1)) break;  // not contiguous: slow path
      const uint8_t* p = region->read + first;
      for (int k = 0; k < run; ++k) {
        out[c + k] = (is_signed ? int32_t(int8_t(p[k])) : int32_t(p[k])) - zero_point;
      }
      if (c + run == count) return Status::Ok();
    }
  }
  for (int c = 0; c < count; ++c) {
    int32_t v = 0;
    NPU_RETURN_IF_ERROR(Read(y, x, c, &v));
    out[c] = v - zero_point;
  }
  return Status::Ok();
}

Status FeatureMap::Write(int y, int x, int c, int32_t value) const {
  size_t at = 0;
  NPU_RETURN_IF_ERROR(Offset(y, x, c, &at));
  if (region->write == nullptr) {
    return Status::Failure(FaultKind::kBus, "write to read-only region %d", region_index);
  }
  uint8_t* p = region->write + at;
  for (int i = 0; i < element_bytes; ++i) p[i] = uint8_t(uint32_t(value) >> (8 * i));
  return Status::Ok();
}

void FeatureMap::StoredShape(int* h, int* w, int* c) const {
  const int logical[3] = {height, width, depth};
  const int* axes = kTransposeAxes[transpose & 7];
  *h = logical[axes[0]];
  *w = logical[axes[1]];
  *c = logical[axes[2]];
}

void FeatureMap::LogicalOf(int y, int x, int c, int logical[3]) const {
  const int stored[3] = {y, x, c};
  const int* axes = kTransposeAxes[transpose & 7];
  for (int k = 0; k < 3; ++k) logical[axes[k]] = stored[k];
}

int64_t FeatureMap::MinValue() const {
  if (!is_signed) return 0;
  return -(int64_t(1) << (8 * element_bytes - 1));
}

int64_t FeatureMap::MaxValue() const {
  if (!is_signed) return (int64_t(1) << (8 * element_bytes)) - 1;
  return (int64_t(1) << (8 * element_bytes - 1)) - 1;
}

}  // namespace npu
