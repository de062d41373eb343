#include "sim/npu/kernels/pooling.h"

namespace ethosu_sdk::npu {
namespace {

// The pooled value of channel c at output (y, x), before bias and scale.
int64_t Pool(const Operation& op, int y, int x, int c) {
  const Window& w = op.window;
  const FeatureMap& ifm = op.ifm;
  const int mode = op.mode;
  int64_t sum = 0, best = 0;
  int count = 0;
  for (int ky = 0; ky < w.kernel_h; ++ky) {
    const int iy = y * w.stride_y - w.pad_top + ky;
    if (iy < 0 || iy >= w.ifm_h) continue;
    for (int kx = 0; kx < w.kernel_w; ++kx) {
      const int ix = x * w.stride_x - w.pad_left + kx;
      if (ix < 0 || ix >= w.ifm_w) continue;
      if (mode == kPoolReduceSum) {
        for (int i = 0; i < ifm.depth; ++i) sum += ifm.Load(iy, ix, i) - ifm.zero_point;
        ++count;
        continue;
      }
      const int64_t value = int64_t(ifm.Load(iy, ix, c)) - ifm.zero_point;
      if (count == 0 || (mode == kPoolMax && value > best) || (mode == kPoolMin && value < best)) {
        best = value;
      }
      sum += value;
      ++count;
    }
  }
  if (mode == kPoolMax || mode == kPoolMin) return best;
  if (mode != kPoolAverage) return sum;
  const Scale& scale = op.output.global;
  if (op.u55 && !(scale.scale == 1 && scale.shift == 0)) {
    // GUESS (undocumented): U55 AVERAGE with a non-unit OFM scale sums
    // the window; Vela then folds 1/N into OFM_SCALE (2x2: scale
    // 2^31+1, shift 33; transposes: 1x1, shift 31). With a unit scale
    // it divides by the valid count like U85. Pinned by u55_avgpool,
    // u55_avgpool_pad.
    return sum;
  }
  // GUESS (undocumented): the divisor counts only elements inside the
  // IFM, rounding half away from zero. Pinned by the avgpool test against
  // the TOSA reference model. The builder proved every window non-empty.
  return sum >= 0 ? (sum + count / 2) / count : -((-sum + count / 2) / count);
}

// A 1x1 window on an 8-bit IFM with one OFM scale Int32Scale takes: the
// layout copies Vela writes as pools (an NCHW input transposed to NHWC).
// Every mode but REDUCE_SUM pools the one value then, as Pool computes it.
bool SingleTapPool(const Operation& op) {
  constexpr int32_t kMaxZeroPoint = int32_t(1) << 30;  // value - zero point fits int32
  const Window& w = op.window;
  const FeatureMap& ifm = op.ifm;
  return w.kernel_w == 1 && w.kernel_h == 1 && op.mode != kPoolReduceSum &&
         ifm.element_bytes == 1 && !ifm.mapped() && ifm.zero_point >= -kMaxZeroPoint &&
         ifm.zero_point <= kMaxZeroPoint && op.output.per_channel == nullptr &&
         Int32Scale::Fits(op.output.global);
}

// The IFM row read once per output; a tap in the padding takes Pool's path.
void RunSingleTapPool(const Operation& op) {
  const Window& w = op.window;
  const FeatureMap &ifm = op.ifm, &ofm = op.ofm;
  const Int32Scale scale(op.output.global);
  for (int y = 0; y < ofm.height; ++y) {
    const int iy = y * w.stride_y - w.pad_top;
    for (int x = 0; x < ofm.width; ++x) {
      const int ix = x * w.stride_x - w.pad_left;
      if (iy < 0 || iy >= w.ifm_h || ix < 0 || ix >= w.ifm_w) {
        for (int c = 0; c < ofm.depth; ++c) {
          ofm.Store(y, x, c, op.output.Value(Pool(op, y, x, c), op.output.global));
        }
        continue;
      }
      const uint8_t* row = ifm.region->data + ifm.StoredAt(iy, ix, 0);
      for (int c = 0; c < ofm.depth; ++c) {
        const uint8_t v = row[ifm.ChannelOffset(c)];
        const int32_t acc = (ifm.is_signed ? int32_t(int8_t(v)) : int32_t(v)) - ifm.zero_point;
        ofm.Store(y, x, c, op.output.Finish(scale.Apply(acc)));
      }
    }
  }
}

}  // namespace

void RunPooling(const Operation& op) {
  if (SingleTapPool(op)) return RunSingleTapPool(op);
  const FeatureMap& ofm = op.ofm;
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      for (int c = 0; c < ofm.depth; ++c) {
        int64_t acc = Pool(op, y, x, c);
        if (op.output.per_channel != nullptr) acc += op.output.per_channel[c].bias;
        ofm.Store(y, x, c, op.output.Value(acc, op.output.ScaleOf(c)));
      }
    }
  }
}

// GUESS (undocumented): IFM2 minus its zero point is the accumulator
// value, wrapped to the accumulator width (32 or 48 bits; a 64-bit IFM2
// holds 48-bit accumulators), and IFM2_BROADCAST (which Vela writes only
// for elementwise operations) does not apply. Pinned by
// u85_transformer_block's layer-norm rescales and the rescale after
// u85_a16w8_upsample_bilinear_x2_align's resize.
void RunNullPool(const Operation& op) {
  const FeatureMap& ofm = op.ofm;
  const FeatureMap& ifm2 = op.ifm2;
  const int unused_bits = 64 - op.accumulator_bits;
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      for (int c = 0; c < ofm.depth; ++c) {
        int64_t acc = int64_t(uint64_t(ifm2.Load(y, x, c)) - uint64_t(int64_t(ifm2.zero_point)));
        if (op.output.per_channel != nullptr) {
          acc = int64_t(uint64_t(acc) + uint64_t(op.output.per_channel[c].bias));
        }
        acc = int64_t(uint64_t(acc) << unused_bits) >> unused_bits;  // wrap
        ofm.Store(y, x, c, op.output.Value(acc, op.output.ScaleOf(c)));
      }
    }
  }
}

}  // namespace ethosu_sdk::npu
