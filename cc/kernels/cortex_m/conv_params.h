// The parameters of the cortex_m:: convolutions once the glue has read and
// checked them: what the arithmetic (conv_reference.cc, and the CPU-specific
// variants) takes, with no tensors or runtime values left.
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_CONV_PARAMS_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_CONV_PARAMS_H_

#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/layout.h"

namespace ethosu_sdk::kernels::cortex_m {

struct ConvParams {
  View4 in, out;  // N, C, H, W of input and output
  int32_t kernel_h = 1, kernel_w = 1;
  int32_t stride_h = 1, stride_w = 1;
  int32_t pad_h = 0, pad_w = 0;
  int32_t dilation_h = 1, dilation_w = 1;
  int32_t groups = 1;            // convolution: input channels / weight's input channels
  int32_t depth_multiplier = 1;  // depthwise: output channels per input channel
  int32_t input_offset = 0, output_offset = 0;
  int32_t activation_min = -128, activation_max = 127;
  const int8_t* input = nullptr;
  const int8_t* weight = nullptr;        // conv, transpose conv: OHWI; depthwise: 1HWO
  const int32_t* bias = nullptr;         // per output channel, may be null
  const int32_t* multipliers = nullptr;  // per output channel
  const int32_t* shifts = nullptr;
  int8_t* output = nullptr;
  // Working memory from the program (the operator's scratch tensor, memory
  // planned by ExecuTorch): at least the bytes ConvScratchBytes states.
  uint8_t* scratch = nullptr;
  int64_t scratch_bytes = 0;
};

// out = clamp(requantize(bias + sum((in + input_offset) * weight)) +
// output_offset): the arithmetic of the reference (ops/operators.py), the
// zero padding contributing nothing.
void ConvReference(const ConvParams& p);
void DepthwiseConvReference(const ConvParams& p);
void TransposeConvReference(const ConvParams& p);

// Helium (MVE) variants for Cortex-M55/M85 (conv_helium.cc): channels
// innermost in input and output, groups == 1 (conv) or depth_multiplier == 1
// (depthwise), no INT32_MIN multiplier. They return false, touching nothing,
// when they cannot take the call (or the toolchain has no MVE); the caller
// then runs the plain C arithmetic above. Bit-exact with it.
bool ConvHelium(const ConvParams& p);
bool DepthwiseConvHelium(const ConvParams& p);

// The scratch bytes the convolution that serves `p` on this CPU needs: on
// Helium, a small patch (kernel_h * kernel_w * C_in <= 64, not 1x1) is
// gathered into rows of the scratch, one output pixel a row, so at least
// one row; 0 where the plain C or DSP arithmetic serves (they need none).
int64_t ConvScratchBytes(const ConvParams& p);

// DSP-extension variants for CPUs with DSP and no MVE (Cortex-M33;
// conv_dsp.cc): channels innermost and pixels dense in input and output,
// groups == 1 and dilation_w == 1 (conv), depth_multiplier == 1 and at most
// 64 taps (depthwise). Like the Helium ones they return false, touching
// nothing, when they cannot take the call or the CPU has no DSP extension
// (or has MVE); bit-exact with the plain C arithmetic.
bool ConvDsp(const ConvParams& p);
bool DepthwiseConvDsp(const ConvParams& p);

// Depthwise output over its own input (python/ethosu_sdk/aot/memory_plan.py
// places them so). Every depthwise path here (plain C, Helium, DSP) keeps
// this access order, with channels innermost and dense in both tensors and
// depth_multiplier 1: per channel, output pixels are finished in increasing
// (n, h, w) order; a pixel's output byte is written only after that channel
// of all its taps is read (a tile of pixels may be read before any of them
// is written); nothing but the pixel's own channels is written. An output
// starting `lead` pixels before the input, channels aligned, then never
// overwrites a byte still to be read when every output pixel P's first tap
// is at or after input pixel idx(P) - lead. Returns the least such lead,
// at least 0 (0: in place, as for stride 2, pad 1, 3x3).
int64_t DepthwiseOverlapLead(const ConvParams& p);

// One output element from its int32 sum: requantize for channel oc, add the
// output offset, clamp to the activation limits.
inline int8_t FinishConv(const ConvParams& p, int32_t acc, int32_t oc) {
  const int32_t scaled = Requantize(acc, p.multipliers[oc], p.shifts[oc]);
  return static_cast<int8_t>(
      Clamp(WrappingAdd(scaled, p.output_offset), p.activation_min, p.activation_max));
}

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_CONV_PARAMS_H_
