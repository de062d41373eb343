// aten::convolution.out for float, 1-D, 2-D and 3-D, any groups (depthwise
// when groups == channels). 1-D and 2-D run as 3-D with unit leading
// spatial dimensions. Accumulation order follows ExecuTorch's portable
// kernel for 1-D and 2-D (input channel, then kernel depth, row, column;
// bias last) so float results agree to the last bits in practice.
#include <cstdint>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// Spatial dimensions of the most general form: depth, height, width.
constexpr int kSpatial = 3;
// Bounds on stride, dilation and padding, so index arithmetic cannot overflow.
constexpr int64_t kMaxParam = int64_t{1} << 16;

struct ConvShape {
  int64_t n, in_c, out_c, groups;
  int64_t in[kSpatial], out[kSpatial], k[kSpatial];
  int64_t stride[kSpatial], padding[kSpatial], dilation[kSpatial];
};

// The kernel taps [begin, end) that land inside an input of `size` for an
// output at `origin` (its first tap's input index, maybe negative). The
// valid taps are contiguous, so the innermost loops carry no bounds checks.
struct TapRange {
  int64_t begin, end;
};

TapRange ValidTaps(int64_t origin, int64_t taps, int64_t dilation, int64_t size) {
  if (dilation == 1) {  // the common case, without the divisions
    const int64_t begin = origin >= 0 ? 0 : -origin;
    const int64_t end = size - origin < taps ? size - origin : taps;
    return {begin, end < begin ? begin : end};
  }
  // First tap with origin + t * dilation >= 0; last with it < size.
  const int64_t begin = origin >= 0 ? 0 : (-origin + dilation - 1) / dilation;
  const int64_t past = size - origin;  // taps must stay below this offset
  int64_t end = past <= 0 ? 0 : (past + dilation - 1) / dilation;
  if (end > taps) end = taps;
  return {begin, end < begin ? begin : end};
}

// kLanes outputs along the row (lane j at origin[2] + j * stride), each
// summed over every input channel of its group, then kernel depth, row and
// column (the portable kernel's order), skipping taps in padding. Lanes
// share `taps`, so more than one only where all of them take every column;
// their sums are independent chains, each added in the one-lane order.
template <int kLanes>
void Accumulate(const ConvShape& s, const float* in_group, const float* w_oc, int64_t in_plane,
                int64_t k_volume, const int64_t origin[kSpatial], const TapRange taps[kSpatial],
                float accum[kLanes]) {
  const int64_t in_c_per_group = s.in_c / s.groups;
  const int64_t row_step = s.in[2];
  const int64_t lane_step = s.stride[2];
  for (int j = 0; j < kLanes; ++j) accum[j] = 0.0f;
  for (int64_t icg = 0; icg < in_c_per_group; ++icg) {
    const float* in_c = in_group + icg * in_plane;
    const float* w_c = w_oc + icg * k_volume;
    for (int64_t kd = taps[0].begin; kd < taps[0].end; ++kd) {
      const int64_t id = origin[0] + kd * s.dilation[0];
      for (int64_t ky = taps[1].begin; ky < taps[1].end; ++ky) {
        const int64_t iy = origin[1] + ky * s.dilation[1];
        const float* in_row = in_c + (id * s.in[1] + iy) * row_step + origin[2];
        const float* w_row = w_c + (kd * s.k[1] + ky) * s.k[2];
        for (int64_t kx = taps[2].begin; kx < taps[2].end; ++kx) {
          const float w = w_row[kx];
          const float* x = in_row + kx * s.dilation[2];
          for (int j = 0; j < kLanes; ++j) accum[j] += x[j * lane_step] * w;
        }
      }
    }
  }
}

// Outputs computed side by side where the row allows: independent sums
// keep the floating-point adder busy instead of waiting on one chain.
constexpr int kLanes = 4;

// One output row (depth and row origins already in `origin`, `taps`);
// `bias` is the output channel's, or null.
void RunRow(const ConvShape& s, const float* in_group, const float* w_oc, int64_t in_plane,
            int64_t k_volume, int64_t origin[kSpatial], TapRange taps[kSpatial], const float* bias,
            float* o) {
  const TapRange all{0, s.k[2]};
  for (int64_t ox = 0; ox < s.out[2];) {
    origin[2] = ox * s.stride[2] - s.padding[2];
    taps[2] = ValidTaps(origin[2], s.k[2], s.dilation[2], s.in[2]);
    const bool full = taps[2].begin == all.begin && taps[2].end == all.end;
    const int64_t last = ox + kLanes - 1;  // the lanes' taps are full if the last one's are
    const TapRange last_taps =
        ValidTaps(last * s.stride[2] - s.padding[2], s.k[2], s.dilation[2], s.in[2]);
    if (full && last < s.out[2] && last_taps.begin == all.begin && last_taps.end == all.end) {
      float accum[kLanes];
      Accumulate<kLanes>(s, in_group, w_oc, in_plane, k_volume, origin, taps, accum);
      for (int j = 0; j < kLanes; ++j) o[ox + j] = bias ? accum[j] + *bias : accum[j];
      ox += kLanes;
      continue;
    }
    float accum[1];
    Accumulate<1>(s, in_group, w_oc, in_plane, k_volume, origin, taps, accum);
    o[ox] = bias ? accum[0] + *bias : accum[0];
    ++ox;
  }
}

void RunConv(const ConvShape& s, const float* in, const float* weight, const float* bias,
             float* out) {
  const int64_t in_c_per_group = s.in_c / s.groups;
  const int64_t out_c_per_group = s.out_c / s.groups;
  const int64_t in_plane = s.in[0] * s.in[1] * s.in[2];
  const int64_t k_volume = s.k[0] * s.k[1] * s.k[2];
  float* o = out;
  for (int64_t b = 0; b < s.n; ++b) {
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      const int64_t group = oc / out_c_per_group;
      const float* in_group = in + (b * s.in_c + group * in_c_per_group) * in_plane;
      const float* w_oc = weight + oc * in_c_per_group * k_volume;
      const float* bias_oc = bias != nullptr ? bias + oc : nullptr;  // none: no add (keeps -0.0f)
      int64_t origin[kSpatial];
      TapRange taps[kSpatial];
      for (int64_t od = 0; od < s.out[0]; ++od) {
        origin[0] = od * s.stride[0] - s.padding[0];
        taps[0] = ValidTaps(origin[0], s.k[0], s.dilation[0], s.in[0]);
        for (int64_t oy = 0; oy < s.out[1]; ++oy) {
          origin[1] = oy * s.stride[1] - s.padding[1];
          taps[1] = ValidTaps(origin[1], s.k[1], s.dilation[1], s.in[1]);
          RunRow(s, in_group, w_oc, in_plane, k_volume, origin, taps, bias_oc, o);
          o += s.out[2];
        }
      }
    }
  }
}

// Reads a parameter list of `dims` entries (one entry stands for all) into
// the last `dims` of `out`; the leading ones are `fill` (1-D and 2-D).
Status Param(IntList list, int dims, int64_t fill, int64_t* out, const char* what) {
  if (list.size() != size_t(dims) && list.size() != 1) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "bad convolution parameter: %s has %d entries, expected %d or 1", what,
                         int(list.size()), dims);
  }
  for (int i = 0; i < kSpatial; ++i) {
    const int j = i - (kSpatial - dims);
    out[i] = j < 0 ? fill : list[list.size() == 1 ? 0 : size_t(j)];
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
  if (in.rank < 3 || in.rank > 2 + kSpatial || weight.rank != in.rank || out.rank != in.rank) {
    return ShapeError("convolution ranks (input, weight)", in.rank, weight.rank);
  }
  const int dims = int(in.rank) - 2;
  const int lead = kSpatial - dims;  // unit spatial dimensions in front
  ConvShape s{};
  s.n = in.sizes[0];
  s.in_c = in.sizes[1];
  s.out_c = weight.sizes[0];
  s.groups = groups;
  for (int i = 0; i < kSpatial; ++i) {
    s.in[i] = i < lead ? 1 : in.sizes[2 + i - lead];
    s.k[i] = i < lead ? 1 : weight.sizes[2 + i - lead];
  }
  ESDK_RETURN_IF_ERROR(Param(stride, dims, 1, s.stride, "stride"));
  ESDK_RETURN_IF_ERROR(Param(padding, dims, 0, s.padding, "padding"));
  ESDK_RETURN_IF_ERROR(Param(dilation, dims, 1, s.dilation, "dilation"));
  for (int i = 0; i < kSpatial; ++i) {
    if (s.stride[i] < 1 || s.stride[i] > kMaxParam || s.dilation[i] < 1 ||
        s.dilation[i] > kMaxParam || s.padding[i] < 0 || s.padding[i] > kMaxParam) {
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
  int32_t expected[2 + kSpatial] = {static_cast<int32_t>(s.n), static_cast<int32_t>(s.out_c)};
  for (int i = 0; i < kSpatial; ++i) {
    const int64_t span = s.dilation[i] * (s.k[i] - 1) + 1;
    if (s.in[i] + 2 * s.padding[i] < span) {
      return ShapeError("convolution kernel larger than padded input", span,
                        s.in[i] + 2 * s.padding[i]);
    }
    s.out[i] = (s.in[i] + 2 * s.padding[i] - span) / s.stride[i] + 1;
    if (i >= lead) expected[2 + i - lead] = static_cast<int32_t>(s.out[i]);
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, expected, in.rank, kConvolutionOutName));
  if (out.numel == 0) return Status::Ok();
  RunConv(s, in.Data<const float>(), weight.Data<const float>(),
          bias ? bias->Data<const float>() : nullptr, out.Data<float>());
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
