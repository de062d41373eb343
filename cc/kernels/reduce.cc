// Reductions over dims for float: sum, mean, amax and softmax.
#include <cmath>
#include <cstdint>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {

namespace {

enum class ReduceOp { kSum, kMean, kMax };

// sum, mean or max over `dim` (None or empty: all dims), in input order.
// Arguments: (self, dim, keepdim, [dtype,] out): `out_index` says where out is.
Status Reduce(KernelArgs args, ReduceOp op, size_t arg_count, size_t out_index, const char* kName) {
  ESDK_RETURN_IF_ERROR(ExpectArgCount(args, arg_count, kName));
  Tensor *in, *out;
  bool keepdim;
  ESDK_RETURN_IF_ERROR(TensorArg(args, 0, &in));
  ESDK_RETURN_IF_ERROR(BoolArg(args, 2, &keepdim));
  ESDK_RETURN_IF_ERROR(TensorArg(args, out_index, &out));
  if (in->dtype != ScalarType::kFloat || out->dtype != ScalarType::kFloat) return DtypeError(kName, *in);
  bool reduced[runtime::kMaxRank] = {};
  IntList dims{};
  if (!args[1]->IsNone()) ESDK_RETURN_IF_ERROR(IntListArg(args, 1, &dims));
  if (dims.size() == 0) {
    for (int32_t d = 0; d < in->rank; ++d) reduced[d] = true;
  }
  for (int64_t dim : dims) {
    int32_t d;
    ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in->rank, &d));
    if (d < in->rank) reduced[d] = true;
  }
  int32_t shape[runtime::kMaxRank];
  int32_t rank = 0;
  size_t count = 1;
  for (int32_t d = 0; d < in->rank; ++d) {
    if (reduced[d]) {
      count *= static_cast<size_t>(in->sizes[d]);
      if (keepdim) shape[rank++] = 1;
    } else {
      shape[rank++] = in->sizes[d];
    }
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(*out, shape, rank, kName));
  // Output strides over the input's dims (0 on reduced dims).
  size_t out_strides[runtime::kMaxRank];
  size_t stride = 1;
  for (int32_t d = in->rank - 1; d >= 0; --d) {
    out_strides[d] = reduced[d] ? 0 : stride;
    if (!reduced[d]) stride *= static_cast<size_t>(in->sizes[d]);
  }
  if (op == ReduceOp::kMax && count == 0) {
    return Status::Error(ErrorCode::kInvalidArgument, "amax over an empty dimension");
  }
  float* po = out->Data<float>();
  for (size_t i = 0; i < out->numel; ++i) po[i] = op == ReduceOp::kMax ? -INFINITY : 0.0f;
  // Accumulate in input order: each output's terms are added in index order.
  const float* pi = in->Data<const float>();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < in->numel; ++i) {
    size_t o = 0;
    for (int32_t d = 0; d < in->rank; ++d) o += out_strides[d] * static_cast<size_t>(coord[d]);
    if (op != ReduceOp::kMax) {
      po[o] += pi[i];
    } else if (pi[i] > po[o] || std::isnan(pi[i])) {
      po[o] = pi[i];  // NaN propagates, as in torch.amax
    }
    NextCoord(coord, in->sizes, in->rank);
  }
  if (op != ReduceOp::kMean) return Status::Ok();
  const float divisor = static_cast<float>(count);
  for (size_t i = 0; i < out->numel; ++i) po[i] = po[i] / divisor;
  return Status::Ok();
}

}  // namespace

// mean.out(self, int[]? dim, bool keepdim, ScalarType? dtype, *, out)
Status MeanOut(KernelArgs args) { return Reduce(args, ReduceOp::kMean, 6, 4, "aten::mean.out"); }

// sum.IntList_out(self, int[]? dim, bool keepdim, ScalarType? dtype, *, out)
Status SumIntListOut(KernelArgs args) { return Reduce(args, ReduceOp::kSum, 6, 4, "aten::sum.IntList_out"); }

// amax.out(self, int[1] dim=[], bool keepdim=False, *, out)
Status AmaxOut(KernelArgs args) { return Reduce(args, ReduceOp::kMax, 5, 3, "aten::amax.out"); }

// _softmax.out(self, int dim, bool half_to_float, *, out)
Status SoftmaxOut(KernelArgs args) {
  static constexpr char kName[] = "aten::_softmax.out";
  ESDK_RETURN_IF_ERROR(ExpectArgCount(args, 5, kName));
  Tensor *in, *out;
  int64_t dim;
  bool half_to_float;
  ESDK_RETURN_IF_ERROR(TensorArg(args, 0, &in));
  ESDK_RETURN_IF_ERROR(IntArg(args, 1, &dim));
  ESDK_RETURN_IF_ERROR(BoolArg(args, 2, &half_to_float));
  ESDK_RETURN_IF_ERROR(TensorArg(args, 3, &out));
  if (half_to_float) return Status::Error(ErrorCode::kNotSupported, "softmax half_to_float");
  if (in->dtype != ScalarType::kFloat || out->dtype != ScalarType::kFloat) return DtypeError(kName, *in);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(*in, *out, kName));
  int32_t d;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in->rank, &d));
  size_t outer = 1, inner = 1;
  const size_t size = in->rank == 0 ? 1 : static_cast<size_t>(in->sizes[d]);
  for (int32_t k = 0; k < d; ++k) outer *= static_cast<size_t>(in->sizes[k]);
  for (int32_t k = d + 1; k < in->rank; ++k) inner *= static_cast<size_t>(in->sizes[k]);
  if (size == 0) return Status::Ok();
  const float* pi = in->Data<const float>();
  float* po = out->Data<float>();
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
