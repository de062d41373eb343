// Tensors made from Scalars and sizes: full, full_like, zeros, ones,
// scalar_tensor, fill, arange, and empty/_empty_dim_order (whose contents
// are unspecified; planned memory is left as it is).
#include <cmath>
#include <cstdint>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// `out` has the sizes `size` lists.
Status ExpectSizes(const Tensor& out, IntList size, const char* name) {
  if (size.size() > static_cast<size_t>(runtime::kMaxRank))
    return ShapeError("rank above 8", static_cast<int64_t>(size.size()));
  int32_t shape[runtime::kMaxRank];
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] < 0 || size[d] > INT32_MAX) return ShapeError("size", size[d]);
    shape[d] = static_cast<int32_t>(size[d]);
  }
  return ExpectShape(out, shape, static_cast<int32_t>(size.size()), name);
}

// Every element of `out` set to `value` converted to its dtype.
Status Fill(Tensor& out, double value, const char* name) {
  if (!IsKnownDtype(out.dtype)) return DtypeError(name, out);
  for (size_t i = 0; i < out.numel; ++i) StoreDouble(out, i, value);
  return Status::Ok();
}

}  // namespace

Status FullOut(IntList size, double fill_value, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSizes(out, size, kFullOutName));
  return Fill(out, fill_value, kFullOutName);
}

Status FullLikeOut(const Tensor& self, double fill_value, std::optional<int64_t> /*memory_format*/,
                   Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kFullLikeOutName));
  return Fill(out, fill_value, kFullLikeOutName);
}

Status ZerosOut(IntList size, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSizes(out, size, kZerosOutName));
  return Fill(out, 0.0, kZerosOutName);
}

Status OnesOut(IntList size, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSizes(out, size, kOnesOutName));
  return Fill(out, 1.0, kOnesOutName);
}

Status ScalarTensorOut(double s, Tensor& out) {
  if (out.numel != 1 || out.rank != 0)
    return ShapeError("scalar_tensor out must be rank 0", out.rank);
  return Fill(out, s, kScalarTensorOutName);
}

Status FillScalarOut(const Tensor& self, double value, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kFillScalarOutName));
  return Fill(out, value, kFillScalarOutName);
}

// fill.Tensor_out: `value` is a one-element tensor.
Status FillTensorOut(const Tensor& self, const Tensor& value, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kFillTensorOutName));
  if (value.rank != 0 || !IsKnownDtype(value.dtype))
    return ShapeError("fill value must be a 0-D tensor", value.rank);
  if (IsFloating(value.dtype)) return Fill(out, LoadDouble(value, 0), kFillTensorOutName);
  if (!IsKnownDtype(out.dtype)) return DtypeError(kFillTensorOutName, out);
  const int64_t v = LoadInt(value, 0);
  for (size_t i = 0; i < out.numel; ++i) StoreInt(out, i, v);
  return Status::Ok();
}

// arange(start, end, step): ceil((end - start) / step) values start + i * step,
// computed in double (PyTorch's accumulate type) and rounded to out's dtype.
Status ArangeStartOut(double start, double end, double step, Tensor& out) {
  if (step == 0.0 || !std::isfinite(start) || !std::isfinite(end) || !std::isfinite(step)) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "arange needs finite bounds and a nonzero step");
  }
  if ((step > 0 && end < start) || (step < 0 && end > start)) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "arange bounds inconsistent with the step's sign");
  }
  const double count = std::ceil((end - start) / step);
  if (out.rank != 1 || static_cast<double>(out.sizes[0]) != count) {
    return ShapeError("arange out must be 1-D with ceil((end - start) / step) elements",
                      static_cast<int64_t>(count));
  }
  if (!IsKnownDtype(out.dtype) || out.dtype == ScalarType::kBool)
    return DtypeError(kArangeStartOutName, out);
  for (size_t i = 0; i < out.numel; ++i) StoreDouble(out, i, start + static_cast<double>(i) * step);
  return Status::Ok();
}

Status ArangeOut(double end, Tensor& out) { return ArangeStartOut(0.0, end, 1.0, out); }

// empty.out: the planned memory as it is (PyTorch leaves it uninitialised).
Status EmptyOut(IntList size, std::optional<int64_t> /*memory_format*/, Tensor& out) {
  return ExpectSizes(out, size, kEmptyOutName);
}

Status EmptyDimOrderOut(IntList size, std::optional<IntList> /*dim_order*/, Tensor& out) {
  return ExpectSizes(out, size, kEmptyDimOrderOutName);
}

}  // namespace ethosu_sdk::kernels
