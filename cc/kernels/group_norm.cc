// native_group_norm: each sample's channels split into groups, each group
// normalised by its mean and biased variance (accumulated in double), then
// scaled by weight and shifted by bias per channel. out1/out2 hold the mean
// and 1/sqrt(var + eps) per (sample, group), as PyTorch returns them.
#include <cmath>
#include <cstdint>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {

Status NativeGroupNormOut(const Tensor& input, const Tensor* weight, const Tensor* bias, int64_t N,
                          int64_t C, int64_t HxW, int64_t group, double eps, Tensor& out0,
                          Tensor& out1, Tensor& out2) {
  const char* name = kNativeGroupNormOutName;
  for (const Tensor* t : {&input, Const(out0), Const(out1), Const(out2), weight, bias}) {
    if (t != nullptr && t->dtype != ScalarType::kFloat) return DtypeError(name, *t);
  }
  if (group <= 0 || C % group != 0)
    return ShapeError("group_norm groups must divide the channels", C, group);
  if (N < 0 || C < 0 || HxW < 0 || N > INT32_MAX || C > INT32_MAX || HxW > INT32_MAX ||
      static_cast<size_t>(N * C * HxW) != input.numel) {
    return ShapeError("group_norm N * C * HxW differs from the input's size", N * C * HxW,
                      static_cast<int64_t>(input.numel));
  }
  ESDK_RETURN_IF_ERROR(ExpectSameShape(input, out0, name));
  const int32_t stats_shape[] = {static_cast<int32_t>(N), static_cast<int32_t>(group)};
  ESDK_RETURN_IF_ERROR(ExpectShape(out1, stats_shape, 2, name));
  ESDK_RETURN_IF_ERROR(ExpectShape(out2, stats_shape, 2, name));
  for (const Tensor* t : {weight, bias}) {
    if (t != nullptr && static_cast<int64_t>(t->numel) != C)
      return ShapeError("group_norm weight/bias size", static_cast<int64_t>(t->numel), C);
  }
  const float* x = input.Data<const float>();
  float* y = out0.Data<float>();
  const size_t per_group = static_cast<size_t>(C / group) * static_cast<size_t>(HxW);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t g = 0; g < group; ++g) {
      const size_t base =
          (static_cast<size_t>(n) * static_cast<size_t>(group) + static_cast<size_t>(g)) *
          per_group;
      double sum = 0.0, sq = 0.0;
      for (size_t i = 0; i < per_group; ++i) sum += x[base + i];
      const double mean = per_group == 0 ? 0.0 : sum / static_cast<double>(per_group);
      for (size_t i = 0; i < per_group; ++i) sq += (x[base + i] - mean) * (x[base + i] - mean);
      const double var = per_group == 0 ? 0.0 : sq / static_cast<double>(per_group);
      const float rstd = static_cast<float>(1.0 / std::sqrt(var + eps));
      out1.Data<float>()[n * group + g] = static_cast<float>(mean);
      out2.Data<float>()[n * group + g] = rstd;
      for (size_t i = 0; i < per_group; ++i) {
        const size_t c =
            static_cast<size_t>(g) * static_cast<size_t>(C / group) + i / static_cast<size_t>(HxW);
        float v = (x[base + i] - static_cast<float>(mean)) * rstd;
        if (weight != nullptr) v *= weight->Data<const float>()[c];
        if (bias != nullptr) v += bias->Data<const float>()[c];
        y[base + i] = v;
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
