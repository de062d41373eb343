// cortex_m:: average and max pooling, NCHW-sized (channels-last memory) and
// _nhwc. Average pooling excludes the padding from the count, as the
// reference's avg_pool2d(count_include_pad=False) does, and rounds the mean
// of (q - zero point) half to even, as its float round does; the scale the
// multiplier and shift encode cancels out.
#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/layout.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

struct Window {
  int32_t kernel_h, kernel_w, stride_h, stride_w, pad_h, pad_w;
};

// Output size of one dimension, as torch's pooling computes it.
int64_t PoolSize(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  const int64_t span = in + 2 * p - d * (k - 1) - 1;
  if (span < 0) return 0;
  int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (ceil_mode && (out - 1) * s >= in + p) --out;  // the last window must start inside
  return out;
}

Status Prepare(const Tensor& input, const Tensor& out, const int* dims, IntList kernel_size,
               IntList stride, IntList padding, bool ceil_mode, int64_t dilation,
               cortex_m::View4* in, cortex_m::View4* o, Window* w) {
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(input, ScalarType::kChar, "input"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(out, ScalarType::kChar, "out"));
  ESDK_RETURN_IF_ERROR(cortex_m::MakeView4(input, dims, "input", in));
  ESDK_RETURN_IF_ERROR(cortex_m::MakeView4(out, dims, "out", o));
  ESDK_RETURN_IF_ERROR(cortex_m::Pair(kernel_size, 1, "kernel_size", &w->kernel_h, &w->kernel_w));
  ESDK_RETURN_IF_ERROR(cortex_m::Pair(stride, 1, "stride", &w->stride_h, &w->stride_w));
  ESDK_RETURN_IF_ERROR(cortex_m::Pair(padding, 0, "padding", &w->pad_h, &w->pad_w));
  if (2 * w->pad_h > w->kernel_h || 2 * w->pad_w > w->kernel_w) {
    return ShapeError("pooling: padding more than half the kernel", w->pad_h, w->pad_w);
  }
  const int64_t oh = PoolSize(in->h, w->kernel_h, w->stride_h, w->pad_h, dilation, ceil_mode);
  const int64_t ow = PoolSize(in->w, w->kernel_w, w->stride_w, w->pad_w, dilation, ceil_mode);
  if (o->n != in->n || o->c != in->c || o->h != oh || o->w != ow)
    return ShapeError("pooling: out's shape", oh, ow);
  return Status::Ok();
}

// Calls f(n, c, oh, ow, hs, he, ws, we) for each output element, [hs, he) x
// [ws, we) the window's rows and columns inside the input.
template <typename F>
void ForEachWindow(const cortex_m::View4& in, const cortex_m::View4& o, const Window& w, F f) {
  for (int32_t n = 0; n < o.n; ++n) {
    for (int32_t oh = 0; oh < o.h; ++oh) {
      const int32_t h0 = oh * w.stride_h - w.pad_h;
      const int32_t hs = h0 < 0 ? 0 : h0, he = h0 + w.kernel_h > in.h ? in.h : h0 + w.kernel_h;
      for (int32_t ow = 0; ow < o.w; ++ow) {
        const int32_t w0 = ow * w.stride_w - w.pad_w;
        const int32_t ws = w0 < 0 ? 0 : w0, we = w0 + w.kernel_w > in.w ? in.w : w0 + w.kernel_w;
        for (int32_t c = 0; c < o.c; ++c) f(n, c, oh, ow, hs, he, ws, we);
      }
    }
  }
}

Status AvgPool(const int* dims, const Tensor& input, IntList kernel_size, IntList stride,
               IntList padding, bool ceil_mode, int64_t zero_point, Tensor& out) {
  cortex_m::View4 in, o;
  Window w;
  ESDK_RETURN_IF_ERROR(
      Prepare(input, out, dims, kernel_size, stride, padding, ceil_mode, 1, &in, &o, &w));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(zero_point, -128, 127, "zero_point"));
  const int32_t zp = static_cast<int32_t>(zero_point);
  const int8_t* x = input.Data<const int8_t>();
  int8_t* y = out.Data<int8_t>();
  ForEachWindow(in, o, w,
                [&](int32_t n, int32_t c, int32_t oh, int32_t ow, int32_t hs, int32_t he,
                    int32_t ws, int32_t we) {
                  const int32_t count = (he - hs) * (we - ws);
                  int32_t sum = 0;
                  for (int32_t ih = hs; ih < he; ++ih) {
                    for (int32_t iw = ws; iw < we; ++iw) sum += x[in.Offset(n, c, ih, iw)] - zp;
                  }
                  int32_t mean = 0;
                  if (count > 0) {
                    // Floor division, then round half to even on the remainder.
                    mean = sum / count;
                    int32_t rem = sum % count;
                    if (rem < 0) {
                      rem += count;
                      --mean;
                    }
                    if (2 * rem > count || (2 * rem == count && (mean & 1) != 0)) ++mean;
                  }
                  y[o.Offset(n, c, oh, ow)] =
                      static_cast<int8_t>(cortex_m::Clamp(mean + zp, -128, 127));
                });
  return Status::Ok();
}

Status MaxPool(const int* dims, const Tensor& input, IntList kernel_size, IntList stride,
               IntList padding, IntList dilation, bool ceil_mode, int64_t input_zero_point,
               int64_t output_zero_point, int64_t activation_min, int64_t activation_max,
               Tensor& out) {
  int32_t dh, dw;
  ESDK_RETURN_IF_ERROR(cortex_m::Pair(dilation, 1, "dilation", &dh, &dw));
  // What the reference refuses (ops/operators.py), refused alike.
  if (dh != 1 || dw != 1) return ShapeError("quantized_max_pool2d: dilation other than 1", dh, dw);
  if (ceil_mode) return ShapeError("quantized_max_pool2d: ceil_mode");
  if (input_zero_point != output_zero_point) {
    return ShapeError("quantized_max_pool2d: input and output zero points differ", input_zero_point,
                      output_zero_point);
  }
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectActivation(activation_min, activation_max));
  cortex_m::View4 in, o;
  Window w;
  ESDK_RETURN_IF_ERROR(
      Prepare(input, out, dims, kernel_size, stride, padding, false, 1, &in, &o, &w));
  const int32_t lo = static_cast<int32_t>(activation_min),
                hi = static_cast<int32_t>(activation_max);
  const int8_t* x = input.Data<const int8_t>();
  int8_t* y = out.Data<int8_t>();
  ForEachWindow(in, o, w,
                [&](int32_t n, int32_t c, int32_t oh, int32_t ow, int32_t hs, int32_t he,
                    int32_t ws, int32_t we) {
                  int32_t max = -128;
                  for (int32_t ih = hs; ih < he; ++ih) {
                    for (int32_t iw = ws; iw < we; ++iw) {
                      const int32_t v = x[in.Offset(n, c, ih, iw)];
                      max = v > max ? v : max;
                    }
                  }
                  y[o.Offset(n, c, oh, ow)] = static_cast<int8_t>(cortex_m::Clamp(max, lo, hi));
                });
  return Status::Ok();
}

}  // namespace

Status CortexMQuantizedAvgPool2dOut(const Tensor& input, IntList kernel_size, IntList stride,
                                    IntList padding, bool ceil_mode, int64_t zero_point,
                                    int64_t /*multiplier*/, int64_t /*shift*/,
                                    const Tensor& /*scratch*/, Tensor& out) {
  return AvgPool(cortex_m::kNchw, input, kernel_size, stride, padding, ceil_mode, zero_point, out);
}

Status CortexMQuantizedAvgPool2dNhwcOut(const Tensor& input, IntList kernel_size, IntList stride,
                                        IntList padding, bool ceil_mode, int64_t zero_point,
                                        int64_t /*multiplier*/, int64_t /*shift*/,
                                        const Tensor& /*scratch*/, Tensor& out) {
  return AvgPool(cortex_m::kNhwc, input, kernel_size, stride, padding, ceil_mode, zero_point, out);
}

Status CortexMQuantizedMaxPool2dOut(const Tensor& input, IntList kernel_size, IntList stride,
                                    IntList padding, IntList dilation, bool ceil_mode,
                                    int64_t input_zero_point, int64_t output_zero_point,
                                    int64_t activation_min, int64_t activation_max, Tensor& out) {
  return MaxPool(cortex_m::kNchw, input, kernel_size, stride, padding, dilation, ceil_mode,
                 input_zero_point, output_zero_point, activation_min, activation_max, out);
}

Status CortexMQuantizedMaxPool2dNhwcOut(const Tensor& input, IntList kernel_size, IntList stride,
                                        IntList padding, IntList dilation, bool ceil_mode,
                                        int64_t input_zero_point, int64_t output_zero_point,
                                        int64_t activation_min, int64_t activation_max,
                                        Tensor& out) {
  return MaxPool(cortex_m::kNhwc, input, kernel_size, stride, padding, dilation, ceil_mode,
                 input_zero_point, output_zero_point, activation_min, activation_max, out);
}

}  // namespace ethosu_sdk::kernels
