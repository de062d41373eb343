// Integer arithmetic shared by the cortex_m:: int8 kernels, as ExecuTorch's
// Python reference of those operators defines it
// (executorch/backends/cortex_m/passes/passes_utils.py, requantize_cmsis:
// CMSIS-NN's requantization emulated in int64).
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_ARITH_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_ARITH_H_

#include <cstdint>

namespace ethosu_sdk::kernels::cortex_m {

// The left shift quantized_add applies to each operand before rescaling it
// (passes_utils.SHIFT_INT8).
inline constexpr int kAddLeftShift = 20;

// Shifts a requantization may carry; the glue refuses others, so the shifts
// below are always defined.
inline constexpr int64_t kMinShift = -31;
inline constexpr int64_t kMaxShift = 30;

// acc * multiplier * 2^(shift - 31), rounded as the reference rounds: the
// positive part of the shift is applied first, the doubling high multiply
// rounds half up, the negative part rounds to nearest with ties away from
// zero. The 64-bit products wrap, as torch's int64 tensors do; the result is
// cut to 32 bits as `.to(torch.int32)` cuts it.
inline int32_t Requantize(int32_t acc, int32_t multiplier, int32_t shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift < 0 ? -shift : 0;
  const uint64_t value = static_cast<uint64_t>(static_cast<int64_t>(acc)) << left;
  const uint64_t product =
      value * static_cast<uint64_t>(static_cast<int64_t>(multiplier)) + (uint64_t{1} << 30);
  int64_t result = static_cast<int64_t>(product) >> 31;  // arithmetic: the reference's >>
  if (right > 0) {
    const int64_t mask = (int64_t{1} << right) - 1;
    const int64_t remainder = result & mask;
    result >>= right;
    const int64_t threshold = (mask >> 1) + (result < 0 ? 1 : 0);
    if (remainder > threshold) ++result;
  }
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(result)));
}

inline int32_t Clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Two's-complement sum, as int32 tensors add (wrapping, never undefined).
inline int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_ARITH_H_
