// cortex_m:: matrix products: quantized_linear (fully connected, per-tensor
// requantization) and quantized_batch_matmul, int32 accumulation.
#include <cstddef>
#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/layout.h"
#include "cc/kernels/cortex_m/linear.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

using cortex_m::Clamp;
using cortex_m::Requantize;

constexpr int64_t kMaxOffset = 255;  // a negated int8 or uint8 zero point

Status ExpectDense(const Tensor& t, ScalarType dtype, const char* what) {
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(t, dtype, what));
  if (!t.HasDefaultLayout())
    return Status::Error(ErrorCode::kInvalidArgument, "%s: not in the default dim order", what);
  return Status::Ok();
}

}  // namespace

// With kernel_sum (what the passes emit for Helium targets: per output
// channel, sum(weight + filter_offset) * input_offset + bias):
//   acc = sum(in * w) + filter_offset * sum(in) + kernel_sum;
// without it: acc = sum((in + input_offset) * (w + filter_offset)) + bias.
// Then requantize (one multiplier and shift), + output_offset, clamp.
Status CortexMQuantizedLinearOut(const Tensor& input, const Tensor& weights, const Tensor* bias,
                                 const Tensor* kernel_sum, int64_t input_offset,
                                 int64_t filter_offset, int64_t output_offset,
                                 IntList requantize_multipliers, IntList requantize_shifts,
                                 int64_t activation_max, int64_t activation_min, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectDense(input, ScalarType::kChar, "input"));
  ESDK_RETURN_IF_ERROR(ExpectDense(weights, ScalarType::kChar, "weights"));
  ESDK_RETURN_IF_ERROR(ExpectDense(out, ScalarType::kChar, "out"));
  if (input.rank < 1 || weights.rank != 2 || out.rank != input.rank) {
    return ShapeError("quantized_linear: input [..., K], weights [N, K], out [..., N]", input.rank,
                      weights.rank);
  }
  const int32_t k = input.sizes[input.rank - 1], n = weights.sizes[0];
  if (weights.sizes[1] != k)
    return ShapeError("weights' K differs from input's", weights.sizes[1], k);
  for (int32_t d = 0; d + 1 < input.rank; ++d) {
    if (out.sizes[d] != input.sizes[d])
      return ShapeError("out's leading sizes differ from input's", d);
  }
  if (out.sizes[out.rank - 1] != n)
    return ShapeError("out's last size differs from weights' N", out.sizes[out.rank - 1], n);
  if (requantize_multipliers.size() < 1 || requantize_shifts.size() < 1) {
    return ShapeError("quantized_linear: no requantize multiplier or shift");
  }
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(requantize_multipliers[0], INT32_MIN, INT32_MAX,
                                             "requantize multiplier"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(requantize_shifts[0], cortex_m::kMinShift,
                                             cortex_m::kMaxShift, "requantize shift"));
  ESDK_RETURN_IF_ERROR(
      cortex_m::ExpectRange(input_offset, -kMaxOffset, kMaxOffset, "input_offset"));
  ESDK_RETURN_IF_ERROR(
      cortex_m::ExpectRange(filter_offset, -kMaxOffset, kMaxOffset, "filter_offset"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(output_offset, -128, 127, "output_offset"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectActivation(activation_min, activation_max));
  const int32_t* sums = nullptr;
  const int32_t* b = nullptr;
  if (kernel_sum != nullptr) {
    ESDK_RETURN_IF_ERROR(cortex_m::ExpectChannels(*kernel_sum, n, "kernel_sum"));
    sums = kernel_sum->Data<const int32_t>();
  } else if (bias != nullptr) {
    ESDK_RETURN_IF_ERROR(cortex_m::ExpectChannels(*bias, n, "bias"));
    b = bias->Data<const int32_t>();
  }
  cortex_m::LinearParams p;
  p.input = input.Data<const int8_t>();
  p.weights = weights.Data<const int8_t>();
  p.k = k;
  p.n = n;
  p.rows = static_cast<int32_t>(k == 0 ? out.numel / (n == 0 ? 1 : n)
                                       : input.numel / static_cast<size_t>(k));
  p.kernel_sum = sums;
  p.bias = b;
  p.input_offset = static_cast<int32_t>(input_offset);
  p.filter_offset = static_cast<int32_t>(filter_offset);
  p.output_offset = static_cast<int32_t>(output_offset);
  p.multiplier = static_cast<int32_t>(requantize_multipliers[0]);
  p.shift = static_cast<int32_t>(requantize_shifts[0]);
  p.activation_min = static_cast<int32_t>(activation_min);
  p.activation_max = static_cast<int32_t>(activation_max);
  p.output = out.Data<int8_t>();
  if (!cortex_m::LinearHelium(p) && !cortex_m::LinearDsp(p)) cortex_m::LinearReference(p);
  return Status::Ok();
}

// out[b, m, n] = requantize(sum_k (lhs + lhs_zp)(rhs_t[b, n, k] + rhs_zp)) +
// output zero point, clamped to int8. The zero points are the negated
// ones, as CMSIS-NN's offsets are (ops/operators.py).
Status CortexMQuantizedBatchMatmulOut(const Tensor& lhs, int64_t lhs_zero_point,
                                      const Tensor& rhs_transposed, int64_t rhs_zero_point,
                                      int64_t output_zero_point, int64_t output_multiplier,
                                      int64_t output_shift, const Tensor& /*scratch*/,
                                      Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectDense(lhs, ScalarType::kChar, "lhs"));
  ESDK_RETURN_IF_ERROR(ExpectDense(rhs_transposed, ScalarType::kChar, "rhs_transposed"));
  ESDK_RETURN_IF_ERROR(ExpectDense(out, ScalarType::kChar, "out"));
  if (lhs.rank != 3 || rhs_transposed.rank != 3 || out.rank != 3) {
    return ShapeError("quantized_batch_matmul: 3-D lhs, rhs_transposed and out", lhs.rank,
                      rhs_transposed.rank);
  }
  const int32_t batch = lhs.sizes[0], m = lhs.sizes[1], k = lhs.sizes[2],
                n = rhs_transposed.sizes[1];
  if (rhs_transposed.sizes[0] != batch || rhs_transposed.sizes[2] != k) {
    return ShapeError("rhs_transposed: [B, N, K] with lhs's B and K", rhs_transposed.sizes[0],
                      rhs_transposed.sizes[2]);
  }
  if (out.sizes[0] != batch || out.sizes[1] != m || out.sizes[2] != n)
    return ShapeError("out: [B, M, N]", out.sizes[1], out.sizes[2]);
  ESDK_RETURN_IF_ERROR(
      cortex_m::ExpectRange(lhs_zero_point, -kMaxOffset, kMaxOffset, "lhs_zero_point"));
  ESDK_RETURN_IF_ERROR(
      cortex_m::ExpectRange(rhs_zero_point, -kMaxOffset, kMaxOffset, "rhs_zero_point"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(output_zero_point, -128, 127, "output_zero_point"));
  ESDK_RETURN_IF_ERROR(
      cortex_m::ExpectRange(output_multiplier, INT32_MIN, INT32_MAX, "output_multiplier"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(output_shift, cortex_m::kMinShift, cortex_m::kMaxShift,
                                             "output_shift"));
  const int32_t lzp = static_cast<int32_t>(lhs_zero_point),
                rzp = static_cast<int32_t>(rhs_zero_point);
  const int32_t om = static_cast<int32_t>(output_multiplier),
                os = static_cast<int32_t>(output_shift);
  const int32_t ozp = static_cast<int32_t>(output_zero_point);
  const int8_t* a = lhs.Data<const int8_t>();
  const int8_t* bt = rhs_transposed.Data<const int8_t>();
  int8_t* o = out.Data<int8_t>();
  for (int32_t bi = 0; bi < batch; ++bi) {
    for (int32_t i = 0; i < m; ++i) {
      const int8_t* row = a + (static_cast<size_t>(bi) * m + i) * k;
      for (int32_t j = 0; j < n; ++j) {
        const int8_t* col = bt + (static_cast<size_t>(bi) * n + j) * k;
        uint32_t acc = 0;
        for (int32_t t = 0; t < k; ++t)
          acc += static_cast<uint32_t>((row[t] + lzp) * (col[t] + rzp));
        const int32_t scaled = Requantize(static_cast<int32_t>(acc), om, os);
        o[(static_cast<size_t>(bi) * m + i) * n + j] =
            static_cast<int8_t>(Clamp(cortex_m::WrappingAdd(scaled, ozp), -128, 127));
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
