// The vector paths against the scalar arithmetic they replace: the AVX2
// requantisation against ScaleAndRound per channel (every rounding mode,
// U85 wrap and U55 exact bias, shifts 0..61, extreme sums), one group and
// a row at a time, and the int16 dot products and the depthwise sums
// against a plain sum reduced mod 2^32.
#include <cstdio>
#include <cstring>
#include <vector>

#include "cc/testing/unit_test.h"
#include "sim/npu/kernels/depthwise_sums.h"
#include "sim/npu/kernels/dot_product.h"
#include "sim/npu/output/requantize.h"

namespace npu = ethosu_sdk::npu;

namespace {

uint32_t rng = 2024;
uint32_t Next() {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

int64_t Expected(uint32_t sum, const npu::ChannelScale& s, npu::RoundMode mode, bool u55,
                 int32_t zp, int32_t lo, int32_t hi) {
  const int64_t acc =
      u55 ? int64_t(int32_t(sum)) + s.bias : int64_t(int32_t(sum + uint32_t(s.bias)));
  const int64_t v = npu::ScaleAndRound(acc, s.scale, s.shift, mode) + zp;
  return v < lo ? lo : v > hi ? hi : v;
}

}  // namespace

TEST(VectorPaths, RequantizeEqualsScaleAndRound) {
  constexpr int kChannels = 24;
  int vector_runs = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const auto mode = npu::RoundMode(trial % 6);
    const bool u55 = (trial / 6) % 2 == 1;
    npu::ChannelScale scales[kChannels];
    uint32_t sums[kChannels];
    for (int c = 0; c < kChannels; ++c) {
      const int shift = int(Next() % 62);
      const int64_t scale = Next() & 0x7FFFFFFF;
      const int64_t bias = int32_t(Next()) >> (Next() % 32);
      scales[c] = npu::ChannelScale(scale, shift, mode, bias);
      // Extremes as well as typical sums.
      const uint32_t extremes[] = {0x80000000u, 0x7FFFFFFFu, 0u, 0xFFFFFFFFu};
      sums[c] = trial % 7 == 0 ? extremes[Next() % 4] : Next() >> (Next() % 32);
    }
    const int32_t zp = int32_t(Next() % 256) - 128;
    const bool unsigned_out = trial % 3 == 0;
    const int32_t lo = unsigned_out ? 0 : -128, hi = unsigned_out ? 255 : 127;
    std::vector<uint8_t> table_memory(npu::RequantTableBytes(kChannels));
    npu::RequantTable table;
    if (!npu::RequantTableFor(scales, kChannels, u55, table_memory.data(), &table)) continue;
    for (int first = 0; first + 8 <= kChannels; first += 8) {
      uint8_t out[8];
      if (!npu::Requantize8(table, sums, first, zp, lo, hi, out)) {
        EXPECT_TRUE(u55) << "only a U55 sum plus bias may leave the vector path";
        continue;
      }
      ++vector_runs;
      for (int k = 0; k < 8; ++k) {
        const int c = first + k;
        if (out[k] != uint8_t(Expected(sums[c], scales[c], mode, u55, zp, lo, hi))) {
          ADD_FAILURE() << "vector requantisation differs from ScaleAndRound: channel " << c
                        << " sum " << sums[c] << " scale " << scales[c].scale << " shift "
                        << scales[c].shift << " bias " << scales[c].bias << " mode " << int(mode)
                        << " u55 " << u55;
          return;
        }
      }
    }
    // The whole row in one call: the same bytes up to the first group
    // Requantize8 refused, and nothing from that group on.
    uint8_t row[kChannels];
    const int done = npu::RequantizeGroups(table, sums, 0, kChannels / 8, zp, lo, hi, row);
    int vector_channels = 0;
    for (; vector_channels < kChannels; vector_channels += 8) {
      uint8_t group[8];
      if (!npu::Requantize8(table, sums, vector_channels, zp, lo, hi, group)) break;
      if (memcmp(group, row + vector_channels, sizeof(group)) != 0) {
        ADD_FAILURE() << "RequantizeGroups differs from Requantize8 at channel " << vector_channels;
        return;
      }
    }
    EXPECT_EQ(done, vector_channels) << "RequantizeGroups stops at the first scalar group";
  }
  // On a CPU without AVX2 there is no vector path to compare.
  std::printf("%d vector groups compared\n", vector_runs);
}

TEST(VectorPaths, DotRowsEqualsPlainSum) {
  constexpr size_t kMaxN = 96;
  for (int trial = 0; trial < 500; ++trial) {
    const size_t n = npu::kDotBlock * (1 + Next() % (kMaxN / npu::kDotBlock));
    const int rows = 1 + int(Next() % 11);  // blocks of four and a remainder
    std::vector<int16_t> a(n), w(n * size_t(rows));
    for (int16_t& v : a)
      v = int16_t(int32_t(Next() % 1021) - 510);  // 8-bit values minus a zero point
    for (int16_t& v : w) v = int16_t(Next());     // any int16 weight
    std::vector<uint32_t> got(static_cast<size_t>(rows));
    npu::DotRows(a.data(), w.data(), n, n, rows, got.data());
    for (int r = 0; r < rows; ++r) {
      int64_t want = 0;
      for (size_t j = 0; j < n; ++j) want += int64_t(a[j]) * w[size_t(r) * n + j];
      if (got[size_t(r)] != uint32_t(uint64_t(want))) {
        ADD_FAILURE() << "DotRows equals the plain sum mod 2^32";
        return;
      }
    }
  }
}

// Depthwise sums read in place (dense and NHCWB16, int8 and uint8, any
// zero point a narrow IFM has) against a plain sum reduced mod 2^32.
TEST(VectorPaths, DepthwiseSumsEqualsPlainSum) {
  constexpr int kMaxChannels = 70, kMaxTaps = 9, kBrick = 16;
  for (int trial = 0; trial < 500; ++trial) {
    const int channels = 1 + int(Next() % kMaxChannels);
    const int taps = 1 + int(Next() % kMaxTaps);
    npu::Int8Channels layout;
    layout.is_signed = trial % 2 == 0;
    layout.zero_point = int32_t(Next() % 513) - 256;
    layout.brick = trial % 3 == 0;
    const int bricks = (channels + kBrick - 1) / kBrick;
    layout.brick_stride = kBrick * (1 + int(Next() % 3));  // bricks apart, as in NHCWB16
    const size_t pixel_bytes =
        layout.brick ? size_t(layout.brick_stride) * size_t(bricks) : size_t(channels);
    std::vector<uint8_t> pixels(pixel_bytes * size_t(taps));
    for (uint8_t& v : pixels) v = uint8_t(Next());
    std::vector<int16_t> weights(size_t(channels) * size_t(taps));
    for (int16_t& w : weights) w = int16_t(Next());
    std::vector<npu::DepthwiseTap> tap_list;
    for (int t = 0; t < taps; ++t) {
      tap_list.push_back(
          {pixels.data() + size_t(t) * pixel_bytes, weights.data() + size_t(t) * size_t(channels)});
    }
    std::vector<uint32_t> got(static_cast<size_t>(channels));
    npu::DepthwiseSums(tap_list.data(), taps, channels, layout, got.data());
    for (int c = 0; c < channels; ++c) {
      const size_t at = layout.brick
                            ? size_t(c / kBrick) * size_t(layout.brick_stride) + size_t(c % kBrick)
                            : size_t(c);
      int64_t want = 0;
      for (int t = 0; t < taps; ++t) {
        const uint8_t raw = tap_list[size_t(t)].pixel[at];
        const int64_t v =
            (layout.is_signed ? int64_t(int8_t(raw)) : int64_t(raw)) - layout.zero_point;
        want += v * tap_list[size_t(t)].weights[c];
      }
      if (got[size_t(c)] != uint32_t(uint64_t(want))) {
        ADD_FAILURE() << "DepthwiseSums equals the plain sum mod 2^32: channel " << c << " of "
                      << channels << ", brick " << layout.brick;
        return;
      }
    }
  }
}
