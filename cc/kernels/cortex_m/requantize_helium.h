// The reference's requantization (arith.h, Requantize) on four int32 lanes
// with Helium (MVE), bit-exact where the fast form is exact, and a check
// that says where it is not.
//
// Requantize(acc, m, s) is ((acc << max(s, 0)) * m + 2^30) >> 31 in int64,
// then a rounding divide by 2^max(-s, 0) with ties away from zero. Per lane:
//   - VQRDMULH gives sat((2 * a * m + 2^31) >> 32) = (a * m + 2^30) >> 31,
//     exact unless a = m = INT32_MIN (the glue's check: no INT32_MIN
//     multiplier on this path);
//   - the left shift is exact when acc << s fits int32, i.e. shifting back
//     gives acc again (LeftShiftExact checks it per vector; saturation
//     cannot tell, as -1270 << 30 wraps to the saturated INT32_MIN);
//   - VRSHL by -r rounds half up; adding -1 to negative lanes first (where
//     r > 0) turns that into ties away from zero.
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_REQUANTIZE_HELIUM_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_REQUANTIZE_HELIUM_H_

#include <cstdint>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

#include "cc/kernels/cortex_m/arith.h"

namespace ethosu_sdk::kernels::cortex_m {

// True when no multiplier is INT32_MIN: the one input VQRDMULH saturates.
inline bool VectorRequantizable(const int32_t* multipliers, int32_t count) {
  for (int32_t i = 0; i < count; ++i) {
    if (multipliers[i] == INT32_MIN) return false;
  }
  return true;
}

// Four lanes' requantization parameters and output stage, loaded once per
// block of channels (or once per call for a per-tensor requantization).
// Four Q registers and three scalars: the kernels' loops keep them in
// registers beside their accumulators (MVE has eight Q registers).
struct RequantLanes {
  int32x4_t multiplier;
  int32x4_t left;       // max(shift, 0)
  int32x4_t right_neg;  // min(shift, 0): VRSHL's right shift
  int32x4_t round_fix;  // -1 where shift < 0 (masks the sign fix-up)
  int32_t output_offset, lo, hi;
  bool left_shifts;  // some lane shifts left (else the left shift and its check are skipped)
};

inline RequantLanes LoadRequantLanes(int32x4_t multiplier, int32x4_t shift, int32_t output_offset,
                                     int32_t lo, int32_t hi) {
  const int32x4_t zero = vdupq_n_s32(0);
  RequantLanes r;
  r.multiplier = multiplier;
  r.left = vmaxq_s32(shift, zero);
  r.right_neg = vminq_s32(shift, zero);
  r.round_fix =
      vreinterpretq_s32_u32(vdupq_m_n_u32(vdupq_n_u32(0), UINT32_MAX, vcmpltq_n_s32(shift, 0)));
  r.output_offset = output_offset;
  r.lo = lo;
  r.hi = hi;
  r.left_shifts = vmaxvq_s32(0, shift) > 0;
  return r;
}

// True when every lane's left shift is exact (see the file comment).
__attribute__((always_inline)) inline bool LeftShiftExact(int32x4_t acc, const RequantLanes& r) {
  if (!r.left_shifts) return true;
  const int32x4_t back = vshlq_s32(vshlq_s32(acc, r.left), vnegq_s32(r.left));
  return vcmpneq_s32(back, acc) == 0;
}

// clamp(requantize(acc) + output_offset): the int8 outputs in int32 lanes.
__attribute__((always_inline)) inline int32x4_t RequantizeLanes(int32x4_t acc,
                                                                const RequantLanes& r) {
  if (r.left_shifts) acc = vshlq_s32(acc, r.left);
  int32x4_t x = vqrdmulhq_s32(acc, r.multiplier);
  x = vqaddq_s32(x, vandq_s32(vshrq_n_s32(x, 31), r.round_fix));
  x = vrshlq_s32(x, r.right_neg);
  x = vaddq_n_s32(x, r.output_offset);
  return vminq_s32(vmaxq_s32(x, vdupq_n_s32(r.lo)), vdupq_n_s32(r.hi));
}

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // __ARM_FEATURE_MVE
#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_REQUANTIZE_HELIUM_H_
