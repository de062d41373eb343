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

// _to_dim_order_copy.out(self, *, non_blocking, dim_order?, out): the
// default dim order only (the runtime refuses others at load, since this
// kernel is not marked `dim_order: any`).
Status ToDimOrderCopyOut(const Tensor& self, bool non_blocking, std::optional<IntList> dim_order,
                         Tensor& out) {
  if (non_blocking)
    return Status::Error(ErrorCode::kNotSupported, "_to_dim_order_copy with non_blocking=True");
  if (dim_order) {
    for (size_t d = 0; d < dim_order->size(); ++d) {
      if ((*dim_order)[d] != static_cast<int64_t>(d)) {
        return Status::Error(ErrorCode::kNotSupported,
                             "_to_dim_order_copy into a dim order other than the default");
      }
    }
  }
  return Convert(self, out, kToDimOrderCopyOutName);
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

}  // namespace ethosu_sdk::kernels
