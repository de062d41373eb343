// Data movement for any dtype: view_copy, permute_copy, cat, slice_copy,
// clone. Only bytes move, so these are exact by construction.
#include <cstdint>
#include <cstring>
#include <optional>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

Status CopyWhole(const Tensor& in, Tensor& out, const char* name) {
  if (in.dtype != out.dtype) return DtypeError(name, in);
  if (in.numel != out.numel) {
    return ShapeError("element count differs", static_cast<int64_t>(in.numel),
                      static_cast<int64_t>(out.numel));
  }
  if (in.nbytes > 0 && in.data != out.data) std::memmove(out.data, in.data, in.nbytes);
  return Status::Ok();
}

}  // namespace

// view_copy(self, SymInt[] size, *, out)
Status ViewCopyOut(const Tensor& in, IntList size, Tensor& out) {
  if (static_cast<int64_t>(size.size()) != out.rank)
    return ShapeError("view_copy rank", static_cast<int64_t>(size.size()), out.rank);
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] != -1 && size[d] != out.sizes[d])
      return ShapeError("view_copy size", size[d], out.sizes[d]);
  }
  return CopyWhole(in, out, kViewCopyOutName);
}

// unsqueeze_copy(self, int dim, *, out): a size-1 dim inserted at `dim`.
Status UnsqueezeCopyOut(const Tensor& in, int64_t dim, Tensor& out) {
  if (in.rank >= runtime::kMaxRank) return ShapeError("unsqueeze of a rank-8 tensor");
  int32_t d;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank + 1, &d));
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0, j = 0; k <= in.rank; ++k) shape[k] = k == d ? 1 : in.sizes[j++];
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, in.rank + 1, kUnsqueezeCopyOutName));
  return CopyWhole(in, out, kUnsqueezeCopyOutName);
}

// squeeze_copy.dims(self, int[] dim, *, out): size-1 dims among `dim` removed.
Status SqueezeCopyDimsOut(const Tensor& in, IntList dims, Tensor& out) {
  bool drop[runtime::kMaxRank] = {};
  for (int64_t dim : dims) {
    int32_t d;
    ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank, &d));
    if (d < in.rank && in.sizes[d] == 1) drop[d] = true;
  }
  int32_t shape[runtime::kMaxRank];
  int32_t rank = 0;
  for (int32_t k = 0; k < in.rank; ++k) {
    if (!drop[k]) shape[rank++] = in.sizes[k];
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, rank, kSqueezeCopyDimsOutName));
  return CopyWhole(in, out, kSqueezeCopyDimsOutName);
}

// expand_copy(self, SymInt[] size, *, bool implicit, out): `self` broadcast
// to `size` (-1 keeps a dim), materialised.
Status ExpandCopyOut(const Tensor& in, IntList size, bool /*implicit*/, Tensor& out) {
  if (in.dtype != out.dtype) return DtypeError(kExpandCopyOutName, out);
  if (size.size() > static_cast<size_t>(runtime::kMaxRank) ||
      size.size() < static_cast<size_t>(in.rank)) {
    return ShapeError("expand size rank (size, input)", static_cast<int64_t>(size.size()), in.rank);
  }
  int32_t shape[runtime::kMaxRank];
  const int32_t rank = static_cast<int32_t>(size.size());
  for (int32_t d = 0; d < rank; ++d) {
    const int32_t in_dim = d - (rank - in.rank);  // input dims align to the right
    const int64_t want = size[d];
    if (want == -1 && in_dim >= 0) {
      shape[d] = in.sizes[in_dim];
    } else if (want < 0 || want > INT32_MAX) {
      return ShapeError("expand size", want);
    } else {
      shape[d] = static_cast<int32_t>(want);
    }
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, rank, kExpandCopyOutName));
  BroadcastIndex index;
  ESDK_RETURN_IF_ERROR(index.Init(in, out));
  const size_t element = out.ElementSize();
  const uint8_t* pi = in.Data<const uint8_t>();
  uint8_t* po = out.Data<uint8_t>();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    std::memcpy(po + i * element, pi + index.Map(coord) * element, element);
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

// clone(self, *, memory_format?, out): contiguous only, whatever the format.
Status CloneOut(const Tensor& in, std::optional<int64_t> /*memory_format*/, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, kCloneOutName));
  return CopyWhole(in, out, kCloneOutName);
}

// permute_copy(self, int[] dims, *, out)
Status PermuteCopyOut(const Tensor& in, IntList dims, Tensor& out) {
  if (in.dtype != out.dtype) return DtypeError(kPermuteCopyOutName, in);
  if (static_cast<int64_t>(dims.size()) != in.rank)
    return ShapeError("permute rank", static_cast<int64_t>(dims.size()), in.rank);
  int32_t perm[runtime::kMaxRank];
  int32_t shape[runtime::kMaxRank];
  bool seen[runtime::kMaxRank] = {};
  for (int32_t d = 0; d < in.rank; ++d) {
    ESDK_RETURN_IF_ERROR(NormalizeDim(dims[d], in.rank, &perm[d]));
    if (seen[perm[d]]) return ShapeError("permute repeats a dim", perm[d]);
    seen[perm[d]] = true;
    shape[d] = in.sizes[perm[d]];
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, in.rank, kPermuteCopyOutName));
  if (Overlap(in, out)) {
    return Status::Error(ErrorCode::kNotSupported, "permute_copy in place");
  }
  size_t in_strides[runtime::kMaxRank];
  size_t stride = 1;
  for (int32_t d = in.rank - 1; d >= 0; --d) {
    in_strides[d] = stride;
    stride *= static_cast<size_t>(in.sizes[d]);
  }
  const size_t element = in.ElementSize();
  const uint8_t* pi = in.Data<const uint8_t>();
  uint8_t* po = out.Data<uint8_t>();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    size_t src = 0;
    for (int32_t d = 0; d < out.rank; ++d)
      src += static_cast<size_t>(coord[d]) * in_strides[perm[d]];
    std::memcpy(po + i * element, pi + src * element, element);
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

// cat(Tensor[] tensors, int dim, *, out)
Status CatOut(TensorList tensors, int64_t dim, Tensor& out) {
  int32_t d;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, out.rank, &d));
  if (out.rank == 0) return ShapeError("cat of scalars");
  int64_t total = 0;
  for (const Tensor* t : tensors) {
    if (t->dtype != out.dtype) return DtypeError(kCatOutName, *t);
    // PyTorch skips legacy empty 1-D tensors in cat.
    if (t->rank == 1 && t->numel == 0) continue;
    if (t->rank != out.rank) return ShapeError("cat input rank", t->rank, out.rank);
    for (int32_t k = 0; k < out.rank; ++k) {
      if (k != d && t->sizes[k] != out.sizes[k])
        return ShapeError("cat input size", k, t->sizes[k]);
    }
    total += t->sizes[d];
  }
  if (total != out.sizes[d]) return ShapeError("cat output size", total, out.sizes[d]);
  size_t outer = 1, inner = out.ElementSize();
  for (int32_t k = 0; k < d; ++k) outer *= static_cast<size_t>(out.sizes[k]);
  for (int32_t k = d + 1; k < out.rank; ++k) inner *= static_cast<size_t>(out.sizes[k]);
  uint8_t* po = out.Data<uint8_t>();
  const size_t out_row = static_cast<size_t>(out.sizes[d]) * inner;
  size_t offset = 0;
  for (const Tensor* t : tensors) {
    if (t->rank == 1 && t->numel == 0) continue;
    // A corrupt plan can place an input over part of the output; the copy
    // would then read what it already wrote.
    if (Overlap(*t, out))
      return Status::Error(ErrorCode::kNotSupported, "cat input overlaps its output");
    const size_t row = static_cast<size_t>(t->sizes[d]) * inner;
    const uint8_t* pi = t->Data<const uint8_t>();
    for (size_t o = 0; o < outer; ++o) {
      if (row > 0) std::memcpy(po + o * out_row + offset, pi + o * row, row);
    }
    offset += row;
  }
  return Status::Ok();
}

// slice_copy.Tensor_out(self, int dim, SymInt? start, SymInt? end, SymInt step, *, out)
Status SliceCopyTensorOut(const Tensor& in, int64_t dim, std::optional<int64_t> start_arg,
                          std::optional<int64_t> end_arg, int64_t step, Tensor& out) {
  if (in.dtype != out.dtype) return DtypeError(kSliceCopyTensorOutName, in);
  if (in.rank == 0) return ShapeError("slice of a scalar");
  if (step < 1) return ShapeError("slice step must be positive", step);
  int32_t d;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank, &d));
  const int64_t size = in.sizes[d];
  int64_t start = start_arg.value_or(0), end = end_arg.value_or(size);
  // PyTorch's clamping of slice bounds.
  if (start < 0) start += size;
  if (end < 0) end += size;
  if (start < 0) start = 0;
  if (start > size) start = size;
  if (end < start) end = start;
  if (end > size) end = size;
  // Written so that a huge step cannot overflow.
  const int64_t count = end == start ? 0 : (end - start - 1) / step + 1;
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0; k < in.rank; ++k) shape[k] = in.sizes[k];
  shape[d] = static_cast<int32_t>(count);
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, in.rank, kSliceCopyTensorOutName));
  size_t outer = 1, inner = in.ElementSize();
  for (int32_t k = 0; k < d; ++k) outer *= static_cast<size_t>(in.sizes[k]);
  for (int32_t k = d + 1; k < in.rank; ++k) inner *= static_cast<size_t>(in.sizes[k]);
  const uint8_t* pi = in.Data<const uint8_t>();
  uint8_t* po = out.Data<uint8_t>();
  for (size_t o = 0; o < outer; ++o) {
    for (int64_t k = 0; k < count; ++k) {
      const size_t src =
          (o * static_cast<size_t>(size) + static_cast<size_t>(start + k * step)) * inner;
      const size_t dst = (o * static_cast<size_t>(count) + static_cast<size_t>(k)) * inner;
      std::memmove(po + dst, pi + src, inner);
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
