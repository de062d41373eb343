// p-norm distances between rows: _cdist_forward (torch.cdist: every row of
// x1 against every row of x2, batch dims broadcast) and _pdist_forward
// (torch.pdist: every pair i < j of one row set, in row-major order of the
// upper triangle). The norm of the row difference d = |a - b| is, as in
// PyTorch: p = 0 counts the nonzero d, p = 1 sums d, p = 2 is sqrt(sum d^2),
// p = inf is max d, any other p is (sum d^p)^(1/p). Computed in the
// tensors' own float type, as ExecuTorch's portable kernels do.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// The p-norm of a - b over `m` elements.
template <typename T>
T RowDistance(const T* a, const T* b, size_t m, double p) {
  T acc = 0;
  if (p == 0.0) {
    for (size_t k = 0; k < m; ++k) acc += std::abs(a[k] - b[k]) != T(0) ? T(1) : T(0);
    return acc;
  }
  if (std::isinf(p)) {
    for (size_t k = 0; k < m; ++k) {
      const T d = std::abs(a[k] - b[k]);
      if (d > acc) acc = d;
    }
    return acc;
  }
  if (p == 1.0) {
    for (size_t k = 0; k < m; ++k) acc += std::abs(a[k] - b[k]);
    return acc;
  }
  if (p == 2.0) {
    for (size_t k = 0; k < m; ++k) acc += (a[k] - b[k]) * (a[k] - b[k]);
    return std::sqrt(acc);
  }
  const T pt = static_cast<T>(p);
  for (size_t k = 0; k < m; ++k) acc += std::pow(std::abs(a[k] - b[k]), pt);
  return std::pow(acc, T(1) / pt);
}

Status CheckP(double p, const char* name) {
  if (!(p >= 0.0)) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "%s: p must be a non-negative number (got %g)", name, p);
  }
  return Status::Ok();
}

// Index into a batch dims prefix of `t` (its first t.rank - 2 sizes) for the
// output batch coordinate `coord` (out_batch_rank dims), broadcasting size-1
// and missing leading dims.
size_t BatchOffset(const Tensor& t, const int32_t* coord, int32_t out_batch_rank) {
  const int32_t rank = t.rank - 2;
  size_t index = 0;
  for (int32_t d = 0; d < rank; ++d) {
    const int32_t c = coord[out_batch_rank - rank + d];
    index = index * static_cast<size_t>(t.sizes[d]) + static_cast<size_t>(t.sizes[d] == 1 ? 0 : c);
  }
  return index;
}

template <typename T>
void Cdist(const Tensor& x1, const Tensor& x2, double p, Tensor& out) {
  const int32_t batch_rank = out.rank - 2;
  const size_t rows1 = static_cast<size_t>(x1.sizes[x1.rank - 2]);
  const size_t rows2 = static_cast<size_t>(x2.sizes[x2.rank - 2]);
  const size_t m = static_cast<size_t>(x1.sizes[x1.rank - 1]);
  size_t batches = 1;
  for (int32_t d = 0; d < batch_rank; ++d) batches *= static_cast<size_t>(out.sizes[d]);
  const T* a = x1.Data<const T>();
  const T* b = x2.Data<const T>();
  T* o = out.Data<T>();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t batch = 0; batch < batches; ++batch) {
    const T* a_batch = a + BatchOffset(x1, coord, batch_rank) * rows1 * m;
    const T* b_batch = b + BatchOffset(x2, coord, batch_rank) * rows2 * m;
    for (size_t i = 0; i < rows1; ++i) {
      for (size_t j = 0; j < rows2; ++j) *o++ = RowDistance(a_batch + i * m, b_batch + j * m, m, p);
    }
    NextCoord(coord, out.sizes, batch_rank);
  }
}

template <typename T>
void Pdist(const Tensor& in, double p, Tensor& out) {
  const size_t n = static_cast<size_t>(in.sizes[0]), m = static_cast<size_t>(in.sizes[1]);
  const T* x = in.Data<const T>();
  T* o = out.Data<T>();
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) *o++ = RowDistance(x + i * m, x + j * m, m, p);
  }
}

bool IsFloatType(ScalarType t) { return t == ScalarType::kFloat || t == ScalarType::kDouble; }

}  // namespace

Status CdistForwardOut(const Tensor& x1, const Tensor& x2, double p,
                       std::optional<int64_t> compute_mode, Tensor& out) {
  const char* name = kCdistForwardOutName;
  if (!IsFloatType(x1.dtype) || x2.dtype != x1.dtype || out.dtype != x1.dtype) {
    return DtypeError(name, x1);
  }
  ESDK_RETURN_IF_ERROR(CheckP(p, name));
  // 0: matmul for large Euclidean inputs, 1: always, 2: never (PyTorch's
  // values); the result is the same distance, computed directly here.
  if (compute_mode && (*compute_mode < 0 || *compute_mode > 2))
    return ShapeError("cdist compute_mode must be 0, 1 or 2", *compute_mode);
  if (x1.rank < 2 || x2.rank < 2)
    return ShapeError("cdist inputs must be at least 2-D", x1.rank, x2.rank);
  if (x1.sizes[x1.rank - 1] != x2.sizes[x2.rank - 1]) {
    return ShapeError("cdist inputs must have the same number of columns", x1.sizes[x1.rank - 1],
                      x2.sizes[x2.rank - 1]);
  }
  // out: the batch dims of x1 and x2 broadcast, then [P, R].
  const int32_t batch_rank = (x1.rank > x2.rank ? x1.rank : x2.rank) - 2;
  if (out.rank != batch_rank + 2) return ShapeError("cdist output rank", out.rank, batch_rank + 2);
  for (int32_t d = 0; d < batch_rank; ++d) {
    const int32_t d1 = d - (batch_rank - (x1.rank - 2)), d2 = d - (batch_rank - (x2.rank - 2));
    const int32_t s1 = d1 >= 0 ? x1.sizes[d1] : 1, s2 = d2 >= 0 ? x2.sizes[d2] : 1;
    if (s1 != s2 && s1 != 1 && s2 != 1)
      return ShapeError("cdist batch dims do not broadcast", s1, s2);
    if (out.sizes[d] != (s1 == 1 ? s2 : s1))
      return ShapeError("cdist output batch size", out.sizes[d]);
  }
  if (out.sizes[batch_rank] != x1.sizes[x1.rank - 2] ||
      out.sizes[batch_rank + 1] != x2.sizes[x2.rank - 2]) {
    return ShapeError("cdist output must be [..., rows of x1, rows of x2]", out.sizes[batch_rank],
                      out.sizes[batch_rank + 1]);
  }
  if (out.numel == 0) return Status::Ok();
  if (x1.dtype == ScalarType::kFloat) {
    Cdist<float>(x1, x2, p, out);
  } else {
    Cdist<double>(x1, x2, p, out);
  }
  return Status::Ok();
}

Status PdistForwardOut(const Tensor& self, double p, Tensor& out) {
  const char* name = kPdistForwardOutName;
  if (!IsFloatType(self.dtype) || out.dtype != self.dtype) return DtypeError(name, self);
  ESDK_RETURN_IF_ERROR(CheckP(p, name));
  if (self.rank != 2) return ShapeError("pdist input must be 2-D", self.rank);
  const int64_t n = self.sizes[0];
  const int32_t pairs[] = {static_cast<int32_t>(n <= 1 ? 0 : n * (n - 1) / 2)};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, pairs, 1, name));
  if (self.dtype == ScalarType::kFloat) {
    Pdist<float>(self, p, out);
  } else {
    Pdist<double>(self, p, out);
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
