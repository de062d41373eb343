// Inference-time batch normalisation (float, channel dim 1):
// out = (x - running_mean) * (1 / sqrt(running_var + eps)) * weight + bias,
// evaluated in that order in float, as in ExecuTorch's portable kernel.
#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {

// _native_batch_norm_legit_no_training(input, weight?, bias?, running_mean,
//     running_var, momentum, eps, *, out, save_mean, save_invstd)
Status NativeBatchNormNoTrainingOut(KernelArgs args) {
  static constexpr char kName[] = "aten::_native_batch_norm_legit_no_training.out";
  ESDK_RETURN_IF_ERROR(ExpectArgCount(args, 11, kName));
  Tensor *in, *weight, *bias, *mean, *var, *out;
  double momentum, eps;
  ESDK_RETURN_IF_ERROR(TensorArg(args, 0, &in));
  ESDK_RETURN_IF_ERROR(OptionalTensorArg(args, 1, &weight));
  ESDK_RETURN_IF_ERROR(OptionalTensorArg(args, 2, &bias));
  ESDK_RETURN_IF_ERROR(TensorArg(args, 3, &mean));
  ESDK_RETURN_IF_ERROR(TensorArg(args, 4, &var));
  ESDK_RETURN_IF_ERROR(ScalarArg(args, 5, &momentum));
  ESDK_RETURN_IF_ERROR(ScalarArg(args, 6, &eps));
  ESDK_RETURN_IF_ERROR(TensorArg(args, 7, &out));
  (void)momentum;  // only used in training
  if (in->dtype != ScalarType::kFloat || out->dtype != ScalarType::kFloat) return DtypeError(kName, *in);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(*in, *out, kName));
  if (in->rank < 2) return ShapeError("batch norm input rank", in->rank);
  const size_t channels = static_cast<size_t>(in->sizes[1]);
  for (const Tensor* t : {weight, bias, mean, var}) {
    if (t == nullptr) continue;
    if (t->dtype != ScalarType::kFloat || t->numel != channels) {
      return ShapeError("batch norm parameter size", static_cast<int64_t>(t->numel),
                        static_cast<int64_t>(channels));
    }
  }
  size_t inner = 1;
  for (int32_t d = 2; d < in->rank; ++d) inner *= static_cast<size_t>(in->sizes[d]);
  const float* pi = in->Data<const float>();
  float* po = out->Data<float>();
  const float eps_f = static_cast<float>(eps);
  for (size_t i = 0; i < in->numel; ++i) {
    const size_t c = (i / inner) % channels;
    const float invstd = 1.0f / std::sqrt(var->Data<const float>()[c] + eps_f);
    const float w = weight ? weight->Data<const float>()[c] : 1.0f;
    const float b = bias ? bias->Data<const float>()[c] : 0.0f;
    po[i] = (pi[i] - mean->Data<const float>()[c]) * invstd * w + b;
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
