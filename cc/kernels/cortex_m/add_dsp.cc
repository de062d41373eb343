// quantized_add on the Cortex-M33 (DSP extension, no MVE): AddElement's
// three requantizations in 32-bit steps (dsp::RequantizeFast: SMMULR and an
// int32 rounding shift instead of the 64-bit products), falling back to the
// 64-bit form element by element where a left shift would overflow.
// Bit-exact with AddElement (add_helium.h).
#include "cc/kernels/cortex_m/add_helium.h"
#include "cc/kernels/cortex_m/dsp.h"

namespace ethosu_sdk::kernels::cortex_m {

#ifdef ESDK_CORTEX_M_DSP

bool AddDsp(const int8_t* a, const int8_t* b, int8_t* out, size_t count, const AddParams& p) {
  for (size_t i = 0; i < count; ++i) {
    // |value - zp| < 256, so the shifted operand fits in 29 bits.
    const int32_t x = dsp::RequantizeFast((a[i] - p.a_zero_point) * (1 << kAddLeftShift),
                                          p.a_multiplier, p.a_shift);
    const int32_t y = dsp::RequantizeFast((b[i] - p.b_zero_point) * (1 << kAddLeftShift),
                                          p.b_multiplier, p.b_shift);
    const int32_t sum = dsp::RequantizeFast(WrappingAdd(x, y), p.out_multiplier, p.out_shift);
    out[i] = static_cast<int8_t>(
        Clamp(WrappingAdd(sum, p.out_zero_point), p.activation_min, p.activation_max));
  }
  return true;
}

#else

bool AddDsp(const int8_t* /*a*/, const int8_t* /*b*/, int8_t* /*out*/, size_t /*count*/,
            const AddParams& /*p*/) {
  return false;
}

#endif

}  // namespace ethosu_sdk::kernels::cortex_m
