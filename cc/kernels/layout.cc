// Data movement beyond shape.cc, for any dtype: transpose_copy, t_copy,
// squeeze_copy.dim, narrow_copy, stack, split_copy, split_with_sizes_copy,
// unbind_copy, repeat, constant_pad_nd, slice_scatter, select_scatter,
// masked_fill, tril and roll. Only bytes move (constant_pad_nd and
// masked_fill write a converted Scalar), so results are exact.
#include <cstdint>
#include <cstring>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// Copies between `whole` and `part` (whole's shape but part.sizes[dim]
// entries along `dim`): entry k of part is entry start + k * step of whole.
// From whole to part, or from part to whole when `part_to_whole`.
void CopySlab(const Tensor& whole, const Tensor& part, int32_t dim, int64_t start, int64_t step,
              bool part_to_whole) {
  size_t outer, inner;
  OuterInner(whole, dim, &outer, &inner);
  const size_t element = whole.ElementSize();
  const size_t row = inner * element;
  const size_t whole_size = static_cast<size_t>(whole.sizes[dim]);
  const size_t part_size = static_cast<size_t>(part.sizes[dim]);
  uint8_t* pw = whole.Data<uint8_t>();
  uint8_t* pp = part.Data<uint8_t>();
  for (size_t o = 0; o < outer; ++o) {
    for (size_t k = 0; k < part_size; ++k) {
      uint8_t* w =
          pw + (o * whole_size + static_cast<size_t>(start + static_cast<int64_t>(k) * step)) * row;
      uint8_t* p = pp + (o * part_size + k) * row;
      if (row == 0) continue;
      if (part_to_whole) {
        std::memmove(w, p, row);
      } else {
        std::memmove(p, w, row);
      }
    }
  }
}

// PyTorch's clamping of slice bounds into [0, size]; the count of entries.
int64_t SliceCount(int64_t size, std::optional<int64_t> start_arg, std::optional<int64_t> end_arg,
                   int64_t step, int64_t* start) {
  int64_t s = start_arg.value_or(0), e = end_arg.value_or(size);
  if (s < 0) s += size;
  if (e < 0) e += size;
  s = s < 0 ? 0 : s > size ? size : s;
  e = e < s ? s : e > size ? size : e;
  *start = s;
  return e == s ? 0 : (e - s - 1) / step + 1;
}

Status CopyAll(const Tensor& in, Tensor& out, const char* name) {
  if (in.dtype != out.dtype) return DtypeError(name, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  if (in.nbytes > 0 && in.data != out.data) std::memmove(out.data, in.data, in.nbytes);
  return Status::Ok();
}

// Splits `in` along `dim` into `outs`, the i-th of size sizes[i] (or 1 with
// the dim removed when `squeeze`, for unbind).
template <typename SizeOf>
Status Split(const Tensor& in, int64_t dim, TensorList outs, bool squeeze, const char* name,
             SizeOf size_of) {
  if (in.rank == 0) return ShapeError("split of a scalar");
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, in.rank, &d));
  int64_t offset = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    Tensor& out = *outs[i];
    if (out.dtype != in.dtype) return DtypeError(name, out);
    const int64_t size = size_of(i);
    if (size < 0 || offset + size > in.sizes[d])
      return ShapeError("split sizes exceed the dim", offset + size, in.sizes[d]);
    int32_t shape[runtime::kMaxRank];
    int32_t rank = 0;
    for (int32_t k = 0; k < in.rank; ++k) {
      if (k == d && squeeze) continue;
      shape[rank++] = k == d ? static_cast<int32_t>(size) : in.sizes[k];
    }
    ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, rank, name));
    if (Overlap(in, out))
      return Status::Error(ErrorCode::kNotSupported, "split output overlaps its input");
    // The part's view with `dim` kept, for CopySlab.
    Tensor part = out;
    part.rank = in.rank;
    for (int32_t k = 0; k < in.rank; ++k)
      part.sizes[k] = k == d ? static_cast<int32_t>(size) : in.sizes[k];
    CopySlab(in, part, d, offset, 1, false);
    offset += size;
  }
  if (offset != in.sizes[d])
    return ShapeError("split sizes do not sum to the dim", offset, in.sizes[d]);
  return Status::Ok();
}

}  // namespace

Status TransposeCopyIntOut(const Tensor& self, int64_t dim0, int64_t dim1, Tensor& out) {
  if (self.rank == 0) return CopyAll(self, out, kTransposeCopyIntOutName);
  int32_t a = 0, b = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim0, self.rank, &a));
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim1, self.rank, &b));
  int64_t perm[runtime::kMaxRank];
  for (int32_t k = 0; k < self.rank; ++k) perm[k] = k == a ? b : k == b ? a : k;
  return PermuteCopyOut(self, IntList(perm, static_cast<size_t>(self.rank)), out);
}

// t_copy: the transpose of a 0-, 1- or 2-D tensor.
Status TCopyOut(const Tensor& self, Tensor& out) {
  if (self.rank > 2) return ShapeError("t_copy of a tensor above 2-D", self.rank);
  if (self.rank < 2) return CopyAll(self, out, kTCopyOutName);
  return TransposeCopyIntOut(self, 0, 1, out);
}

// squeeze_copy.dim_out: `dim` removed when its size is 1.
Status SqueezeCopyDimOut(const Tensor& self, int64_t dim, Tensor& out) {
  const int64_t dims[] = {dim};
  if (self.rank == 0) {
    int32_t d = 0;
    ESDK_RETURN_IF_ERROR(NormalizeDim(dim, 0, &d));
    return CopyAll(self, out, kSqueezeCopyDimOutName);
  }
  return SqueezeCopyDimsOut(self, IntList(dims, 1), out);
}

Status NarrowCopyOut(const Tensor& self, int64_t dim, int64_t start, int64_t length, Tensor& out) {
  if (self.rank == 0) return ShapeError("narrow of a scalar");
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  const int64_t size = self.sizes[d];
  if (start < 0) start += size;
  if (start < 0 || length < 0 || start > size || start + length > size)
    return ShapeError("narrow range", start, length);
  return SliceCopyTensorOut(self, dim, start, start + length, 1, out);
}

// stack: the tensors (one shape) joined along a new dim.
Status StackOut(TensorList tensors, int64_t dim, Tensor& out) {
  if (tensors.size() == 0) return ShapeError("stack of no tensors");
  const Tensor& first = *tensors[0];
  if (first.rank + 1 > runtime::kMaxRank) return ShapeError("stack rank", first.rank);
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, first.rank + 1, &d));
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0, j = 0; k <= first.rank; ++k)
    shape[k] = k == d ? static_cast<int32_t>(tensors.size()) : first.sizes[j++];
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, first.rank + 1, kStackOutName));
  size_t outer = 1;
  for (int32_t k = 0; k < d; ++k) outer *= static_cast<size_t>(first.sizes[k]);
  const size_t block = out.ElementSize() * (outer == 0 ? 0 : first.numel / outer);
  for (size_t t = 0; t < tensors.size(); ++t) {
    const Tensor& in = *tensors[t];
    if (in.dtype != out.dtype) return DtypeError(kStackOutName, in);
    if (!in.SameShape(first))
      return ShapeError("stack inputs differ in shape", static_cast<int64_t>(t));
    if (Overlap(in, out))
      return Status::Error(ErrorCode::kNotSupported, "stack input overlaps its output");
    for (size_t o = 0; o < outer && block > 0; ++o) {
      std::memcpy(out.Data<uint8_t>() + (o * tensors.size() + t) * block,
                  in.Data<const uint8_t>() + o * block, block);
    }
  }
  return Status::Ok();
}

Status SplitCopyTensorOut(const Tensor& self, int64_t split_size, int64_t dim, TensorList out) {
  if (split_size < 0) return ShapeError("split_size", split_size);
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  const int64_t total = self.rank == 0 ? 1 : self.sizes[d];
  return Split(self, dim, out, false, kSplitCopyTensorOutName, [&](size_t i) {
    const int64_t begin = static_cast<int64_t>(i) * split_size;
    const int64_t left = total - begin;
    return left < split_size ? left : split_size;
  });
}

Status SplitWithSizesCopyOut(const Tensor& self, IntList split_sizes, int64_t dim, TensorList out) {
  if (split_sizes.size() != out.size())
    return ShapeError("split_with_sizes count", static_cast<int64_t>(split_sizes.size()),
                      static_cast<int64_t>(out.size()));
  return Split(self, dim, out, false, kSplitWithSizesCopyOutName,
               [&](size_t i) { return split_sizes[i]; });
}

Status UnbindCopyIntOut(const Tensor& self, int64_t dim, TensorList out) {
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  if (self.rank > 0 && static_cast<size_t>(self.sizes[d]) != out.size())
    return ShapeError("unbind count", self.sizes[d], static_cast<int64_t>(out.size()));
  return Split(self, dim, out, true, kUnbindCopyIntOutName, [](size_t) { return int64_t{1}; });
}

// repeat: `self` tiled `repeats` times per dim (leading repeats add dims).
Status RepeatOut(const Tensor& self, IntList repeats, Tensor& out) {
  if (self.dtype != out.dtype) return DtypeError(kRepeatOutName, out);
  const int32_t rank = static_cast<int32_t>(repeats.size());
  if (rank < self.rank || rank > runtime::kMaxRank)
    return ShapeError("repeat needs at least self's rank of repeats", rank, self.rank);
  int32_t shape[runtime::kMaxRank];
  int32_t in_sizes[runtime::kMaxRank];
  for (int32_t k = 0; k < rank; ++k) {
    const int32_t at = k - (rank - self.rank);
    in_sizes[k] = at >= 0 ? self.sizes[at] : 1;
    if (repeats[k] < 0 || repeats[k] * in_sizes[k] > INT32_MAX)
      return ShapeError("repeat count", repeats[k]);
    shape[k] = static_cast<int32_t>(repeats[k] * in_sizes[k]);
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, rank, kRepeatOutName));
  if (Overlap(self, out)) return Status::Error(ErrorCode::kNotSupported, "repeat in place");
  Tensor tiled = self;  // self with the leading size-1 dims repeat adds
  tiled.rank = rank;
  for (int32_t k = 0; k < rank; ++k) tiled.sizes[k] = in_sizes[k];
  size_t in_strides[runtime::kMaxRank];
  RowMajorStrides(tiled, in_strides);
  const size_t element = out.ElementSize();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    size_t src = 0;
    for (int32_t k = 0; k < rank; ++k)
      src += in_strides[k] * static_cast<size_t>(coord[k] % in_sizes[k]);
    std::memcpy(out.Data<uint8_t>() + i * element, self.Data<const uint8_t>() + src * element,
                element);
    NextCoord(coord, out.sizes, rank);
  }
  return Status::Ok();
}

// constant_pad_nd(self, pad, value): pad lists (before, after) pairs from
// the last dim backwards. Negative pads (cropping, which PyTorch allows)
// are refused, as ExecuTorch's portable kernel refuses them.
Status ConstantPadNdOut(const Tensor& self, IntList pad, double value, Tensor& out) {
  if (self.dtype != out.dtype || !IsKnownDtype(out.dtype))
    return DtypeError(kConstantPadNdOutName, out);
  if (pad.size() % 2 != 0 || pad.size() / 2 > static_cast<size_t>(self.rank))
    return ShapeError("pad length", static_cast<int64_t>(pad.size()));
  int64_t before[runtime::kMaxRank] = {};
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0; k < self.rank; ++k) {
    const int32_t from_end = self.rank - 1 - k;
    int64_t lo = 0, hi = 0;
    if (static_cast<size_t>(from_end) < pad.size() / 2) {
      lo = pad[2 * static_cast<size_t>(from_end)];
      hi = pad[2 * static_cast<size_t>(from_end) + 1];
    }
    if (lo < 0 || hi < 0) {
      return Status::Error(
          ErrorCode::kNotSupported,
          "constant_pad_nd with a negative pad (cropping): slice the input instead");
    }
    const int64_t size = self.sizes[k] + lo + hi;
    if (size > INT32_MAX) return ShapeError("padded size", size);
    before[k] = lo;
    shape[k] = static_cast<int32_t>(size);
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, self.rank, kConstantPadNdOutName));
  if (Overlap(self, out))
    return Status::Error(ErrorCode::kNotSupported, "constant_pad_nd in place");
  size_t in_strides[runtime::kMaxRank];
  RowMajorStrides(self, in_strides);
  const size_t element = out.ElementSize();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    size_t src = 0;
    bool inside = true;
    for (int32_t k = 0; k < self.rank && inside; ++k) {
      const int64_t c = coord[k] - before[k];
      inside = c >= 0 && c < self.sizes[k];
      src += in_strides[k] * static_cast<size_t>(inside ? c : 0);
    }
    if (inside) {
      std::memcpy(out.Data<uint8_t>() + i * element, self.Data<const uint8_t>() + src * element,
                  element);
    } else {
      StoreDouble(out, i, value);
    }
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

// slice_scatter: self with the slice (dim, start, end, step) replaced by src.
Status SliceScatterOut(const Tensor& self, const Tensor& src, int64_t dim,
                       std::optional<int64_t> start, std::optional<int64_t> end, int64_t step,
                       Tensor& out) {
  if (self.dtype != out.dtype || src.dtype != out.dtype)
    return DtypeError(kSliceScatterOutName, out);
  if (self.rank == 0) return ShapeError("slice_scatter into a scalar");
  if (step < 1) return ShapeError("slice step must be positive", step);
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  int64_t first = 0;
  const int64_t count = SliceCount(self.sizes[d], start, end, step, &first);
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0; k < self.rank; ++k)
    shape[k] = k == d ? static_cast<int32_t>(count) : self.sizes[k];
  ESDK_RETURN_IF_ERROR(ExpectShape(src, shape, self.rank, kSliceScatterOutName));
  ESDK_RETURN_IF_ERROR(CopyAll(self, out, kSliceScatterOutName));
  if (Overlap(src, out))
    return Status::Error(ErrorCode::kNotSupported, "slice_scatter source overlaps its output");
  CopySlab(out, src, d, first, step, true);
  return Status::Ok();
}

// select_scatter: self with the slice at `index` along `dim` replaced by src.
Status SelectScatterOut(const Tensor& self, const Tensor& src, int64_t dim, int64_t index,
                        Tensor& out) {
  if (self.dtype != out.dtype || src.dtype != out.dtype)
    return DtypeError(kSelectScatterOutName, out);
  if (self.rank == 0) return ShapeError("select_scatter into a scalar");
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  const int64_t size = self.sizes[d];
  if (index < -size || index >= size)
    return ShapeError("select_scatter index out of range", index, size);
  if (index < 0) index += size;
  int32_t shape[runtime::kMaxRank];
  int32_t rank = 0;
  for (int32_t k = 0; k < self.rank; ++k) {
    if (k != d) shape[rank++] = self.sizes[k];
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(src, shape, rank, kSelectScatterOutName));
  ESDK_RETURN_IF_ERROR(CopyAll(self, out, kSelectScatterOutName));
  if (Overlap(src, out))
    return Status::Error(ErrorCode::kNotSupported, "select_scatter source overlaps its output");
  Tensor part = src;
  part.rank = self.rank;
  for (int32_t k = 0; k < self.rank; ++k) part.sizes[k] = k == d ? 1 : self.sizes[k];
  CopySlab(out, part, d, index, 1, true);
  return Status::Ok();
}

// masked_fill.Scalar_out: value where the (broadcast) mask is true.
Status MaskedFillScalarOut(const Tensor& self, const Tensor& mask, double value, Tensor& out) {
  if (self.dtype != out.dtype || !IsKnownDtype(out.dtype))
    return DtypeError(kMaskedFillScalarOutName, out);
  if (mask.dtype != ScalarType::kBool) return DtypeError(kMaskedFillScalarOutName, mask);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kMaskedFillScalarOutName));
  const size_t element = out.ElementSize();
  return ForEachBroadcast(self, mask, out, kMaskedFillScalarOutName,
                          [&](size_t o, size_t i, size_t m) {
                            if (LoadInt(mask, m) != 0) {
                              StoreDouble(out, o, value);
                            } else if (out.data != self.data) {
                              std::memmove(out.Data<uint8_t>() + o * element,
                                           self.Data<const uint8_t>() + i * element, element);
                            }
                          });
}

// tril: the lower triangle (j - i <= diagonal) of each matrix, zeros above.
Status TrilOut(const Tensor& self, int64_t diagonal, Tensor& out) {
  if (self.dtype != out.dtype || !IsKnownDtype(out.dtype)) return DtypeError(kTrilOutName, out);
  if (self.rank < 2) return ShapeError("tril needs at least 2 dims", self.rank);
  ESDK_RETURN_IF_ERROR(CopyAll(self, out, kTrilOutName));
  const int64_t rows = self.sizes[self.rank - 2], cols = self.sizes[self.rank - 1];
  const size_t matrices = rows * cols == 0 ? 0 : self.numel / static_cast<size_t>(rows * cols);
  for (size_t m = 0; m < matrices; ++m) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        if (j - i > diagonal)
          StoreInt(out, m * static_cast<size_t>(rows * cols) + static_cast<size_t>(i * cols + j),
                   0);
      }
    }
  }
  return Status::Ok();
}

// roll: elements shifted along dims (none: the flattened tensor), wrapping.
Status RollOut(const Tensor& self, IntList shifts, IntList dims, Tensor& out) {
  if (self.dtype != out.dtype) return DtypeError(kRollOutName, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kRollOutName));
  if (Overlap(self, out)) return Status::Error(ErrorCode::kNotSupported, "roll in place");
  const size_t element = out.ElementSize();
  if (dims.size() == 0) {
    if (shifts.size() != 1)
      return ShapeError("roll without dims takes one shift", static_cast<int64_t>(shifts.size()));
    const int64_t n = static_cast<int64_t>(self.numel);
    for (int64_t i = 0; n > 0 && i < n; ++i) {
      const int64_t src = (((i - shifts[0]) % n) + n) % n;
      std::memcpy(out.Data<uint8_t>() + static_cast<size_t>(i) * element,
                  self.Data<const uint8_t>() + static_cast<size_t>(src) * element, element);
    }
    return Status::Ok();
  }
  if (shifts.size() != dims.size())
    return ShapeError("roll shifts and dims differ in count", static_cast<int64_t>(shifts.size()),
                      static_cast<int64_t>(dims.size()));
  int64_t shift[runtime::kMaxRank] = {};
  for (size_t k = 0; k < dims.size(); ++k) {
    int32_t d = 0;
    ESDK_RETURN_IF_ERROR(NormalizeDim(dims[k], self.rank, &d));
    if (d < self.rank) shift[d] += shifts[k];
  }
  size_t strides[runtime::kMaxRank];
  RowMajorStrides(self, strides);
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    size_t src = 0;
    for (int32_t k = 0; k < self.rank; ++k) {
      const int64_t size = self.sizes[k];
      src += strides[k] * static_cast<size_t>((((coord[k] - shift[k]) % size) + size) % size);
    }
    std::memcpy(out.Data<uint8_t>() + i * element, self.Data<const uint8_t>() + src * element,
                element);
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

namespace {

// [*, C*r*r, H, W] <-> [*, C, H*r, W*r]: out[c][h*r+i][w*r+j] =
// in[c*r*r + i*r + j][h][w] (`shuffle`), or the inverse.
Status PixelShuffle(const Tensor& in, int64_t r, bool shuffle, Tensor& out, const char* name) {
  if (in.dtype != out.dtype) return DtypeError(name, out);
  if (in.rank < 3) return ShapeError("pixel shuffle needs at least 3 dims", in.rank);
  if (r <= 0 || r > 65535) return ShapeError("pixel shuffle factor", r);
  const int32_t c = in.rank - 3, h = in.rank - 2, w = in.rank - 1;
  const int64_t rr = r * r;
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0; k < in.rank; ++k) shape[k] = in.sizes[k];
  if (shuffle) {
    if (in.sizes[c] % rr != 0)
      return ShapeError("pixel_shuffle channels not divisible by factor^2", in.sizes[c], r);
    shape[c] = static_cast<int32_t>(in.sizes[c] / rr);
    shape[h] = static_cast<int32_t>(in.sizes[h] * r);
    shape[w] = static_cast<int32_t>(in.sizes[w] * r);
  } else {
    if (in.sizes[h] % r != 0 || in.sizes[w] % r != 0)
      return ShapeError("pixel_unshuffle H, W not divisible by factor", in.sizes[h], in.sizes[w]);
    shape[c] = static_cast<int32_t>(in.sizes[c] * rr);
    shape[h] = static_cast<int32_t>(in.sizes[h] / r);
    shape[w] = static_cast<int32_t>(in.sizes[w] / r);
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, in.rank, name));
  if (Overlap(in, out)) return Status::Error(ErrorCode::kNotSupported, "pixel shuffle in place");
  // The small tensor's coordinates (C*r*r, H, W) for every element of the big one.
  const Tensor& big = shuffle ? out : in;
  const Tensor& small = shuffle ? in : out;
  const size_t element = in.ElementSize();
  const size_t planes = big.numel == 0 ? 0
                                       : big.numel / (static_cast<size_t>(big.sizes[c]) *
                                                      static_cast<size_t>(big.sizes[h]) *
                                                      static_cast<size_t>(big.sizes[w]));
  const size_t bc = static_cast<size_t>(big.sizes[c]), bh = static_cast<size_t>(big.sizes[h]),
               bw = static_cast<size_t>(big.sizes[w]);
  const size_t sh = static_cast<size_t>(small.sizes[h]), sw = static_cast<size_t>(small.sizes[w]),
               sc = static_cast<size_t>(small.sizes[c]);
  const size_t ur = static_cast<size_t>(r);
  for (size_t p = 0; p < planes; ++p) {
    for (size_t ch = 0; ch < bc; ++ch) {
      for (size_t y = 0; y < bh; ++y) {
        for (size_t x = 0; x < bw; ++x) {
          const size_t big_at = ((p * bc + ch) * bh + y) * bw + x;
          const size_t small_c = ch * ur * ur + (y % ur) * ur + (x % ur);
          const size_t small_at = ((p * sc + small_c) * sh + y / ur) * sw + x / ur;
          const size_t from = shuffle ? small_at : big_at, to = shuffle ? big_at : small_at;
          std::memcpy(out.Data<uint8_t>() + to * element, in.Data<const uint8_t>() + from * element,
                      element);
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace

// masked_scatter: out = self, with the positions where the (broadcast)
// mask is true taking source's elements in order.
Status MaskedScatterOut(const Tensor& self, const Tensor& mask, const Tensor& source, Tensor& out) {
  if (self.dtype != out.dtype || source.dtype != out.dtype)
    return DtypeError(kMaskedScatterOutName, out);
  if (mask.dtype != ScalarType::kBool) return DtypeError(kMaskedScatterOutName, mask);
  // out is self and mask broadcast together.
  ESDK_RETURN_IF_ERROR(ExpectBroadcastOf(self, mask, out, kMaskedScatterOutName));
  const bool in_place = self.data == out.data && self.SameShape(out);
  if (Overlap(source, out) || (Overlap(self, out) && !in_place)) {
    return Status::Error(ErrorCode::kNotSupported, "masked_scatter operand overlaps its output");
  }
  BroadcastIndex m, s;
  ESDK_RETURN_IF_ERROR(m.Init(mask, out));
  ESDK_RETURN_IF_ERROR(s.Init(self, out));
  const size_t element = out.ElementSize();
  size_t next = 0;
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    if (mask.Data<const uint8_t>()[m.Map(coord)] == 0) {
      if (!in_place)
        std::memcpy(out.Data<uint8_t>() + i * element,
                    self.Data<const uint8_t>() + s.Map(coord) * element, element);
    } else {
      if (next >= source.numel)
        return ShapeError("masked_scatter source has fewer elements than the mask selects",
                          static_cast<int64_t>(source.numel));
      std::memcpy(out.Data<uint8_t>() + i * element, source.Data<const uint8_t>() + next * element,
                  element);
      ++next;
    }
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

Status PixelShuffleOut(const Tensor& self, int64_t upscale_factor, Tensor& out) {
  return PixelShuffle(self, upscale_factor, true, out, kPixelShuffleOutName);
}

Status PixelUnshuffleOut(const Tensor& self, int64_t downscale_factor, Tensor& out) {
  return PixelShuffle(self, downscale_factor, false, out, kPixelUnshuffleOutName);
}

}  // namespace ethosu_sdk::kernels
