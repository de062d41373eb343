#include "sim/npu/memory/feature_map.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

// activation_transpose: destination (H, W, C) takes these source axes
// (0 = H, 1 = W, 2 = C). Encodings 4 and 5 are unused.
constexpr int kTransposeAxes[8][3] = {
    {0, 1, 2},                        // HWC
    {1, 0, 2},                        // WHC
    {0, 2, 1},                        // HCW
    {1, 2, 0},                        // WCH
    {0, 1, 2}, {0, 1, 2}, {2, 0, 1},  // CHW
    {2, 1, 0},                        // CWH
};

struct Range {
  int64_t lo, hi;  // inclusive
};

// Extremes of index * stride over index in [0, count).
Range Scaled(int count, int64_t stride) {
  const int64_t last = int64_t(count - 1) * stride;
  return last < 0 ? Range{last, 0} : Range{0, last};
}

Range Add(Range a, Range b) { return {a.lo + b.lo, a.hi + b.hi}; }

Range Union(Range a, Range b) { return {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi}; }

}  // namespace

void FeatureMap::UseChainBuffer(const Region* buffer, int h, int w, int c) {
  chained = true;
  region = buffer;
  chain_height = h;
  chain_width = w;
  chain_depth = c;
  for (uint64_t& b : base) b = 0;
  width0 = w;
  height0 = height1 = h;
  stride_x = int64_t(c) * element_bytes;
  stride_y = int64_t(w) * stride_x;
  brick = false;
}

Status FeatureMap::Validate(const Extent& box, bool write) const {
  if (box.empty()) return Status::Ok();
  if (region == nullptr || region->data == nullptr) {
    if (chained) return StreamError("chain buffer not produced by a previous operation");
    return Status::Error(ErrorCode::kNpuBusError, "feature map uses unbound region %d",
                         region_index);
  }
  if (write && !region->writable) {
    return Status::Error(ErrorCode::kNpuBusError, "write to read-only region %d", region_index);
  }
  if (chained &&
      (box.height > chain_height || box.width > chain_width || box.depth > chain_depth)) {
    return StreamError("chain buffer access %dx%dx%d outside %dx%dx%d", box.height, box.width,
                       box.depth, chain_height, chain_width, chain_depth);
  }
  // A reversed axis is written from its far end: the box, mirrored, must
  // lie inside the map's shape, and then the whole shape is what is touched.
  Extent touched = box;
  if (reverse != 0) {
    if (box.height > height || box.width > width || box.depth > depth) {
      return StreamError("reversed feature map access %dx%dx%d outside %dx%dx%d", box.height,
                         box.width, box.depth, height, width, depth);
    }
    if (reverse == kReverseH) touched.height = height;
    if (reverse == kReverseW) touched.width = width;
    if (reverse == kReverseC) touched.depth = depth;
  }
  // Stored extents (an OFM transpose permutes the axes).
  int h = touched.height, w = touched.width, c = touched.depth;
  if (transpose != 0) {
    const int logical[3] = {touched.height, touched.width, touched.depth};
    const int* axes = kTransposeAxes[transpose & 7];
    h = logical[axes[0]];
    w = logical[axes[1]];
    c = logical[axes[2]];
  }
  // Channel offsets: NHCWB16 splits c into brick (c / 16) and lane (c % 16);
  // the full bricks and the last, partial one are two boxes.
  Range channels = Scaled(c, element_bytes);
  if (brick) {
    const int last_brick = (c - 1) / 16, last_lane = (c - 1) % 16;
    const int64_t last_brick_offset = last_brick * stride_c;
    channels =
        Add(Range{last_brick_offset, last_brick_offset}, Scaled(last_lane + 1, element_bytes));
    if (last_brick > 0) {
      channels = Union(channels, Add(Scaled(last_brick, stride_c), Scaled(16, element_bytes)));
    }
  }
  // Tiles: 0 top-left, 1 top-right (from x = width0, rows to height1),
  // 2 bottom-left (from y = height0), 3 bottom-right (from y = height1).
  const int left_w = w < width0 ? w : width0, right_w = w - width0;
  const int top_left_h = h < height0 ? h : height0, top_right_h = h < height1 ? h : height1;
  const int tile_h[4] = {top_left_h, top_right_h, h - height0, h - height1};
  const int tile_w[4] = {left_w, right_w, left_w, right_w};
  for (int t = 0; t < 4; ++t) {
    if (tile_h[t] <= 0 || tile_w[t] <= 0) continue;
    const Range r = Add(Add(Scaled(tile_h[t], stride_y), Scaled(tile_w[t], stride_x)), channels);
    const int64_t first = int64_t(base[t]) + r.lo, last = int64_t(base[t]) + r.hi;
    if (first < 0 || uint64_t(last) + uint64_t(element_bytes) > region->size) {
      if (chained) return StreamError("chain buffer not produced by a previous operation");
      return Status::Error(
          ErrorCode::kNpuBusError, "feature map access at 0x%llx outside region %d (%u bytes)",
          (unsigned long long)(first < 0 ? first : last), region_index, unsigned(region->size));
    }
  }
  return Status::Ok();
}

size_t FeatureMap::MappedAt(int y, int x, int c) const {
  Reverse(&y, &x, &c);
  const int source[3] = {y, x, c};
  const int* axes = kTransposeAxes[transpose & 7];
  return size_t(StoredAddress(source[axes[0]], source[axes[1]], source[axes[2]]));
}

Status FeatureMap::Offset(int y, int x, int c, size_t* offset) const {
  if (chained &&
      (y < 0 || y >= chain_height || x < 0 || x >= chain_width || c < 0 || c >= chain_depth)) {
    return StreamError("chain buffer access (%d,%d,%d) outside %dx%dx%d", y, x, c, chain_height,
                       chain_width, chain_depth);
  }
  if (region == nullptr || region->data == nullptr) {
    if (chained) return StreamError("chain buffer not produced by a previous operation");
    return Status::Error(ErrorCode::kNpuBusError, "feature map uses unbound region %d",
                         region_index);
  }
  if (reverse != 0 && (y < 0 || y >= height || x < 0 || x >= width || c < 0 || c >= depth)) {
    return StreamError("reversed feature map access (%d,%d,%d) outside %dx%dx%d", y, x, c, height,
                       width, depth);
  }
  const int64_t address = mapped() ? int64_t(MappedAt(y, x, c)) : StoredAddress(y, x, c);
  if (address < 0 || uint64_t(address) + uint64_t(element_bytes) > region->size) {
    return Status::Error(ErrorCode::kNpuBusError,
                         "feature map access at 0x%llx outside region %d (%u bytes)",
                         (unsigned long long)address, region_index, unsigned(region->size));
  }
  *offset = size_t(address);
  return Status::Ok();
}

void FeatureMap::LoadChannels(int y, int x, int count, int32_t* out) const {
  if (!mapped() && element_bytes == 1) {
    const uint8_t* row = region->data + StoredAt(y, x, 0);
    for (int c = 0; c < count; ++c) {
      const uint8_t v = row[ChannelOffset(c)];
      out[c] = (is_signed ? int32_t(int8_t(v)) : int32_t(v)) - zero_point;
    }
    return;
  }
  // Wraps like 32-bit hardware arithmetic: a guest may give a 32-bit IFM a
  // zero point (Vela gives them 0).
  for (int c = 0; c < count; ++c) out[c] = int32_t(uint32_t(Load(y, x, c)) - uint32_t(zero_point));
}

void FeatureMap::LoadChannels(int y, int x, int count, int16_t* out) const {
  const uint8_t* p = region->data + StoredAt(y, x, 0);
  if (!brick) {
    if (is_signed) {
      for (int c = 0; c < count; ++c) out[c] = int16_t(int8_t(p[c]) - zero_point);
    } else {
      for (int c = 0; c < count; ++c) out[c] = int16_t(p[c] - zero_point);
    }
    return;
  }
  for (int c = 0; c < count; c += 16) {
    const uint8_t* q = p + (c >> 4) * stride_c;
    const int run = count - c < 16 ? count - c : 16;
    for (int k = 0; k < run; ++k) {
      out[c + k] = int16_t((is_signed ? int32_t(int8_t(q[k])) : int32_t(q[k])) - zero_point);
    }
  }
}

Status FeatureMap::Read(int y, int x, int c, int32_t* value) const {
  size_t at = 0;
  ESDK_RETURN_IF_ERROR(Offset(y, x, c, &at));
  *value = Decode(region->data + at);
  return Status::Ok();
}

Status FeatureMap::Write(int y, int x, int c, int32_t value) const {
  size_t at = 0;
  ESDK_RETURN_IF_ERROR(Offset(y, x, c, &at));
  if (!region->writable) {
    return Status::Error(ErrorCode::kNpuBusError, "write to read-only region %d", region_index);
  }
  Encode(region->data + at, value);
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
  Reverse(&logical[0], &logical[1], &logical[2]);
}

}  // namespace ethosu_sdk::npu
