#include "cc/kernels/kernel_util.h"

namespace ethosu_sdk::kernels {

Status NormalizeDim(int64_t dim, int32_t rank, int32_t* out) {
  const int64_t r = rank == 0 ? 1 : rank;  // a scalar accepts dim 0 and -1
  if (dim < -r || dim >= r) {
    return Status::Error(ErrorCode::kInvalidArgument, "dim out of range (%lld, %lld)",
                         static_cast<long long>(dim), static_cast<long long>(rank));
  }
  *out = static_cast<int32_t>(dim < 0 ? dim + r : dim);
  return Status::Ok();
}

Status ExpectDtype(const Tensor& t, ScalarType dtype, const char* what) {
  if (t.dtype != dtype) {
    return Status::Error(ErrorCode::kInvalidArgument, "unexpected dtype: %s", what);
  }
  return Status::Ok();
}

Status ExpectSameShape(const Tensor& a, const Tensor& b, const char* what) {
  if (!a.SameShape(b)) {
    return Status::Error(ErrorCode::kInvalidArgument, "shape mismatch: %s", what);
  }
  return Status::Ok();
}

Status ExpectShape(const Tensor& out, const int32_t* sizes, int32_t rank, const char* what) {
  bool same = out.rank == rank;
  for (int32_t d = 0; same && d < rank; ++d) same = out.sizes[d] == sizes[d];
  if (!same) {
    return Status::Error(ErrorCode::kInvalidArgument, "output shape mismatch: %s", what);
  }
  return Status::Ok();
}

Status ShapeError(const char* what) {
  return Status::Error(ErrorCode::kInvalidArgument, "%s", what);
}

Status ShapeError(const char* what, int64_t a) {
  return Status::Error(ErrorCode::kInvalidArgument, "%s (%lld)", what, static_cast<long long>(a));
}

Status ShapeError(const char* what, int64_t a, int64_t b) {
  return Status::Error(ErrorCode::kInvalidArgument, "%s (%lld, %lld)", what,
                       static_cast<long long>(a), static_cast<long long>(b));
}

Status DtypeError(const char* op, const Tensor& t) {
  (void)t;
  return Status::Error(ErrorCode::kNotSupported, "dtype not supported by: %s", op);
}

bool Overlap(const Tensor& a, const Tensor& b) {
  if (a.nbytes == 0 || b.nbytes == 0) return false;
  const uintptr_t a_start = reinterpret_cast<uintptr_t>(a.data),
                  b_start = reinterpret_cast<uintptr_t>(b.data);
  return a_start < b_start + b.nbytes && b_start < a_start + a.nbytes;
}

Status BroadcastIndex::Init(const Tensor& in, const Tensor& out) {
  if (in.rank > out.rank)
    return ShapeError("broadcast: input rank above output rank", in.rank, out.rank);
  rank_ = out.rank;
  trivial_ = in.SameShape(out);
  size_t stride = 1;
  for (int32_t d = out.rank - 1; d >= 0; --d) {
    const int32_t in_d = d - (out.rank - in.rank);
    const int32_t in_size = in_d >= 0 ? in.sizes[in_d] : 1;
    if (in_size == out.sizes[d]) {
      strides_[d] = stride;
    } else if (in_size == 1) {
      strides_[d] = 0;
    } else {
      return ShapeError("broadcast: size mismatch at dim", d, in_size);
    }
    stride *= static_cast<size_t>(in_size);
  }
  return Status::Ok();
}

size_t BroadcastIndex::Map(const int32_t* coord) const {
  size_t index = 0;
  for (int32_t d = 0; d < rank_; ++d) index += strides_[d] * static_cast<size_t>(coord[d]);
  return index;
}

void RowMajorStrides(const Tensor& t, size_t* strides) {
  size_t stride = 1;
  for (int32_t d = t.rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= static_cast<size_t>(t.sizes[d]);
  }
}

void OuterInner(const Tensor& t, int32_t dim, size_t* outer, size_t* inner) {
  *outer = 1;
  *inner = 1;
  for (int32_t k = 0; k < dim; ++k) *outer *= static_cast<size_t>(t.sizes[k]);
  for (int32_t k = dim + 1; k < t.rank; ++k) *inner *= static_cast<size_t>(t.sizes[k]);
}

void NextCoord(int32_t* coord, const int32_t* sizes, int32_t rank) {
  for (int32_t d = rank - 1; d >= 0; --d) {
    if (++coord[d] < sizes[d]) return;
    coord[d] = 0;
  }
}

}  // namespace ethosu_sdk::kernels
