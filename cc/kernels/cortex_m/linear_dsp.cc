// quantized_linear with the DSP extension (dsp.h) on the Cortex-M33: four
// output channels per pass, each input word loaded and widened once and
// multiplied into four weight rows by SMLAD (16 MACs per eight SMLADs,
// dsp::Dot4Words for the kernel_sum form; dsp::Dot4 adds the bias form's
// input offset as it widens).
// Bit-exact with LinearReference (linear.cc).
#include <cstddef>
#include <cstdint>

#include "cc/kernels/cortex_m/dsp.h"
#include "cc/kernels/cortex_m/linear.h"

namespace ethosu_sdk::kernels::cortex_m {

#ifdef ESDK_CORTEX_M_DSP

bool LinearDsp(const LinearParams& p) {
  // Without kernel_sum the filter offset would widen both operands; the
  // passes emit it 0 for int8 weights, and plain C serves the rest.
  if (p.kernel_sum == nullptr && p.filter_offset != 0) return false;
  constexpr int32_t kLanes = 4;
  const int32_t k = p.k, n = p.n;
  // kernel_sum form: sum(in * w) (no offset), then the sums' terms.
  const int32_t offset = p.kernel_sum != nullptr ? 0 : p.input_offset;
  for (int32_t r = 0; r < p.rows; ++r) {
    const int8_t* row = p.input + static_cast<size_t>(r) * k;
    uint32_t row_term = 0;  // filter_offset * sum(in), wrapping as int32 tensors do
    if (p.kernel_sum != nullptr)
      row_term = static_cast<uint32_t>(dsp::Sum(row, k)) * static_cast<uint32_t>(p.filter_offset);
    int8_t* out = p.output + static_cast<size_t>(r) * n;
    for (int32_t c0 = 0; c0 < n; c0 += kLanes) {
      const int32_t count = n - c0 < kLanes ? n - c0 : kLanes;
      const int8_t* w = p.weights + static_cast<size_t>(c0) * k;
      int32_t acc[kLanes] = {0, 0, 0, 0};
      if (count == kLanes && offset == 0) {
        // The kernel_sum form: the assembly loop, then the last k % 4 bytes.
        dsp::Dot4Words(row, w, k, k / 4, acc);
        for (int32_t j = 0; j < kLanes; ++j) {
          uint32_t tail = static_cast<uint32_t>(acc[j]);
          for (int32_t t = k & ~3; t < k; ++t) tail += static_cast<uint32_t>(row[t] * w[j * k + t]);
          acc[j] = static_cast<int32_t>(tail);
        }
      } else if (count == kLanes) {
        // The bias form: the offset added as each input word is widened.
        dsp::Dot4(row, w, w + k, w + 2 * k, w + 3 * k, k, offset, acc);
      } else {
        for (int32_t j = 0; j < count; ++j) acc[j] = dsp::Dot(row, w + j * k, k, offset, 0);
      }
      for (int32_t j = 0; j < count; ++j) {
        uint32_t sum = static_cast<uint32_t>(acc[j]);
        if (p.kernel_sum != nullptr) {
          sum += row_term + static_cast<uint32_t>(p.kernel_sum[c0 + j]);
        } else if (p.bias != nullptr) {
          sum += static_cast<uint32_t>(p.bias[c0 + j]);
        }
        const int32_t scaled =
            dsp::RequantizeFast(static_cast<int32_t>(sum), p.multiplier, p.shift);
        out[c0 + j] = static_cast<int8_t>(
            Clamp(WrappingAdd(scaled, p.output_offset), p.activation_min, p.activation_max));
      }
    }
  }
  return true;
}

#else

bool LinearDsp(const LinearParams& /*p*/) { return false; }

#endif

}  // namespace ethosu_sdk::kernels::cortex_m
