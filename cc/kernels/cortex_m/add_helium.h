// quantized_add's arithmetic, one element at a time (the reference's, in
// plain C) and on four elements at once with Helium (add_helium.cc).
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_ADD_HELIUM_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_ADD_HELIUM_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"

namespace ethosu_sdk::kernels::cortex_m {

// The checked arguments of one quantized_add.
struct AddParams {
  int32_t a_zero_point = 0, a_multiplier = 0, a_shift = 0;
  int32_t b_zero_point = 0, b_multiplier = 0, b_shift = 0;
  int32_t out_zero_point = 0, out_multiplier = 0, out_shift = 0;
  int32_t activation_min = -128, activation_max = 127;
};

// Each operand is shifted left by kAddLeftShift and rescaled, the sum is
// rescaled to the output, + zero point, clamped (ops/operators.py).
inline int8_t AddElement(int8_t a, int8_t b, const AddParams& p) {
  // |value - zp| < 256, so the shifted operand fits in 29 bits.
  const int32_t x =
      Requantize((a - p.a_zero_point) * (1 << kAddLeftShift), p.a_multiplier, p.a_shift);
  const int32_t y =
      Requantize((b - p.b_zero_point) * (1 << kAddLeftShift), p.b_multiplier, p.b_shift);
  const int32_t sum = Requantize(WrappingAdd(x, y), p.out_multiplier, p.out_shift);
  return static_cast<int8_t>(
      Clamp(WrappingAdd(sum, p.out_zero_point), p.activation_min, p.activation_max));
}

// An operand's rescaled value for each of its 256 int8 values, indexed by
// the value's byte (uint8_t): AddElement's first two requantizations become
// one table load per element. 1 KiB; the add kernels keep two on the stack.
inline constexpr int32_t kAddTable = 256;

// out[i] = AddElement(a[i], b[i]) for i < count, four elements per step on
// Cortex-M55/M85. Both variants (and the plain C loop) step through i in
// increasing order, reading a step's elements of a and b before writing
// them to out and nothing past them, so out may be a or b (in place: the
// memory planner's, python/ethosu_sdk/aot/memory_plan.py). Returns false, touching nothing, without
// MVE or when a multiplier is INT32_MIN (the caller then loops over AddElement).
bool AddHelium(const int8_t* a, const int8_t* b, int8_t* out, size_t count, const AddParams& p);
// The same on CPUs with the DSP extension and no MVE (Cortex-M33;
// add_dsp.cc): the three requantizations in 32-bit steps (SMMULR) where
// exact, AddElement otherwise. Returns false, touching nothing, elsewhere.
bool AddDsp(const int8_t* a, const int8_t* b, int8_t* out, size_t count, const AddParams& p);

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_ADD_HELIUM_H_
