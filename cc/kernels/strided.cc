// Views materialised as copies, for any dtype: as_strided_copy (an explicit
// size/stride/offset view of the contiguous input), diagonal_copy and
// unfold_copy (sliding windows along a dim as a new last dim). Every read is
// checked against the input's extent.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// Copies the view (sizes, element strides, offset) of `in` into `out`.
Status CopyView(const Tensor& in, const int32_t* sizes, const int64_t* strides, int32_t rank,
                int64_t offset, Tensor& out, const char* name) {
  if (in.dtype != out.dtype) return DtypeError(name, out);
  ESDK_RETURN_IF_ERROR(ExpectShape(out, sizes, rank, name));
  if (Overlap(in, out)) return Status::Error(ErrorCode::kNotSupported, "view copy in place");
  // The view's furthest element must lie inside the input.
  int64_t last = offset;
  for (int32_t d = 0; d < rank; ++d) {
    if (sizes[d] == 0) return Status::Ok();
    if (strides[d] < 0) return ShapeError("negative stride", strides[d]);
    last += strides[d] * (sizes[d] - 1);
  }
  if (offset < 0 || last >= static_cast<int64_t>(in.numel))
    return ShapeError("view reaches outside its input", last, static_cast<int64_t>(in.numel));
  const size_t element = in.ElementSize();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    int64_t src = offset;
    for (int32_t d = 0; d < rank; ++d) src += strides[d] * coord[d];
    std::memcpy(out.Data<uint8_t>() + i * element,
                in.Data<const uint8_t>() + static_cast<size_t>(src) * element, element);
    NextCoord(coord, sizes, rank);
  }
  return Status::Ok();
}

void ContiguousStrides(const Tensor& t, int64_t* strides) {
  int64_t stride = 1;
  for (int32_t d = t.rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= t.sizes[d];
  }
}

}  // namespace

Status AsStridedCopyOut(const Tensor& self, IntList size, IntList stride,
                        std::optional<int64_t> storage_offset, Tensor& out) {
  if (size.size() != stride.size() || size.size() > static_cast<size_t>(runtime::kMaxRank)) {
    return ShapeError("as_strided size and stride counts", static_cast<int64_t>(size.size()),
                      static_cast<int64_t>(stride.size()));
  }
  int32_t sizes[runtime::kMaxRank];
  int64_t strides[runtime::kMaxRank];
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] < 0 || size[d] > INT32_MAX) return ShapeError("as_strided size", size[d]);
    sizes[d] = static_cast<int32_t>(size[d]);
    strides[d] = stride[d];
  }
  return CopyView(self, sizes, strides, static_cast<int32_t>(size.size()),
                  storage_offset.value_or(0), out, kAsStridedCopyOutName);
}

// diagonal_copy: the diagonal (offset above the main one when positive) of
// dims dim1 and dim2, which become a last dim.
Status DiagonalCopyOut(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2,
                       Tensor& out) {
  int32_t a = 0, b = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim1, self.rank, &a));
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim2, self.rank, &b));
  if (self.rank < 2 || a == b) return ShapeError("diagonal needs two distinct dims", dim1, dim2);
  int64_t strides[runtime::kMaxRank];
  ContiguousStrides(self, strides);
  int64_t length = offset >= 0 ? std::min<int64_t>(self.sizes[a], self.sizes[b] - offset)
                               : std::min<int64_t>(self.sizes[a] + offset, self.sizes[b]);
  if (length < 0) length = 0;
  const int64_t start =
      length == 0 ? 0 : (offset >= 0 ? offset * strides[b] : -offset * strides[a]);
  int32_t sizes[runtime::kMaxRank];
  int64_t view_strides[runtime::kMaxRank];
  int32_t rank = 0;
  for (int32_t d = 0; d < self.rank; ++d) {
    if (d == a || d == b) continue;
    sizes[rank] = self.sizes[d];
    view_strides[rank++] = strides[d];
  }
  sizes[rank] = static_cast<int32_t>(length);
  view_strides[rank++] = strides[a] + strides[b];
  return CopyView(self, sizes, view_strides, rank, start, out, kDiagonalCopyOutName);
}

// unfold_copy(self, dimension, size, step): windows of `size` every `step`
// along `dimension`, the window as a new last dim.
Status UnfoldCopyOut(const Tensor& self, int64_t dimension, int64_t size, int64_t step,
                     Tensor& out) {
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dimension, self.rank, &d));
  const int64_t extent = self.rank == 0 ? 1 : self.sizes[d];
  if (size < 0 || size > extent || step <= 0)
    return ShapeError("unfold size and step (size, step)", size, step);
  if (self.rank + 1 > runtime::kMaxRank) return ShapeError("unfold rank", self.rank);
  int64_t strides[runtime::kMaxRank];
  ContiguousStrides(self, strides);
  int32_t sizes[runtime::kMaxRank];
  int64_t view_strides[runtime::kMaxRank];
  for (int32_t k = 0; k < self.rank; ++k) {
    sizes[k] = k == d ? static_cast<int32_t>((extent - size) / step + 1) : self.sizes[k];
    view_strides[k] = k == d ? strides[k] * step : strides[k];
  }
  const int32_t rank = self.rank == 0 ? 1 : self.rank + 1;
  if (self.rank == 0) {
    sizes[0] = static_cast<int32_t>(size);
    view_strides[0] = 1;
  } else {
    sizes[self.rank] = static_cast<int32_t>(size);
    view_strides[self.rank] = strides[d];
  }
  return CopyView(self, sizes, view_strides, rank, 0, out, kUnfoldCopyOutName);
}

}  // namespace ethosu_sdk::kernels
