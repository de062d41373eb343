// The output stage of every operation: an accumulator is scaled and
// rounded, gets the OFM zero point, goes through the activation (clip,
// LUT), is clamped to the OFM type and stored.
#pragma once

#include <cstdint>

#include "sim/npu/memory/feature_map.h"
#include "sim/npu/output/activation.h"
#include "sim/npu/output/output_stage.h"

namespace ethosu_sdk::npu {

struct OutputStage {
  Scale global;                              // OFM_SCALE (also per-channel rounding)
  const ScaleRecord* per_channel = nullptr;  // scale stream records, or null
  ActivationStage activation;

  // Called once the OFM and activation are known: folds the clip and the
  // OFM type's range into one clamp when there is no LUT.
  void Prepare(const FeatureMap& ofm) {
    zero_point_ = ofm.zero_point;
    type_min_ = ofm.MinValue();
    type_max_ = ofm.MaxValue();
    const ActivationStage& a = activation;
    single_clamp_ = a.lut == nullptr && (!a.clip || a.clip_min <= a.clip_max);
    lo_ = a.clip ? Clamp(a.clip_min, type_min_, type_max_) : type_min_;
    hi_ = a.clip ? Clamp(a.clip_max, type_min_, type_max_) : type_max_;
  }
  // The value stored for accumulator `acc` with scale `scale`.
  int64_t Value(int64_t acc, const Scale& scale) const {
    return Finish(ScaleAndRound(acc, scale.scale, scale.shift, scale.round));
  }
  // The value stored for an already scaled accumulator.
  int64_t Finish(int64_t scaled) const {
    const int64_t v = scaled + zero_point_;
    if (single_clamp_) return Clamp(v, lo_, hi_);
    return Clamp(activation.Apply(v), type_min_, type_max_);
  }
  // After Prepare: the single clamp [lo, hi] that stands for clip and
  // type range when there is no LUT.
  bool single_clamp() const { return single_clamp_; }
  int64_t lo() const { return lo_; }
  int64_t hi() const { return hi_; }
  int32_t zero_point() const { return zero_point_; }
  // Channel c's scale with the operation's rounding, bias included.
  ChannelScale ChannelScaleOf(int c) const {
    const ScaleRecord& r = per_channel[c];
    return ChannelScale(r.scale, r.shift, global.round, r.bias);
  }
  // Channel c's scale: its record's (bias added to acc by the caller) or the global one.
  Scale ScaleOf(int c) const {
    if (per_channel == nullptr) return global;
    Scale s = global;
    s.scale = per_channel[c].scale;
    s.shift = per_channel[c].shift;
    return s;
  }

 private:
  int32_t zero_point_ = 0;
  int64_t type_min_ = 0, type_max_ = 0, lo_ = 0, hi_ = 0;
  bool single_clamp_ = false;
};

}  // namespace ethosu_sdk::npu
