// Reductions beyond reduce.cc, for float and integer dtypes: amin, any,
// prod, var, mean.dtype_out, max/min (whole tensor and per dim with
// indices), cumsum and _log_softmax. Float sums accumulate in double
// (PyTorch's CPU accumulate type for float) and round once; integer
// products and sums wrap; max/min propagate NaN and keep the first index of
// a tie, as PyTorch does.
#include <cmath>
#include <cstdint>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// Where each input element lands in the output of a reduction over some dims.
struct Reduction {
  bool reduced[runtime::kMaxRank] = {};
  size_t out_strides[runtime::kMaxRank] = {};  // 0 on reduced dims
  size_t count = 1;                            // input elements per output element
};

// Checks `out` against the reduction of `in` over `dims` (all dims when
// `dims` is empty or absent) and plans it.
Status PlanReduction(const Tensor& in, std::optional<IntList> dims, bool keepdim, const Tensor& out,
                     const char* name, Reduction* plan) {
  if (!dims || dims->size() == 0) {
    for (int32_t d = 0; d < in.rank; ++d) plan->reduced[d] = true;
  } else {
    for (int64_t dim : *dims) {
      int32_t d = 0;
      ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank, &d));
      if (d < in.rank) plan->reduced[d] = true;
    }
  }
  int32_t shape[runtime::kMaxRank];
  int32_t rank = 0;
  for (int32_t d = 0; d < in.rank; ++d) {
    if (plan->reduced[d]) {
      plan->count *= static_cast<size_t>(in.sizes[d]);
      if (keepdim) shape[rank++] = 1;
    } else {
      shape[rank++] = in.sizes[d];
    }
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, rank, name));
  size_t stride = 1;
  for (int32_t d = in.rank - 1; d >= 0; --d) {
    plan->out_strides[d] = plan->reduced[d] ? 0 : stride;
    if (!plan->reduced[d]) stride *= static_cast<size_t>(in.sizes[d]);
  }
  return Status::Ok();
}

// Calls fn(input_index, output_index, first, coord) for every input element
// in order; `first`: the first element that reaches that output.
template <typename Fn>
void ForEachReduced(const Tensor& in, const Reduction& plan, Fn fn) {
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < in.numel; ++i) {
    size_t o = 0;
    bool first = true;
    for (int32_t d = 0; d < in.rank; ++d) {
      o += plan.out_strides[d] * static_cast<size_t>(coord[d]);
      if (plan.reduced[d] && coord[d] != 0) first = false;
    }
    fn(i, o, first, coord);
    NextCoord(coord, in.sizes, in.rank);
  }
}

// Whether `v` replaces `best` for a max (or min): NaN wins and stays.
bool Replaces(double v, double best, bool max) {
  if (std::isnan(best)) return false;
  if (std::isnan(v)) return true;
  return max ? v > best : v < best;
}

// Max or min over dims into `values`; with `indices`, also the first
// position of the extremum along `index_dim` (a single reduced dim).
Status Extreme(const Tensor& in, std::optional<IntList> dims, bool keepdim, Tensor& values,
               Tensor* indices, int32_t index_dim, bool max, const char* name) {
  if (!IsKnownDtype(in.dtype) || in.dtype != values.dtype) return DtypeError(name, values);
  Reduction plan;
  ESDK_RETURN_IF_ERROR(PlanReduction(in, dims, keepdim, values, name, &plan));
  if (indices != nullptr) {
    if (indices->dtype != ScalarType::kLong) return DtypeError(name, *indices);
    ESDK_RETURN_IF_ERROR(ExpectSameShape(values, *indices, name));
  }
  if (plan.count == 0 && values.numel > 0) {
    return Status::Error(ErrorCode::kInvalidArgument, "%s over an empty dimension", name);
  }
  const bool floating = IsFloating(in.dtype);
  ForEachReduced(in, plan, [&](size_t i, size_t o, bool first, const int32_t* coord) {
    bool take;
    if (floating) {
      take = first || Replaces(LoadDouble(in, i), LoadDouble(values, o), max);
      if (take) StoreDouble(values, o, LoadDouble(in, i));
    } else {
      const int64_t v = LoadInt(in, i), best = LoadInt(values, o);
      take = first || (max ? v > best : v < best);
      if (take) StoreInt(values, o, v);
    }
    if (take && indices != nullptr)
      indices->Data<int64_t>()[o] = in.rank == 0 ? 0 : coord[index_dim];
  });
  return Status::Ok();
}

// Max or min along one dim, with indices (max.dim_max, min.dim_min).
Status ExtremeDim(const Tensor& in, int64_t dim, bool keepdim, Tensor& values, Tensor& indices,
                  bool max, const char* name) {
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank, &d));
  const int64_t dims[] = {dim};
  return Extreme(in, IntList(dims, 1), keepdim, values, &indices, d, max, name);
}

// Sum (or product) of each output's elements: doubles for float outs,
// wrapping int64 for integer outs.
Status Accumulate(const Tensor& in, std::optional<IntList> dims, bool keepdim, Tensor& out,
                  bool product, const char* name) {
  if (!IsKnownDtype(in.dtype) || !IsKnownDtype(out.dtype)) return DtypeError(name, out);
  if (IsFloating(in.dtype) && !IsFloating(out.dtype)) return DtypeError(name, out);
  Reduction plan;
  ESDK_RETURN_IF_ERROR(PlanReduction(in, dims, keepdim, out, name, &plan));
  if (IsFloating(out.dtype)) {
    for (size_t o = 0; o < out.numel; ++o) StoreDouble(out, o, product ? 1.0 : 0.0);
    // Accumulated per output in double, then rounded: a second pass keeps
    // no scratch buffer (no heap in firmware).
    ForEachReduced(in, plan, [&](size_t i, size_t o, bool first, const int32_t*) {
      const double v = LoadDouble(in, i);
      const double acc = first ? (product ? 1.0 : 0.0) : LoadDouble(out, o);
      StoreDouble(out, o, product ? acc * v : acc + v);
    });
    return Status::Ok();
  }
  for (size_t o = 0; o < out.numel; ++o) StoreInt(out, o, product ? 1 : 0);
  ForEachReduced(in, plan, [&](size_t i, size_t o, bool, const int32_t*) {
    const uint64_t acc = static_cast<uint64_t>(LoadInt(out, o)),
                   v = static_cast<uint64_t>(LoadInt(in, i));
    StoreInt(out, o, static_cast<int64_t>(product ? acc * v : acc + v));
  });
  return Status::Ok();
}

// Variance over dims with `correction` (Bessel's: 1): two passes in double.
Status Variance(const Tensor& in, std::optional<IntList> dims, double correction, bool keepdim,
                Tensor& out, const char* name) {
  if (!IsFloating(in.dtype) || in.dtype != out.dtype) return DtypeError(name, out);
  Reduction plan;
  ESDK_RETURN_IF_ERROR(PlanReduction(in, dims, keepdim, out, name, &plan));
  const double n = static_cast<double>(plan.count);
  // Per output: walk its reduced coordinates twice (mean, then squared
  // deviations), so no scratch buffer is needed.
  size_t in_strides[runtime::kMaxRank];
  RowMajorStrides(in, in_strides);
  int32_t red_sizes[runtime::kMaxRank];
  int32_t red_dims[runtime::kMaxRank];
  int32_t red_rank = 0;
  for (int32_t d = 0; d < in.rank; ++d) {
    if (plan.reduced[d]) {
      red_dims[red_rank] = d;
      red_sizes[red_rank++] = in.sizes[d];
    }
  }
  for (size_t o = 0; o < out.numel; ++o) {
    // The input offset of output o's first element: o decoded over the kept dims.
    size_t base = 0, rest = o;
    for (int32_t d = in.rank - 1; d >= 0; --d) {
      if (plan.reduced[d]) continue;
      base += in_strides[d] * (rest % static_cast<size_t>(in.sizes[d]));
      rest /= static_cast<size_t>(in.sizes[d]);
    }
    int32_t red[runtime::kMaxRank] = {};
    double sq = 0.0, sum_v = 0.0;
    for (size_t k = 0; k < plan.count; ++k) {
      size_t at = base;
      for (int32_t r = 0; r < red_rank; ++r)
        at += in_strides[red_dims[r]] * static_cast<size_t>(red[r]);
      sum_v += LoadDouble(in, at);
      NextCoord(red, red_sizes, red_rank);
    }
    const double mean = sum_v / n;
    for (size_t k = 0; k < plan.count; ++k) {
      size_t at = base;
      for (int32_t r = 0; r < red_rank; ++r)
        at += in_strides[red_dims[r]] * static_cast<size_t>(red[r]);
      const double dev = LoadDouble(in, at) - mean;
      sq += dev * dev;
      NextCoord(red, red_sizes, red_rank);
    }
    // n <= correction divides by zero or less: inf or NaN, as in PyTorch.
    const double divisor = n - correction;
    StoreDouble(out, o,
                divisor > 0 ? sq / divisor : (sq == 0.0 || std::isnan(sq) ? NAN : INFINITY));
  }
  return Status::Ok();
}

}  // namespace

Status AminOut(const Tensor& self, IntList dim, bool keepdim, Tensor& out) {
  return Extreme(self, dim, keepdim, out, nullptr, 0, false, kAminOutName);
}

Status MaxDimMax(const Tensor& self, int64_t dim, bool keepdim, Tensor& max, Tensor& max_values) {
  return ExtremeDim(self, dim, keepdim, max, max_values, true, kMaxDimMaxName);
}

Status MinDimMin(const Tensor& self, int64_t dim, bool keepdim, Tensor& min, Tensor& min_indices) {
  return ExtremeDim(self, dim, keepdim, min, min_indices, false, kMinDimMinName);
}

Status MaxUnaryOut(const Tensor& self, Tensor& out) {
  if (self.numel == 0) return Status::Error(ErrorCode::kInvalidArgument, "max of an empty tensor");
  return Extreme(self, std::nullopt, false, out, nullptr, 0, true, kMaxUnaryOutName);
}

Status MinUnaryOut(const Tensor& self, Tensor& out) {
  if (self.numel == 0) return Status::Error(ErrorCode::kInvalidArgument, "min of an empty tensor");
  return Extreme(self, std::nullopt, false, out, nullptr, 0, false, kMinUnaryOutName);
}

// any: whether some element is nonzero (NaN counts), into bool (or uint8).
Status AnyDimsOut(const Tensor& self, std::optional<IntList> dim, bool keepdim, Tensor& out) {
  if (!IsKnownDtype(self.dtype) ||
      (out.dtype != ScalarType::kBool && out.dtype != ScalarType::kByte)) {
    return DtypeError(kAnyDimsOutName, out);
  }
  Reduction plan;
  // any.dims with dim=[] reduces nothing (unlike sum's empty list).
  if (dim && dim->size() == 0) {
    ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kAnyDimsOutName));
    for (size_t i = 0; i < out.numel; ++i)
      StoreInt(out, i, IsFloating(self.dtype) ? LoadDouble(self, i) != 0.0 : LoadInt(self, i) != 0);
    return Status::Ok();
  }
  ESDK_RETURN_IF_ERROR(PlanReduction(self, dim, keepdim, out, kAnyDimsOutName, &plan));
  for (size_t o = 0; o < out.numel; ++o) StoreInt(out, o, 0);
  ForEachReduced(self, plan, [&](size_t i, size_t o, bool, const int32_t*) {
    if (IsFloating(self.dtype) ? LoadDouble(self, i) != 0.0 : LoadInt(self, i) != 0)
      StoreInt(out, o, 1);
  });
  return Status::Ok();
}

Status AnyAllOut(const Tensor& self, Tensor& out) {
  return AnyDimsOut(self, std::nullopt, false, out);
}

Status AnyOut(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  const int64_t dims[] = {dim};
  if (self.rank == 0) {
    int32_t d = 0;
    ESDK_RETURN_IF_ERROR(NormalizeDim(dim, 0, &d));
    return AnyDimsOut(self, std::nullopt, keepdim, out);
  }
  return AnyDimsOut(self, IntList(dims, 1), keepdim, out);
}

Status ProdOut(const Tensor& self, std::optional<int64_t> /*dtype*/, Tensor& out) {
  return Accumulate(self, std::nullopt, false, out, true, kProdOutName);
}

Status ProdIntOut(const Tensor& self, int64_t dim, bool keepdim, std::optional<int64_t> /*dtype*/,
                  Tensor& out) {
  const int64_t dims[] = {dim};
  if (self.rank == 0) {
    int32_t d = 0;
    ESDK_RETURN_IF_ERROR(NormalizeDim(dim, 0, &d));
    return Accumulate(self, std::nullopt, keepdim, out, true, kProdIntOutName);
  }
  return Accumulate(self, IntList(dims, 1), keepdim, out, true, kProdIntOutName);
}

// mean.dtype_out: the mean of every element, in out's float dtype.
Status MeanDtypeOut(const Tensor& self, std::optional<int64_t> /*dtype*/, Tensor& out) {
  if (!IsFloating(out.dtype)) return DtypeError(kMeanDtypeOutName, out);
  ESDK_RETURN_IF_ERROR(Accumulate(self, std::nullopt, false, out, false, kMeanDtypeOutName));
  StoreDouble(out, 0, LoadDouble(out, 0) / static_cast<double>(self.numel));
  return Status::Ok();
}

Status VarCorrectionOut(const Tensor& self, std::optional<IntList> dim,
                        std::optional<double> correction, bool keepdim, Tensor& out) {
  return Variance(self, dim, correction.value_or(1.0), keepdim, out, kVarCorrectionOutName);
}

// var_mean.correction_out: the variance into out0 and the mean into out1.
Status VarMeanCorrectionOut(const Tensor& self, std::optional<IntList> dim,
                            std::optional<double> correction, bool keepdim, Tensor& out0,
                            Tensor& out1) {
  ESDK_RETURN_IF_ERROR(
      Variance(self, dim, correction.value_or(1.0), keepdim, out0, kVarMeanCorrectionOutName));
  if (out1.dtype != self.dtype) return DtypeError(kVarMeanCorrectionOutName, out1);
  ESDK_RETURN_IF_ERROR(Accumulate(self, dim, keepdim, out1, false, kVarMeanCorrectionOutName));
  Reduction plan;
  ESDK_RETURN_IF_ERROR(PlanReduction(self, dim, keepdim, out1, kVarMeanCorrectionOutName, &plan));
  for (size_t o = 0; o < out1.numel; ++o)
    StoreDouble(out1, o, LoadDouble(out1, o) / static_cast<double>(plan.count));
  return Status::Ok();
}

Status VarOut(const Tensor& self, std::optional<IntList> dim, bool unbiased, bool keepdim,
              Tensor& out) {
  return Variance(self, dim, unbiased ? 1.0 : 0.0, keepdim, out, kVarOutName);
}

// cumsum along dim, in out's dtype (integers: int64 wrapping; floats: a
// double running sum rounded per element).
Status CumsumOut(const Tensor& self, int64_t dim, std::optional<int64_t> /*dtype*/, Tensor& out) {
  if (!IsKnownDtype(self.dtype) || !IsKnownDtype(out.dtype)) return DtypeError(kCumsumOutName, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kCumsumOutName));
  // ExecuTorch's portable cumsum refuses a 0-D input (PyTorch takes dim 0).
  if (self.rank == 0)
    return Status::Error(ErrorCode::kNotSupported, "cumsum of a 0-D tensor: reshape it to 1-D");
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  size_t outer, inner;
  OuterInner(self, d, &outer, &inner);
  const size_t size = self.rank == 0 ? 1 : static_cast<size_t>(self.sizes[d]);
  const bool floating = IsFloating(out.dtype);
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      double acc = 0.0;
      uint64_t acc_int = 0;
      for (size_t k = 0; k < size; ++k) {
        const size_t at = (o * size + k) * inner + i;
        if (floating) {
          acc += LoadDouble(self, at);
          StoreDouble(out, at, acc);
        } else {
          acc_int += static_cast<uint64_t>(LoadInt(self, at));
          StoreInt(out, at, static_cast<int64_t>(acc_int));
        }
      }
    }
  }
  return Status::Ok();
}

// _log_softmax along dim: x - max - log(sum(exp(x - max))), in float32.
Status LogSoftmaxOut(const Tensor& in, int64_t dim, bool half_to_float, Tensor& out) {
  if (half_to_float) return Status::Error(ErrorCode::kNotSupported, "log_softmax half_to_float");
  if (in.dtype != ScalarType::kFloat || out.dtype != ScalarType::kFloat)
    return DtypeError(kLogSoftmaxOutName, in);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, kLogSoftmaxOutName));
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank, &d));
  size_t outer, inner;
  OuterInner(in, d, &outer, &inner);
  const size_t size = in.rank == 0 ? 1 : static_cast<size_t>(in.sizes[d]);
  const float* pi = in.Data<const float>();
  float* po = out.Data<float>();
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner && size > 0; ++i) {
      const size_t base = o * size * inner + i;
      float max_value = pi[base];
      for (size_t k = 1; k < size; ++k)
        max_value = pi[base + k * inner] > max_value ? pi[base + k * inner] : max_value;
      float sum = 0.0f;
      for (size_t k = 0; k < size; ++k) sum += std::exp(pi[base + k * inner] - max_value);
      const float log_sum = std::log(sum);
      for (size_t k = 0; k < size; ++k)
        po[base + k * inner] = pi[base + k * inner] - max_value - log_sum;
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
