// Reductions over dims for float: sum, mean, amax and softmax.
#include <cmath>
#include <cstdint>
#include <optional>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {

namespace {

enum class ReduceOp { kSum, kMean, kMax };

// sum, mean or max over `dims` (empty: all dims), in input order.
Status Reduce(const Tensor& in, IntList dims, bool keepdim, Tensor& out, ReduceOp op,
              const char* name) {
  if (in.dtype != ScalarType::kFloat || out.dtype != ScalarType::kFloat)
    return DtypeError(name, in);
  bool reduced[runtime::kMaxRank] = {};
  if (dims.size() == 0) {
    for (int32_t d = 0; d < in.rank; ++d) reduced[d] = true;
  }
  for (int64_t dim : dims) {
    int32_t d;
    ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank, &d));
    if (d < in.rank) reduced[d] = true;
  }
  int32_t shape[runtime::kMaxRank];
  int32_t rank = 0;
  size_t count = 1;
  for (int32_t d = 0; d < in.rank; ++d) {
    if (reduced[d]) {
      count *= static_cast<size_t>(in.sizes[d]);
      if (keepdim) shape[rank++] = 1;
    } else {
      shape[rank++] = in.sizes[d];
    }
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, rank, name));
  // Output strides over the input's dims (0 on reduced dims).
  size_t out_strides[runtime::kMaxRank];
  size_t stride = 1;
  for (int32_t d = in.rank - 1; d >= 0; --d) {
    out_strides[d] = reduced[d] ? 0 : stride;
    if (!reduced[d]) stride *= static_cast<size_t>(in.sizes[d]);
  }
  if (op == ReduceOp::kMax && count == 0) {
    return Status::Error(ErrorCode::kInvalidArgument, "amax over an empty dimension");
  }
  float* po = out.Data<float>();
  for (size_t i = 0; i < out.numel; ++i) po[i] = op == ReduceOp::kMax ? -INFINITY : 0.0f;
  // Accumulate in input order: each output's terms are added in index order.
  const float* pi = in.Data<const float>();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < in.numel; ++i) {
    size_t o = 0;
    for (int32_t d = 0; d < in.rank; ++d) o += out_strides[d] * static_cast<size_t>(coord[d]);
    if (op != ReduceOp::kMax) {
      po[o] += pi[i];
    } else if (pi[i] > po[o] || std::isnan(pi[i])) {
      po[o] = pi[i];  // NaN propagates, as in torch.amax
    }
    NextCoord(coord, in.sizes, in.rank);
  }
  if (op != ReduceOp::kMean) return Status::Ok();
  const float divisor = static_cast<float>(count);
  for (size_t i = 0; i < out.numel; ++i) po[i] = po[i] / divisor;
  return Status::Ok();
}

}  // namespace

// mean.out(self, int[]? dim, bool keepdim, ScalarType? dtype, *, out): the
// result is float whatever `dtype` says (the out tensor's dtype is checked).
Status MeanOut(const Tensor& self, std::optional<IntList> dim, bool keepdim,
               std::optional<int64_t> /*dtype*/, Tensor& out) {
  return Reduce(self, dim.value_or(IntList()), keepdim, out, ReduceOp::kMean, kMeanOutName);
}

// sum.IntList_out(self, int[]? dim, bool keepdim, ScalarType? dtype, *, out)
Status SumIntListOut(const Tensor& self, std::optional<IntList> dim, bool keepdim,
                     std::optional<int64_t> /*dtype*/, Tensor& out) {
  return Reduce(self, dim.value_or(IntList()), keepdim, out, ReduceOp::kSum, kSumIntListOutName);
}

// amax.out(self, int[1] dim=[], bool keepdim=False, *, out)
Status AmaxOut(const Tensor& self, IntList dim, bool keepdim, Tensor& out) {
  return Reduce(self, dim, keepdim, out, ReduceOp::kMax, kAmaxOutName);
}

// _softmax.out(self, int dim, bool half_to_float, *, out)
Status SoftmaxOut(const Tensor& in, int64_t dim, bool half_to_float, Tensor& out) {
  if (half_to_float) return Status::Error(ErrorCode::kNotSupported, "softmax half_to_float");
  if (in.dtype != ScalarType::kFloat || out.dtype != ScalarType::kFloat) {
    return DtypeError(kSoftmaxOutName, in);
  }
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, kSoftmaxOutName));
  int32_t d;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank, &d));
  size_t outer = 1, inner = 1;
  const size_t size = in.rank == 0 ? 1 : static_cast<size_t>(in.sizes[d]);
  for (int32_t k = 0; k < d; ++k) outer *= static_cast<size_t>(in.sizes[k]);
  for (int32_t k = d + 1; k < in.rank; ++k) inner *= static_cast<size_t>(in.sizes[k]);
  if (size == 0) return Status::Ok();
  const float* pi = in.Data<const float>();
  float* po = out.Data<float>();
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      const size_t base = o * size * inner + i;
      float max_value = pi[base];
      for (size_t k = 1; k < size; ++k) {
        const float v = pi[base + k * inner];
        if (v > max_value) max_value = v;
      }
      float sum = 0.0f;
      for (size_t k = 0; k < size; ++k) sum += std::exp(pi[base + k * inner] - max_value);
      for (size_t k = 0; k < size; ++k) {
        po[base + k * inner] = std::exp(pi[base + k * inner] - max_value) / sum;
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
