// aten::convolution.out for float, 1-D, 2-D and 3-D regular and 1-D and
// 2-D transposed, any groups (depthwise when groups == channels), each tensor
// in any dim order (operators.yaml's `dim_order: kernel`: channels-last
// activations and weights are read through their element strides). 1-D
// and 2-D run as 3-D with unit leading spatial dimensions. Accumulation
// order follows ExecuTorch's portable kernel for 1-D and 2-D (regular:
// input channel, then kernel depth, row, column, bias last; transposed:
// bias first, then input row, column, channel) so float results agree to
// the last bit in any dim order.
#include <cstdint>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// Spatial dimensions of the most general form: depth, height, width.
constexpr int kSpatial = 3;
// Bounds on stride, dilation and padding, so index arithmetic cannot overflow.
constexpr int64_t kMaxParam = int64_t{1} << 16;

// Element strides of a tensor's logical dimensions (batch or first weight
// dimension, channel, depth, row, column) as its data lies in its dim order;
// unit leading spatial dimensions (1-D, 2-D) get stride 0.
struct Strides {
  int64_t n, c, sp[kSpatial];
};

Strides LogicalStrides(const Tensor& t, int lead) {
  int64_t by_dim[2 + kSpatial] = {};
  int64_t stride = 1;
  for (int k = t.rank - 1; k >= 0; --k) {
    by_dim[t.dim_order[k]] = stride;
    stride *= t.sizes[t.dim_order[k]];
  }
  Strides s{by_dim[0], by_dim[1], {}};
  for (int i = 0; i < kSpatial; ++i) s.sp[i] = i < lead ? 0 : by_dim[2 + i - lead];
  return s;
}

struct ConvShape {
  int64_t n, in_c, out_c, groups;
  int64_t in[kSpatial], out[kSpatial], k[kSpatial];
  int64_t stride[kSpatial], padding[kSpatial], dilation[kSpatial];
  Strides in_s, w_s, out_s;  // element strides of input, weight, output
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
// `in_group` and `w_oc` point at the group's first input channel and the
// output channel's first weight; offsets come from the strides.
template <int kLanes>
void Accumulate(const ConvShape& s, const float* in_group, const float* w_oc,
                const int64_t origin[kSpatial], const TapRange taps[kSpatial],
                float accum[kLanes]) {
  const int64_t in_c_per_group = s.in_c / s.groups;
  const Strides& is = s.in_s;
  const Strides& ws = s.w_s;
  const int64_t lane_step = s.stride[2] * is.sp[2];
  const int64_t tap_step = s.dilation[2] * is.sp[2];
  for (int j = 0; j < kLanes; ++j) accum[j] = 0.0f;
  for (int64_t icg = 0; icg < in_c_per_group; ++icg) {
    const float* in_c = in_group + icg * is.c;
    const float* w_c = w_oc + icg * ws.c;
    for (int64_t kd = taps[0].begin; kd < taps[0].end; ++kd) {
      const int64_t id = origin[0] + kd * s.dilation[0];
      for (int64_t ky = taps[1].begin; ky < taps[1].end; ++ky) {
        const int64_t iy = origin[1] + ky * s.dilation[1];
        const float* in_row = in_c + id * is.sp[0] + iy * is.sp[1] + origin[2] * is.sp[2];
        const float* w_row = w_c + kd * ws.sp[0] + ky * ws.sp[1];
        for (int64_t kx = taps[2].begin; kx < taps[2].end; ++kx) {
          const float w = w_row[kx * ws.sp[2]];
          const float* x = in_row + kx * tap_step;
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
// `bias` is the output channel's, or null; `o` the row's first output.
void RunRow(const ConvShape& s, const float* in_group, const float* w_oc, int64_t origin[kSpatial],
            TapRange taps[kSpatial], const float* bias, float* o) {
  const TapRange all{0, s.k[2]};
  const int64_t o_step = s.out_s.sp[2];
  for (int64_t ox = 0; ox < s.out[2];) {
    origin[2] = ox * s.stride[2] - s.padding[2];
    taps[2] = ValidTaps(origin[2], s.k[2], s.dilation[2], s.in[2]);
    const bool full = taps[2].begin == all.begin && taps[2].end == all.end;
    const int64_t last = ox + kLanes - 1;  // the lanes' taps are full if the last one's are
    const TapRange last_taps =
        ValidTaps(last * s.stride[2] - s.padding[2], s.k[2], s.dilation[2], s.in[2]);
    if (full && last < s.out[2] && last_taps.begin == all.begin && last_taps.end == all.end) {
      float accum[kLanes];
      Accumulate<kLanes>(s, in_group, w_oc, origin, taps, accum);
      for (int j = 0; j < kLanes; ++j) o[(ox + j) * o_step] = bias ? accum[j] + *bias : accum[j];
      ox += kLanes;
      continue;
    }
    float accum[1];
    Accumulate<1>(s, in_group, w_oc, origin, taps, accum);
    o[ox * o_step] = bias ? accum[0] + *bias : accum[0];
    ++ox;
  }
}

void RunConv(const ConvShape& s, const float* in, const float* weight, const float* bias,
             float* out) {
  const int64_t in_c_per_group = s.in_c / s.groups;
  const int64_t out_c_per_group = s.out_c / s.groups;
  const Strides& os = s.out_s;
  for (int64_t b = 0; b < s.n; ++b) {
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      const int64_t group = oc / out_c_per_group;
      const float* in_group = in + b * s.in_s.n + group * in_c_per_group * s.in_s.c;
      const float* w_oc = weight + oc * s.w_s.n;
      const float* bias_oc = bias != nullptr ? bias + oc : nullptr;  // none: no add (keeps -0.0f)
      int64_t origin[kSpatial];
      TapRange taps[kSpatial];
      for (int64_t od = 0; od < s.out[0]; ++od) {
        origin[0] = od * s.stride[0] - s.padding[0];
        taps[0] = ValidTaps(origin[0], s.k[0], s.dilation[0], s.in[0]);
        for (int64_t oy = 0; oy < s.out[1]; ++oy) {
          origin[1] = oy * s.stride[1] - s.padding[1];
          taps[1] = ValidTaps(origin[1], s.k[1], s.dilation[1], s.in[1]);
          float* o = out + b * os.n + oc * os.c + od * os.sp[0] + oy * os.sp[1];
          RunRow(s, in_group, w_oc, origin, taps, bias_oc, o);
        }
      }
    }
  }
}

// Adds one input element's products into the outputs it reaches (the
// transposed convolution scatters): weight taps kd, ky, kx in order, taps
// that land outside the output skipped. `w_ic` points at the weights of
// the input channel and output channel.
void Scatter(const ConvShape& s, float x, const float* w_ic, const int64_t at[kSpatial],
             float* out_oc) {
  for (int64_t kd = 0; kd < s.k[0]; ++kd) {
    const int64_t od = at[0] + kd * s.dilation[0];
    if (od < 0 || od >= s.out[0]) continue;
    for (int64_t ky = 0; ky < s.k[1]; ++ky) {
      const int64_t oy = at[1] + ky * s.dilation[1];
      if (oy < 0 || oy >= s.out[1]) continue;
      float* o_row = out_oc + od * s.out_s.sp[0] + oy * s.out_s.sp[1];
      const float* w_row = w_ic + kd * s.w_s.sp[0] + ky * s.w_s.sp[1];
      for (int64_t kx = 0; kx < s.k[2]; ++kx) {
        const int64_t ox = at[2] + kx * s.dilation[2];
        if (ox < 0 || ox >= s.out[2]) continue;
        o_row[ox * s.out_s.sp[2]] += x * w_row[kx * s.w_s.sp[2]];
      }
    }
  }
}

// Transposed: every output starts at its bias (or 0), then per output
// channel each input element of the group, in input depth, row, column,
// channel order, adds its products (the portable kernel's order). The
// weight is [in_c, out_c / groups, k...].
void RunTransposed(const ConvShape& s, const float* in, const float* weight, const float* bias,
                   float* out) {
  const int64_t in_c_per_group = s.in_c / s.groups;
  const int64_t out_c_per_group = s.out_c / s.groups;
  const Strides& os = s.out_s;
  for (int64_t b = 0; b < s.n; ++b) {
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      float* out_oc = out + b * os.n + oc * os.c;
      const float start = bias != nullptr ? bias[oc] : 0.0f;
      for (int64_t od = 0; od < s.out[0]; ++od)
        for (int64_t oy = 0; oy < s.out[1]; ++oy)
          for (int64_t ox = 0; ox < s.out[2]; ++ox)
            out_oc[od * os.sp[0] + oy * os.sp[1] + ox * os.sp[2]] = start;
    }
    for (int64_t oc = 0; oc < s.out_c; ++oc) {
      const int64_t group = oc / out_c_per_group;
      float* out_oc = out + b * os.n + oc * os.c;
      const float* w_oc = weight + (oc - group * out_c_per_group) * s.w_s.c;
      int64_t at[kSpatial];
      for (int64_t id = 0; id < s.in[0]; ++id) {
        at[0] = id * s.stride[0] - s.padding[0];
        for (int64_t iy = 0; iy < s.in[1]; ++iy) {
          at[1] = iy * s.stride[1] - s.padding[1];
          for (int64_t ix = 0; ix < s.in[2]; ++ix) {
            at[2] = ix * s.stride[2] - s.padding[2];
            const float* x =
                in + b * s.in_s.n + id * s.in_s.sp[0] + iy * s.in_s.sp[1] + ix * s.in_s.sp[2];
            for (int64_t ic = group * in_c_per_group; ic < (group + 1) * in_c_per_group; ++ic) {
              Scatter(s, x[ic * s.in_s.c], w_oc + ic * s.w_s.n, at, out_oc);
            }
          }
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

// The output's spatial sizes: regular (input + padding - kernel span) /
// stride + 1; transposed (input - 1) * stride - 2 * padding + kernel span +
// output_padding.
Status OutputSizes(ConvShape& s, bool transposed, const int64_t output_padding[kSpatial]) {
  for (int i = 0; i < kSpatial; ++i) {
    const int64_t span = s.dilation[i] * (s.k[i] - 1) + 1;
    if (transposed) {
      // As PyTorch: output_padding below stride or dilation.
      if (output_padding[i] < 0 ||
          (output_padding[i] >= s.stride[i] && output_padding[i] >= s.dilation[i])) {
        return ShapeError("convolution output_padding not below stride or dilation",
                          output_padding[i], s.stride[i]);
      }
      s.out[i] = (s.in[i] - 1) * s.stride[i] - 2 * s.padding[i] + span + output_padding[i];
      if (s.out[i] < 0) return ShapeError("transposed convolution output size", s.out[i], 0);
      continue;
    }
    if (s.in[i] + 2 * s.padding[i] < span) {
      return ShapeError("convolution kernel larger than padded input", span,
                        s.in[i] + 2 * s.padding[i]);
    }
    s.out[i] = (s.in[i] + 2 * s.padding[i] - span) / s.stride[i] + 1;
  }
  return Status::Ok();
}

// Channels and groups: weight [out_c, in_c / groups, k...] for a regular
// convolution, [in_c, out_c / groups, k...] for a transposed one.
Status Channels(ConvShape& s, const Tensor& in, const Tensor& weight, bool transposed,
                int64_t groups) {
  s.n = in.sizes[0];
  s.in_c = in.sizes[1];
  s.groups = groups;
  if (groups < 1 || s.in_c % groups != 0) {
    return ShapeError("convolution groups do not divide channels", groups, s.in_c);
  }
  if (transposed) {
    s.out_c = int64_t{weight.sizes[1]} * groups;
    if (weight.sizes[0] != s.in_c) {
      return ShapeError("transposed convolution weight rows (input channels)", weight.sizes[0],
                        s.in_c);
    }
    return Status::Ok();
  }
  s.out_c = weight.sizes[0];
  if (s.out_c % groups != 0 || weight.sizes[1] != s.in_c / groups) {
    return ShapeError("convolution groups do not divide channels", groups, s.out_c);
  }
  return Status::Ok();
}

}  // namespace

// convolution(input, weight, bias?, stride, padding, dilation, transposed,
//             output_padding, groups, *, out)
Status ConvolutionOut(const Tensor& in, const Tensor& weight, const Tensor* bias, IntList stride,
                      IntList padding, IntList dilation, bool transposed, IntList output_padding,
                      int64_t groups, Tensor& out) {
  if (in.dtype != ScalarType::kFloat || weight.dtype != ScalarType::kFloat ||
      out.dtype != ScalarType::kFloat || (bias != nullptr && bias->dtype != ScalarType::kFloat)) {
    return DtypeError(kConvolutionOutName, in);
  }
  if (in.rank < 3 || in.rank > 2 + kSpatial || weight.rank != in.rank || out.rank != in.rank) {
    return ShapeError("convolution ranks (input, weight)", in.rank, weight.rank);
  }
  if (transposed && in.rank > 4) {
    // ExecuTorch's portable kernel takes 1-D and 2-D transposed convolutions
    // only: nothing to hold a 3-D one to.
    return Status::Error(ErrorCode::kNotSupported, "3-D transposed convolution");
  }
  if (bias != nullptr && bias->rank != 1) return ShapeError("convolution bias rank", bias->rank, 1);
  const int dims = int(in.rank) - 2;
  const int lead = kSpatial - dims;  // unit spatial dimensions in front
  ConvShape s{};
  ESDK_RETURN_IF_ERROR(Channels(s, in, weight, transposed, groups));
  for (int i = 0; i < kSpatial; ++i) {
    s.in[i] = i < lead ? 1 : in.sizes[2 + i - lead];
    s.k[i] = i < lead ? 1 : weight.sizes[2 + i - lead];
  }
  int64_t out_padding[kSpatial] = {};
  ESDK_RETURN_IF_ERROR(Param(stride, dims, 1, s.stride, "stride"));
  ESDK_RETURN_IF_ERROR(Param(padding, dims, 0, s.padding, "padding"));
  ESDK_RETURN_IF_ERROR(Param(dilation, dims, 1, s.dilation, "dilation"));
  if (transposed)
    ESDK_RETURN_IF_ERROR(Param(output_padding, dims, 0, out_padding, "output_padding"));
  for (int i = 0; i < kSpatial; ++i) {
    if (s.stride[i] < 1 || s.stride[i] > kMaxParam || s.dilation[i] < 1 ||
        s.dilation[i] > kMaxParam || s.padding[i] < 0 || s.padding[i] > kMaxParam) {
      return ShapeError("convolution stride/dilation/padding out of range", s.stride[i],
                        s.padding[i]);
    }
  }
  if (bias != nullptr && bias->sizes[0] != s.out_c) {
    return ShapeError("convolution bias size", bias->sizes[0], s.out_c);
  }
  ESDK_RETURN_IF_ERROR(OutputSizes(s, transposed, out_padding));
  int32_t expected[2 + kSpatial] = {static_cast<int32_t>(s.n), static_cast<int32_t>(s.out_c)};
  for (int i = lead; i < kSpatial; ++i) expected[2 + i - lead] = static_cast<int32_t>(s.out[i]);
  ESDK_RETURN_IF_ERROR(ExpectShape(out, expected, in.rank, kConvolutionOutName));
  if (out.numel == 0) return Status::Ok();
  s.in_s = LogicalStrides(in, lead);
  s.w_s = LogicalStrides(weight, lead);
  s.out_s = LogicalStrides(out, lead);
  const float* bias_data = bias ? bias->Data<const float>() : nullptr;
  if (transposed) {
    RunTransposed(s, in.Data<const float>(), weight.Data<const float>(), bias_data,
                  out.Data<float>());
  } else {
    RunConv(s, in.Data<const float>(), weight.Data<const float>(), bias_data, out.Data<float>());
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
