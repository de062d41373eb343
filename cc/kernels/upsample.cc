// Resizing of [N, C, H, W] tensors: upsample_bilinear2d.vec and
// upsample_nearest2d.vec (what F.interpolate exports), with PyTorch's
// source coordinates (ATen's UpSample.h: area_pixel_compute_scale,
// area_pixel_compute_source_index, nearest_idx) computed in float32 as
// ATen does for float tensors. Bilinear interpolates in float32 for every
// numeric dtype; nearest copies elements of any dtype.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// Output H and W from output_size or, without it, floor(input * scale).
Status OutputSize(const Tensor& in, std::optional<IntList> output_size,
                  std::optional<DoubleList> scales, const char* name, int32_t* out_h,
                  int32_t* out_w) {
  if (in.rank != 4) return ShapeError("upsample input must be 4-D (N, C, H, W)", in.rank);
  if (in.sizes[2] < 1 || in.sizes[3] < 1)
    return ShapeError("upsample of an empty image (H, W)", in.sizes[2], in.sizes[3]);
  if (output_size.has_value() == scales.has_value()) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "exactly one of output_size and scale_factors: %s", name);
  }
  if (output_size) {
    if (output_size->size() != 2)
      return ShapeError("upsample output_size must have 2 sizes",
                        static_cast<int64_t>(output_size->size()));
    if ((*output_size)[0] < 1 || (*output_size)[0] > INT32_MAX || (*output_size)[1] < 1 ||
        (*output_size)[1] > INT32_MAX) {
      return ShapeError("upsample output_size", (*output_size)[0], (*output_size)[1]);
    }
    *out_h = static_cast<int32_t>((*output_size)[0]);
    *out_w = static_cast<int32_t>((*output_size)[1]);
    return Status::Ok();
  }
  if (scales->size() != 2)
    return ShapeError("upsample scale_factors must have 2 scales",
                      static_cast<int64_t>(scales->size()));
  const double h = std::floor(in.sizes[2] * (*scales)[0]),
               w = std::floor(in.sizes[3] * (*scales)[1]);
  if (!(h >= 1 && h <= INT32_MAX && w >= 1 && w <= INT32_MAX)) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "upsample scale_factors give an empty or huge output: %s", name);
  }
  *out_h = static_cast<int32_t>(h);
  *out_w = static_cast<int32_t>(w);
  return Status::Ok();
}

// Input pixels per output pixel (area_pixel_compute_scale).
float Scale(int32_t in, int32_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners)
    return out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f;
  if (scale && *scale > 0.0) return static_cast<float>(1.0 / *scale);
  return static_cast<float>(in) / static_cast<float>(out);
}

// Bilinear source coordinate of output index `dst` (area_pixel_compute_source_index).
float SourceIndex(float scale, int32_t dst, bool align_corners) {
  if (align_corners) return scale * static_cast<float>(dst);
  const float src = scale * (static_cast<float>(dst) + 0.5f) - 0.5f;
  return src < 0.0f ? 0.0f : src;
}

// Nearest source index (nearest_idx).
int32_t NearestIndex(int32_t dst, int32_t in, int32_t out, float scale) {
  if (out == in) return dst;
  if (out == 2 * in) return dst >> 1;
  const int32_t src = static_cast<int32_t>(std::floor(static_cast<float>(dst) * scale));
  return src < in - 1 ? src : in - 1;
}

std::optional<double> ScaleAt(std::optional<DoubleList> scales, size_t i) {
  return scales ? std::optional<double>((*scales)[i]) : std::nullopt;
}

}  // namespace

Status UpsampleBilinear2dVecOut(const Tensor& input, std::optional<IntList> output_size,
                                bool align_corners, std::optional<DoubleList> scale_factors,
                                Tensor& out) {
  if (input.dtype != out.dtype || !IsKnownDtype(input.dtype) || input.dtype == ScalarType::kBool) {
    return DtypeError(kUpsampleBilinear2dVecOutName, input);
  }
  int32_t oh = 0, ow = 0;
  ESDK_RETURN_IF_ERROR(
      OutputSize(input, output_size, scale_factors, kUpsampleBilinear2dVecOutName, &oh, &ow));
  const int32_t shape[] = {input.sizes[0], input.sizes[1], oh, ow};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, 4, kUpsampleBilinear2dVecOutName));
  if (Overlap(input, out)) return Status::Error(ErrorCode::kNotSupported, "upsample in place");
  const int32_t ih = input.sizes[2], iw = input.sizes[3];
  const float sh = Scale(ih, oh, align_corners, ScaleAt(scale_factors, 0));
  const float sw = Scale(iw, ow, align_corners, ScaleAt(scale_factors, 1));
  const size_t planes = static_cast<size_t>(input.sizes[0]) * static_cast<size_t>(input.sizes[1]);
  // Integer images: the float interpolation converted back as a C++ cast
  // would (truncated), as ExecuTorch's portable kernel does for uint8.
  size_t o = 0;
  for (size_t p = 0; p < planes; ++p) {
    const size_t plane = p * static_cast<size_t>(ih) * static_cast<size_t>(iw);
    auto at = [&](int32_t y, int32_t x) {
      return static_cast<float>(LoadDouble(
          input,
          plane + static_cast<size_t>(y) * static_cast<size_t>(iw) + static_cast<size_t>(x)));
    };
    for (int32_t y = 0; y < oh; ++y) {
      const float fy = SourceIndex(sh, y, align_corners);
      const int32_t y0 = static_cast<int32_t>(fy);
      const int32_t y1 = y0 + (y0 < ih - 1 ? 1 : 0);
      const float ly1 = fy - static_cast<float>(y0), ly0 = 1.0f - ly1;
      for (int32_t x = 0; x < ow; ++x) {
        const float fx = SourceIndex(sw, x, align_corners);
        const int32_t x0 = static_cast<int32_t>(fx);
        const int32_t x1 = x0 + (x0 < iw - 1 ? 1 : 0);
        const float lx1 = fx - static_cast<float>(x0), lx0 = 1.0f - lx1;
        const float v = ly0 * (lx0 * at(y0, x0) + lx1 * at(y0, x1)) +
                        ly1 * (lx0 * at(y1, x0) + lx1 * at(y1, x1));
        StoreDouble(out, o++, v);
      }
    }
  }
  return Status::Ok();
}

Status UpsampleNearest2dVecOut(const Tensor& input, std::optional<IntList> output_size,
                               std::optional<DoubleList> scale_factors, Tensor& out) {
  if (input.dtype != out.dtype || !IsKnownDtype(input.dtype))
    return DtypeError(kUpsampleNearest2dVecOutName, input);
  int32_t oh = 0, ow = 0;
  ESDK_RETURN_IF_ERROR(
      OutputSize(input, output_size, scale_factors, kUpsampleNearest2dVecOutName, &oh, &ow));
  const int32_t shape[] = {input.sizes[0], input.sizes[1], oh, ow};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, 4, kUpsampleNearest2dVecOutName));
  if (Overlap(input, out)) return Status::Error(ErrorCode::kNotSupported, "upsample in place");
  const int32_t ih = input.sizes[2], iw = input.sizes[3];
  const float sh = Scale(ih, oh, false, ScaleAt(scale_factors, 0));
  const float sw = Scale(iw, ow, false, ScaleAt(scale_factors, 1));
  const size_t planes = static_cast<size_t>(input.sizes[0]) * static_cast<size_t>(input.sizes[1]);
  const size_t element = input.ElementSize();
  const uint8_t* pi = input.Data<const uint8_t>();
  uint8_t* po = out.Data<uint8_t>();
  for (size_t p = 0; p < planes; ++p) {
    const uint8_t* plane = pi + p * static_cast<size_t>(ih) * static_cast<size_t>(iw) * element;
    for (int32_t y = 0; y < oh; ++y) {
      const int32_t sy = NearestIndex(y, ih, oh, sh);
      for (int32_t x = 0; x < ow; ++x) {
        const int32_t sx = NearestIndex(x, iw, ow, sw);
        std::memcpy(
            po,
            plane + (static_cast<size_t>(sy) * static_cast<size_t>(iw) + static_cast<size_t>(sx)) *
                        element,
            element);
        po += element;
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
