// Helium (MVE) arithmetic of the cortex_m:: convolution and depthwise
// convolution on Cortex-M55/M85, for the passes' layout (channels innermost).
//
// Convolution as a GEMM without im2col: per output pixel, four output
// channels per pass; each kernel row whose taps are all inside the input is
// one contiguous run of kernel_w * C_in int8 values in NHWC memory, and so
// is the matching OHWI weight row, so a run is read once and dotted with
// four weight rows by VMLADAVA (16 int8 MACs each). The input offset is
// folded out: sum((x + off) * w) = sum(x * w) + off * sum(w), the weight
// sums taken once per channel block (and per tap at the borders).
// Depthwise: four channels in int32 lanes, the kernel's taps accumulated in
// a register (VMUL, VADD: MVE has no vector-by-vector integer VMLA). Both requantize four channels
// at once (requantize_helium.h) and store them with one narrowing VSTRB.
#include <cstdint>

#include "cc/kernels/cortex_m/conv_params.h"
#include "cc/kernels/cortex_m/dot_helium.h"
#include "cc/kernels/cortex_m/requantize_helium.h"

namespace ethosu_sdk::kernels::cortex_m {

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
namespace {

// Output channels per pass: the four int32 lanes of a Q register.
constexpr int32_t kLanes = 4;
// Output pixels whose sums wait in a tile (on the stack: 32 x 4 x 4 B) for
// the requantization pass: the dot-product loop and the requantization loop
// each keep their own values in registers (MVE has eight Q registers; one
// loop doing both spills on every pixel).
constexpr int32_t kTile = 32;

RequantLanes ChannelLanes(const ConvParams& p, int32_t c0, mve_pred16_t lanes) {
  return LoadRequantLanes(vldrwq_z_s32(p.multipliers + c0, lanes),
                          vldrwq_z_s32(p.shifts + c0, lanes), p.output_offset, p.activation_min,
                          p.activation_max);
}

// Requantizes the sums of `m` pixels of the channels c0.. (tile[i] + add)
// and stores pixel i at out + i * step: four lanes at once, or lane by lane
// in C where a left shift would overflow int32.
template <bool kTail>
void FlushTile(const ConvParams& p, const RequantLanes& r, const int32_t* tile, int32_t m,
               int32x4_t add, int8_t* out, int32_t step, int32_t c0, int32_t count) {
  const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
  for (int32_t i = 0; i < m; ++i, out += step) {
    const int32x4_t acc = vaddq_s32(vld1q_s32(tile + i * kLanes), add);
    if (!LeftShiftExact(acc, r)) {
      int32_t sums[kLanes];
      vst1q_s32(sums, acc);
      for (int32_t j = 0; j < count; ++j) out[j] = FinishConv(p, sums[j], c0 + j);
      continue;
    }
    if (kTail) {
      vstrbq_p_s32(out, RequantizeLanes(acc, r), lanes);
    } else {
      vstrbq_s32(out, RequantizeLanes(acc, r));
    }
  }
}

int32x4_t Lanes(int32_t a0, int32_t a1, int32_t a2, int32_t a3) {
  int32x4_t v = vdupq_n_s32(a0);
  v = vsetq_lane_s32(a1, v, 1);
  v = vsetq_lane_s32(a2, v, 2);
  return vsetq_lane_s32(a3, v, 3);
}

// The range [*first, *last) of kernel taps k with 0 <= o * stride - pad + k
// * dilation < size: all of them away from the borders (checked first).
inline void ValidTaps(int32_t o, int32_t stride, int32_t pad, int32_t dilation, int32_t kernel,
                      int32_t size, int32_t* first, int32_t* last) {
  const int32_t start = o * stride - pad;
  if (start >= 0 && start + (kernel - 1) * dilation < size) {
    *first = 0;
    *last = kernel;
    return;
  }
  int32_t k = 0;
  while (k < kernel && start + k * dilation < 0) ++k;
  *first = k;
  while (k < kernel && start + k * dilation < size) ++k;
  *last = k;
}

// Sum of each of four weight rows over [0, len).
int32x4_t WeightSums(const int8_t* const w[kLanes], int32_t len) {
  int32_t s[kLanes] = {};
  for (int32_t j = 0; j < kLanes; ++j) {
    for (int32_t i = 0; i < len; i += kBytes) {
      s[j] = vaddvaq_s8(s[j], vldrbq_z_s8(w[j] + i, vctp8q(static_cast<uint32_t>(len - i))));
    }
  }
  return Lanes(s[0], s[1], s[2], s[3]);
}

// True when `v` is dense NHWC: channels, then width, height and batch.
bool DenseNhwc(const View4& v) {
  return v.sc == 1 && v.sw == v.c && v.sh == static_cast<int64_t>(v.w) * v.c &&
         v.sn == static_cast<int64_t>(v.h) * v.w * v.c;
}

// The weight rows of channels c0..c0 + 3 (past the last channel: the first
// row again, its lanes not stored).
void ChannelRows(const ConvParams& p, int32_t c0, int32_t count, int32_t per_channel,
                 const int8_t* w[kLanes]) {
  for (int32_t j = 0; j < kLanes; ++j)
    w[j] = p.weight + static_cast<int64_t>(c0 + (j < count ? j : 0)) * per_channel;
}

// 1x1, stride 1, no padding, dense input and output: a plain GEMM of the
// pixels (rows of C_in) by the weights (rows of C_in).
template <bool kTail>
void PointwiseBlock(const ConvParams& p, int32_t c0, int32_t count) {
  const int32_t cin = p.in.c, cout = p.out.c;
  const int32_t pixels = p.out.n * p.out.h * p.out.w;
  const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
  const RequantLanes r = ChannelLanes(p, c0, lanes);
  const int8_t* w[kLanes];
  ChannelRows(p, c0, count, cin, w);
  const int32x4_t bias = p.bias != nullptr ? vldrwq_z_s32(p.bias + c0, lanes) : vdupq_n_s32(0);
  // bias + offset * sum(w): every pixel adds it.
  const int32x4_t base = vmlaq_n_s32(bias, WeightSums(w, cin), p.input_offset);
  int32_t tile[kTile * kLanes];
  for (int32_t px0 = 0; px0 < pixels; px0 += kTile) {
    const int32_t m = pixels - px0 < kTile ? pixels - px0 : kTile;
    const int8_t* x = p.input + static_cast<int64_t>(px0) * cin;
    for (int32_t i = 0; i < m; ++i, x += cin) {
      Dot4 dot;
      dot.Run(x, w[0], w[1], w[2], w[3], cin);
      dot.Save(tile + i * kLanes);
    }
    FlushTile<kTail>(p, r, tile, m, base, p.output + static_cast<int64_t>(px0) * cout + c0, cout,
                     c0, count);
  }
}

// Any kernel, stride, padding and dilation, channels innermost.
template <bool kTail>
void ConvBlock(const ConvParams& p, int32_t c0, int32_t count) {
  const int32_t cin = p.in.c;
  // A kernel row is one contiguous run when its taps are adjacent pixels.
  const bool rows_contiguous = p.dilation_w == 1 && p.in.sw == cin;
  const int32_t row_len = p.kernel_w * cin;
  const int32_t per_channel = p.kernel_h * row_len;  // OHWI: one output channel's weights
  const int32_t offset = p.input_offset;
  const int32_t kernel_h = p.kernel_h, kernel_w = p.kernel_w;
  const int32_t stride_h = p.stride_h, stride_w = p.stride_w, pad_h = p.pad_h, pad_w = p.pad_w;
  const int32_t dilation_h = p.dilation_h, dilation_w = p.dilation_w;
  const int32_t in_h = p.in.h, in_w = p.in.w, out_h = p.out.h, out_w = p.out.w;
  const int32_t in_sn = static_cast<int32_t>(p.in.sn), in_sh = static_cast<int32_t>(p.in.sh),
                in_sw = static_cast<int32_t>(p.in.sw);
  const int32_t out_sn = static_cast<int32_t>(p.out.sn), out_sh = static_cast<int32_t>(p.out.sh),
                out_sw = static_cast<int32_t>(p.out.sw);
  const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
  const RequantLanes r = ChannelLanes(p, c0, lanes);
  const int8_t* w[kLanes];
  ChannelRows(p, c0, count, per_channel, w);
  const int32x4_t bias = p.bias != nullptr ? vldrwq_z_s32(p.bias + c0, lanes) : vdupq_n_s32(0);
  // bias + offset * sum(w) over the whole kernel: what every interior pixel adds.
  const int32x4_t interior = vmlaq_n_s32(bias, WeightSums(w, per_channel), offset);
  const int32x4_t zero = vdupq_n_s32(0);
  int32_t tile[kTile * kLanes];
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oh = 0; oh < out_h; ++oh) {
      int32_t kh0, kh1;
      ValidTaps(oh, stride_h, pad_h, dilation_h, kernel_h, in_h, &kh0, &kh1);
      for (int32_t ow0 = 0; ow0 < out_w; ow0 += kTile) {
        const int32_t m = out_w - ow0 < kTile ? out_w - ow0 : kTile;
        for (int32_t i = 0; i < m; ++i) {
          const int32_t ow = ow0 + i;
          int32_t kw0, kw1;
          ValidTaps(ow, stride_w, pad_w, dilation_w, kernel_w, in_w, &kw0, &kw1);
          const bool whole_row = kw0 == 0 && kw1 == kernel_w;
          const int32_t iw0 = ow * stride_w - pad_w;
          Dot4 dot;
          for (int32_t kh = kh0; kh < kh1; ++kh) {
            const int32_t ih = oh * stride_h - pad_h + kh * dilation_h;
            const int32_t row = kh * row_len;
            if (whole_row && rows_contiguous) {
              const int8_t* x = p.input + (n * in_sn + ih * in_sh + iw0 * in_sw);
              dot.Run(x, w[0] + row, w[1] + row, w[2] + row, w[3] + row, row_len);
              continue;
            }
            for (int32_t kw = kw0; kw < kw1; ++kw) {
              const int32_t iw = iw0 + kw * dilation_w;
              const int32_t tap = row + kw * cin;
              dot.Run(p.input + (n * in_sn + ih * in_sh + iw * in_sw), w[0] + tap, w[1] + tap,
                      w[2] + tap, w[3] + tap, cin);
            }
          }
          int32x4_t acc = Lanes(dot.a0, dot.a1, dot.a2, dot.a3);
          if (whole_row && kh0 == 0 && kh1 == kernel_h) {
            acc = vaddq_s32(acc, interior);
          } else {
            // A border pixel: the zero padding adds nothing, so only the
            // inside taps' weights meet the offset.
            int32x4_t sums = zero;
            for (int32_t kh = kh0; kh < kh1; ++kh) {
              for (int32_t kw = kw0; kw < kw1; ++kw) {
                const int32_t tap = kh * row_len + kw * cin;
                const int8_t* wt[kLanes] = {w[0] + tap, w[1] + tap, w[2] + tap, w[3] + tap};
                sums = vaddq_s32(sums, WeightSums(wt, cin));
              }
            }
            acc = vaddq_s32(acc, vmlaq_n_s32(bias, sums, offset));
          }
          vst1q_s32(tile + i * kLanes, acc);
        }
        FlushTile<kTail>(p, r, tile, m, zero,
                         p.output + (n * out_sn + oh * out_sh + ow0 * out_sw + c0), out_sw, c0,
                         count);
      }
    }
  }
}

// Four int8 values widened to int32 lanes; only the first `lanes` read in
// a channel block's tail.
template <bool kTail>
int32x4_t Load4(const int8_t* p, mve_pred16_t lanes) {
  if (kTail) return vldrbq_z_s32(p, lanes);
  return vldrbq_s32(p);
}

// The geometry of one depthwise call, in element steps.
struct DepthwiseGeometry {
  int32_t kernel_h, kernel_w;
  int32_t x_row, x_col;  // input steps between the kernel's rows, columns
  int32_t w_row, w_col;  // weight steps likewise (1HWO)
};

// The kernel's largest size with its weights held per channel block (3x3:
// MobileNet's); larger kernels read them from memory.
constexpr int32_t kHeldTaps = 9;

// One block of four channels (fewer with kTail) over every output pixel.
// kFixed: the kernel is 3x3, its interior loop unrolled with the weights
// held.
template <bool kTail, bool kFixed>
void DepthwiseBlock(const ConvParams& p, const DepthwiseGeometry& g, int32_t c0, int32_t count) {
  const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
  const RequantLanes r = ChannelLanes(p, c0, lanes);
  const int8_t* w = p.weight + c0;
  const int32x4_t bias = p.bias != nullptr ? vldrwq_z_s32(p.bias + c0, lanes) : vdupq_n_s32(0);
  const int32_t offset = p.input_offset;
  const int32_t taps = g.kernel_h * g.kernel_w;
  int32x4_t held[kHeldTaps];
  int32x4_t all_taps = vdupq_n_s32(0);
  for (int32_t t = 0; t < taps; ++t) {
    const int32x4_t wv = Load4<kTail>(w + t * g.w_col, lanes);
    if (kFixed) held[t] = wv;
    all_taps = vaddq_s32(all_taps, wv);
  }
  // bias + offset * sum(w): what every interior pixel adds.
  const int32x4_t interior = vmlaq_n_s32(bias, all_taps, offset);
  const int32x4_t zero = vdupq_n_s32(0);
  const int32_t out_h = p.out.h, out_w = p.out.w, in_h = p.in.h, in_w = p.in.w;
  const int32_t stride_h = p.stride_h, stride_w = p.stride_w, pad_h = p.pad_h, pad_w = p.pad_w;
  const int32_t dilation_h = p.dilation_h, dilation_w = p.dilation_w;
  const int32_t in_sn = static_cast<int32_t>(p.in.sn), in_sh = static_cast<int32_t>(p.in.sh),
                in_sw = static_cast<int32_t>(p.in.sw);
  const int32_t out_sn = static_cast<int32_t>(p.out.sn), out_sh = static_cast<int32_t>(p.out.sh),
                out_sw = static_cast<int32_t>(p.out.sw);
  const int8_t* input = p.input + c0;
  int32_t tile[kTile * kLanes];
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oh = 0; oh < out_h; ++oh) {
      int32_t kh0, kh1;
      ValidTaps(oh, stride_h, pad_h, dilation_h, g.kernel_h, in_h, &kh0, &kh1);
      const int32_t ih0 = oh * stride_h - pad_h + kh0 * dilation_h;  // first inside row
      for (int32_t ow0 = 0; ow0 < out_w; ow0 += kTile) {
        const int32_t m = out_w - ow0 < kTile ? out_w - ow0 : kTile;
        for (int32_t i = 0; i < m; ++i) {
          const int32_t ow = ow0 + i;
          int32_t kw0, kw1;
          ValidTaps(ow, stride_w, pad_w, dilation_w, g.kernel_w, in_w, &kw0, &kw1);
          const int32_t iw0 = ow * stride_w - pad_w + kw0 * dilation_w;
          const int8_t* x = input + (n * in_sn + ih0 * in_sh + iw0 * in_sw);
          int32x4_t acc;
          if (kh1 - kh0 == g.kernel_h && kw1 - kw0 == g.kernel_w) {
            acc = interior;
            if (kFixed) {
#pragma GCC unroll 3
              for (int32_t kh = 0; kh < 3; ++kh) {
#pragma GCC unroll 3
                for (int32_t kw = 0; kw < 3; ++kw) {
                  acc =
                      vaddq_s32(acc, vmulq_s32(Load4<kTail>(x + kh * g.x_row + kw * g.x_col, lanes),
                                               held[kh * 3 + kw]));
                }
              }
            } else {
              for (int32_t kh = 0; kh < g.kernel_h; ++kh) {
                for (int32_t kw = 0; kw < g.kernel_w; ++kw) {
                  acc = vaddq_s32(acc,
                                  vmulq_s32(Load4<kTail>(x + kh * g.x_row + kw * g.x_col, lanes),
                                            Load4<kTail>(w + kh * g.w_row + kw * g.w_col, lanes)));
                }
              }
            }
          } else {
            // A border pixel: the zero padding adds nothing, so only the
            // inside taps' weights meet the offset.
            int32x4_t sums = zero;
            acc = bias;
            for (int32_t kh = kh0; kh < kh1; ++kh) {
              for (int32_t kw = kw0; kw < kw1; ++kw) {
                const int32x4_t wv = Load4<kTail>(w + kh * g.w_row + kw * g.w_col, lanes);
                const int8_t* xt = x + (kh - kh0) * g.x_row + (kw - kw0) * g.x_col;
                acc = vaddq_s32(acc, vmulq_s32(Load4<kTail>(xt, lanes), wv));
                sums = vaddq_s32(sums, wv);
              }
            }
            acc = vmlaq_n_s32(acc, sums, offset);
          }
          vst1q_s32(tile + i * kLanes, acc);
        }
        FlushTile<kTail>(p, r, tile, m, zero,
                         p.output + (n * out_sn + oh * out_sh + ow0 * out_sw + c0), out_sw, c0,
                         count);
      }
    }
  }
}

template <bool kFixed>
void Depthwise(const ConvParams& p, const DepthwiseGeometry& g) {
  const int32_t channels = p.out.c;
  int32_t c0 = 0;
  for (; c0 + kLanes <= channels; c0 += kLanes) DepthwiseBlock<false, kFixed>(p, g, c0, kLanes);
  if (c0 < channels) DepthwiseBlock<true, kFixed>(p, g, c0, channels - c0);
}

}  // namespace

bool ConvHelium(const ConvParams& p) {
  if (p.in.sc != 1 || p.out.sc != 1 || p.groups != 1 || p.in.c == 0 ||
      !VectorRequantizable(p.multipliers, p.out.c)) {
    return false;
  }
  const bool pointwise = p.kernel_h == 1 && p.kernel_w == 1 && p.stride_h == 1 && p.stride_w == 1 &&
                         p.pad_h == 0 && p.pad_w == 0 && DenseNhwc(p.in) && DenseNhwc(p.out);
  const int32_t channels = p.out.c;
  int32_t c0 = 0;
  for (; c0 + kLanes <= channels; c0 += kLanes) {
    if (pointwise) {
      PointwiseBlock<false>(p, c0, kLanes);
    } else {
      ConvBlock<false>(p, c0, kLanes);
    }
  }
  if (c0 < channels) {
    if (pointwise) {
      PointwiseBlock<true>(p, c0, channels - c0);
    } else {
      ConvBlock<true>(p, c0, channels - c0);
    }
  }
  return true;
}

bool DepthwiseConvHelium(const ConvParams& p) {
  if (p.in.sc != 1 || p.out.sc != 1 || p.depth_multiplier != 1 ||
      !VectorRequantizable(p.multipliers, p.out.c)) {
    return false;
  }
  const int32_t channels = p.out.c;
  DepthwiseGeometry g;
  g.kernel_h = p.kernel_h;
  g.kernel_w = p.kernel_w;
  g.x_row = static_cast<int32_t>(p.in.sh) * p.dilation_h;
  g.x_col = static_cast<int32_t>(p.in.sw) * p.dilation_w;
  g.w_row = p.kernel_w * channels;
  g.w_col = channels;
  if (g.kernel_h == 3 && g.kernel_w == 3) {
    Depthwise<true>(p, g);
  } else {
    Depthwise<false>(p, g);
  }
  return true;
}

#else  // no Helium: the caller runs the plain C arithmetic

bool ConvHelium(const ConvParams& /*p*/) { return false; }
bool DepthwiseConvHelium(const ConvParams& /*p*/) { return false; }

#endif

}  // namespace ethosu_sdk::kernels::cortex_m
