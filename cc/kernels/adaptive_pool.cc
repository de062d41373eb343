// _adaptive_avg_pool2d: each output pixel the float32 mean of its input
// window, window i spanning [floor(i * in / out), ceil((i + 1) * in / out))
// as in ATen's AdaptiveAveragePooling (start_index, end_index).
#include <cstdint>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

int64_t Start(int64_t i, int64_t out, int64_t in) { return (i * in) / out; }
int64_t End(int64_t i, int64_t out, int64_t in) { return ((i + 1) * in + out - 1) / out; }

}  // namespace

Status AdaptiveAvgPool2dOut(const Tensor& self, IntList output_size, Tensor& out) {
  if (self.dtype != ScalarType::kFloat || out.dtype != ScalarType::kFloat)
    return DtypeError(kAdaptiveAvgPool2dOutName, self);
  if (self.rank != 3 && self.rank != 4)
    return ShapeError("adaptive_avg_pool2d input must be 3-D or 4-D", self.rank);
  if (output_size.size() != 2 || output_size[0] < 0 || output_size[1] < 0 ||
      output_size[0] > INT32_MAX || output_size[1] > INT32_MAX) {
    return ShapeError("adaptive_avg_pool2d output_size", static_cast<int64_t>(output_size.size()));
  }
  const int32_t h = self.rank - 2, w = self.rank - 1;
  const int64_t ih = self.sizes[h], iw = self.sizes[w], oh = output_size[0], ow = output_size[1];
  if ((ih == 0 || iw == 0) && oh * ow > 0)
    return ShapeError("adaptive_avg_pool2d of an empty image", ih, iw);
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0; k < self.rank; ++k) shape[k] = self.sizes[k];
  shape[h] = static_cast<int32_t>(oh);
  shape[w] = static_cast<int32_t>(ow);
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, self.rank, kAdaptiveAvgPool2dOutName));
  const size_t planes =
      self.rank == 4 ? static_cast<size_t>(self.sizes[0]) * static_cast<size_t>(self.sizes[1])
                     : static_cast<size_t>(self.sizes[0]);
  const float* pi = self.Data<const float>();
  float* po = out.Data<float>();
  for (size_t p = 0; p < planes; ++p) {
    const float* plane = pi + p * static_cast<size_t>(ih * iw);
    for (int64_t y = 0; y < oh; ++y) {
      const int64_t y0 = Start(y, oh, ih), y1 = End(y, oh, ih);
      for (int64_t x = 0; x < ow; ++x) {
        const int64_t x0 = Start(x, ow, iw), x1 = End(x, ow, iw);
        float sum = 0.0f;
        for (int64_t yy = y0; yy < y1; ++yy) {
          for (int64_t xx = x0; xx < x1; ++xx) sum += plane[yy * iw + xx];
        }
        *po++ = sum / static_cast<float>((y1 - y0) * (x1 - x0));
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
