// Glue of the cortex_m:: convolutions (conv2d, depthwise, transpose, each in
// the NCHW-sized and the _nhwc form): reads and checks the arguments into
// ConvParams and calls the arithmetic (conv_reference.cc). The weights are
// as the cortex_m passes store them: OHWI for conv2d and transpose conv,
// 1HWO for depthwise (ops/operators.py).
#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/conv_params.h"
#include "cc/kernels/cortex_m/layout.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

using cortex_m::ConvParams;

enum class Kind { kConv, kDepthwise, kTranspose };

// input_offset is the negated input zero point, which the reference adds
// to int8 values: any int8 zero point (and the 128 of a uint8 one) fits.
constexpr int64_t kMaxOffset = 255;

// Output size of one spatial dimension (ops/operators.py's shape functions).
int64_t ConvSize(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
  return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}
int64_t TransposeSize(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int64_t op) {
  return (in - 1) * s - 2 * p + d * (k - 1) + op + 1;
}

Status Prepare(Kind kind, const int* dims, const Tensor& input, const Tensor& weight,
               const Tensor* bias, IntList stride, IntList padding, IntList dilation,
               const IntList* output_padding, int64_t depth_multiplier, int64_t input_offset,
               int64_t output_offset, const Tensor& multipliers, const Tensor& shifts,
               int64_t activation_min, int64_t activation_max, Tensor& out, ConvParams* p) {
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(input, ScalarType::kChar, "input"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(weight, ScalarType::kChar, "weight"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(out, ScalarType::kChar, "out"));
  ESDK_RETURN_IF_ERROR(cortex_m::MakeView4(input, dims, "input", &p->in));
  ESDK_RETURN_IF_ERROR(cortex_m::MakeView4(out, dims, "out", &p->out));
  if (weight.rank != 4 || !weight.HasDefaultLayout())
    return ShapeError("weight: a 4-D tensor in the default dim order", weight.rank);
  ESDK_RETURN_IF_ERROR(cortex_m::Pair(stride, 1, "stride", &p->stride_h, &p->stride_w));
  ESDK_RETURN_IF_ERROR(cortex_m::Pair(padding, 0, "padding", &p->pad_h, &p->pad_w));
  ESDK_RETURN_IF_ERROR(cortex_m::Pair(dilation, 1, "dilation", &p->dilation_h, &p->dilation_w));
  ESDK_RETURN_IF_ERROR(
      cortex_m::ExpectRange(input_offset, -kMaxOffset, kMaxOffset, "input_offset"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(output_offset, -128, 127, "output_offset"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectActivation(activation_min, activation_max));
  p->kernel_h = weight.sizes[1];
  p->kernel_w = weight.sizes[2];
  const int32_t weight_out = kind == Kind::kDepthwise ? weight.sizes[3] : weight.sizes[0];
  const int32_t weight_in = kind == Kind::kDepthwise ? weight.sizes[0] : weight.sizes[3];
  if (weight_out != p->out.c)
    return ShapeError("weight's output channels differ from out's", weight_out, p->out.c);
  if (p->out.n != p->in.n) return ShapeError("out's batch differs from input's", p->out.n, p->in.n);
  if (kind == Kind::kDepthwise) {
    if (weight_in != 1)
      return ShapeError("depthwise weight: [1, KH, KW, C_out] expected", weight_in);
    if (p->in.c == 0 || p->out.c % p->in.c != 0 || depth_multiplier != p->out.c / p->in.c) {
      return ShapeError("depthwise: output channels != input channels * depth_multiplier", p->out.c,
                        depth_multiplier);
    }
    p->depth_multiplier = static_cast<int32_t>(depth_multiplier);
  } else if (kind == Kind::kConv) {
    if (weight_in == 0 || p->in.c % weight_in != 0)
      return ShapeError("weight's input channels do not divide input's", weight_in, p->in.c);
    p->groups = p->in.c / weight_in;
    if (p->out.c % p->groups != 0)
      return ShapeError("groups do not divide the output channels", p->groups, p->out.c);
  } else if (weight_in != p->in.c) {
    return ShapeError("transpose conv: weight's input channels differ from input's", weight_in,
                      p->in.c);
  }
  int64_t oh, ow;
  if (kind == Kind::kTranspose) {
    int32_t op_h, op_w;
    ESDK_RETURN_IF_ERROR(cortex_m::Pair(*output_padding, 0, "output_padding", &op_h, &op_w));
    oh = TransposeSize(p->in.h, p->kernel_h, p->stride_h, p->pad_h, p->dilation_h, op_h);
    ow = TransposeSize(p->in.w, p->kernel_w, p->stride_w, p->pad_w, p->dilation_w, op_w);
  } else {
    oh = ConvSize(p->in.h, p->kernel_h, p->stride_h, p->pad_h, p->dilation_h);
    ow = ConvSize(p->in.w, p->kernel_w, p->stride_w, p->pad_w, p->dilation_w);
  }
  if (oh != p->out.h || ow != p->out.w)
    return ShapeError("out's height and width differ from the convolution's", oh, ow);
  if (bias != nullptr) {
    ESDK_RETURN_IF_ERROR(cortex_m::ExpectChannels(*bias, p->out.c, "bias"));
    p->bias = bias->Data<const int32_t>();
  }
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectChannels(multipliers, p->out.c, "requantize_multipliers"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectChannels(shifts, p->out.c, "requantize_shifts"));
  p->shifts = shifts.Data<const int32_t>();
  for (int32_t c = 0; c < p->out.c; ++c) {
    ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(p->shifts[c], cortex_m::kMinShift,
                                               cortex_m::kMaxShift, "requantize shift"));
  }
  p->multipliers = multipliers.Data<const int32_t>();
  p->input_offset = static_cast<int32_t>(input_offset);
  p->output_offset = static_cast<int32_t>(output_offset);
  p->activation_min = static_cast<int32_t>(activation_min);
  p->activation_max = static_cast<int32_t>(activation_max);
  p->input = input.Data<const int8_t>();
  p->weight = weight.Data<const int8_t>();
  p->output = out.Data<int8_t>();
  return Status::Ok();
}

// Hands the program's scratch tensor to the arithmetic, refusing one smaller
// than the convolution that serves `p` on this CPU needs
// (ConvScratchBytes). ExecuTorch's passes size it for CMSIS-NN's kernels,
// always at least that; a smaller one is a program edited or lowered by
// other rules, which a kernel must not write past.
Status UseScratch(const Tensor& scratch, ConvParams* p) {
  const int64_t needed = cortex_m::ConvScratchBytes(*p);
  const int64_t given = scratch.data != nullptr ? static_cast<int64_t>(scratch.nbytes) : 0;
  if (given < needed) {
    return Status::Error(ErrorCode::kOutOfMemory,
                         "scratch of %lld bytes, needs %lld (one im2col row: kernel_h * "
                         "kernel_w * C_in): lower with ExecuTorch's cortex_m passes, which size it",
                         static_cast<long long>(given), static_cast<long long>(needed));
  }
  p->scratch = scratch.data != nullptr ? static_cast<uint8_t*>(scratch.data) : nullptr;
  p->scratch_bytes = given;
  return Status::Ok();
}

// Convolution or depthwise (`kind`), one glue for both.
Status Direct(Kind kind, const int* dims, const Tensor& input, const Tensor& weight,
              const Tensor* bias, IntList stride, IntList padding, IntList dilation,
              int64_t depth_multiplier, int64_t input_offset, int64_t output_offset,
              const Tensor& multipliers, const Tensor& shifts, int64_t activation_min,
              int64_t activation_max, const Tensor& scratch, Tensor& out) {
  ConvParams p;
  ESDK_RETURN_IF_ERROR(Prepare(kind, dims, input, weight, bias, stride, padding, dilation, nullptr,
                               depth_multiplier, input_offset, output_offset, multipliers, shifts,
                               activation_min, activation_max, out, &p));
  if (kind == Kind::kConv) ESDK_RETURN_IF_ERROR(UseScratch(scratch, &p));
  // The Helium variants take the passes' layout on Cortex-M55/M85, the DSP
  // ones on the Cortex-M33 (each is compiled only for its CPUs), and say
  // when they cannot; the plain C arithmetic takes everything.
  if (kind == Kind::kDepthwise) {
    if (!cortex_m::DepthwiseConvHelium(p) && !cortex_m::DepthwiseConvDsp(p))
      cortex_m::DepthwiseConvReference(p);
  } else {
    if (!cortex_m::ConvHelium(p) && !cortex_m::ConvDsp(p)) cortex_m::ConvReference(p);
  }
  return Status::Ok();
}

Status Transpose(const int* dims, const Tensor& input, const Tensor& weight, const Tensor* bias,
                 IntList stride, IntList padding, IntList output_padding, IntList dilation,
                 int64_t input_offset, int64_t output_offset, const Tensor& multipliers,
                 const Tensor& shifts, int64_t activation_min, int64_t activation_max,
                 Tensor& out) {
  ConvParams p;
  ESDK_RETURN_IF_ERROR(Prepare(Kind::kTranspose, dims, input, weight, bias, stride, padding,
                               dilation, &output_padding, 1, input_offset, output_offset,
                               multipliers, shifts, activation_min, activation_max, out, &p));
  cortex_m::TransposeConvReference(p);
  return Status::Ok();
}

}  // namespace

// The scratch tensors the schemas carry are sized by ExecuTorch's passes for
// CMSIS-NN's kernels. Only the Helium convolution's im2col of small patches
// uses one (UseScratch); the depthwise and transposed convolutions need none.
Status CortexMQuantizedConv2dOut(const Tensor& input, const Tensor& weight, const Tensor* bias,
                                 IntList stride, IntList padding, IntList dilation,
                                 int64_t input_offset, int64_t output_offset,
                                 const Tensor& requantize_multipliers,
                                 const Tensor& requantize_shifts, int64_t activation_min,
                                 int64_t activation_max, const Tensor& scratch, Tensor& out) {
  return Direct(Kind::kConv, cortex_m::kNchw, input, weight, bias, stride, padding, dilation, 1,
                input_offset, output_offset, requantize_multipliers, requantize_shifts,
                activation_min, activation_max, scratch, out);
}

Status CortexMQuantizedConv2dNhwcOut(const Tensor& input, const Tensor& weight, const Tensor* bias,
                                     IntList stride, IntList padding, IntList dilation,
                                     int64_t input_offset, int64_t output_offset,
                                     const Tensor& requantize_multipliers,
                                     const Tensor& requantize_shifts, int64_t activation_min,
                                     int64_t activation_max, const Tensor& scratch, Tensor& out) {
  return Direct(Kind::kConv, cortex_m::kNhwc, input, weight, bias, stride, padding, dilation, 1,
                input_offset, output_offset, requantize_multipliers, requantize_shifts,
                activation_min, activation_max, scratch, out);
}

Status CortexMQuantizedDepthwiseConv2dOut(
    const Tensor& input, const Tensor& weight, const Tensor* bias, IntList stride, IntList padding,
    IntList dilation, int64_t depth_multiplier, int64_t input_offset, int64_t output_offset,
    const Tensor& requantize_multipliers, const Tensor& requantize_shifts, int64_t activation_min,
    int64_t activation_max, const Tensor& scratch, Tensor& out) {
  return Direct(Kind::kDepthwise, cortex_m::kNchw, input, weight, bias, stride, padding, dilation,
                depth_multiplier, input_offset, output_offset, requantize_multipliers,
                requantize_shifts, activation_min, activation_max, scratch, out);
}

Status CortexMQuantizedDepthwiseConv2dNhwcOut(
    const Tensor& input, const Tensor& weight, const Tensor* bias, IntList stride, IntList padding,
    IntList dilation, int64_t depth_multiplier, int64_t input_offset, int64_t output_offset,
    const Tensor& requantize_multipliers, const Tensor& requantize_shifts, int64_t activation_min,
    int64_t activation_max, const Tensor& scratch, Tensor& out) {
  return Direct(Kind::kDepthwise, cortex_m::kNhwc, input, weight, bias, stride, padding, dilation,
                depth_multiplier, input_offset, output_offset, requantize_multipliers,
                requantize_shifts, activation_min, activation_max, scratch, out);
}

Status CortexMQuantizedTransposeConv2dOut(const Tensor& input, const Tensor& weight,
                                          const Tensor* bias, IntList stride, IntList padding,
                                          IntList output_padding, IntList dilation,
                                          int64_t input_offset, int64_t output_offset,
                                          const Tensor& requantize_multipliers,
                                          const Tensor& requantize_shifts, int64_t activation_min,
                                          int64_t activation_max, const Tensor& /*scratch*/,
                                          const Tensor& /*output_scratch*/, Tensor& out) {
  return Transpose(cortex_m::kNchw, input, weight, bias, stride, padding, output_padding, dilation,
                   input_offset, output_offset, requantize_multipliers, requantize_shifts,
                   activation_min, activation_max, out);
}

Status CortexMQuantizedTransposeConv2dNhwcOut(
    const Tensor& input, const Tensor& weight, const Tensor* bias, IntList stride, IntList padding,
    IntList output_padding, IntList dilation, int64_t input_offset, int64_t output_offset,
    const Tensor& requantize_multipliers, const Tensor& requantize_shifts, int64_t activation_min,
    int64_t activation_max, const Tensor& /*scratch*/, const Tensor& /*output_scratch*/,
    Tensor& out) {
  return Transpose(cortex_m::kNhwc, input, weight, bias, stride, padding, output_padding, dilation,
                   input_offset, output_offset, requantize_multipliers, requantize_shifts,
                   activation_min, activation_max, out);
}

}  // namespace ethosu_sdk::kernels
