// cortex_m::quantize_per_tensor / dequantize_per_tensor: the reference
// (ops/operators.py) is quantized_decomposed's operator itself, so these
// are the portable kernels (cc/kernels/quantize.cc), elementwise over the
// memory of tensors that share one shape and one layout.
#include <optional>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

Status ExpectSameLayout(const Tensor& in, const Tensor& out, const char* op) {
  if (in.SameShapeAndLayout(out)) return Status::Ok();
  return Status::Error(ErrorCode::kInvalidArgument,
                       "%s: input and out differ in shape or dim order", op);
}

}  // namespace

Status CortexMQuantizePerTensorOut(const Tensor& input, double scale, int64_t zero_point,
                                   int64_t quant_min, int64_t quant_max, int64_t dtype,
                                   Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSameLayout(input, out, kCortexMQuantizePerTensorOutName));
  return QuantizePerTensorOut(input, scale, zero_point, quant_min, quant_max, dtype, out);
}

Status CortexMDequantizePerTensorOut(const Tensor& input, double scale, int64_t zero_point,
                                     int64_t quant_min, int64_t quant_max, int64_t dtype,
                                     Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSameLayout(input, out, kCortexMDequantizePerTensorOutName));
  return DequantizePerTensorOut(input, scale, zero_point, quant_min, quant_max, dtype, std::nullopt,
                                out);
}

}  // namespace ethosu_sdk::kernels
