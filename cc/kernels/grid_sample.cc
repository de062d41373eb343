// grid_sampler_2d (F.grid_sample on [N, C, H, W] with a [N, Ho, Wo, 2] grid
// of (x, y) in [-1, 1]), with PyTorch's rules (ATen's GridSampler.h):
// coordinates unnormalised by align_corners; padding 0 = zeros (taps
// outside read 0), 1 = border (the coordinate clipped into the image),
// 2 = reflection (the coordinate reflected at the image's edges, then
// clipped); interpolation 0 = bilinear, 1 = nearest (ties to even, as
// nearbyint), 2 = bicubic (Keys' cubic convolution, A = -0.75, over the
// 4x4 taps around the unpadded coordinate, each tap's coordinate padded on
// its own, as ATen does). Computed in the tensors' float type, as ATen's
// CPU kernel does.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// PyTorch's GridSamplerInterpolation and GridSamplerPadding values.
constexpr int64_t kBilinear = 0, kNearest = 1, kBicubic = 2;
constexpr int64_t kZeros = 0, kBorder = 1, kReflection = 2;

template <typename T>
T Unnormalize(T coord, int32_t size, bool align_corners) {
  return align_corners ? ((coord + 1) / 2) * static_cast<T>(size - 1)
                       : ((coord + 1) * static_cast<T>(size) - 1) / 2;
}

template <typename T>
T Clip(T coord, int32_t size) {
  // min(size - 1, max(coord, 0)) in std::min/std::max's order: NaN clips
  // to size - 1, as in ATen.
  const T high = static_cast<T>(size - 1), low = coord < T(0) ? T(0) : coord;
  return low < high ? low : high;
}

// Reflects `in` into [twice_low / 2, twice_high / 2].
template <typename T>
T Reflect(T in, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return T(0);
  const T low = static_cast<T>(twice_low) / 2, span = static_cast<T>(twice_high - twice_low) / 2;
  in = std::fabs(in - low);
  const T extra = std::fmod(in, span);
  const int64_t flips = static_cast<int64_t>(std::floor(in / span));
  return flips % 2 == 0 ? extra + low : span - extra + low;
}

// Border or reflection padding of an unnormalised coordinate.
template <typename T>
T Pad(T coord, int32_t size, int64_t padding, bool align_corners) {
  if (padding == kBorder) return Clip(coord, size);
  if (padding == kReflection) {
    coord = align_corners ? Reflect(coord, 0, 2 * static_cast<int64_t>(size - 1))
                          : Reflect(coord, -1, 2 * static_cast<int64_t>(size) - 1);
    return Clip(coord, size);
  }
  return coord;
}

// Coordinates far outside any image (and NaN) as -100, as ATen's
// safe_downgrade_to_int_range: they read padding, and their integer
// conversion stays defined.
template <typename T>
T Safe(T coord) {
  constexpr T kLimit = static_cast<T>(INT32_MAX - 1);
  return !std::isfinite(coord) || coord > kLimit || coord < -kLimit ? T(-100) : coord;
}

template <typename T>
struct Plane {
  const T* data;
  int32_t h, w;
  T At(int64_t y, int64_t x) const {
    return (y >= 0 && y < h && x >= 0 && x < w) ? data[y * w + x] : T(0);
  }
};

// Keys' cubic convolution weights (A = -0.75, as ATen and PIL) of the four
// taps at offsets -1, 0, 1, 2 from floor(coord), `t` = coord - floor(coord).
template <typename T>
void CubicWeights(T t, T weights[4]) {
  constexpr T kA = T(-0.75);
  auto near = [](T d) { return ((kA + 2) * d - (kA + 3)) * d * d + 1; };         // |d| <= 1
  auto far = [](T d) { return ((kA * d - 5 * kA) * d + 8 * kA) * d - 4 * kA; };  // 1 < |d| < 2
  weights[0] = far(t + 1);
  weights[1] = near(t);
  weights[2] = near(1 - t);
  weights[3] = far(2 - t);
}

// One bicubic sample at the unnormalised, unpadded (x, y).
template <typename T>
T Bicubic(const Plane<T>& src, T x, T y, int64_t padding, bool align_corners) {
  const T x0 = std::floor(x), y0 = std::floor(y);
  T wx[4], wy[4];
  CubicWeights(x - x0, wx);
  CubicWeights(y - y0, wy);
  T v = 0;
  for (int i = 0; i < 4; ++i) {
    const T ty = Safe(Pad(y0 - 1 + static_cast<T>(i), src.h, padding, align_corners));
    T row = 0;
    for (int j = 0; j < 4; ++j) {
      const T tx = Safe(Pad(x0 - 1 + static_cast<T>(j), src.w, padding, align_corners));
      row += src.At(static_cast<int64_t>(ty), static_cast<int64_t>(tx)) * wx[j];
    }
    v += row * wy[i];
  }
  return v;
}

template <typename T>
void GridSample(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding,
                bool align_corners, Tensor& out) {
  const int32_t n_count = input.sizes[0], channels = input.sizes[1], h = input.sizes[2],
                w = input.sizes[3], oh = grid.sizes[1], ow = grid.sizes[2];
  const T* in = input.Data<const T>();
  const T* g = grid.Data<const T>();
  T* o = out.Data<T>();
  const size_t plane = static_cast<size_t>(h) * static_cast<size_t>(w);
  const size_t out_plane = static_cast<size_t>(oh) * static_cast<size_t>(ow);
  for (int32_t n = 0; n < n_count; ++n) {
    for (size_t p = 0; p < out_plane; ++p) {
      const T* xy = g + (static_cast<size_t>(n) * out_plane + p) * 2;
      // Bicubic pads each tap, not the sampled point (ATen's GridSampler).
      const T raw_x = Unnormalize(xy[0], w, align_corners);
      const T raw_y = Unnormalize(xy[1], h, align_corners);
      const T x = Safe(Pad(raw_x, w, padding, align_corners));
      const T y = Safe(Pad(raw_y, h, padding, align_corners));
      for (int32_t c = 0; c < channels; ++c) {
        const Plane<T> src{
            in + (static_cast<size_t>(n) * static_cast<size_t>(channels) + static_cast<size_t>(c)) *
                     plane,
            h, w};
        T v = 0;
        if (mode == kBicubic) {
          v = Bicubic(src, Safe(raw_x), Safe(raw_y), padding, align_corners);
        } else if (mode == kNearest) {
          v = src.At(static_cast<int64_t>(std::nearbyint(y)),
                     static_cast<int64_t>(std::nearbyint(x)));
        } else {
          const T x0 = std::floor(x), y0 = std::floor(y);
          const T x1 = x0 + 1, y1 = y0 + 1;
          const int64_t ix = static_cast<int64_t>(x0), iy = static_cast<int64_t>(y0);
          v = src.At(iy, ix) * ((x1 - x) * (y1 - y)) + src.At(iy, ix + 1) * ((x - x0) * (y1 - y)) +
              src.At(iy + 1, ix) * ((x1 - x) * (y - y0)) +
              src.At(iy + 1, ix + 1) * ((x - x0) * (y - y0));
        }
        o[(static_cast<size_t>(n) * static_cast<size_t>(channels) + static_cast<size_t>(c)) *
              out_plane +
          p] = v;
      }
    }
  }
}

}  // namespace

Status GridSampler2dOut(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                        int64_t padding_mode, bool align_corners, Tensor& out) {
  const char* name = kGridSampler2dOutName;
  if ((input.dtype != ScalarType::kFloat && input.dtype != ScalarType::kDouble) ||
      grid.dtype != input.dtype || out.dtype != input.dtype) {
    return DtypeError(name, input);
  }
  if (interpolation_mode < kBilinear || interpolation_mode > kBicubic)
    return ShapeError("grid_sampler_2d interpolation_mode must be 0, 1 or 2", interpolation_mode);
  if (padding_mode < kZeros || padding_mode > kReflection)
    return ShapeError("grid_sampler_2d padding_mode must be 0, 1 or 2", padding_mode);
  if (input.rank != 4 || grid.rank != 4 || grid.sizes[3] != 2) {
    return ShapeError("grid_sampler_2d takes a 4-D input and a [N, H, W, 2] grid", input.rank,
                      grid.rank);
  }
  if (grid.sizes[0] != input.sizes[0])
    return ShapeError("grid_sampler_2d grid batch differs from the input's", grid.sizes[0],
                      input.sizes[0]);
  if (input.sizes[2] < 1 || input.sizes[3] < 1)
    return ShapeError("grid_sampler_2d of an empty image (H, W)", input.sizes[2], input.sizes[3]);
  const int32_t shape[] = {input.sizes[0], input.sizes[1], grid.sizes[1], grid.sizes[2]};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, 4, name));
  if (Overlap(input, out) || Overlap(grid, out))
    return Status::Error(ErrorCode::kNotSupported, "%s in place", name);
  if (input.dtype == ScalarType::kFloat) {
    GridSample<float>(input, grid, interpolation_mode, padding_mode, align_corners, out);
  } else {
    GridSample<double>(input, grid, interpolation_mode, padding_mode, align_corners, out);
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
