// quantized_add with Helium (MVE): four int8 elements widened to int32
// lanes, the three requantizations of AddElement on the lanes
// (requantize_helium.h), a narrowing store. Bit-exact with AddElement: a
// step whose left shifts would overflow int32 is done lane by lane in C.
#include "cc/kernels/cortex_m/add_helium.h"

#include "cc/kernels/cortex_m/requantize_helium.h"

namespace ethosu_sdk::kernels::cortex_m {

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

bool AddHelium(const int8_t* a, const int8_t* b, int8_t* out, size_t count, const AddParams& p) {
  if (p.a_multiplier == INT32_MIN || p.b_multiplier == INT32_MIN || p.out_multiplier == INT32_MIN)
    return false;
  // The operands' rescaling keeps the full int32 range: no offset, no clamp.
  const RequantLanes ra = LoadRequantLanes(vdupq_n_s32(p.a_multiplier), vdupq_n_s32(p.a_shift), 0,
                                           INT32_MIN, INT32_MAX);
  const RequantLanes rb = LoadRequantLanes(vdupq_n_s32(p.b_multiplier), vdupq_n_s32(p.b_shift), 0,
                                           INT32_MIN, INT32_MAX);
  const RequantLanes ro = LoadRequantLanes(vdupq_n_s32(p.out_multiplier), vdupq_n_s32(p.out_shift),
                                           p.out_zero_point, p.activation_min, p.activation_max);
  const int32x4_t a_zp = vdupq_n_s32(p.a_zero_point), b_zp = vdupq_n_s32(p.b_zero_point);
  for (size_t i = 0; i < count; i += 4) {
    const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count - i));
    const int32x4_t x = vshlq_n_s32(vsubq_s32(vldrbq_z_s32(a + i, lanes), a_zp), kAddLeftShift);
    const int32x4_t y = vshlq_n_s32(vsubq_s32(vldrbq_z_s32(b + i, lanes), b_zp), kAddLeftShift);
    if (LeftShiftExact(x, ra) && LeftShiftExact(y, rb)) {
      const int32x4_t sum = vaddq_s32(RequantizeLanes(x, ra), RequantizeLanes(y, rb));
      if (LeftShiftExact(sum, ro)) {
        vstrbq_p_s32(out + i, RequantizeLanes(sum, ro), lanes);
        continue;
      }
    }
    for (size_t j = i; j < count && j < i + 4; ++j) out[j] = AddElement(a[j], b[j], p);
  }
  return true;
}

#else

bool AddHelium(const int8_t* /*a*/, const int8_t* /*b*/, int8_t* /*out*/, size_t /*count*/,
               const AddParams& /*p*/) {
  return false;
}

#endif

}  // namespace ethosu_sdk::kernels::cortex_m
