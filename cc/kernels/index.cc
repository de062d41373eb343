// Indexing by tensors and positions, for any element dtype: index_select,
// embedding (token ids to rows), gather, select_copy, flip, and argmax /
// argmin. Indices are int64 or int32; a negative index counts from the end
// where PyTorch allows it, and an index out of range is an error naming the
// operator (never a read outside the tensor).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

Status ExpectIndexDtype(const Tensor& index, const char* name) {
  if (index.dtype != ScalarType::kLong && index.dtype != ScalarType::kInt) {
    return Status::Error(ErrorCode::kInvalidArgument, "indices must be int64 or int32: %s", name);
  }
  return Status::Ok();
}

// `index` in [-size, size) made non-negative; fails otherwise.
Status CheckIndex(int64_t index, int64_t size, const char* name, int64_t* out) {
  if (index < -size || index >= size) {
    return Status::Error(ErrorCode::kInvalidArgument, "index %lld out of range for size %lld: %s",
                         static_cast<long long>(index), static_cast<long long>(size), name);
  }
  *out = index < 0 ? index + size : index;
  return Status::Ok();
}

enum class Arg { kMax, kMin };

// Whether `v` replaces the best so far: NaN wins and stays (torch.argmax
// returns the first NaN), ties keep the first index.
bool Better(Arg op, double v, double best) {
  if (std::isnan(best)) return false;
  if (std::isnan(v)) return true;
  return op == Arg::kMax ? v > best : v < best;
}

Status ArgReduce(const Tensor& in, std::optional<int64_t> dim, bool keepdim, Tensor& out, Arg op,
                 const char* name) {
  if (!IsKnownDtype(in.dtype) || in.dtype == ScalarType::kBool) return DtypeError(name, in);
  if (out.dtype != ScalarType::kLong) return DtypeError(name, out);
  if (in.numel == 0)
    return Status::Error(ErrorCode::kInvalidArgument, "%s of an empty tensor", name);
  size_t outer = 1, size = in.numel, inner = 1;
  int32_t shape[runtime::kMaxRank];
  int32_t rank = 0;
  if (dim && in.rank > 0) {
    int32_t d = 0;
    ESDK_RETURN_IF_ERROR(NormalizeDim(*dim, in.rank, &d));
    OuterInner(in, d, &outer, &inner);
    size = static_cast<size_t>(in.sizes[d]);
    if (size == 0)
      return Status::Error(ErrorCode::kInvalidArgument, "%s over an empty dimension", name);
    for (int32_t k = 0; k < in.rank; ++k) {
      if (k != d || keepdim) shape[rank++] = k == d ? 1 : in.sizes[k];
    }
  } else {
    if (dim) {
      int32_t d = 0;
      ESDK_RETURN_IF_ERROR(NormalizeDim(*dim, in.rank, &d));
    }
    for (int32_t k = 0; keepdim && k < in.rank; ++k) shape[rank++] = 1;
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, rank, name));
  int64_t* po = out.Data<int64_t>();
  const bool integral = IsIntegral(in.dtype);
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      const size_t base = o * size * inner + i;
      size_t best_k = 0;
      if (integral) {
        int64_t best = LoadInt(in, base);
        for (size_t k = 1; k < size; ++k) {
          const int64_t v = LoadInt(in, base + k * inner);
          if (op == Arg::kMax ? v > best : v < best) best = v, best_k = k;
        }
      } else {
        double best = LoadDouble(in, base);
        for (size_t k = 1; k < size; ++k) {
          const double v = LoadDouble(in, base + k * inner);
          if (Better(op, v, best)) best = v, best_k = k;
        }
      }
      po[o * inner + i] = static_cast<int64_t>(best_k);
    }
  }
  return Status::Ok();
}

}  // namespace

// index_select(self, dim, index, *, out): slices of `self` along `dim` at
// the positions `index` (rank 0 or 1) lists.
Status IndexSelectOut(const Tensor& self, int64_t dim, const Tensor& index, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectIndexDtype(index, kIndexSelectOutName));
  if (self.dtype != out.dtype) return DtypeError(kIndexSelectOutName, out);
  if (index.rank > 1) return ShapeError("index_select index must be rank 0 or 1", index.rank);
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0; k < self.rank; ++k)
    shape[k] = k == d ? static_cast<int32_t>(index.numel) : self.sizes[k];
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, self.rank, kIndexSelectOutName));
  if (Overlap(self, out)) return Status::Error(ErrorCode::kNotSupported, "index_select in place");
  size_t outer, inner;
  OuterInner(self, d, &outer, &inner);
  const int64_t size = self.rank == 0 ? 1 : self.sizes[d];
  const size_t row = inner * self.ElementSize();
  const uint8_t* pi = self.Data<const uint8_t>();
  uint8_t* po = out.Data<uint8_t>();
  for (size_t k = 0; k < index.numel; ++k) {
    int64_t at = 0;
    ESDK_RETURN_IF_ERROR(CheckIndex(LoadInt(index, k), size, kIndexSelectOutName, &at));
    for (size_t o = 0; o < outer; ++o) {
      std::memcpy(po + (o * index.numel + k) * row,
                  pi + (o * static_cast<size_t>(size) + static_cast<size_t>(at)) * row, row);
    }
  }
  return Status::Ok();
}

// embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse, *,
// out): out[..., :] = weight[indices[...], :]. The last three arguments
// only change training.
Status EmbeddingOut(const Tensor& weight, const Tensor& indices, int64_t /*padding_idx*/,
                    bool /*scale_grad_by_freq*/, bool /*sparse*/, Tensor& out) {
  ESDK_RETURN_IF_ERROR(ExpectIndexDtype(indices, kEmbeddingOutName));
  if (weight.rank != 2) return ShapeError("embedding weight must be 2-D", weight.rank);
  if (weight.dtype != out.dtype) return DtypeError(kEmbeddingOutName, out);
  if (indices.rank + 1 > runtime::kMaxRank)
    return ShapeError("embedding indices rank", indices.rank);
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0; k < indices.rank; ++k) shape[k] = indices.sizes[k];
  shape[indices.rank] = weight.sizes[1];
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, indices.rank + 1, kEmbeddingOutName));
  if (Overlap(weight, out)) return Status::Error(ErrorCode::kNotSupported, "embedding in place");
  const size_t row = static_cast<size_t>(weight.sizes[1]) * weight.ElementSize();
  for (size_t k = 0; k < indices.numel; ++k) {
    // PyTorch's embedding takes no negative ids (CheckIndex would wrap them).
    const int64_t at = LoadInt(indices, k);
    if (at < 0 || at >= weight.sizes[0]) {
      return Status::Error(ErrorCode::kInvalidArgument, "index %lld out of range for size %lld: %s",
                           static_cast<long long>(at), static_cast<long long>(weight.sizes[0]),
                           kEmbeddingOutName);
    }
    std::memcpy(out.Data<uint8_t>() + k * row,
                weight.Data<const uint8_t>() + static_cast<size_t>(at) * row, row);
  }
  return Status::Ok();
}

// gather(self, dim, index, *, sparse_grad, out): out[i][j][k] =
// self[index[i][j][k]][j][k] for dim 0, and so on; out has index's shape.
Status GatherOut(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/,
                 Tensor& out) {
  // int64 only, as ExecuTorch's portable gather (PyTorch also takes int32).
  if (index.dtype != ScalarType::kLong)
    return Status::Error(ErrorCode::kInvalidArgument, "gather index must be int64");
  if (self.dtype != out.dtype) return DtypeError(kGatherOutName, out);
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  const int32_t self_rank = self.rank == 0 ? 1 : self.rank,
                index_rank = index.rank == 0 ? 1 : index.rank;
  if (index.numel > 0 && self_rank != index_rank)
    return ShapeError("gather index rank differs from self", index.rank, self.rank);
  for (int32_t k = 0; k < index.rank && k < self.rank; ++k) {
    if (k != d && index.sizes[k] > self.sizes[k])
      return ShapeError("gather index larger than self at dim", k, index.sizes[k]);
  }
  ESDK_RETURN_IF_ERROR(ExpectSameShape(index, out, kGatherOutName));
  if (Overlap(self, out)) return Status::Error(ErrorCode::kNotSupported, "gather in place");
  size_t self_strides[runtime::kMaxRank];
  RowMajorStrides(self, self_strides);
  const int64_t size = self.rank == 0 ? 1 : self.sizes[d];
  const size_t element = self.ElementSize();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < index.numel; ++i) {
    int64_t at = 0;
    ESDK_RETURN_IF_ERROR(CheckIndex(LoadInt(index, i), size, kGatherOutName, &at));
    size_t src = 0;
    for (int32_t k = 0; k < self.rank; ++k) {
      src += self_strides[k] * (k == d ? static_cast<size_t>(at) : static_cast<size_t>(coord[k]));
    }
    std::memcpy(out.Data<uint8_t>() + i * element, self.Data<const uint8_t>() + src * element,
                element);
    NextCoord(coord, index.sizes, index.rank);
  }
  return Status::Ok();
}

// select_copy.int_out(self, dim, index, *, out): the slice at `index`, dim
// removed.
Status SelectCopyIntOut(const Tensor& self, int64_t dim, int64_t index, Tensor& out) {
  if (self.dtype != out.dtype) return DtypeError(kSelectCopyIntOutName, out);
  if (self.rank == 0) return ShapeError("select of a scalar");
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  int64_t at = 0;
  ESDK_RETURN_IF_ERROR(CheckIndex(index, self.sizes[d], kSelectCopyIntOutName, &at));
  int32_t shape[runtime::kMaxRank];
  int32_t rank = 0;
  for (int32_t k = 0; k < self.rank; ++k) {
    if (k != d) shape[rank++] = self.sizes[k];
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, rank, kSelectCopyIntOutName));
  size_t outer, inner;
  OuterInner(self, d, &outer, &inner);
  const size_t row = inner * self.ElementSize();
  for (size_t o = 0; o < outer; ++o) {
    std::memmove(out.Data<uint8_t>() + o * row,
                 self.Data<const uint8_t>() +
                     (o * static_cast<size_t>(self.sizes[d]) + static_cast<size_t>(at)) * row,
                 row);
  }
  return Status::Ok();
}

// flip(self, dims, *, out): the order of elements reversed along `dims`.
Status FlipOut(const Tensor& self, IntList dims, Tensor& out) {
  if (self.dtype != out.dtype) return DtypeError(kFlipOutName, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kFlipOutName));
  if (Overlap(self, out)) return Status::Error(ErrorCode::kNotSupported, "flip in place");
  bool flipped[runtime::kMaxRank] = {};
  for (int64_t dim : dims) {
    int32_t d = 0;
    ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
    if (d < self.rank) {
      if (flipped[d]) return ShapeError("flip repeats a dim", d);
      flipped[d] = true;
    }
  }
  size_t strides[runtime::kMaxRank];
  RowMajorStrides(self, strides);
  const size_t element = self.ElementSize();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    size_t src = 0;
    for (int32_t k = 0; k < self.rank; ++k) {
      const int32_t c = flipped[k] ? self.sizes[k] - 1 - coord[k] : coord[k];
      src += strides[k] * static_cast<size_t>(c);
    }
    std::memcpy(out.Data<uint8_t>() + i * element, self.Data<const uint8_t>() + src * element,
                element);
    NextCoord(coord, self.sizes, self.rank);
  }
  return Status::Ok();
}

Status ArgmaxOut(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& out) {
  return ArgReduce(self, dim, keepdim, out, Arg::kMax, kArgmaxOutName);
}

Status ArgminOut(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& out) {
  return ArgReduce(self, dim, keepdim, out, Arg::kMin, kArgminOutName);
}

}  // namespace ethosu_sdk::kernels
