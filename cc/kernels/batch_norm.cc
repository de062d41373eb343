// _native_batch_norm_legit (float32), the two overloads an export leaves:
// `.no_stats_out` (F.instance_norm, batch norm without running statistics)
// and `.out` (with running statistics). With training=True the statistics
// are the batch's: per channel (dim 1) the mean and biased variance over
// every other dim, accumulated in double; save_mean and save_invstd
// (1 / sqrt(var + eps)) hold them per channel, as PyTorch returns them, and
// `.out` updates the running statistics in place as PyTorch does
// (running = (1 - momentum) * running + momentum * batch, the variance
// unbiased). With training=False, `.out` is the inference batch norm
// (normalization.cc) and `.no_stats_out` has no statistics to use: refused.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

Status CheckFloat(std::initializer_list<const Tensor*> tensors, const char* name) {
  for (const Tensor* t : tensors) {
    if (t != nullptr && t->dtype != ScalarType::kFloat) return DtypeError(name, *t);
  }
  return Status::Ok();
}

// Batch statistics of `in` per channel, the normalised output, save_mean
// and save_invstd; `running_*` (both or neither) updated with `momentum`.
Status TrainingBatchNorm(const Tensor& in, const Tensor* weight, const Tensor* bias,
                         Tensor* running_mean, Tensor* running_var, double momentum, double eps,
                         Tensor& out, Tensor& save_mean, Tensor& save_invstd, const char* name) {
  ESDK_RETURN_IF_ERROR(CheckFloat({&in, weight, bias, running_mean, running_var, Const(out),
                                   Const(save_mean), Const(save_invstd)},
                                  name));
  if (in.rank < 2) return ShapeError("batch norm input must be at least 2-D (N, C, ...)", in.rank);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  const int32_t channels = in.sizes[1];
  const int32_t stats_shape[] = {channels};
  ESDK_RETURN_IF_ERROR(ExpectShape(save_mean, stats_shape, 1, name));
  ESDK_RETURN_IF_ERROR(ExpectShape(save_invstd, stats_shape, 1, name));
  for (const Tensor* t :
       std::initializer_list<const Tensor*>{weight, bias, running_mean, running_var}) {
    if (t != nullptr && t->numel != static_cast<size_t>(channels)) {
      return ShapeError("batch norm weight/bias/running statistics size",
                        static_cast<int64_t>(t->numel), channels);
    }
  }
  size_t outer = 0, inner = 0;
  OuterInner(in, 1, &outer, &inner);
  const size_t count = outer * inner;  // elements per channel
  // An empty batch has no statistics: NaN, as 0 / 0 in PyTorch.
  const double per_element = count == 0 ? std::nan("") : 1.0 / static_cast<double>(count);
  const float* x = in.Data<const float>();
  float* y = out.Data<float>();
  for (int32_t c = 0; c < channels; ++c) {
    double sum = 0.0, squares = 0.0;
    for (size_t o = 0; o < outer; ++o) {
      const float* row = x + (o * static_cast<size_t>(channels) + static_cast<size_t>(c)) * inner;
      for (size_t i = 0; i < inner; ++i) sum += row[i];
    }
    const double mean = sum * per_element;
    for (size_t o = 0; o < outer; ++o) {
      const float* row = x + (o * static_cast<size_t>(channels) + static_cast<size_t>(c)) * inner;
      for (size_t i = 0; i < inner; ++i) squares += (row[i] - mean) * (row[i] - mean);
    }
    const double var = squares * per_element;
    const float invstd = static_cast<float>(1.0 / std::sqrt(var + eps));
    save_mean.Data<float>()[c] = static_cast<float>(mean);
    save_invstd.Data<float>()[c] = invstd;
    if (running_mean != nullptr) {
      float& rm = running_mean->Data<float>()[c];
      float& rv = running_var->Data<float>()[c];
      const double unbiased = count > 1 ? squares / static_cast<double>(count - 1) : var;
      rm = static_cast<float>((1.0 - momentum) * rm + momentum * mean);
      rv = static_cast<float>((1.0 - momentum) * rv + momentum * unbiased);
    }
    const float w = weight ? weight->Data<const float>()[c] : 1.0f;
    const float b = bias ? bias->Data<const float>()[c] : 0.0f;
    const float m = static_cast<float>(mean);
    for (size_t o = 0; o < outer; ++o) {
      const size_t base = (o * static_cast<size_t>(channels) + static_cast<size_t>(c)) * inner;
      for (size_t i = 0; i < inner; ++i) y[base + i] = (x[base + i] - m) * invstd * w + b;
    }
  }
  return Status::Ok();
}

}  // namespace

Status NativeBatchNormLegitOut(const Tensor& input, const Tensor* weight, const Tensor* bias,
                               Tensor& running_mean, Tensor& running_var, bool training,
                               double momentum, double eps, Tensor& out, Tensor& save_mean,
                               Tensor& save_invstd) {
  if (!training) {
    return NativeBatchNormNoTrainingOut(input, weight, bias, running_mean, running_var, momentum,
                                        eps, out, save_mean, save_invstd);
  }
  return TrainingBatchNorm(input, weight, bias, &running_mean, &running_var, momentum, eps, out,
                           save_mean, save_invstd, kNativeBatchNormLegitOutName);
}

Status NativeBatchNormLegitNoStatsOut(const Tensor& input, const Tensor* weight, const Tensor* bias,
                                      bool training, double momentum, double eps, Tensor& out,
                                      Tensor& save_mean, Tensor& save_invstd) {
  if (!training) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "%s: batch norm in inference mode needs running statistics "
                         "(export the model with them, or use training=True)",
                         kNativeBatchNormLegitNoStatsOutName);
  }
  return TrainingBatchNorm(input, weight, bias, nullptr, nullptr, momentum, eps, out, save_mean,
                           save_invstd, kNativeBatchNormLegitNoStatsOutName);
}

}  // namespace ethosu_sdk::kernels
