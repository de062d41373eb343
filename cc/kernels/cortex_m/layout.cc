#include "cc/kernels/cortex_m/layout.h"

#include "cc/kernels/kernel_util.h"

namespace ethosu_sdk::kernels::cortex_m {

void ElementStrides(const Tensor& t, int64_t* strides) {
  int64_t stride = 1;
  for (int32_t i = t.rank - 1; i >= 0; --i) {
    const int32_t dim = t.dim_order[i];
    strides[dim] = stride;
    stride *= t.sizes[dim];
  }
}

Status MakeView4(const Tensor& t, const int* dims, const char* what, View4* view) {
  if (t.rank != 4)
    return Status::Error(ErrorCode::kInvalidArgument, "%s: a 4-D tensor, not %d-D", what,
                         static_cast<int>(t.rank));
  int64_t strides[runtime::kMaxRank];
  ElementStrides(t, strides);
  view->n = t.sizes[dims[0]];
  view->c = t.sizes[dims[1]];
  view->h = t.sizes[dims[2]];
  view->w = t.sizes[dims[3]];
  view->sn = strides[dims[0]];
  view->sc = strides[dims[1]];
  view->sh = strides[dims[2]];
  view->sw = strides[dims[3]];
  return Status::Ok();
}

Status ExpectType(const Tensor& t, ScalarType dtype, const char* what) {
  if (t.dtype == dtype) return Status::Ok();
  return Status::Error(ErrorCode::kInvalidArgument, "%s: dtype %s, expected %s", what,
                       runtime::ScalarTypeName(t.dtype), runtime::ScalarTypeName(dtype));
}

Status ExpectRange(int64_t v, int64_t lo, int64_t hi, const char* what) {
  if (v >= lo && v <= hi) return Status::Ok();
  return Status::Error(ErrorCode::kInvalidArgument, "%s is %lld, outside [%lld, %lld]", what,
                       static_cast<long long>(v), static_cast<long long>(lo),
                       static_cast<long long>(hi));
}

Status ExpectChannels(const Tensor& t, int64_t count, const char* what) {
  ESDK_RETURN_IF_ERROR(ExpectType(t, ScalarType::kInt, what));
  if (static_cast<int64_t>(t.numel) != count)
    return ShapeError(what, static_cast<int64_t>(t.numel), count);
  return Status::Ok();
}

Status Pair(IntList list, int64_t lo, const char* what, int32_t* first, int32_t* second) {
  if (list.size() != 1 && list.size() != 2)
    return ShapeError(what, static_cast<int64_t>(list.size()));
  const int64_t a = list[0], b = list[list.size() - 1];
  constexpr int64_t kMax = 1 << 16;  // far beyond any image; keeps index arithmetic in int32
  ESDK_RETURN_IF_ERROR(ExpectRange(a, lo, kMax, what));
  ESDK_RETURN_IF_ERROR(ExpectRange(b, lo, kMax, what));
  *first = static_cast<int32_t>(a);
  *second = static_cast<int32_t>(b);
  return Status::Ok();
}

Status ExpectActivation(int64_t activation_min, int64_t activation_max) {
  ESDK_RETURN_IF_ERROR(ExpectRange(activation_min, -128, 127, "activation_min"));
  ESDK_RETURN_IF_ERROR(ExpectRange(activation_max, activation_min, 127, "activation_max"));
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels::cortex_m
