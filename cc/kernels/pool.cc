// 2-D pooling over NCHW (or CHW) tensors: average (float) and max (every
// real dtype the runtime holds, as ExecuTorch's portable kernel, with the
// argmax indices that max_pool2d_with_indices returns).
#include <cstdint>
#include <optional>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

struct PoolShape {
  int64_t planes, in_h, in_w, out_h, out_w;
  int64_t kernel[2], stride[2], padding[2], dilation[2];
};

Status PairParam(IntList list, int64_t fallback, bool allow_empty, int64_t* out, const char* what) {
  if (list.size() == 0 && allow_empty) {
    out[0] = out[1] = fallback;
  } else if (list.size() == 1) {
    out[0] = out[1] = list[0];
  } else if (list.size() == 2) {
    out[0] = list[0];
    out[1] = list[1];
  } else {
    return Status::Error(ErrorCode::kInvalidArgument, "bad pooling parameter: %s", what);
  }
  return Status::Ok();
}

// PyTorch's pooling output size, including the ceil_mode rule that a window
// must start inside the input or its left padding.
int64_t PoolOutputSize(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation,
                       bool ceil_mode) {
  const int64_t span = in + 2 * pad - dilation * (k - 1) - 1;
  int64_t out = (span + (ceil_mode ? stride - 1 : 0)) / stride + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

Status SetUpPool(const Tensor& in, const Tensor& out, IntList kernel, IntList stride,
                 IntList padding, IntList dilation, bool ceil_mode, const char* name,
                 PoolShape* s) {
  if (in.rank != 3 && in.rank != 4) return ShapeError("pooling input rank", in.rank);
  ESDK_RETURN_IF_ERROR(PairParam(kernel, 0, false, s->kernel, "kernel_size"));
  ESDK_RETURN_IF_ERROR(PairParam(stride, 0, true, s->stride, "stride"));
  if (stride.size() == 0) {
    s->stride[0] = s->kernel[0];
    s->stride[1] = s->kernel[1];
  }
  ESDK_RETURN_IF_ERROR(PairParam(padding, 0, true, s->padding, "padding"));
  ESDK_RETURN_IF_ERROR(PairParam(dilation, 1, true, s->dilation, "dilation"));
  for (int i = 0; i < 2; ++i) {
    if (s->kernel[i] < 1 || s->kernel[i] > (1 << 16) || s->stride[i] < 1 ||
        s->stride[i] > (1 << 16) || s->dilation[i] < 1 || s->dilation[i] > (1 << 16) ||
        s->padding[i] < 0 || s->padding[i] > s->kernel[i] / 2) {
      return ShapeError("pooling kernel/stride/padding out of range", s->kernel[i], s->padding[i]);
    }
  }
  s->in_h = in.sizes[in.rank - 2];
  s->in_w = in.sizes[in.rank - 1];
  const int64_t plane_size = s->in_h * s->in_w;
  s->planes = plane_size == 0 ? 0 : static_cast<int64_t>(in.numel) / plane_size;
  s->out_h =
      PoolOutputSize(s->in_h, s->kernel[0], s->padding[0], s->stride[0], s->dilation[0], ceil_mode);
  s->out_w =
      PoolOutputSize(s->in_w, s->kernel[1], s->padding[1], s->stride[1], s->dilation[1], ceil_mode);
  if (s->out_h < 1 || s->out_w < 1)
    return ShapeError("pooling output would be empty", s->out_h, s->out_w);
  int32_t shape[4];
  for (int32_t d = 0; d < in.rank - 2; ++d) shape[d] = in.sizes[d];
  shape[in.rank - 2] = static_cast<int32_t>(s->out_h);
  shape[in.rank - 1] = static_cast<int32_t>(s->out_w);
  return ExpectShape(out, shape, in.rank, name);
}

}  // namespace

// avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad,
//            divisor_override?, *, out)
Status AvgPool2dOut(const Tensor& in, IntList kernel, IntList stride, IntList padding,
                    bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override,
                    Tensor& out) {
  if (divisor_override && *divisor_override == 0) {
    return ShapeError("avg_pool2d divisor_override is 0");
  }
  if (in.dtype != ScalarType::kFloat || out.dtype != ScalarType::kFloat)
    return DtypeError(kAvgPool2dOutName, in);
  PoolShape s{};
  ESDK_RETURN_IF_ERROR(
      SetUpPool(in, out, kernel, stride, padding, {}, ceil_mode, kAvgPool2dOutName, &s));
  const float* pi = in.Data<const float>();
  float* po = out.Data<float>();
  for (int64_t p = 0; p < s.planes; ++p) {
    const float* plane = pi + p * s.in_h * s.in_w;
    for (int64_t oy = 0; oy < s.out_h; ++oy) {
      for (int64_t ox = 0; ox < s.out_w; ++ox) {
        int64_t y0 = oy * s.stride[0] - s.padding[0], x0 = ox * s.stride[1] - s.padding[1];
        int64_t y1 = y0 + s.kernel[0], x1 = x0 + s.kernel[1];
        if (y1 > s.in_h + s.padding[0]) y1 = s.in_h + s.padding[0];
        if (x1 > s.in_w + s.padding[1]) x1 = s.in_w + s.padding[1];
        const int64_t padded_count = (y1 - y0) * (x1 - x0);
        if (y0 < 0) y0 = 0;
        if (x0 < 0) x0 = 0;
        if (y1 > s.in_h) y1 = s.in_h;
        if (x1 > s.in_w) x1 = s.in_w;
        float sum = 0.0f;
        for (int64_t y = y0; y < y1; ++y) {
          for (int64_t x = x0; x < x1; ++x) sum += plane[y * s.in_w + x];
        }
        int64_t divisor = divisor_override    ? *divisor_override
                          : count_include_pad ? padded_count
                                              : (y1 - y0) * (x1 - x0);
        float value = divisor == 0 ? 0.0f : sum / static_cast<float>(divisor);
        po[(p * s.out_h + oy) * s.out_w + ox] = value;
      }
    }
  }
  return Status::Ok();
}

namespace {

// Each output the largest element of its window (the first of equal ones,
// a NaN wins as in PyTorch) and its index within the input plane.
template <typename T>
void MaxPool(const PoolShape& s, const T* pi, T* po, int64_t* pidx) {
  for (int64_t p = 0; p < s.planes; ++p) {
    const T* plane = pi + p * s.in_h * s.in_w;
    for (int64_t oy = 0; oy < s.out_h; ++oy) {
      for (int64_t ox = 0; ox < s.out_w; ++ox) {
        T best = T(0);
        int64_t best_index = -1;
        for (int64_t ky = 0; ky < s.kernel[0]; ++ky) {
          const int64_t y = oy * s.stride[0] - s.padding[0] + ky * s.dilation[0];
          if (y < 0 || y >= s.in_h) continue;
          for (int64_t kx = 0; kx < s.kernel[1]; ++kx) {
            const int64_t x = ox * s.stride[1] - s.padding[1] + kx * s.dilation[1];
            if (x < 0 || x >= s.in_w) continue;
            const T v = plane[y * s.in_w + x];
            if (best_index < 0 || v > best || v != v) {
              best = v;
              best_index = y * s.in_w + x;
            }
          }
        }
        const int64_t o = (p * s.out_h + oy) * s.out_w + ox;
        po[o] = best;
        pidx[o] = best_index;
      }
    }
  }
}

template <typename T>
void MaxPoolTensors(const PoolShape& s, const Tensor& in, Tensor& out, Tensor& indices) {
  MaxPool<T>(s, in.Data<const T>(), out.Data<T>(), indices.Data<int64_t>());
}

}  // namespace

// max_pool2d_with_indices(self, kernel_size, stride, padding, dilation,
//                         ceil_mode, *, out, indices)
Status MaxPool2dWithIndicesOut(const Tensor& in, IntList kernel, IntList stride, IntList padding,
                               IntList dilation, bool ceil_mode, Tensor& out, Tensor& indices) {
  if (out.dtype != in.dtype) return DtypeError(kMaxPool2dWithIndicesOutName, out);
  PoolShape s{};
  ESDK_RETURN_IF_ERROR(SetUpPool(in, out, kernel, stride, padding, dilation, ceil_mode,
                                 kMaxPool2dWithIndicesOutName, &s));
  ESDK_RETURN_IF_ERROR(ExpectDtype(indices, ScalarType::kLong, "max_pool2d indices"));
  ESDK_RETURN_IF_ERROR(ExpectSameShape(indices, out, "max_pool2d indices"));
  switch (in.dtype) {
    case ScalarType::kFloat:
      MaxPoolTensors<float>(s, in, out, indices);
      return Status::Ok();
    case ScalarType::kDouble:
      MaxPoolTensors<double>(s, in, out, indices);
      return Status::Ok();
    case ScalarType::kByte:
      MaxPoolTensors<uint8_t>(s, in, out, indices);
      return Status::Ok();
    case ScalarType::kChar:
      MaxPoolTensors<int8_t>(s, in, out, indices);
      return Status::Ok();
    case ScalarType::kShort:
      MaxPoolTensors<int16_t>(s, in, out, indices);
      return Status::Ok();
    case ScalarType::kInt:
      MaxPoolTensors<int32_t>(s, in, out, indices);
      return Status::Ok();
    case ScalarType::kLong:
      MaxPoolTensors<int64_t>(s, in, out, indices);
      return Status::Ok();
    default:
      return DtypeError(kMaxPool2dWithIndicesOutName, in);
  }
}

}  // namespace ethosu_sdk::kernels
