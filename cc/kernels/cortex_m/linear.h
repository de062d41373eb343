// quantized_linear's arithmetic once the glue (matmul.cc) has checked the
// arguments: plain C (LinearReference) and Helium (LinearHelium).
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_LINEAR_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_LINEAR_H_

#include <cstdint>

namespace ethosu_sdk::kernels::cortex_m {

struct LinearParams {
  const int8_t* input = nullptr;    // [rows, k]
  const int8_t* weights = nullptr;  // [n, k]
  int32_t rows = 0, k = 0, n = 0;
  // With kernel_sum (per output: sum(w + filter_offset) * input_offset +
  // bias): acc = sum(in * w) + filter_offset * sum(in) + kernel_sum.
  // Without: acc = sum((in + input_offset) * (w + filter_offset)) + bias.
  const int32_t* kernel_sum = nullptr;
  const int32_t* bias = nullptr;  // used only without kernel_sum; may be null
  int32_t input_offset = 0, filter_offset = 0, output_offset = 0;
  int32_t multiplier = 0, shift = 0;  // one requantization for the tensor
  int32_t activation_min = -128, activation_max = 127;
  int8_t* output = nullptr;  // [rows, n]
};

void LinearReference(const LinearParams& p);
// Four outputs per pass, VMLADAVA dot products; the kernel_sum form only.
// Returns false, touching nothing, when it cannot take the call (no MVE,
// no kernel_sum, an INT32_MIN multiplier): run LinearReference then.
bool LinearHelium(const LinearParams& p);
// Four outputs per pass with the DSP extension's SMLAD (linear_dsp.cc), on
// CPUs with DSP and no MVE (Cortex-M33): the kernel_sum form, and the bias
// form when filter_offset is 0. Returns false, touching nothing, otherwise.
bool LinearDsp(const LinearParams& p);

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_LINEAR_H_
