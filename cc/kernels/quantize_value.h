// One element of quantized_decomposed quantize, shared by the plain C loop
// (quantize.cc) and the tests that hold the Helium path to it.
#pragma once

#include <cmath>
#include <cstdint>

namespace ethosu_sdk::kernels {

// ExecuTorch's rounding: value * inv_scale in float, rounded half-to-even
// (nearbyint in the default rounding mode), plus the zero point, clamped.
template <typename Q>
Q QuantizeValue(float value, float inv_scale, int32_t zero_point, int64_t quant_min,
                int64_t quant_max) {
  const float q = static_cast<float>(zero_point) + std::nearbyint(inv_scale * value);
  // NaN becomes quant_min, as the float-to-int conversion on x86 and Arm
  // hardware would make it before the clamp.
  if (!(q == q) || q <= static_cast<float>(quant_min)) return static_cast<Q>(quant_min);
  if (q >= static_cast<float>(quant_max)) return static_cast<Q>(quant_max);
  return static_cast<Q>(static_cast<int64_t>(q));
}

}  // namespace ethosu_sdk::kernels
