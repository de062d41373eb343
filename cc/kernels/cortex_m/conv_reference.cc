// Plain C arithmetic of the cortex_m:: convolutions: one output element at a
// time, any layout (strided views), for the host and CPUs without a faster
// variant, and the reference the Helium variants (conv_helium.cc) are tested
// against on the target.
#include <algorithm>
#include <climits>
#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/conv_params.h"

namespace ethosu_sdk::kernels::cortex_m {
namespace {

// Calls tap(n, oc, ih, iw, kh, kw) for each kernel tap of each output
// element that falls inside the input, summing what it returns onto the
// bias, and writes the requantized sum.
template <typename Tap>
void ForEachOutput(const ConvParams& p, Tap tap) {
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oc = 0; oc < p.out.c; ++oc) {
      for (int32_t oh = 0; oh < p.out.h; ++oh) {
        for (int32_t ow = 0; ow < p.out.w; ++ow) {
          uint32_t acc = p.bias != nullptr ? static_cast<uint32_t>(p.bias[oc])
                                           : 0;  // wraps as int32 tensors do
          for (int32_t kh = 0; kh < p.kernel_h; ++kh) {
            const int32_t ih = oh * p.stride_h - p.pad_h + kh * p.dilation_h;
            if (ih < 0 || ih >= p.in.h) continue;
            for (int32_t kw = 0; kw < p.kernel_w; ++kw) {
              const int32_t iw = ow * p.stride_w - p.pad_w + kw * p.dilation_w;
              if (iw < 0 || iw >= p.in.w) continue;
              acc += tap(n, oc, ih, iw, kh, kw);
            }
          }
          p.output[p.out.Offset(n, oc, oh, ow)] = FinishConv(p, static_cast<int32_t>(acc), oc);
        }
      }
    }
  }
}

}  // namespace

void ConvReference(const ConvParams& p) {
  const int32_t in_per_group = p.in.c / p.groups;
  const int32_t out_per_group = p.out.c / p.groups;
  ForEachOutput(p, [&](int32_t n, int32_t oc, int32_t ih, int32_t iw, int32_t kh, int32_t kw) {
    const int32_t ic0 = (oc / out_per_group) * in_per_group;
    const int8_t* w =
        p.weight + ((static_cast<int64_t>(oc) * p.kernel_h + kh) * p.kernel_w + kw) * in_per_group;
    const int8_t* x = p.input + p.in.Offset(n, ic0, ih, iw);
    uint32_t sum = 0;
    if (p.in.sc == 1) {
      // Channels innermost (channels-last memory, the passes' layout): two
      // contiguous int8 rows, a loop the compiler can vectorise.
      // An unsigned sum: it wraps as the reference's int32 tensors do.
      uint32_t dot = 0;
      for (int32_t i = 0; i < in_per_group; ++i)
        dot += static_cast<uint32_t>((x[i] + p.input_offset) * w[i]);
      return dot;
    }
    for (int32_t i = 0; i < in_per_group; ++i) {
      sum += static_cast<uint32_t>((x[i * p.in.sc] + p.input_offset) * w[i]);
    }
    return sum;
  });
}

// Depthwise with channels innermost in input and output and one output per
// input channel (MobileNet's case): per output pixel, each kernel tap adds
// a contiguous run of channels into a block of accumulators, so the inner
// loop is over contiguous int8 data.
void DepthwiseChannelsLast(const ConvParams& p) {
  constexpr int32_t kBlock = 64;  // accumulators on the stack: no heap
  uint32_t acc[kBlock];
  const int32_t channels = p.out.c;
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oh = 0; oh < p.out.h; ++oh) {
      for (int32_t ow = 0; ow < p.out.w; ++ow) {
        int8_t* out = p.output + p.out.Offset(n, 0, oh, ow);
        for (int32_t c0 = 0; c0 < channels; c0 += kBlock) {
          const int32_t len = channels - c0 < kBlock ? channels - c0 : kBlock;
          for (int32_t i = 0; i < len; ++i)
            acc[i] = p.bias != nullptr ? static_cast<uint32_t>(p.bias[c0 + i]) : 0;
          for (int32_t kh = 0; kh < p.kernel_h; ++kh) {
            const int32_t ih = oh * p.stride_h - p.pad_h + kh * p.dilation_h;
            if (ih < 0 || ih >= p.in.h) continue;
            for (int32_t kw = 0; kw < p.kernel_w; ++kw) {
              const int32_t iw = ow * p.stride_w - p.pad_w + kw * p.dilation_w;
              if (iw < 0 || iw >= p.in.w) continue;
              const int8_t* x = p.input + p.in.Offset(n, c0, ih, iw);
              const int8_t* w = p.weight + (kh * p.kernel_w + kw) * channels + c0;
              for (int32_t i = 0; i < len; ++i)
                acc[i] += static_cast<uint32_t>((x[i] + p.input_offset) * w[i]);
            }
          }
          for (int32_t i = 0; i < len; ++i)
            out[c0 + i] = FinishConv(p, static_cast<int32_t>(acc[i]), c0 + i);
        }
      }
    }
  }
}

namespace {

// The first input coordinate output coordinate `o` reads along one axis, or
// -1 when all its taps fall in the padding.
int32_t FirstTap(int32_t o, int32_t stride, int32_t pad, int32_t dilation, int32_t kernel,
                 int32_t size) {
  for (int32_t k = 0; k < kernel; ++k) {
    const int32_t i = o * stride - pad + k * dilation;
    if (i >= 0 && i < size) return i;
  }
  return -1;
}

}  // namespace

// idx(P) - first_tap(P) splits into batch, row and column terms, each
// maximised on its own.
int64_t DepthwiseOverlapLead(const ConvParams& p) {
  int64_t rows = INT64_MIN, cols = INT64_MIN;
  for (int32_t oh = 0; oh < p.out.h; ++oh) {
    const int32_t ih = FirstTap(oh, p.stride_h, p.pad_h, p.dilation_h, p.kernel_h, p.in.h);
    if (ih >= 0) rows = std::max(rows, int64_t{oh} * p.out.w - int64_t{ih} * p.in.w);
  }
  for (int32_t ow = 0; ow < p.out.w; ++ow) {
    const int32_t iw = FirstTap(ow, p.stride_w, p.pad_w, p.dilation_w, p.kernel_w, p.in.w);
    if (iw >= 0) cols = std::max(cols, int64_t{ow} - iw);
  }
  if (rows == INT64_MIN || cols == INT64_MIN) return 0;  // nothing is read
  const int64_t per_batch = int64_t{p.out.h} * p.out.w - int64_t{p.in.h} * p.in.w;
  const int64_t batch = std::max<int64_t>(0, (p.out.n - 1) * per_batch);
  return std::max<int64_t>(0, rows + cols + batch);
}

void DepthwiseConvReference(const ConvParams& p) {
  if (p.in.sc == 1 && p.out.sc == 1 && p.depth_multiplier == 1) {
    DepthwiseChannelsLast(p);
    return;
  }
  ForEachOutput(p, [&](int32_t n, int32_t oc, int32_t ih, int32_t iw, int32_t kh, int32_t kw) {
    const int32_t x = p.input[p.in.Offset(n, oc / p.depth_multiplier, ih, iw)] + p.input_offset;
    return static_cast<uint32_t>(x * p.weight[(kh * p.kernel_w + kw) * p.out.c + oc]);
  });
}

// Gathers, for each output element, the input elements the kernel maps onto
// it (oh = ih * stride - pad + kh * dilation), so no accumulator buffer is
// needed.
void TransposeConvReference(const ConvParams& p) {
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oc = 0; oc < p.out.c; ++oc) {
      for (int32_t oh = 0; oh < p.out.h; ++oh) {
        for (int32_t ow = 0; ow < p.out.w; ++ow) {
          uint32_t acc = p.bias != nullptr ? static_cast<uint32_t>(p.bias[oc])
                                           : 0;  // wraps as int32 tensors do
          for (int32_t kh = 0; kh < p.kernel_h; ++kh) {
            const int32_t th = oh + p.pad_h - kh * p.dilation_h;
            if (th < 0 || th % p.stride_h != 0 || th / p.stride_h >= p.in.h) continue;
            const int32_t ih = th / p.stride_h;
            for (int32_t kw = 0; kw < p.kernel_w; ++kw) {
              const int32_t tw = ow + p.pad_w - kw * p.dilation_w;
              if (tw < 0 || tw % p.stride_w != 0 || tw / p.stride_w >= p.in.w) continue;
              const int32_t iw = tw / p.stride_w;
              const int8_t* w =
                  p.weight +
                  ((static_cast<int64_t>(oc) * p.kernel_h + kh) * p.kernel_w + kw) * p.in.c;
              for (int32_t ic = 0; ic < p.in.c; ++ic) {
                acc += static_cast<uint32_t>(
                    (p.input[p.in.Offset(n, ic, ih, iw)] + p.input_offset) * w[ic]);
              }
            }
          }
          p.output[p.out.Offset(n, oc, oh, ow)] = FinishConv(p, static_cast<int32_t>(acc), oc);
        }
      }
    }
  }
}

}  // namespace ethosu_sdk::kernels::cortex_m
