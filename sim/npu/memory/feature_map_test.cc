// Feature-map addressing against the layouts' definitions: a dense NHWC or
// NHCWB16 tensor is an array indexed [H][W][C] or [H][C/16][W][16], with
// the strides Vela writes for it; tiles are windows onto one such tensor.
// Validate accepts exactly the boxes whose bytes lie inside the region.
#include "sim/npu/memory/feature_map.h"

#include <cstdio>
#include <vector>

#include "cc/testing/unit_test.h"

namespace npu = ethosu_sdk::npu;

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::Status;

struct Tensor {
  int h, w, c;
  bool brick;
  int bricks() const { return (c + 15) / 16; }
  // Index into the dense array, from the layout's definition.
  size_t Index(int y, int x, int k) const {
    if (!brick) return (size_t(y) * w + x) * c + k;
    return ((size_t(y) * bricks() + k / 16) * w + x) * 16 + k % 16;
  }
  size_t Bytes() const { return brick ? size_t(h) * bricks() * w * 16 : size_t(h) * w * c; }
};

npu::FeatureMap Map(const Tensor& t, const npu::Region* region) {
  npu::FeatureMap fm;
  fm.region = region;
  fm.height = t.h;
  fm.width = t.w;
  fm.depth = t.c;
  fm.height0 = fm.height1 = t.h;
  fm.width0 = t.w;
  fm.brick = t.brick;
  // Vela's strides: NHWC x = C, y = W*C; NHCWB16 x = 16, c = 16*W, y = 16*W*bricks.
  fm.stride_x = t.brick ? 16 : t.c;
  fm.stride_c = t.brick ? 16 * t.w : 0;
  fm.stride_y = t.brick ? int64_t(16) * t.w * t.bricks() : int64_t(t.w) * t.c;
  return fm;
}

uint8_t Value(int y, int x, int k) { return uint8_t(y * 97 + x * 31 + k * 7 + 1); }

void Fill(const Tensor& t, std::vector<uint8_t>* memory) {
  memory->assign(t.Bytes(), 0);
  for (int y = 0; y < t.h; ++y)
    for (int x = 0; x < t.w; ++x)
      for (int k = 0; k < t.c; ++k) (*memory)[t.Index(y, x, k)] = Value(y, x, k);
}

bool ReadsBack(const npu::FeatureMap& fm, const Tensor& t) {
  for (int y = 0; y < t.h; ++y)
    for (int x = 0; x < t.w; ++x)
      for (int k = 0; k < t.c; ++k)
        if (uint8_t(fm.Load(y, x, k)) != Value(y, x, k)) return false;
  return true;
}

}  // namespace

TEST(FeatureMap, LayoutsAndTilesReadBack) {
  for (bool brick : {false, true}) {
    const Tensor t{5, 7, 37, brick};  // a partial last brick
    std::vector<uint8_t> memory;
    Fill(t, &memory);
    const npu::Region region{memory.data(), memory.size(), true};
    npu::FeatureMap fm = Map(t, &region);
    fm.is_signed = false;
    EXPECT_TRUE(fm.Validate({t.h, t.w, t.c}, true).ok()) << "whole tensor validates";
    EXPECT_TRUE(ReadsBack(fm, t)) << (brick ? "NHCWB16 addressing" : "NHWC addressing");
    // Four tiles over the same tensor: tile 1 from x = 3 (rows to
    // height1 = 2), tile 2 from y = 4, tile 3 from (2, 3).
    fm.width0 = 3;
    fm.height0 = 4;
    fm.height1 = 2;
    fm.base[0] = 0;
    fm.base[1] = t.Index(0, 3, 0);
    fm.base[2] = t.Index(4, 0, 0);
    fm.base[3] = t.Index(2, 3, 0);
    EXPECT_TRUE(fm.Validate({t.h, t.w, t.c}, false).ok()) << "tiled tensor validates";
    EXPECT_TRUE(ReadsBack(fm, t)) << (brick ? "NHCWB16 tiles" : "NHWC tiles");
    // The unchecked channel loader agrees, minus the zero point.
    fm.zero_point = 3;
    std::vector<int16_t> narrow(t.c);
    std::vector<int32_t> wide(t.c);
    fm.LoadChannels(4, 5, t.c, narrow.data());
    fm.LoadChannels(4, 5, t.c, wide.data());
    bool same = true;
    for (int k = 0; k < t.c; ++k) {
      same &= narrow[k] == Value(4, 5, k) - 3 && wide[k] == Value(4, 5, k) - 3;
    }
    EXPECT_TRUE(same) << "LoadChannels reads minus the zero point";
  }
}

TEST(FeatureMap, ValidateAcceptsExactlyTheRegion) {
  for (bool brick : {false, true}) {
    const Tensor t{3, 4, 20, brick};
    // The last element's byte is the last byte of the region: NHWC, (2, 3, 19);
    // NHCWB16, (2, 3, 19) in the last, partial brick.
    const size_t last = t.Index(2, 3, 19);
    std::vector<uint8_t> memory(last + 1);
    npu::Region exact{memory.data(), last + 1, true};
    npu::Region short_by_one{memory.data(), last, true};
    npu::Region read_only{memory.data(), last + 1, false};
    const npu::FeatureMap fits = Map(t, &exact);
    EXPECT_TRUE(fits.Validate({3, 4, 20}, true).ok()) << "box ending on the region's last byte";
    const Status over = Map(t, &short_by_one).Validate({3, 4, 20}, false);
    EXPECT_TRUE(!over.ok() && over.code() == ErrorCode::kNpuBusError) << "one byte past the region";
    EXPECT_TRUE(Map(t, &short_by_one).Validate({3, 4, 19}, false).ok()) << "one channel fewer fits";
    EXPECT_TRUE(!Map(t, &read_only).Validate({1, 1, 1}, true).ok())
        << "write to a read-only region";
    EXPECT_TRUE(Map(t, &short_by_one).Validate({0, 4, 20}, false).ok())
        << "an empty box always fits";
    npu::FeatureMap far = fits;
    far.base[0] = uint64_t(1) << 39;  // a 40-bit address
    EXPECT_TRUE(!far.Validate({1, 1, 1}, false).ok()) << "a base beyond the region";
  }
  // 16-bit elements: the element's second byte must fit too.
  std::vector<uint8_t> memory(2 * 8);
  npu::Region region{memory.data(), memory.size() - 1, true};
  npu::FeatureMap fm;
  fm.region = &region;
  fm.element_bytes = 2;
  fm.width0 = 8;
  fm.height0 = fm.height1 = 1;
  fm.stride_x = 2;
  EXPECT_TRUE(fm.Validate({1, 7, 1}, false).ok() && !fm.Validate({1, 8, 1}, false).ok())
      << "16-bit elements need both bytes inside";
}

namespace {

// Writes Value(y, x, c) at every logical coordinate of the map.
void StoreAll(const npu::FeatureMap& fm) {
  for (int y = 0; y < fm.height; ++y)
    for (int x = 0; x < fm.width; ++x)
      for (int k = 0; k < fm.depth; ++k) fm.Store(y, x, k, Value(y, x, k));
}

}  // namespace

// An OFM transpose stores logical (y, x, c) at stored coordinates
// permuted by activation_transpose; CHW (6) stores C as H, H as W, W as C.
TEST(FeatureMap, TransposeStoresPermuted) {
  const int h = 2, w = 3, c = 4;
  std::vector<uint8_t> memory(size_t(h) * w * c);
  const npu::Region region{memory.data(), memory.size(), true};
  const Tensor stored{c, h, w, false};  // stored shape C x H x W
  npu::FeatureMap fm = Map(stored, &region);
  fm.height = h;
  fm.width = w;
  fm.depth = c;
  fm.transpose = 6;
  EXPECT_TRUE(fm.Validate({h, w, c}, true).ok()) << "transposed box validates";
  StoreAll(fm);
  bool ok = true;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) ok &= memory[stored.Index(k, y, x)] == Value(y, x, k);
  EXPECT_TRUE(ok) << "CHW transpose places (y, x, c) at stored (c, y, x)";
  int sh = 0, sw = 0, sc = 0;
  fm.StoredShape(&sh, &sw, &sc);
  EXPECT_TRUE(sh == c && sw == h && sc == w) << "stored shape of a CHW transpose";
}

// An OFM reversed on one axis (U85's activation_reverse) stores logical
// (y, x, c) at the mirrored coordinate of a plain NHWC tensor of the same
// shape; U55 gets the same effect from a negative stride and a base at the
// far end. LogicalOf undoes either.
TEST(FeatureMap, ReverseMirrorsOneAxis) {
  const int h = 3, w = 4, c = 5;
  const Tensor t{h, w, c, false};
  for (int axis = npu::FeatureMap::kReverseH; axis <= npu::FeatureMap::kReverseC; ++axis) {
    std::vector<uint8_t> memory(t.Bytes());
    const npu::Region region{memory.data(), memory.size(), true};
    npu::FeatureMap fm = Map(t, &region);
    fm.reverse = axis;
    EXPECT_TRUE(fm.Validate({h, w, c}, true).ok()) << "reversed box validates";
    EXPECT_TRUE(fm.Validate({h, w, c + 1}, true).code() == ErrorCode::kNpuCommandStream)
        << "a box past a reversed map's shape is a stream error";
    StoreAll(fm);
    bool stored = true, logical = true;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        for (int k = 0; k < c; ++k) {
          const int my = axis == npu::FeatureMap::kReverseH ? h - 1 - y : y;
          const int mx = axis == npu::FeatureMap::kReverseW ? w - 1 - x : x;
          const int mk = axis == npu::FeatureMap::kReverseC ? c - 1 - k : k;
          stored &= memory[t.Index(my, mx, mk)] == Value(y, x, k);
          int at[3];
          fm.LogicalOf(my, mx, mk, at);
          logical &= at[0] == y && at[1] == x && at[2] == k;
        }
      }
    }
    EXPECT_TRUE(stored) << "reverse stores (y, x, c) at its mirror on the reversed axis";
    EXPECT_TRUE(logical) << "LogicalOf maps a stored coordinate back to the logical one";
  }
  // U55: rows walked backwards from the last one.
  std::vector<uint8_t> memory(t.Bytes());
  const npu::Region region{memory.data(), memory.size(), true};
  npu::FeatureMap fm = Map(t, &region);
  fm.base[0] = t.Index(h - 1, 0, 0);
  fm.stride_y = -fm.stride_y;
  EXPECT_TRUE(fm.Validate({h, w, c}, true).ok()) << "negative stride inside the region validates";
  StoreAll(fm);
  bool ok = true;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) ok &= memory[t.Index(h - 1 - y, x, k)] == Value(y, x, k);
  EXPECT_TRUE(ok) << "a negative row stride writes rows bottom up";
  fm.base[0] = t.Index(h - 2, 0, 0);
  EXPECT_TRUE(fm.Validate({h, w, c}, true).code() == ErrorCode::kNpuBusError)
      << "a negative stride walking below the region is a bus error";
}

// 64-bit elements (U85 resize OFMs): stored little-endian, the whole
// int64 range round-trips, and the type range is the int64 range.
TEST(FeatureMap, Elements64RoundTrip) {
  const Tensor t{1, 2, 3, false};
  std::vector<uint8_t> memory(t.Bytes() * 8, 0);
  npu::Region region{memory.data(), memory.size(), true};
  npu::FeatureMap fm = Map(t, &region);
  fm.element_bytes = 8;
  fm.stride_x = int64_t(t.c) * 8;
  fm.stride_y = int64_t(t.w) * t.c * 8;
  EXPECT_TRUE(fm.Validate({t.h, t.w, t.c}, true).ok()) << "a dense 64-bit map fits its bytes";
  const int64_t values[3] = {INT64_MIN, -(int64_t(1) << 40) - 5, INT64_MAX};
  for (int k = 0; k < 3; ++k) fm.Store(0, 1, k, values[k]);
  bool ok = true;
  for (int k = 0; k < 3; ++k) ok &= fm.Load(0, 1, k) == values[k];
  EXPECT_TRUE(ok) << "64-bit elements round-trip";
  EXPECT_TRUE(memory[(t.c + 1) * 8] == 0xFB && memory[(t.c + 1) * 8 + 5] == 0xFE &&
              memory[(t.c + 1) * 8 + 7] == 0xFF)
      << "64-bit elements are little-endian two's complement";
  EXPECT_TRUE(fm.MinValue() == INT64_MIN && fm.MaxValue() == INT64_MAX) << "64-bit type range";
}
