// _upsample_bilinear2d_aa (F.interpolate(mode="bilinear", antialias=True)) on
// [N, C, H, W] float tensors, with PyTorch's separable algorithm (ATen's
// UpSampleKernel.cpp, the antialiased path): each output index takes the
// input indices within `support` of its centre (support 1 when enlarging,
// the scale when shrinking, so a shrink averages every input it covers),
// weighted by the triangle filter and normalised to sum 1. The width is
// resized first into a float buffer, then the height; a dimension whose size
// does not change is not resampled. Float only: ATen's uint8 path rounds
// fixed-point weights (refused here in one line).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// Largest number of input taps per output index kept on the stack: a
// shrink by a factor s takes about 2 * s + 1 taps.
constexpr int64_t kMaxTaps = 64;

// Input pixels per output pixel (ATen's area_pixel_compute_scale).
float AreaScale(int32_t in, int32_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners)
    return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
  if (scale && *scale > 0.0) return static_cast<float>(1.0 / *scale);
  return static_cast<float>(in) / static_cast<float>(out);
}

float Triangle(float x) {
  x = x < 0.0f ? -x : x;
  return x < 1.0f ? 1.0f - x : 0.0f;
}

// The taps of output index `i`: first input index, count and weights.
void Taps(int32_t i, float scale, int32_t in_size, int64_t* first, int64_t* count, float* weights) {
  const float support = scale >= 1.0f ? scale : 1.0f;
  const float invscale = scale >= 1.0f ? 1.0f / scale : 1.0f;
  const float center = scale * (static_cast<float>(i) + 0.5f);
  int64_t lo = static_cast<int64_t>(center - support + 0.5f);
  lo = lo > 0 ? lo : 0;
  int64_t hi = static_cast<int64_t>(center + support + 0.5f);
  hi = hi < in_size ? hi : in_size;
  int64_t n = hi - lo;
  n = n < 0 ? 0 : (n > kMaxTaps ? kMaxTaps : n);
  float total = 0.0f;
  for (int64_t j = 0; j < n; ++j) {
    weights[j] = Triangle((static_cast<float>(j + lo) - center + 0.5f) * invscale);
    total += weights[j];
  }
  if (total != 0.0f) {
    for (int64_t j = 0; j < n; ++j) weights[j] /= total;
  }
  *first = lo;
  *count = n;
}

}  // namespace

Status UpsampleBilinear2dAaOut(const Tensor& self, IntList output_size, bool align_corners,
                               std::optional<double> scales_h, std::optional<double> scales_w,
                               Tensor& out) {
  const char* name = kUpsampleBilinear2dAaOutName;
  if (self.dtype != out.dtype) return DtypeError(name, self);
  if (self.dtype != ScalarType::kFloat) {
    return Status::Error(ErrorCode::kNotSupported,
                         "%s: antialiased resize takes float32 only (convert the image to float)",
                         name);
  }
  if (self.rank != 4)
    return ShapeError("antialiased upsample input must be 4-D (N, C, H, W)", self.rank);
  if (output_size.size() != 2 || output_size[0] < 1 || output_size[1] < 1 ||
      output_size[0] > INT32_MAX || output_size[1] > INT32_MAX) {
    return ShapeError("antialiased upsample output_size must be 2 positive sizes",
                      static_cast<int64_t>(output_size.size()));
  }
  if (self.sizes[2] < 1 || self.sizes[3] < 1)
    return ShapeError("upsample of an empty image (H, W)", self.sizes[2], self.sizes[3]);
  const int32_t ih = self.sizes[2], iw = self.sizes[3];
  const int32_t oh = static_cast<int32_t>(output_size[0]),
                ow = static_cast<int32_t>(output_size[1]);
  const int32_t shape[] = {self.sizes[0], self.sizes[1], oh, ow};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, 4, name));
  if (Overlap(self, out)) return Status::Error(ErrorCode::kNotSupported, "%s in place", name);
  if (out.numel == 0) return Status::Ok();
  const size_t planes = static_cast<size_t>(self.sizes[0]) * static_cast<size_t>(self.sizes[1]);
  const float* in = self.Data<const float>();
  float* o = out.Data<float>();
  const bool resize_w = ow != iw, resize_h = oh != ih;
  if (!resize_w && !resize_h) {
    for (size_t i = 0; i < self.numel; ++i) o[i] = in[i];
    return Status::Ok();
  }
  const float sw = AreaScale(iw, ow, align_corners, scales_w);
  const float sh = AreaScale(ih, oh, align_corners, scales_h);
  for (const float scale : {sw, sh}) {
    // A shrink by s takes up to 2 * ceil(s) + 1 taps (ATen's max_interp_size).
    if (!(2.0f * std::ceil(scale) + 1.0f <= static_cast<float>(kMaxTaps))) {
      return ShapeError("antialiased upsample shrinks an image more than 31 times", self.sizes[2],
                        self.sizes[3]);
    }
  }
  // Each output element as ATen's two passes compute it, without their
  // intermediate buffer (no heap): the width pass's value of each source
  // row the height taps read, in the same order of float operations.
  float wx[kMaxTaps], wy[kMaxTaps];
  for (size_t p = 0; p < planes; ++p) {
    const float* plane = in + p * static_cast<size_t>(ih) * static_cast<size_t>(iw);
    for (int32_t y = 0; y < oh; ++y) {
      int64_t y0 = y, ny = 1;
      wy[0] = 1.0f;
      if (resize_h) Taps(y, sh, ih, &y0, &ny, wy);
      for (int32_t x = 0; x < ow; ++x) {
        int64_t x0 = x, nx = 1;
        wx[0] = 1.0f;
        if (resize_w) Taps(x, sw, iw, &x0, &nx, wx);
        float v = 0.0f;
        for (int64_t i = 0; i < ny; ++i) {
          const float* row = plane + static_cast<size_t>(y0 + i) * static_cast<size_t>(iw);
          float h = row[x0];
          if (resize_w) {
            h = 0.0f;
            for (int64_t j = 0; j < nx; ++j) h += row[x0 + j] * wx[j];
          }
          v = resize_h ? v + h * wy[i] : h;
        }
        *o++ = v;
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
