// Dtype-generic element access for the portable kernels that take mixed
// dtypes (comparisons, where, casts, integer and float math): each element
// read as a double or an int64 and written back with the conversion
// PyTorch applies. One switch per element instead of one template copy per
// dtype pair keeps these kernels small; they are the fallback path, not the
// hot one (add, conv and matmul keep their typed loops).
#ifndef ETHOSU_SDK_CC_KERNELS_ELEMENT_H_
#define ETHOSU_SDK_CC_KERNELS_ELEMENT_H_

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cc/kernels/kernel_types.h"
#include "cc/kernels/kernel_util.h"

namespace ethosu_sdk::kernels {

bool IsFloating(ScalarType t);
// Integer types, bool excluded.
bool IsIntegral(ScalarType t);
// A dtype this library reads and writes (every one runtime::ScalarType names).
bool IsKnownDtype(ScalarType t);
// Bits of an integer type (64 for the others).
int IntBits(ScalarType t);

// PyTorch's result type of two tensor operands (torch.promote_types):
// bool < integers < floats; uint8 with a signed integer gives the next wider
// signed type.
ScalarType PromoteTypes(ScalarType a, ScalarType b);
// The result type of a tensor with a Scalar operand: the tensor's dtype
// unless the Scalar is of a higher category (a float Scalar with an integer
// tensor gives float32; an integral Scalar with a bool tensor gives int64).
ScalarType PromoteWithScalar(ScalarType tensor, bool scalar_is_floating, bool scalar_is_bool);

double LoadDouble(const Tensor& t, size_t i);
int64_t LoadInt(const Tensor& t, size_t i);
// Writes `v` converted to t's dtype: floats round, integers truncate toward
// zero and wrap like PyTorch's casts on two's complement hardware (out of
// range and NaN give a defined value here, not undefined behaviour), bool is
// v != 0.
void StoreDouble(const Tensor& t, size_t i, double v);
// Writes `v` truncated to t's width (wrapping), or converted for float/bool.
void StoreInt(const Tensor& t, size_t i, int64_t v);
// Float32 rounding of `v` when `t` is float32: what a computation in the
// tensor's own precision gives for an input converted to it.
double RoundTo(ScalarType t, double v);

// `out` has the broadcast shape of `a` and `b` (numpy rules); fails naming
// `op` otherwise.
Status ExpectBroadcastOf(const Tensor& a, const Tensor& b, const Tensor& out, const char* op);
Status ExpectBroadcastOf(const Tensor* const* operands, int count, const Tensor& out,
                         const char* op);

// A Scalar argument as a rank-0 tensor over `storage`: int64 when it is
// integral and `as_int`, else float64. Lets the Scalar overloads share the
// Tensor overloads' loops (a rank-0 tensor broadcasts to any shape).
Tensor ScalarTensor(double value, bool as_int, int64_t* int_storage, double* double_storage);

// Calls fn(out_index, a_index, b_index) for every element of `out`, with
// `a` and `b` broadcast to it (checked by ExpectBroadcastOf first).
template <typename Fn>
Status ForEachBroadcast(const Tensor& a, const Tensor& b, const Tensor& out, const char* op,
                        Fn fn) {
  ESDK_RETURN_IF_ERROR(ExpectBroadcastOf(a, b, out, op));
  BroadcastIndex ia, ib;
  ESDK_RETURN_IF_ERROR(ia.Init(a, out));
  ESDK_RETURN_IF_ERROR(ib.Init(b, out));
  if (ia.trivial() && ib.trivial()) {
    for (size_t i = 0; i < out.numel; ++i) fn(i, i, i);
    return Status::Ok();
  }
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    fn(i, ia.Map(coord), ib.Map(coord));
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

// Whether a Scalar argument (read as a double) is integral, for the
// Scalar-operand promotion rules.
inline bool ScalarIsIntegral(double v) { return std::isfinite(v) && std::trunc(v) == v; }

}  // namespace ethosu_sdk::kernels

#endif  // ETHOSU_SDK_CC_KERNELS_ELEMENT_H_
