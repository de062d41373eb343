// The vector paths against the scalar arithmetic they replace: the AVX2
// requantisation against ScaleAndRound per channel (every rounding mode,
// U85 wrap and U55 exact bias, shifts 0..61, extreme sums), and the int16
// dot products against a plain sum reduced mod 2^32.
#include <cstdio>
#include <cstring>
#include <vector>

#include "cc/testing/unit_test.h"
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
