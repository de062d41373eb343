// quantized_add on the Cortex-M33 (DSP extension, no MVE): each operand's
// rescaling tabulated per call over its 256 byte values, the sum's
// requantization in 32-bit steps (dsp::Requant: SMMULR and an int32
// rounding shift instead of the 64-bit products), falling back to the
// 64-bit form where a left shift would overflow.
// Bit-exact with AddElement (add_helium.h).
#include "cc/kernels/cortex_m/add_helium.h"
#include "cc/kernels/cortex_m/dsp.h"

namespace ethosu_sdk::kernels::cortex_m {

#ifdef ESDK_CORTEX_M_DSP

bool AddDsp(const int8_t* a, const int8_t* b, int8_t* out, size_t count, const AddParams& p) {
  // Each operand's rescaling depends only on its byte: tabulated once per
  // call, so an element costs two table loads and one requantization.
  int32_t table_a[kAddTable], table_b[kAddTable];
  for (int32_t u = 0; u < kAddTable; ++u) {
    const int32_t v = static_cast<int8_t>(static_cast<uint8_t>(u));
    // |value - zp| < 256, so the shifted operand fits in 29 bits.
    table_a[u] =
        dsp::RequantizeFast((v - p.a_zero_point) * (1 << kAddLeftShift), p.a_multiplier, p.a_shift);
    table_b[u] =
        dsp::RequantizeFast((v - p.b_zero_point) * (1 << kAddLeftShift), p.b_multiplier, p.b_shift);
  }
  const dsp::Requant requant(p.out_multiplier, p.out_shift);
  const int32_t zero_point = p.out_zero_point, lo = p.activation_min, hi = p.activation_max;
  const uint8_t* ua = reinterpret_cast<const uint8_t*>(a);
  const uint8_t* ub = reinterpret_cast<const uint8_t*>(b);
  for (size_t i = 0; i < count; ++i) {
    const int32_t sum = requant(WrappingAdd(table_a[ua[i]], table_b[ub[i]]));
    out[i] = static_cast<int8_t>(Clamp(WrappingAdd(sum, zero_point), lo, hi));
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
