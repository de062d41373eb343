// Shape and dtype checks and index helpers shared by the CPU kernels (their
// arguments arrive checked and typed: unboxing.h).
#ifndef ETHOSU_SDK_CC_KERNELS_KERNEL_UTIL_H_
#define ETHOSU_SDK_CC_KERNELS_KERNEL_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cc/kernels/kernel_types.h"

namespace ethosu_sdk::kernels {

// A dim in [-rank, rank) normalised to [0, rank).
Status NormalizeDim(int64_t dim, int32_t rank, int32_t* out);
Status ExpectDtype(const Tensor& t, ScalarType dtype, const char* what);
Status ExpectSameShape(const Tensor& a, const Tensor& b, const char* what);
// `out` has exactly the given shape.
Status ExpectShape(const Tensor& out, const int32_t* sizes, int32_t rank, const char* what);
// kInvalidArgument "what", "what (a)", "what (a, b)": the numbers a shape
// check saw.
Status ShapeError(const char* what);
Status ShapeError(const char* what, int64_t a);
Status ShapeError(const char* what, int64_t a, int64_t b);
Status DtypeError(const char* op, const Tensor& t);
// The two tensors' bytes share an address (empty tensors share none).
bool Overlap(const Tensor& a, const Tensor& b);

// Elementwise broadcasting (numpy rules) of `in` onto `out`'s shape: for each
// output element, the index of the input element it reads.
class BroadcastIndex {
 public:
  // Fails when `in` does not broadcast to `out`.
  Status Init(const Tensor& in, const Tensor& out);
  bool trivial() const { return trivial_; }
  // Index into `in` of output element with coordinates `coord` (out's rank).
  size_t Map(const int32_t* coord) const;

 private:
  bool trivial_ = true;
  int32_t rank_ = 0;
  size_t strides_[runtime::kMaxRank] = {};  // 0 on broadcast dims
};

// Converts a Scalar to an element type; integers saturate (NaN becomes 0),
// so an out-of-range argument from a .pte is never undefined behaviour.
template <typename T>
T SaturateCast(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    if (!(v == v)) return T(0);
    // Compare in double: the bounds of every type up to 32 bits are exact.
    if (v <= static_cast<double>(std::numeric_limits<T>::min()))
      return std::numeric_limits<T>::min();
    if (v >= static_cast<double>(std::numeric_limits<T>::max()))
      return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }
}

// An output seen as an input, to check it in one list with the inputs.
inline const Tensor* Const(const Tensor& t) { return &t; }

// Row-major element strides of `t` (the default dim order).
void RowMajorStrides(const Tensor& t, size_t* strides);
// Products of t's sizes before and after `dim` (outer, inner): the data as
// [outer, sizes[dim], inner].
void OuterInner(const Tensor& t, int32_t dim, size_t* outer, size_t* inner);

// Advances a coordinate vector in row-major order.
void NextCoord(int32_t* coord, const int32_t* sizes, int32_t rank);

}  // namespace ethosu_sdk::kernels

#endif  // ETHOSU_SDK_CC_KERNELS_KERNEL_UTIL_H_
