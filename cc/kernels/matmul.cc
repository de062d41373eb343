// Matrix products for float: mm, bmm, addmm, linear. Each output element is one
// dot product accumulated in index order from 0, as in ExecuTorch's portable
// kernels, then scaled and biased.
#include <cstdint>
#include <initializer_list>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// out[m x p] = a[m x n] @ b, where b is [n x p], or [p x n] when transposed.
void MatMul(const float* a, const float* b, bool b_transposed, int32_t m, int32_t n, int32_t p,
            float* out) {
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < p; ++j) {
      float sum = 0.0f;
      for (int32_t k = 0; k < n; ++k) {
        const float bv =
            b_transposed ? b[static_cast<size_t>(j) * n + k] : b[static_cast<size_t>(k) * p + j];
        sum += a[static_cast<size_t>(i) * n + k] * bv;
      }
      out[static_cast<size_t>(i) * p + j] = sum;
    }
  }
}

Status Expect2dFloat(const Tensor& t, const char* name) {
  if (t.dtype != ScalarType::kFloat) return DtypeError(name, t);
  if (t.rank != 2) return ShapeError("expected a matrix, rank", t.rank);
  return Status::Ok();
}

// out = out * alpha + bias * beta, with `bias` broadcast to out's shape.
Status AddBias(const Tensor& bias, double beta, double alpha, Tensor& out, const char* name) {
  if (bias.dtype != ScalarType::kFloat) return DtypeError(name, bias);
  BroadcastIndex index;
  ESDK_RETURN_IF_ERROR(index.Init(bias, out));
  const float* pb = bias.Data<const float>();
  float* po = out.Data<float>();
  const float alpha_f = static_cast<float>(alpha), beta_f = static_cast<float>(beta);
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    po[i] = po[i] * alpha_f + pb[index.Map(coord)] * beta_f;
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

}  // namespace

// mm(self, mat2, *, out)
Status MmOut(const Tensor& a, const Tensor& b, Tensor& out) {
  for (const Tensor* t : {&a, &b, Const(out)}) ESDK_RETURN_IF_ERROR(Expect2dFloat(*t, kMmOutName));
  if (a.sizes[1] != b.sizes[0]) return ShapeError("mm inner sizes", a.sizes[1], b.sizes[0]);
  const int32_t shape[2] = {a.sizes[0], b.sizes[1]};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, 2, kMmOutName));
  MatMul(a.Data<const float>(), b.Data<const float>(), false, a.sizes[0], a.sizes[1], b.sizes[1],
         out.Data<float>());
  return Status::Ok();
}

// bmm(self, mat2, *, out): one mm per batch, [b x m x n] @ [b x n x p].
Status BmmOut(const Tensor& a, const Tensor& b, Tensor& out) {
  for (const Tensor* t : {&a, &b, Const(out)}) {
    if (t->dtype != ScalarType::kFloat) return DtypeError(kBmmOutName, *t);
    if (t->rank != 3) return ShapeError("bmm expects rank 3, got", t->rank);
  }
  if (a.sizes[0] != b.sizes[0]) return ShapeError("bmm batch sizes", a.sizes[0], b.sizes[0]);
  if (a.sizes[2] != b.sizes[1]) return ShapeError("bmm inner sizes", a.sizes[2], b.sizes[1]);
  const int32_t shape[3] = {a.sizes[0], a.sizes[1], b.sizes[2]};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, 3, kBmmOutName));
  const size_t a_step = static_cast<size_t>(a.sizes[1]) * a.sizes[2];
  const size_t b_step = static_cast<size_t>(b.sizes[1]) * b.sizes[2];
  const size_t o_step = static_cast<size_t>(shape[1]) * shape[2];
  for (int32_t batch = 0; batch < shape[0]; ++batch) {
    MatMul(a.Data<const float>() + batch * a_step, b.Data<const float>() + batch * b_step, false,
           a.sizes[1], a.sizes[2], b.sizes[2], out.Data<float>() + batch * o_step);
  }
  return Status::Ok();
}

// addmm(self, mat1, mat2, *, beta, alpha, out) = beta * self + alpha * (mat1 @ mat2)
Status AddmmOut(const Tensor& bias, const Tensor& a, const Tensor& b, double beta, double alpha,
                Tensor& out) {
  for (const Tensor* t : {&a, &b, Const(out)}) {
    ESDK_RETURN_IF_ERROR(Expect2dFloat(*t, kAddmmOutName));
  }
  if (a.sizes[1] != b.sizes[0]) return ShapeError("addmm inner sizes", a.sizes[1], b.sizes[0]);
  const int32_t shape[2] = {a.sizes[0], b.sizes[1]};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, 2, kAddmmOutName));
  if (Overlap(bias, out)) {
    return Status::Error(ErrorCode::kNotSupported, "addmm with bias aliasing the output");
  }
  MatMul(a.Data<const float>(), b.Data<const float>(), false, a.sizes[0], a.sizes[1], b.sizes[1],
         out.Data<float>());
  return AddBias(bias, beta, alpha, out, kAddmmOutName);
}

// linear(input, weight, bias?, *, out) = input @ weight^T + bias, input [.., in]
Status LinearOut(const Tensor& in, const Tensor& weight, const Tensor* bias, Tensor& out) {
  ESDK_RETURN_IF_ERROR(Expect2dFloat(weight, kLinearOutName));
  if (in.dtype != ScalarType::kFloat || out.dtype != ScalarType::kFloat) {
    return DtypeError(kLinearOutName, in);
  }
  if (in.rank < 1 || in.sizes[in.rank - 1] != weight.sizes[1]) {
    return ShapeError("linear input features", in.rank ? in.sizes[in.rank - 1] : -1,
                      weight.sizes[1]);
  }
  int32_t shape[runtime::kMaxRank];
  for (int32_t d = 0; d < in.rank; ++d) shape[d] = in.sizes[d];
  shape[in.rank - 1] = weight.sizes[0];
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, in.rank, kLinearOutName));
  const int32_t rows =
      static_cast<int32_t>(in.numel / static_cast<size_t>(weight.sizes[1] ? weight.sizes[1] : 1));
  MatMul(in.Data<const float>(), weight.Data<const float>(), true, rows, weight.sizes[1],
         weight.sizes[0], out.Data<float>());
  if (bias == nullptr) return Status::Ok();
  return AddBias(*bias, 1.0, 1.0, out, kLinearOutName);
}

}  // namespace ethosu_sdk::kernels
