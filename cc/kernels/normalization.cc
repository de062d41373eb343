// Normalisation (float). Layer norm: mean and variance over the trailing
// `normalized_shape` dims, accumulated in index order.
// Inference-time batch normalisation (channel dim 1):
// out = (x - running_mean) * (1 / sqrt(running_var + eps)) * weight + bias,
// evaluated in that order in float, as in ExecuTorch's portable kernel.
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {

// _native_batch_norm_legit_no_training(input, weight?, bias?, running_mean,
//     running_var, momentum, eps, *, out, save_mean, save_invstd): momentum
// is for training, and inference saves no statistics.
Status NativeBatchNormNoTrainingOut(const Tensor& in, const Tensor* weight, const Tensor* bias,
                                    const Tensor& running_mean, const Tensor& running_var,
                                    double /*momentum*/, double eps, Tensor& out,
                                    Tensor& /*save_mean*/, Tensor& /*save_invstd*/) {
  if (in.dtype != ScalarType::kFloat || out.dtype != ScalarType::kFloat) {
    return DtypeError(kNativeBatchNormNoTrainingOutName, in);
  }
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, kNativeBatchNormNoTrainingOutName));
  if (in.rank < 2) return ShapeError("batch norm input rank", in.rank);
  const size_t channels = static_cast<size_t>(in.sizes[1]);
  for (const Tensor* t : {weight, bias, &running_mean, &running_var}) {
    if (t == nullptr) continue;
    if (t->dtype != ScalarType::kFloat || t->numel != channels) {
      return ShapeError("batch norm parameter size", static_cast<int64_t>(t->numel),
                        static_cast<int64_t>(channels));
    }
  }
  size_t inner = 1;
  for (int32_t d = 2; d < in.rank; ++d) inner *= static_cast<size_t>(in.sizes[d]);
  const float* pi = in.Data<const float>();
  float* po = out.Data<float>();
  const float eps_f = static_cast<float>(eps);
  for (size_t i = 0; i < in.numel; ++i) {
    const size_t c = (i / inner) % channels;
    const float invstd = 1.0f / std::sqrt(running_var.Data<const float>()[c] + eps_f);
    const float w = weight ? weight->Data<const float>()[c] : 1.0f;
    const float b = bias ? bias->Data<const float>()[c] : 0.0f;
    po[i] = (pi[i] - running_mean.Data<const float>()[c]) * invstd * w + b;
  }
  return Status::Ok();
}

// native_layer_norm(input, SymInt[] normalized_shape, Tensor? weight,
//     Tensor? bias, float eps, *, out, mean, rstd)
Status NativeLayerNormOut(const Tensor& in, IntList normalized, const Tensor* weight,
                          const Tensor* bias, double eps, Tensor& out, Tensor& mean_out,
                          Tensor& rstd_out) {
  for (const Tensor* t : {&in, Const(out), Const(mean_out), Const(rstd_out)}) {
    if (t->dtype != ScalarType::kFloat) return DtypeError(kNativeLayerNormOutName, *t);
  }
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, kNativeLayerNormOutName));
  if (normalized.size() == 0 || normalized.size() > static_cast<size_t>(in.rank)) {
    return ShapeError("layer norm normalized_shape rank", static_cast<int64_t>(normalized.size()));
  }
  size_t inner = 1;
  const int32_t first = in.rank - static_cast<int32_t>(normalized.size());
  for (size_t k = 0; k < normalized.size(); ++k) {
    if (normalized[k] != in.sizes[first + static_cast<int32_t>(k)]) {
      return ShapeError("layer norm normalized_shape differs from the input's trailing dims",
                        normalized[k]);
    }
    inner *= static_cast<size_t>(normalized[k]);
  }
  const size_t outer = inner == 0 ? 0 : in.numel / inner;
  for (const Tensor* t : {weight, bias}) {
    if (t != nullptr && (t->dtype != ScalarType::kFloat || t->numel != inner)) {
      return ShapeError("layer norm weight/bias size", static_cast<int64_t>(t->numel),
                        static_cast<int64_t>(inner));
    }
  }
  if (mean_out.numel != outer || rstd_out.numel != outer) {
    return ShapeError("layer norm mean/rstd size", static_cast<int64_t>(mean_out.numel),
                      static_cast<int64_t>(outer));
  }
  const float* pi = in.Data<const float>();
  float* po = out.Data<float>();
  for (size_t o = 0; o < outer; ++o) {
    const float* row = pi + o * inner;
    float sum = 0.0f, sum_squares = 0.0f;
    for (size_t i = 0; i < inner; ++i) {
      sum += row[i];
      sum_squares += row[i] * row[i];
    }
    const float mean = sum / static_cast<float>(inner);
    const float variance = sum_squares / static_cast<float>(inner) - mean * mean;
    const float rstd =
        1.0f / std::sqrt((variance > 0.0f ? variance : 0.0f) + static_cast<float>(eps));
    mean_out.Data<float>()[o] = mean;
    rstd_out.Data<float>()[o] = rstd;
    for (size_t i = 0; i < inner; ++i) {
      const float w = weight ? weight->Data<const float>()[i] : 1.0f;
      const float b = bias ? bias->Data<const float>()[i] : 0.0f;
      po[o * inner + i] = (row[i] - mean) * rstd * w + b;
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
