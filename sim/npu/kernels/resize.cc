#include "sim/npu/kernels/resize.h"

namespace ethosu_sdk::npu {
namespace {

// Where OFM index o falls on one axis: the two IFM neighbours (clamped to
// the IFM) and the distance from the first, in units of 1/scale_n.
struct Sample {
  int first, second;
  int64_t fraction;
};

int ClampIndex(int64_t i, int extent) { return int(i < 0 ? 0 : i >= extent ? extent - 1 : i); }

Sample SampleAt(const ResizeAxis& a, int o) {
  const int64_t position = int64_t(o) * a.step + a.offset;
  // Floor division: positions left of the IFM are negative.
  int64_t index = position / a.scale_n;
  if (position % a.scale_n != 0 && position < 0) --index;
  return {ClampIndex(index, a.extent), ClampIndex(index + 1, a.extent),
          position - index * a.scale_n};
}

// NEAREST: the second neighbour once the position is at least half way
// (TOSA: 2 * fraction >= scale_n).
int Nearest(const ResizeAxis& a, const Sample& s) {
  return 2 * s.fraction >= a.scale_n ? s.second : s.first;
}

}  // namespace

// TOSA RESIZE: NEAREST copies the nearest IFM element; BILINEAR sums the
// four neighbours weighted (n - f) and f per axis, i.e. scaled by
// n_y * n_x (Vela folds the division into the OFM shift). GUESS
// (undocumented): the resize unit's accumulator is that integer result
// times 2^16 (Vela programs OFM_SCALE as scale 1, shift 16 + the RESCALE's
// shift, for NEAREST too), kept exact (no 32- or 48-bit wrap: at most
// 2^16 * 2^22 * 2^16 here), with the IFM zero point subtracted first and
// the OFM zero point added by the output stage like every operation.
// Pinned by u85_upsample_* against the TOSA reference model.
void RunResize(const Operation& op) {
  const FeatureMap& ifm = op.ifm;
  const FeatureMap& ofm = op.ofm;
  const Scale& scale = op.output.global;
  const bool bilinear = op.mode == kResizeBilinear;
  const ResizeAxis& ay = op.resize_y;
  const ResizeAxis& ax = op.resize_x;
  for (int y = 0; y < ofm.height; ++y) {
    const Sample sy = SampleAt(ay, y);
    for (int x = 0; x < ofm.width; ++x) {
      const Sample sx = SampleAt(ax, x);
      for (int c = 0; c < ofm.depth; ++c) {
        auto value = [&](int iy, int ix) { return int64_t(ifm.Load(iy, ix, c)) - ifm.zero_point; };
        int64_t acc = 0;
        if (bilinear) {
          const int64_t wy0 = ay.scale_n - sy.fraction, wx0 = ax.scale_n - sx.fraction;
          acc = value(sy.first, sx.first) * wy0 * wx0 +
                value(sy.first, sx.second) * wy0 * sx.fraction +
                value(sy.second, sx.first) * sy.fraction * wx0 +
                value(sy.second, sx.second) * sy.fraction * sx.fraction;
        } else {
          acc = value(Nearest(ay, sy), Nearest(ax, sx));
        }
        ofm.Store(y, x, c, op.output.Value(acc * (int64_t(1) << kResizeFractionBits), scale));
      }
    }
  }
}

}  // namespace ethosu_sdk::npu
