// What the Helium and DSP tests share: whether this build has Helium or the
// DSP extension, dense NHWC views and convolution output sizes, and
// deterministic draws (xorshift32: the same cases on the host and on QEMU,
// no heap, no <random>).
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_TEST_DRAW_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_TEST_DRAW_H_

#include <cstdint>

#include "cc/kernels/cortex_m/dsp.h"
#include "cc/kernels/cortex_m/layout.h"

namespace ethosu_sdk::kernels::cortex_m {

// The Helium variants run (and must take their calls) only where the
// toolchain reports MVE; elsewhere they must decline every call.
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
inline constexpr bool kHelium = true;
#else
inline constexpr bool kHelium = false;
#endif

// The DSP variants likewise: DSP extension and no MVE (dsp.h), the Cortex-M33.
#ifdef ESDK_CORTEX_M_DSP
inline constexpr bool kDsp = true;
#else
inline constexpr bool kDsp = false;
#endif

class Draw {
 public:
  explicit Draw(uint32_t seed) : state_(seed) {}
  uint32_t Next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }
  // Uniform in [lo, hi].
  int32_t In(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(Next() % static_cast<uint32_t>(hi - lo + 1));
  }
  // A requantization multiplier as the passes give (a scale's mantissa in
  // Q31, [2^30, 2^31)); a fifth of them negated, which the arithmetic takes too.
  int32_t Multiplier() {
    const int32_t m = static_cast<int32_t>(0x40000000u + (Next() & 0x3FFFFFFFu));
    return In(0, 4) == 0 ? -m : m;
  }
  // Mostly right shifts, as real scales give; some small left shifts; a few
  // so large that acc << shift overflows int32 (the lane-by-lane fallback).
  int32_t Shift() {
    const int32_t kind = In(0, 9);
    return kind < 7 ? In(-31, 0) : (kind < 9 ? In(1, 4) : In(10, 30));
  }

 private:
  uint32_t state_;
};

// A dense NHWC view: channels, then width, height and batch.
inline View4 Nhwc(int32_t n, int32_t c, int32_t h, int32_t w) {
  View4 v;
  v.n = n, v.c = c, v.h = h, v.w = w;
  v.sc = 1, v.sw = c, v.sh = int64_t{w} * c, v.sn = int64_t{h} * w * c;
  return v;
}

// A convolution's output size along one axis.
inline int32_t OutSize(int32_t in, int32_t k, int32_t s, int32_t p, int32_t d) {
  return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_TEST_DRAW_H_
