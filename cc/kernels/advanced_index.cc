// Advanced indexing with integer index tensors, for any element dtype:
// index.Tensor (x[idx0, :, idx2]), index_put (its write form, with or
// without accumulation) and scatter / scatter_add. Index tensors broadcast
// together; when the indexed dims are adjacent their result dims replace
// them in place, otherwise they lead (PyTorch's rule). Bool mask indices
// give an output sized by the data and are refused with one line.
#include <cstdint>
#include <cstring>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// How the indexed result of `self` with `indices` is laid out.
struct IndexPlan {
  int32_t count = 0;                            // entries of `indices`
  const Tensor* index[runtime::kMaxRank] = {};  // per self dim: its index tensor, or null
  BroadcastIndex broadcast[runtime::kMaxRank];
  int32_t b_rank = 0;  // rank of the broadcast index shape
  int32_t b_sizes[runtime::kMaxRank] = {};
  int32_t b_at = 0;  // where the broadcast dims sit in the result
  int32_t rank = 0;  // result rank
  int32_t sizes[runtime::kMaxRank] = {};
};

Status Plan(const Tensor& self, OptionalTensorList indices, const char* name, IndexPlan* plan) {
  if (indices.size() > static_cast<size_t>(self.rank))
    return ShapeError("more indices than dims", static_cast<int64_t>(indices.size()), self.rank);
  int32_t first = -1, last = -1;
  bool adjacent = true;
  const Tensor* operands[runtime::kMaxRank];
  int operand_count = 0;
  for (size_t d = 0; d < indices.size(); ++d) {
    const Tensor* t = indices[d];
    if (t == nullptr) continue;
    if (t->dtype == ScalarType::kBool || t->dtype == ScalarType::kByte) {
      return Status::Error(
          ErrorCode::kNotSupported,
          "%s with a bool mask index: the output size depends on the data (use where)", name);
    }
    if (t->dtype != ScalarType::kLong && t->dtype != ScalarType::kInt) return DtypeError(name, *t);
    if (last >= 0 && static_cast<int32_t>(d) != last + 1) adjacent = false;
    if (first < 0) first = static_cast<int32_t>(d);
    last = static_cast<int32_t>(d);
    plan->index[d] = t;
    operands[operand_count++] = t;
  }
  if (operand_count == 0)
    return Status::Error(ErrorCode::kInvalidArgument, "%s needs at least one index tensor", name);
  // The broadcast shape of the index tensors.
  for (int k = 0; k < operand_count; ++k)
    plan->b_rank = operands[k]->rank > plan->b_rank ? operands[k]->rank : plan->b_rank;
  for (int32_t d = 0; d < plan->b_rank; ++d) {
    plan->b_sizes[d] = 1;
    for (int k = 0; k < operand_count; ++k) {
      const int32_t at = d - (plan->b_rank - operands[k]->rank);
      const int32_t size = at >= 0 ? operands[k]->sizes[at] : 1;
      if (size != 1 && plan->b_sizes[d] != 1 && size != plan->b_sizes[d])
        return ShapeError("index tensors do not broadcast", plan->b_sizes[d], size);
      if (size != 1) plan->b_sizes[d] = size;
    }
  }
  if (self.rank - operand_count + plan->b_rank > runtime::kMaxRank)
    return ShapeError("indexed result rank above 8");
  plan->b_at = adjacent ? first : 0;
  for (int32_t d = 0; d < plan->b_at; ++d) plan->sizes[plan->rank++] = self.sizes[d];
  for (int32_t d = 0; d < plan->b_rank; ++d) plan->sizes[plan->rank++] = plan->b_sizes[d];
  for (int32_t d = plan->b_at; d < self.rank; ++d) {
    if (plan->index[d] == nullptr) plan->sizes[plan->rank++] = self.sizes[d];
  }
  // Each index tensor's element for a broadcast coordinate.
  Tensor b_shape;
  b_shape.rank = plan->b_rank;
  for (int32_t d = 0; d < plan->b_rank; ++d) b_shape.sizes[d] = plan->b_sizes[d];
  for (int32_t d = 0; d < self.rank; ++d) {
    if (plan->index[d] != nullptr)
      ESDK_RETURN_IF_ERROR(plan->broadcast[d].Init(*plan->index[d], b_shape));
  }
  plan->count = static_cast<int32_t>(indices.size());
  return Status::Ok();
}

// The flat element of `self` that result coordinate `coord` reads.
Status Source(const Tensor& self, const IndexPlan& plan, const int32_t* coord, const char* name,
              size_t* out) {
  const int32_t* b_coord = coord + plan.b_at;
  size_t flat = 0;
  int32_t next = 0;  // the next result dim of a non-indexed self dim
  for (int32_t d = 0; d < self.rank; ++d) {
    int64_t at = 0;
    if (plan.index[d] != nullptr) {
      at = LoadInt(*plan.index[d], plan.broadcast[d].Map(b_coord));
      if (at < -self.sizes[d] || at >= self.sizes[d]) {
        return Status::Error(ErrorCode::kInvalidArgument,
                             "index %lld out of range for size %ld: %s", static_cast<long long>(at),
                             static_cast<long>(self.sizes[d]), name);
      }
      if (at < 0) at += self.sizes[d];
    } else {
      if (next == plan.b_at) next += plan.b_rank;  // skip the broadcast dims
      at = coord[next++];
    }
    flat = flat * static_cast<size_t>(self.sizes[d]) + static_cast<size_t>(at);
  }
  *out = flat;
  return Status::Ok();
}

enum class ScatterMode { kSet, kAdd };

// out = self; then out[index[i][j]][j] = src (or +=) for dim 0, and so on.
Status Scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
               double value, ScatterMode mode, Tensor& out, const char* name) {
  if (self.dtype != out.dtype || !IsKnownDtype(out.dtype) ||
      (src != nullptr && src->dtype != out.dtype))
    return DtypeError(name, out);
  if (index.dtype != ScalarType::kLong) return DtypeError(name, index);
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, name));
  if (index.numel > 0) {
    if ((index.rank == 0 ? 1 : index.rank) != (self.rank == 0 ? 1 : self.rank))
      return ShapeError("scatter index rank differs from self", index.rank, self.rank);
    for (int32_t k = 0; k < index.rank; ++k) {
      if (k != d && index.sizes[k] > self.sizes[k])
        return ShapeError("scatter index larger than self at dim", k, index.sizes[k]);
      if (src != nullptr && src->rank == index.rank && index.sizes[k] > src->sizes[k])
        return ShapeError("scatter index larger than src at dim", k, index.sizes[k]);
    }
  }
  if (src != nullptr && Overlap(*src, out))
    return Status::Error(ErrorCode::kNotSupported, "scatter source overlaps its output");
  if (self.nbytes > 0 && self.data != out.data) std::memmove(out.data, self.data, self.nbytes);
  size_t out_strides[runtime::kMaxRank], src_strides[runtime::kMaxRank];
  RowMajorStrides(out, out_strides);
  if (src != nullptr) RowMajorStrides(*src, src_strides);
  const int64_t size = self.rank == 0 ? 1 : self.sizes[d];
  const bool floating = IsFloating(out.dtype);
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < index.numel; ++i) {
    int64_t at = LoadInt(index, i);
    if (at < -size || at >= size) return ShapeError("scatter index out of range", at, size);
    if (at < 0) at += size;
    size_t o = 0, s = 0;
    for (int32_t k = 0; k < self.rank; ++k) {
      o += out_strides[k] * static_cast<size_t>(k == d ? at : coord[k]);
      if (src != nullptr && k < src->rank) s += src_strides[k] * static_cast<size_t>(coord[k]);
    }
    if (floating) {
      const double v = src != nullptr ? LoadDouble(*src, s) : value;
      StoreDouble(out, o, mode == ScatterMode::kAdd ? LoadDouble(out, o) + v : v);
    } else if (src == nullptr) {
      StoreDouble(out, o, value);  // scatter.value: the Scalar converted as PyTorch casts it
    } else {
      const int64_t v = LoadInt(*src, s);
      StoreInt(out, o,
               mode == ScatterMode::kAdd
                   ? static_cast<int64_t>(static_cast<uint64_t>(LoadInt(out, o)) +
                                          static_cast<uint64_t>(v))
                   : v);
    }
    NextCoord(coord, index.sizes, index.rank);
  }
  return Status::Ok();
}

// index_put with one bool mask (x[mask] = values): the mask covers self's
// dims [at, at + mask rank); the k-th true position, in row-major order,
// takes entry k of values broadcast to [outer..., count, inner...]. The
// output is self's shape, so the data-dependent count needs no planning.
Status IndexPutMask(const Tensor& self, const Tensor& mask, int32_t at, const Tensor& values,
                    bool accumulate, Tensor& out) {
  if (at + mask.rank > self.rank)
    return ShapeError("index_put mask rank above self's", mask.rank, self.rank);
  for (int32_t d = 0; d < mask.rank; ++d) {
    if (mask.sizes[d] != self.sizes[at + d])
      return ShapeError("index_put mask size differs from self at dim", at + d, mask.sizes[d]);
  }
  size_t count = 0;
  for (size_t i = 0; i < mask.numel; ++i) count += mask.Data<const uint8_t>()[i] != 0 ? 1 : 0;
  Tensor selected = values;  // the indexed shape: [outer..., count, inner...]
  selected.rank = self.rank - mask.rank + 1;
  if (count > static_cast<size_t>(INT32_MAX))
    return ShapeError("index_put mask count", static_cast<int64_t>(count));
  for (int32_t d = 0, k = 0; d < self.rank; ++d) {
    if (d < at || d >= at + mask.rank) selected.sizes[k++] = self.sizes[d];
    if (d == at) selected.sizes[k++] = static_cast<int32_t>(count);
  }
  BroadcastIndex from;
  ESDK_RETURN_IF_ERROR(from.Init(values, selected));
  size_t outer = 1, inner = 1;
  for (int32_t d = 0; d < at; ++d) outer *= static_cast<size_t>(self.sizes[d]);
  for (int32_t d = at + mask.rank; d < self.rank; ++d) inner *= static_cast<size_t>(self.sizes[d]);
  const bool floating = IsFloating(out.dtype);
  int32_t coord[runtime::kMaxRank] = {};  // over `selected`
  for (size_t o = 0; o < outer; ++o) {
    size_t k = 0;
    for (size_t m = 0; m < mask.numel; ++m) {
      if (mask.Data<const uint8_t>()[m] == 0) continue;
      for (size_t i = 0; i < inner; ++i) {
        size_t rest = o;  // coordinates of this element in `selected`
        for (int32_t d = at - 1; d >= 0; --d) {
          coord[d] = static_cast<int32_t>(rest % static_cast<size_t>(self.sizes[d]));
          rest /= static_cast<size_t>(self.sizes[d]);
        }
        coord[at] = static_cast<int32_t>(k);
        rest = i;
        for (int32_t d = selected.rank - 1; d > at; --d) {
          coord[d] = static_cast<int32_t>(rest % static_cast<size_t>(selected.sizes[d]));
          rest /= static_cast<size_t>(selected.sizes[d]);
        }
        const size_t dst = (o * mask.numel + m) * inner + i, src = from.Map(coord);
        if (floating) {
          StoreDouble(out, dst,
                      accumulate ? LoadDouble(out, dst) + LoadDouble(values, src)
                                 : LoadDouble(values, src));
        } else {
          StoreInt(out, dst,
                   accumulate ? static_cast<int64_t>(static_cast<uint64_t>(LoadInt(out, dst)) +
                                                     static_cast<uint64_t>(LoadInt(values, src)))
                              : LoadInt(values, src));
        }
      }
      ++k;
    }
  }
  return Status::Ok();
}

}  // namespace

Status IndexTensorOut(const Tensor& self, OptionalTensorList indices, Tensor& out) {
  if (self.dtype != out.dtype) return DtypeError(kIndexTensorOutName, out);
  IndexPlan plan;
  ESDK_RETURN_IF_ERROR(Plan(self, indices, kIndexTensorOutName, &plan));
  ESDK_RETURN_IF_ERROR(ExpectShape(out, plan.sizes, plan.rank, kIndexTensorOutName));
  if (Overlap(self, out)) return Status::Error(ErrorCode::kNotSupported, "index in place");
  const size_t element = out.ElementSize();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    size_t src = 0;
    ESDK_RETURN_IF_ERROR(Source(self, plan, coord, kIndexTensorOutName, &src));
    std::memcpy(out.Data<uint8_t>() + i * element, self.Data<const uint8_t>() + src * element,
                element);
    NextCoord(coord, plan.sizes, plan.rank);
  }
  return Status::Ok();
}

// index_put.out: out = self, then out[indices] = values (broadcast to the
// indexed shape), or += with accumulate.
Status IndexPutOut(const Tensor& self, OptionalTensorList indices, const Tensor& values,
                   bool accumulate, Tensor& out) {
  if (self.dtype != out.dtype || values.dtype != out.dtype || !IsKnownDtype(out.dtype))
    return DtypeError(kIndexPutOutName, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kIndexPutOutName));
  // One bool mask (after Nones): x[mask] = values.
  int32_t tensors = 0, mask_at = -1;
  for (size_t d = 0; d < indices.size(); ++d) {
    if (indices[d] == nullptr) continue;
    ++tensors;
    if (indices[d]->dtype == ScalarType::kBool) mask_at = static_cast<int32_t>(d);
  }
  if (tensors == 1 && mask_at >= 0) {
    if (Overlap(values, out))
      return Status::Error(ErrorCode::kNotSupported, "index_put values overlap its output");
    if (self.nbytes > 0 && self.data != out.data) std::memmove(out.data, self.data, self.nbytes);
    return IndexPutMask(self, *indices[static_cast<size_t>(mask_at)], mask_at, values, accumulate,
                        out);
  }
  IndexPlan plan;
  ESDK_RETURN_IF_ERROR(Plan(self, indices, kIndexPutOutName, &plan));
  Tensor result = values;
  result.rank = plan.rank;
  for (int32_t d = 0; d < plan.rank; ++d) result.sizes[d] = plan.sizes[d];
  BroadcastIndex from;
  ESDK_RETURN_IF_ERROR(from.Init(values, result));
  if (Overlap(values, out))
    return Status::Error(ErrorCode::kNotSupported, "index_put values overlap its output");
  if (self.nbytes > 0 && self.data != out.data) std::memmove(out.data, self.data, self.nbytes);
  const bool floating = IsFloating(out.dtype);
  size_t total = 1;
  for (int32_t d = 0; d < plan.rank; ++d) total *= static_cast<size_t>(plan.sizes[d]);
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < total; ++i) {
    size_t at = 0;
    ESDK_RETURN_IF_ERROR(Source(self, plan, coord, kIndexPutOutName, &at));
    const size_t v = from.Map(coord);
    if (floating) {
      StoreDouble(out, at,
                  accumulate ? LoadDouble(out, at) + LoadDouble(values, v) : LoadDouble(values, v));
    } else {
      StoreInt(out, at,
               accumulate ? static_cast<int64_t>(static_cast<uint64_t>(LoadInt(out, at)) +
                                                 static_cast<uint64_t>(LoadInt(values, v)))
                          : LoadInt(values, v));
    }
    NextCoord(coord, plan.sizes, plan.rank);
  }
  return Status::Ok();
}

// index_put_: index_put.out into self, what a KV cache's in-place update at
// its position lowers to once ExecuTorch reinplaces it.
Status IndexPutInPlace(Tensor& self, OptionalTensorList indices, const Tensor& values,
                       bool accumulate) {
  return IndexPutOut(self, indices, values, accumulate, self);
}

Status ScatterSrcOut(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                     Tensor& out) {
  return Scatter(self, dim, index, &src, 0.0, ScatterMode::kSet, out, kScatterSrcOutName);
}

Status ScatterValueOut(const Tensor& self, int64_t dim, const Tensor& index, double value,
                       Tensor& out) {
  return Scatter(self, dim, index, nullptr, value, ScatterMode::kSet, out, kScatterValueOutName);
}

Status ScatterAddOut(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                     Tensor& out) {
  return Scatter(self, dim, index, &src, 0.0, ScatterMode::kAdd, out, kScatterAddOutName);
}

}  // namespace ethosu_sdk::kernels
