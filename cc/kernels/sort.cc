// topk.values: the k largest (or smallest) entries along a dim and their
// indices, in order. Ties keep the lower index first and NaN ranks above
// every number, as torch.topk on CPU; no scratch memory: each slice's
// selection is insertion-sorted in place in the outputs.
#include <cmath>
#include <cstdint>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// Whether a ranks strictly before b (NaN is the largest value).
bool Before(double a, double b, bool largest) {
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return largest ? (a_nan && !b_nan) : (b_nan && !a_nan);
  return largest ? a > b : a < b;
}

}  // namespace

Status TopkValues(const Tensor& self, int64_t k, int64_t dim, bool largest, bool /*sorted*/,
                  Tensor& values, Tensor& indices) {
  if (!IsKnownDtype(self.dtype) || self.dtype == ScalarType::kBool || values.dtype != self.dtype)
    return DtypeError(kTopkValuesName, values);
  if (indices.dtype != ScalarType::kLong) return DtypeError(kTopkValuesName, indices);
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  const int64_t size = self.rank == 0 ? 1 : self.sizes[d];
  if (k < 0 || k > size) return ShapeError("topk k out of range (k, size)", k, size);
  int32_t shape[runtime::kMaxRank];
  for (int32_t j = 0; j < self.rank; ++j)
    shape[j] = j == d ? static_cast<int32_t>(k) : self.sizes[j];
  ESDK_RETURN_IF_ERROR(ExpectShape(values, shape, self.rank, kTopkValuesName));
  ESDK_RETURN_IF_ERROR(ExpectShape(indices, shape, self.rank, kTopkValuesName));
  if (Overlap(self, values) || Overlap(self, indices))
    return Status::Error(ErrorCode::kNotSupported, "topk in place");
  size_t outer, inner;
  OuterInner(self, d, &outer, &inner);
  const size_t n = static_cast<size_t>(size), kk = static_cast<size_t>(k);
  int64_t* pidx = indices.Data<int64_t>();
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      const size_t in_base = o * n * inner + i, out_base = o * kk * inner + i;
      size_t filled = 0;
      for (size_t e = 0; e < n; ++e) {
        const double v = LoadDouble(self, in_base + e * inner);
        // Position among the kept: after every kept entry that ranks before
        // v or ties with it (ties keep the lower index first).
        size_t at = filled;
        while (at > 0 && Before(v, LoadDouble(values, out_base + (at - 1) * inner), largest)) --at;
        if (at >= kk) continue;
        const size_t last = filled < kk ? filled : kk - 1;
        for (size_t m = last; m > at; --m) {
          const size_t to = out_base + m * inner, from = out_base + (m - 1) * inner;
          if (IsFloating(self.dtype)) {
            StoreDouble(values, to, LoadDouble(values, from));
          } else {
            StoreInt(values, to, LoadInt(values, from));
          }
          pidx[to] = pidx[from];
        }
        if (IsFloating(self.dtype)) {
          StoreDouble(values, out_base + at * inner, v);
        } else {
          StoreInt(values, out_base + at * inner, LoadInt(self, in_base + e * inner));
        }
        pidx[out_base + at * inner] = static_cast<int64_t>(e);
        if (filled < kk) ++filled;
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
