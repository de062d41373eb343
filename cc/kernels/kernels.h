// The CPU kernels, one function per operator. Registration is separate
// (registry.h): a program links only the kernels its .pte names.
#ifndef ETHOSU_SDK_CC_KERNELS_KERNELS_H_
#define ETHOSU_SDK_CC_KERNELS_KERNELS_H_

#include "cc/runtime/operator_registry.h"
#include "cc/core/status.h"

namespace ethosu_sdk::kernels {

using runtime::KernelArgs;

// elementwise.cc
Status AddOut(KernelArgs args);        // aten::add.out
Status SubOut(KernelArgs args);        // aten::sub.out
Status MulOut(KernelArgs args);        // aten::mul.out
Status ReluOut(KernelArgs args);       // aten::relu.out
Status HardtanhOut(KernelArgs args);   // aten::hardtanh.out
Status ClampOut(KernelArgs args);      // aten::clamp.out
Status SigmoidOut(KernelArgs args);    // aten::sigmoid.out
Status ExpOut(KernelArgs args);        // aten::exp.out
Status ReciprocalOut(KernelArgs args); // aten::reciprocal.out
Status RsqrtOut(KernelArgs args);      // aten::rsqrt.out
Status GeluOut(KernelArgs args);       // aten::gelu.out
Status TanhOut(KernelArgs args);       // aten::tanh.out
// convolution.cc
Status ConvolutionOut(KernelArgs args);  // aten::convolution.out
// matmul.cc
Status MmOut(KernelArgs args);      // aten::mm.out
Status AddmmOut(KernelArgs args);   // aten::addmm.out
Status LinearOut(KernelArgs args);  // aten::linear.out
// normalization.cc
Status NativeBatchNormNoTrainingOut(KernelArgs args);  // aten::_native_batch_norm_legit_no_training.out
// reduce.cc
Status MeanOut(KernelArgs args);        // aten::mean.out
Status SumIntListOut(KernelArgs args);  // aten::sum.IntList_out
Status AmaxOut(KernelArgs args);        // aten::amax.out
Status BmmOut(KernelArgs args);         // aten::bmm.out
Status ExpandCopyOut(KernelArgs args);  // aten::expand_copy.out
Status NativeLayerNormOut(KernelArgs args);  // aten::native_layer_norm.out
Status SoftmaxOut(KernelArgs args);  // aten::_softmax.out
// pool.cc
Status AvgPool2dOut(KernelArgs args);             // aten::avg_pool2d.out
Status MaxPool2dWithIndicesOut(KernelArgs args);  // aten::max_pool2d_with_indices.out
// shape.cc
Status ViewCopyOut(KernelArgs args);         // aten::view_copy.out
Status PermuteCopyOut(KernelArgs args);      // aten::permute_copy.out
Status CatOut(KernelArgs args);              // aten::cat.out
Status SliceCopyTensorOut(KernelArgs args);  // aten::slice_copy.Tensor_out
Status CloneOut(KernelArgs args);            // aten::clone.out
Status UnsqueezeCopyOut(KernelArgs args);    // aten::unsqueeze_copy.out
Status SqueezeCopyDimsOut(KernelArgs args);  // aten::squeeze_copy.dims_out
Status CloneDimOrderOut(KernelArgs args);    // dim_order_ops::_clone_dim_order.out
// quantize.cc
Status QuantizePerTensorOut(KernelArgs args);     // quantized_decomposed::quantize_per_tensor.out
Status DequantizePerTensorOut(KernelArgs args);   // quantized_decomposed::dequantize_per_tensor.out
Status QuantizePerChannelOut(KernelArgs args);    // quantized_decomposed::quantize_per_channel.out
Status DequantizePerChannelOut(KernelArgs args);  // quantized_decomposed::dequantize_per_channel.out

}  // namespace ethosu_sdk::kernels

#endif  // ETHOSU_SDK_CC_KERNELS_KERNELS_H_
