// aten::convolution.out for float, 1-D and 2-D, any groups (depthwise when
// groups == channels). Accumulation order follows ExecuTorch's portable
// kernel (input channel, then kernel row, then column; bias last) so float
// results agree to the last bits in practice.
#include <cstdint>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

struct Conv2dShape {
  int64_t n, in_c, in_h, in_w;
  int64_t out_c, out_h, out_w;
  int64_t k_h, k_w, groups;
  int64_t stride[2], padding[2], dilation[2];
};

void RunConv2d(const Conv2dShape& s, const float* in, const float* weight, const float* bias,
               float* out) {
  const int64_t in_c_per_group = s.in_c / s.groups;
  const int64_t out_c_per_group = s.out_c / s.groups;
  for (int64_t b = 0; b < s.n; ++b) {
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      const int64_t group = oc / out_c_per_group;
      const float* w_oc = weight + oc * in_c_per_group * s.k_h * s.k_w;
      for (int64_t oy = 0; oy < s.out_h; ++oy) {
        for (int64_t ox = 0; ox < s.out_w; ++ox) {
          float accum = 0.0f;
          for (int64_t icg = 0; icg < in_c_per_group; ++icg) {
            const int64_t ic = group * in_c_per_group + icg;
            const float* in_plane = in + (b * s.in_c + ic) * s.in_h * s.in_w;
            const float* w_plane = w_oc + icg * s.k_h * s.k_w;
            for (int64_t ky = 0; ky < s.k_h; ++ky) {
              const int64_t iy = oy * s.stride[0] + ky * s.dilation[0] - s.padding[0];
              if (iy < 0 || iy >= s.in_h) continue;
              for (int64_t kx = 0; kx < s.k_w; ++kx) {
                const int64_t ix = ox * s.stride[1] + kx * s.dilation[1] - s.padding[1];
                if (ix < 0 || ix >= s.in_w) continue;
                accum += in_plane[iy * s.in_w + ix] * w_plane[ky * s.k_w + kx];
              }
            }
          }
          if (bias != nullptr) accum += bias[oc];
          out[((b * s.out_c + oc) * s.out_h + oy) * s.out_w + ox] = accum;
        }
      }
    }
  }
}

// Reads a 2-element parameter list, or a 1-element one for 1-D convolution
// (then the height entry is `height_default`).
Status Param(IntList list, bool one_d, int64_t height_default, int64_t* out, const char* what) {
  const size_t expected = one_d ? 1 : 2;
  if (list.size() == expected) {
    out[0] = one_d ? height_default : list[0];
    out[1] = list[expected - 1];
  } else if (list.size() == 1 && !one_d) {
    out[0] = out[1] = list[0];
  } else {
    return Status::Error(ErrorCode::kInvalidArgument, "bad convolution parameter: %s", what);
  }
  return Status::Ok();
}

}  // namespace

// convolution(input, weight, bias?, stride, padding, dilation, transposed,
//             output_padding, groups, *, out)
Status ConvolutionOut(const Tensor& in, const Tensor& weight, const Tensor* bias, IntList stride,
                      IntList padding, IntList dilation, bool transposed,
                      IntList /*output_padding: transposed only*/, int64_t groups, Tensor& out) {
  if (transposed) {
    return Status::Error(ErrorCode::kNotSupported, "transposed convolution");
  }
  if (in.dtype != ScalarType::kFloat || weight.dtype != ScalarType::kFloat ||
      out.dtype != ScalarType::kFloat || (bias != nullptr && bias->dtype != ScalarType::kFloat)) {
    return DtypeError(kConvolutionOutName, in);
  }
  if ((in.rank != 3 && in.rank != 4) || weight.rank != in.rank || out.rank != in.rank) {
    return ShapeError("convolution ranks (input, weight)", in.rank, weight.rank);
  }
  const bool one_d = in.rank == 3;
  Conv2dShape s{};
  s.n = in.sizes[0];
  s.in_c = in.sizes[1];
  s.in_h = one_d ? 1 : in.sizes[2];
  s.in_w = in.sizes[in.rank - 1];
  s.out_c = weight.sizes[0];
  s.k_h = one_d ? 1 : weight.sizes[2];
  s.k_w = weight.sizes[weight.rank - 1];
  s.groups = groups;
  ESDK_RETURN_IF_ERROR(Param(stride, one_d, 1, s.stride, "stride"));
  ESDK_RETURN_IF_ERROR(Param(padding, one_d, 0, s.padding, "padding"));
  ESDK_RETURN_IF_ERROR(Param(dilation, one_d, 1, s.dilation, "dilation"));
  for (int i = 0; i < 2; ++i) {
    if (s.stride[i] < 1 || s.stride[i] > (1 << 16) || s.dilation[i] < 1 ||
        s.dilation[i] > (1 << 16) || s.padding[i] < 0 || s.padding[i] > (1 << 16)) {
      return ShapeError("convolution stride/dilation/padding out of range", s.stride[i],
                        s.padding[i]);
    }
  }
  if (groups < 1 || s.in_c % groups != 0 || s.out_c % groups != 0 ||
      weight.sizes[1] != s.in_c / groups) {
    return ShapeError("convolution groups do not divide channels", groups, s.in_c);
  }
  if (bias != nullptr && (bias->rank != 1 || bias->sizes[0] != s.out_c)) {
    return ShapeError("convolution bias size", bias->rank == 1 ? bias->sizes[0] : -1, s.out_c);
  }
  const int64_t span_h = s.dilation[0] * (s.k_h - 1) + 1;
  const int64_t span_w = s.dilation[1] * (s.k_w - 1) + 1;
  if (s.in_h + 2 * s.padding[0] < span_h || s.in_w + 2 * s.padding[1] < span_w) {
    return ShapeError("convolution kernel larger than padded input", span_h, span_w);
  }
  s.out_h = (s.in_h + 2 * s.padding[0] - span_h) / s.stride[0] + 1;
  s.out_w = (s.in_w + 2 * s.padding[1] - span_w) / s.stride[1] + 1;
  const int32_t expected[4] = {static_cast<int32_t>(s.n), static_cast<int32_t>(s.out_c),
                               static_cast<int32_t>(one_d ? s.out_w : s.out_h),
                               static_cast<int32_t>(s.out_w)};
  ESDK_RETURN_IF_ERROR(ExpectShape(out, expected, in.rank, kConvolutionOutName));
  if (out.numel == 0) return Status::Ok();
  RunConv2d(s, in.Data<const float>(), weight.Data<const float>(),
            bias ? bias->Data<const float>() : nullptr, out.Data<float>());
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
