// cortex_m::softmax: int8 in, int8 out at the fixed output scale 1/256 and
// zero point -128 (quantizer/quantization_configs.py). The reference
// (ops/operators.py) defines it in float: the input is dequantized with the
// scale its multiplier and shift encode, softmax is taken in float and the
// probabilities quantized, so this kernel computes exactly that.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/layout.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

constexpr int kInputIntegerBits = 5;        // ops/operators.py SOFTMAX_INPUT_INTEGER_BITS
constexpr int32_t kOutputZeroPoint = -128;  // CMSIS_SOFTMAX_ZERO_POINT
constexpr float kOutputInvScale = 256.0f;   // 1 / CMSIS_SOFTMAX_SCALE

}  // namespace

Status CortexMSoftmaxOut(const Tensor& input, int64_t dim, int64_t input_zero_point,
                         int64_t output_zero_point, int64_t input_multiplier, int64_t input_shift,
                         int64_t /*diff_min*/, Tensor& out) {
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(input, ScalarType::kChar, "input"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(out, ScalarType::kChar, "out"));
  if (!input.SameShape(out)) return ShapeError("softmax: input and out differ in shape");
  if (output_zero_point != kOutputZeroPoint) {
    return cortex_m::ExpectRange(output_zero_point, kOutputZeroPoint, kOutputZeroPoint,
                                 "softmax output_zero_point");
  }
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(input_zero_point, -128, 127, "input_zero_point"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(input_multiplier, 1, INT32_MAX, "input_multiplier"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(input_shift, -62, 62, "input_shift"));
  int32_t axis;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, input.rank, &axis));
  // The scale, in double as the reference derives it, used as a float.
  const double real = std::ldexp(static_cast<double>(input_multiplier) / 2147483648.0,
                                 static_cast<int>(input_shift));
  const float scale =
      static_cast<float>(real / static_cast<double>(int64_t{1} << (31 - kInputIntegerBits)));
  int64_t in_strides[runtime::kMaxRank], out_strides[runtime::kMaxRank];
  cortex_m::ElementStrides(input, in_strides);
  cortex_m::ElementStrides(out, out_strides);
  const int32_t length = input.sizes[axis];
  if (length == 0) return Status::Ok();
  const size_t rows = input.numel / static_cast<size_t>(length);
  int32_t coord[runtime::kMaxRank] = {};
  int32_t sizes[runtime::kMaxRank];
  for (int32_t d = 0; d < input.rank; ++d) sizes[d] = d == axis ? 1 : input.sizes[d];
  const int8_t* x = input.Data<const int8_t>();
  int8_t* o = out.Data<int8_t>();
  const int32_t zp = static_cast<int32_t>(input_zero_point);
  for (size_t r = 0; r < rows; ++r) {
    int64_t in_base = 0, out_base = 0;
    for (int32_t d = 0; d < input.rank; ++d) {
      in_base += coord[d] * in_strides[d];
      out_base += coord[d] * out_strides[d];
    }
    const int64_t si = in_strides[axis], so = out_strides[axis];
    float max = -INFINITY;
    for (int32_t i = 0; i < length; ++i) {
      const float v = static_cast<float>(x[in_base + i * si] - zp) * scale;
      max = v > max ? v : max;
    }
    float sum = 0.0f;
    for (int32_t i = 0; i < length; ++i)
      sum += std::exp(static_cast<float>(x[in_base + i * si] - zp) * scale - max);
    for (int32_t i = 0; i < length; ++i) {
      const float p = std::exp(static_cast<float>(x[in_base + i * si] - zp) * scale - max) / sum;
      const float q = std::nearbyint(p * kOutputInvScale) + static_cast<float>(kOutputZeroPoint);
      o[out_base + i * so] =
          static_cast<int8_t>(cortex_m::Clamp(static_cast<int32_t>(q), -128, 127));
    }
    NextCoord(coord, sizes, input.rank);
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
