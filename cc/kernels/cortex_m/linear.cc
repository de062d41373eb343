// quantized_linear's arithmetic: plain C for every CPU and the host, and a
// Helium variant for Cortex-M55/M85 (four output channels per pass, each
// input chunk of 16 int8 loaded once and dotted with four weight rows by
// VMLADAVA; the four sums requantized together).
#include <cstddef>
#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/dot_helium.h"
#include "cc/kernels/cortex_m/linear.h"
#include "cc/kernels/cortex_m/requantize_helium.h"

namespace ethosu_sdk::kernels::cortex_m {
namespace {

int8_t FinishLinear(const LinearParams& p, int32_t acc) {
  const int32_t scaled = Requantize(acc, p.multiplier, p.shift);
  return static_cast<int8_t>(
      Clamp(WrappingAdd(scaled, p.output_offset), p.activation_min, p.activation_max));
}

}  // namespace

void LinearReference(const LinearParams& p) {
  const int32_t k = p.k, n = p.n;
  for (int32_t r = 0; r < p.rows; ++r) {
    const int8_t* row = p.input + static_cast<size_t>(r) * k;
    uint32_t row_sum = 0;
    if (p.kernel_sum != nullptr) {
      for (int32_t i = 0; i < k; ++i) row_sum += static_cast<uint32_t>(row[i]);
    }
    for (int32_t c = 0; c < n; ++c) {
      const int8_t* col = p.weights + static_cast<size_t>(c) * k;
      uint32_t acc = 0;  // wraps as the reference's int32 tensors do
      if (p.kernel_sum != nullptr) {
        for (int32_t i = 0; i < k; ++i) acc += static_cast<uint32_t>(row[i] * col[i]);
        acc += row_sum * static_cast<uint32_t>(p.filter_offset) +
               static_cast<uint32_t>(p.kernel_sum[c]);
      } else {
        for (int32_t i = 0; i < k; ++i)
          acc += static_cast<uint32_t>((row[i] + p.input_offset) * (col[i] + p.filter_offset));
        if (p.bias != nullptr) acc += static_cast<uint32_t>(p.bias[c]);
      }
      p.output[static_cast<size_t>(r) * n + c] = FinishLinear(p, static_cast<int32_t>(acc));
    }
  }
}

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

bool LinearHelium(const LinearParams& p) {
  if (p.kernel_sum == nullptr || p.multiplier == INT32_MIN) return false;
  constexpr int32_t kLanes = 4;
  const int32_t k = p.k, n = p.n;
  const RequantLanes rq = LoadRequantLanes(vdupq_n_s32(p.multiplier), vdupq_n_s32(p.shift),
                                           p.output_offset, p.activation_min, p.activation_max);
  for (int32_t r = 0; r < p.rows; ++r) {
    const int8_t* row = p.input + static_cast<size_t>(r) * k;
    int32_t row_sum = 0;
    for (int32_t i = 0; i < k; i += kBytes)
      row_sum = vaddvaq_s8(row_sum, vldrbq_z_s8(row + i, vctp8q(static_cast<uint32_t>(k - i))));
    // filter_offset * sum(in), wrapping as int32 tensors do.
    const int32_t row_term = static_cast<int32_t>(static_cast<uint32_t>(row_sum) *
                                                  static_cast<uint32_t>(p.filter_offset));
    int8_t* out = p.output + static_cast<size_t>(r) * n;
    for (int32_t c0 = 0; c0 < n; c0 += kLanes) {
      const int32_t count = n - c0 < kLanes ? n - c0 : kLanes;
      const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
      // Rows past the last output repeat the first; their lanes are not stored.
      const int8_t* w0 = p.weights + static_cast<size_t>(c0) * k;
      const int8_t* w1 = count > 1 ? w0 + k : w0;
      const int8_t* w2 = count > 2 ? w0 + 2 * k : w0;
      const int8_t* w3 = count > 3 ? w0 + 3 * k : w0;
      Dot4 dot;
      dot.Run(row, w0, w1, w2, w3, k);
      int32x4_t acc = vdupq_n_s32(dot.a0);
      acc = vsetq_lane_s32(dot.a1, acc, 1);
      acc = vsetq_lane_s32(dot.a2, acc, 2);
      acc = vsetq_lane_s32(dot.a3, acc, 3);
      acc = vaddq_s32(vaddq_n_s32(acc, row_term), vldrwq_z_s32(p.kernel_sum + c0, lanes));
      if (LeftShiftExact(acc, rq)) {
        vstrbq_p_s32(out + c0, RequantizeLanes(acc, rq), lanes);
      } else {
        int32_t sums[kLanes];
        vst1q_s32(sums, acc);
        for (int32_t j = 0; j < count; ++j) out[c0 + j] = FinishLinear(p, sums[j]);
      }
    }
  }
  return true;
}

#else

bool LinearHelium(const LinearParams& /*p*/) { return false; }

#endif

}  // namespace ethosu_sdk::kernels::cortex_m
