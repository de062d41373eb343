// Copies with a dtype conversion: _to_copy, _to_dim_order_copy (what
// `.to(dtype)` and `.float()` export as), copy (src broadcast into self's
// shape), and the plain copies alias_copy, detach_copy, lift_fresh_copy.
// Conversions are PyTorch's casts: float to integer truncates toward zero,
// anything to bool is != 0.
#include <cstdint>
#include <cstring>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// out[o] = in[i] converted to out's dtype.
void ConvertElement(const Tensor& in, size_t i, Tensor& out, size_t o) {
  if (IsFloating(in.dtype)) {
    StoreDouble(out, o, LoadDouble(in, i));
  } else {
    StoreInt(out, o, LoadInt(in, i));
  }
}

Status Convert(const Tensor& in, Tensor& out, const char* name) {
  if (!IsKnownDtype(in.dtype) || !IsKnownDtype(out.dtype)) return DtypeError(name, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  if (in.dtype == out.dtype) {
    if (in.nbytes > 0 && in.data != out.data) std::memmove(out.data, in.data, in.nbytes);
    return Status::Ok();
  }
  if (Overlap(in, out))
    return Status::Error(ErrorCode::kNotSupported, "dtype conversion in place: %s", name);
  for (size_t i = 0; i < out.numel; ++i) ConvertElement(in, i, out, i);
  return Status::Ok();
}

// Element strides of `t` as its data lies: in its dim order.
void DimOrderStrides(const Tensor& t, size_t* strides) {
  size_t stride = 1;
  for (int32_t k = t.rank - 1; k >= 0; --k) {
    strides[t.dim_order[k]] = stride;
    stride *= static_cast<size_t>(t.sizes[t.dim_order[k]]);
  }
}

// out = in converted, each laid out in its own dim order (same shape).
Status ConvertAcrossDimOrders(const Tensor& in, Tensor& out, const char* name) {
  if (in.SameShapeAndLayout(out)) return Convert(in, out, name);
  if (!IsKnownDtype(in.dtype) || !IsKnownDtype(out.dtype)) return DtypeError(name, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  if (Overlap(in, out))
    return Status::Error(ErrorCode::kNotSupported, "dim order change in place: %s", name);
  size_t in_strides[runtime::kMaxRank] = {}, out_strides[runtime::kMaxRank] = {};
  DimOrderStrides(in, in_strides);
  DimOrderStrides(out, out_strides);
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t n = 0; n < out.numel; ++n) {
    size_t i = 0, o = 0;
    for (int32_t d = 0; d < out.rank; ++d) {
      i += in_strides[d] * static_cast<size_t>(coord[d]);
      o += out_strides[d] * static_cast<size_t>(coord[d]);
    }
    ConvertElement(in, i, out, o);
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

// A `dim_order` argument, when given, is a permutation laying the data out
// as `out` lies (dimensions of size 1 aside).
Status ExpectOutDimOrder(const std::optional<IntList>& dim_order, const Tensor& out,
                         const char* name) {
  if (!dim_order) return Status::Ok();
  if (static_cast<int64_t>(dim_order->size()) != out.rank)
    return ShapeError("dim_order length differs from the output's rank",
                      static_cast<int64_t>(dim_order->size()), out.rank);
  Tensor as_argument = out;
  bool seen[runtime::kMaxRank] = {};
  for (int32_t d = 0; d < out.rank; ++d) {
    const int64_t dim = (*dim_order)[static_cast<size_t>(d)];
    if (dim < 0 || dim >= out.rank || seen[dim])
      return ShapeError("dim_order is not a permutation: entry", d, dim);
    seen[dim] = true;
    as_argument.dim_order[d] = static_cast<uint8_t>(dim);
  }
  if (!out.SameShapeAndLayout(as_argument)) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "%s: the dim_order argument is not the output tensor's", name);
  }
  return Status::Ok();
}

}  // namespace

// _to_copy.out(self, *, non_blocking, memory_format?, out): the dtype comes
// from out; every memory format gives the default layout here.
Status ToCopyOut(const Tensor& self, bool non_blocking, std::optional<int64_t> /*memory_format*/,
                 Tensor& out) {
  // ExecuTorch's portable kernel refuses non_blocking=True; so does ours.
  if (non_blocking)
    return Status::Error(ErrorCode::kNotSupported, "_to_copy with non_blocking=True");
  return Convert(self, out, kToCopyOutName);
}

// _to_dim_order_copy.out(self, *, non_blocking, dim_order?, out) and
// _clone_dim_order.out: a copy (with _to_dim_order_copy, a dtype
// conversion) from self's dim order into out's, which `dim_order` names
// (operators.yaml's `dim_order: kernel`: each tensor's dim order is read
// here).
Status ToDimOrderCopyOut(const Tensor& self, bool non_blocking, std::optional<IntList> dim_order,
                         Tensor& out) {
  if (non_blocking)
    return Status::Error(ErrorCode::kNotSupported, "_to_dim_order_copy with non_blocking=True");
  ESDK_RETURN_IF_ERROR(ExpectOutDimOrder(dim_order, out, kToDimOrderCopyOutName));
  return ConvertAcrossDimOrders(self, out, kToDimOrderCopyOutName);
}

Status CloneDimOrderOut(const Tensor& in, bool /*non_blocking*/, std::optional<IntList> dim_order,
                        Tensor& out) {
  if (in.dtype != out.dtype) return DtypeError(kCloneDimOrderOutName, in);
  ESDK_RETURN_IF_ERROR(ExpectOutDimOrder(dim_order, out, kCloneDimOrderOutName));
  return ConvertAcrossDimOrders(in, out, kCloneDimOrderOutName);
}

Status AliasCopyOut(const Tensor& self, Tensor& out) {
  return Convert(self, out, kAliasCopyOutName);
}
Status DetachCopyOut(const Tensor& self, Tensor& out) {
  return Convert(self, out, kDetachCopyOutName);
}
Status LiftFreshCopyOut(const Tensor& self, Tensor& out) {
  return Convert(self, out, kLiftFreshCopyOutName);
}

// copy.out(self, src, non_blocking, *, out): src broadcast to self's shape
// and converted to self's dtype.
Status CopyOut(const Tensor& self, const Tensor& src, bool /*non_blocking*/, Tensor& out) {
  if (self.dtype != out.dtype || !IsKnownDtype(src.dtype) || !IsKnownDtype(out.dtype))
    return DtypeError(kCopyOutName, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(self, out, kCopyOutName));
  if (Overlap(src, out) &&
      !(src.data == out.data && src.SameShape(out) && src.dtype == out.dtype)) {
    return Status::Error(ErrorCode::kNotSupported, "copy source overlaps its output");
  }
  BroadcastIndex index;
  ESDK_RETURN_IF_ERROR(index.Init(src, out));
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t o = 0; o < out.numel; ++o) {
    ConvertElement(src, index.Map(coord), out, o);
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

// copy_(self, src, non_blocking): an exported program's write-back of a
// mutable buffer (register_buffer updated in place): copy.out into self.
Status CopyInPlace(Tensor& self, const Tensor& src, bool non_blocking) {
  return CopyOut(self, src, non_blocking, self);
}

}  // namespace ethosu_sdk::kernels
