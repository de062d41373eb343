// DSP-extension arithmetic of the cortex_m:: convolution and depthwise
// convolution on the Cortex-M33 (dsp.h), for the passes' layout (channels
// innermost, dense pixels).
//
// Convolution: per output pixel, four output channels per pass; each kernel
// row's taps inside the input are one contiguous run of taps * C_in int8
// values in NHWC memory, as is the matching OHWI weight row, so each input
// word is loaded and widened once (SXTAB16 adds the input offset) for 16 MACs
// by eight SMLADs. 1x1 convolutions without padding are a GEMM with the
// channel blocks outermost and the input offset folded into per-channel
// weight sums, the inner loop in assembly (dsp::Dot4Words).
// Depthwise: four channels per word; the even and odd channels' lanes go
// through SMLABB/SMLATT into four sums held over every tap of the pixel.
// Sums are requantized by dsp::RequantizeFast (SMMULR). Bit-exact with
// conv_reference.cc.
#include <cstdint>

#include "cc/kernels/cortex_m/conv_params.h"
#include "cc/kernels/cortex_m/dsp.h"

namespace ethosu_sdk::kernels::cortex_m {

#ifdef ESDK_CORTEX_M_DSP
namespace {

constexpr int32_t kLanes = 4;  // output channels per pass: one int8 word
// Taps of one depthwise pixel listed up front (on the stack); larger kernels
// go to the plain C path.
constexpr int32_t kMaxTaps = 64;

int8_t Finish(const ConvParams& p, int32_t acc, int32_t oc) {
  const int32_t scaled = dsp::RequantizeFast(acc, p.multipliers[oc], p.shifts[oc]);
  return static_cast<int8_t>(
      Clamp(WrappingAdd(scaled, p.output_offset), p.activation_min, p.activation_max));
}

// Whether channels are innermost and pixels dense (a row of taps is one
// run) in input and output.
bool ChannelsLast(const ConvParams& p) {
  return p.in.sc == 1 && p.out.sc == 1 && p.in.sw == p.in.c && p.out.sw == p.out.c;
}

// The first and one-past-last kw whose column iw is inside the input
// (dilation 1).
void ColumnRange(const ConvParams& p, int32_t ow, int32_t* kw0, int32_t* kw1) {
  const int32_t iw0 = ow * p.stride_w - p.pad_w;
  *kw0 = iw0 < 0 ? -iw0 : 0;
  const int32_t end = p.in.w - iw0;
  *kw1 = end < p.kernel_w ? end : p.kernel_w;
}

// 1x1 without padding (MobileNet's pointwise layers): a GEMM, channel
// blocks outermost so each block's weight sums are taken once; the input
// offset is folded out (sum((x + o) * w) = sum(x * w) + o * sum(w), exact
// modulo 2^32) and Dot4Words does the words, C the last C_in % 4 bytes.
void Pointwise(const ConvParams& p) {
  const int32_t cin = p.in.c, cout = p.out.c, words = cin / 4;
  uint32_t wide_rows[dsp::kMaxWideWords * 8];
  for (int32_t oc = 0; oc < cout; oc += kLanes) {
    const int32_t count = cout - oc < kLanes ? cout - oc : kLanes;
    const int8_t* w = p.weight + static_cast<int64_t>(oc) * cin;
    uint32_t base[kLanes];  // bias + offset * sum(w), per channel of the block
    dsp::Requant requant[kLanes] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (int32_t j = 0; j < count; ++j) {
      requant[j] = dsp::Requant(p.multipliers[oc + j], p.shifts[oc + j]);
      base[j] =
          (p.bias != nullptr ? static_cast<uint32_t>(p.bias[oc + j]) : 0u) +
          static_cast<uint32_t>(p.input_offset) * static_cast<uint32_t>(dsp::Sum(w + j * cin, cin));
    }
    // A whole block's rows widened once for all its pixels (Dot4Wide).
    const bool wide = count == kLanes && words <= dsp::kMaxWideWords;
    if (wide) dsp::WidenRows4(w, cin, words, wide_rows);
    // Dense pixels (ChannelsLast): along a row the input moves stride_w
    // pixels and the output one per step.
    const int32_t x_step = p.stride_w * cin;
    for (int32_t n = 0; n < p.out.n; ++n) {
      for (int32_t oh = 0; oh < p.out.h; ++oh) {
        const int8_t* x = p.input + p.in.Offset(n, 0, oh * p.stride_h, 0);
        int8_t* out = p.output + p.out.Offset(n, oc, oh, 0);
        for (int32_t ow = 0; ow < p.out.w; ++ow, x += x_step, out += cout) {
          int32_t acc[kLanes] = {0, 0, 0, 0};
          if (count == kLanes) {
            if (wide) {
              dsp::Dot4Wide(x, wide_rows, words, acc);
            } else {
              dsp::Dot4Words(x, w, cin, words, acc);
            }
            for (int32_t i = 4 * words; i < cin; ++i) {
              for (int32_t j = 0; j < kLanes; ++j)
                acc[j] = static_cast<int32_t>(static_cast<uint32_t>(acc[j]) +
                                              static_cast<uint32_t>(x[i] * w[j * cin + i]));
            }
          } else {
            for (int32_t j = 0; j < count; ++j) acc[j] = dsp::Dot(x, w + j * cin, cin, 0, 0);
          }
          for (int32_t j = 0; j < count; ++j) {
            const int32_t sum = static_cast<int32_t>(static_cast<uint32_t>(acc[j]) + base[j]);
            out[j] = static_cast<int8_t>(Clamp(WrappingAdd(requant[j](sum), p.output_offset),
                                               p.activation_min, p.activation_max));
          }
        }
      }
    }
  }
}

// Small patches (kernel_h * kernel_w * C_in <= 64, not 1x1: MobileNet's
// 3x3x3 first layer, whose kernel rows are runs of only 9 bytes): each
// output pixel's patch is gathered into one row on the stack, its padding
// holding the input zero point (so it adds nothing and every pixel takes the
// whole kernel's bias + offset * sum(w)), and dotted with the weight rows
// widened once per call (dsp::WidenRows4, dsp::Dot4Wide): 16 MACs in 17
// instructions, against 9-byte runs widened per pixel and channel block.
constexpr int32_t kMaxPatchWords = 16;
constexpr int32_t kChunkBlocks = 16;  // channel blocks widened at a time

bool SmallPatch(const ConvParams& p) {
  const int32_t patch = p.kernel_h * p.kernel_w * p.in.c;
  return p.kernel_h * p.kernel_w > 1 && patch <= 4 * kMaxPatchWords && p.out.c % kLanes == 0 &&
         p.input_offset >= -127 && p.input_offset <= 128;
}

void SmallPatchConv(const ConvParams& p) {
  const int32_t cin = p.in.c, cout = p.out.c;
  const int32_t patch = p.kernel_h * p.kernel_w * cin;
  const int32_t words = (patch + 3) / 4;
  // Whole blocks of four channels per chunk, as many as the widened buffer holds.
  const int32_t blocks = cout / kLanes;
  int32_t chunk_blocks = dsp::kMaxWideWords / words;
  if (chunk_blocks > kChunkBlocks) chunk_blocks = kChunkBlocks;
  if (chunk_blocks > blocks) chunk_blocks = blocks;
  int32_t base[kChunkBlocks * kLanes];  // per channel: bias + offset * sum(w)
  uint32_t wide[dsp::kMaxWideWords * 8];
  // The patch row, zero past the patch so the last word's padding adds nothing.
  alignas(4) int8_t row[4 * kMaxPatchWords];
  // A weight row's last word, zero past the patch (read byte by byte: the
  // next row or the end of the tensor follows).
  alignas(4) int8_t last[kLanes][4];
  const int8_t pad_value = static_cast<int8_t>(-p.input_offset);
  for (int32_t b0 = 0; b0 < blocks; b0 += chunk_blocks) {
    const int32_t b1 = b0 + chunk_blocks < blocks ? b0 + chunk_blocks : blocks;
    for (int32_t b = b0; b < b1; ++b) {
      const int8_t* w = p.weight + static_cast<int64_t>(b) * kLanes * patch;
      uint32_t* dst = wide + (b - b0) * words * 8;
      for (int32_t j = 0; j < kLanes; ++j) {
        const int32_t oc = b * kLanes + j;
        base[(b - b0) * kLanes + j] =
            static_cast<int32_t>((p.bias != nullptr ? static_cast<uint32_t>(p.bias[oc]) : 0u) +
                                 static_cast<uint32_t>(p.input_offset) *
                                     static_cast<uint32_t>(dsp::Sum(w + j * patch, patch)));
      }
      dsp::WidenRows4(w, patch, patch / 4, dst);
      if (patch % 4 != 0) {
        for (int32_t j = 0; j < kLanes; ++j) {
          for (int32_t i = 0; i < 4; ++i) {
            const int32_t at = 4 * (patch / 4) + i;
            last[j][i] = at < patch ? w[j * patch + at] : 0;
          }
        }
        dsp::WidenRows4(&last[0][0], 4, 1, dst + (patch / 4) * 8);
      }
    }
    for (int32_t i = patch; i < 4 * words; ++i) row[i] = 0;
    for (int32_t n = 0; n < p.out.n; ++n) {
      for (int32_t oh = 0; oh < p.out.h; ++oh) {
        for (int32_t ow = 0; ow < p.out.w; ++ow) {
          int8_t* r = row;
          for (int32_t kh = 0; kh < p.kernel_h; ++kh) {
            const int32_t ih = oh * p.stride_h - p.pad_h + kh * p.dilation_h;
            for (int32_t kw = 0; kw < p.kernel_w; ++kw, r += cin) {
              const int32_t iw = ow * p.stride_w - p.pad_w + kw * p.dilation_w;
              if (ih < 0 || ih >= p.in.h || iw < 0 || iw >= p.in.w) {
                for (int32_t c = 0; c < cin; ++c) r[c] = pad_value;
              } else {
                const int8_t* x = p.input + p.in.Offset(n, 0, ih, iw);
                for (int32_t c = 0; c < cin; ++c) r[c] = x[c];
              }
            }
          }
          int8_t* out = p.output + p.out.Offset(n, 0, oh, ow);
          for (int32_t b = b0; b < b1; ++b) {
            // bias + offset * sum(w): at the borders the padding's zero
            // point cancels the outside taps' share.
            const int32_t* bb = base + (b - b0) * kLanes;
            int32_t acc[kLanes] = {bb[0], bb[1], bb[2], bb[3]};
            dsp::Dot4Wide(row, wide + (b - b0) * words * 8, words, acc);
            for (int32_t j = 0; j < kLanes; ++j)
              out[b * kLanes + j] = Finish(p, acc[j], b * kLanes + j);
          }
        }
      }
    }
  }
}

// 3x3 depthwise, one block of four channels over every output pixel: the
// block's nine weight words widened once (even and odd channels' int16
// pairs), each channel's requantization made once (dsp::Requant), and the
// interior pixels' nine taps in straight-line code from three row pointers.
// Per tap: one input word widened with the offset added (two SXTAB16) and
// four SMLABB/SMLATT. Border pixels take the taps inside the input.
void Depthwise3x3Block(const ConvParams& p, int32_t c) {
  const int32_t channels = p.out.c;
  uint32_t we[9], wo[9];
  for (int32_t t = 0; t < 9; ++t) {
    const uint32_t v = dsp::Load4(p.weight + t * channels + c);
    we[t] = dsp::Even(v);
    wo[t] = dsp::Odd(v);
  }
  const dsp::Requant r0(p.multipliers[c], p.shifts[c]), r1(p.multipliers[c + 1], p.shifts[c + 1]),
      r2(p.multipliers[c + 2], p.shifts[c + 2]), r3(p.multipliers[c + 3], p.shifts[c + 3]);
  int32_t bias[kLanes] = {0, 0, 0, 0};
  if (p.bias != nullptr) {
    for (int32_t j = 0; j < kLanes; ++j) bias[j] = p.bias[c + j];
  }
  const uint32_t pair = dsp::Pair(p.input_offset);
  const int32_t out_offset = p.output_offset, lo = p.activation_min, hi = p.activation_max;
  const int32_t in_h = p.in.h, in_w = p.in.w, out_h = p.out.h, out_w = p.out.w;
  const int32_t stride_h = p.stride_h, stride_w = p.stride_w, pad_h = p.pad_h, pad_w = p.pad_w;
  const int32_t dil_h = p.dilation_h, dil_w = p.dilation_w;
  // Channels innermost, pixels dense (ChannelsLast).
  const int32_t x_row = static_cast<int32_t>(p.in.sh) * dil_h, x_col = channels * dil_w;
  const int32_t x_step = channels * stride_w;
  const int32_t ow_lo = pad_w > 0 ? (pad_w + stride_w - 1) / stride_w : 0;
  const int32_t last_start = in_w - 1 - 2 * dil_w + pad_w;
  int32_t ow_hi = last_start >= 0 ? last_start / stride_w + 1 : 0;
  if (ow_hi > out_w) ow_hi = out_w;
  if (ow_hi < ow_lo) ow_hi = ow_lo;
  auto finish = [&](int8_t* out, int32_t a0, int32_t a1, int32_t a2, int32_t a3) {
    out[0] = static_cast<int8_t>(Clamp(WrappingAdd(r0(a0), out_offset), lo, hi));
    out[1] = static_cast<int8_t>(Clamp(WrappingAdd(r1(a1), out_offset), lo, hi));
    out[2] = static_cast<int8_t>(Clamp(WrappingAdd(r2(a2), out_offset), lo, hi));
    out[3] = static_cast<int8_t>(Clamp(WrappingAdd(r3(a3), out_offset), lo, hi));
  };
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oh = 0; oh < out_h; ++oh) {
      const int32_t ih0 = oh * stride_h - pad_h;
      const bool full = ih0 >= 0 && ih0 + 2 * dil_h < in_h;
      const int8_t* line = p.input + p.in.Offset(n, c, 0, 0) + static_cast<int64_t>(ih0) * p.in.sh;
      int8_t* out = p.output + p.out.Offset(n, c, oh, 0);
      for (int32_t ow = 0; ow < out_w; ++ow, out += channels) {
        if (full && ow >= ow_lo && ow < ow_hi) {
          const int8_t* x0 = line + (ow * stride_w - pad_w) * channels;
          const int8_t* x1 = x0 + x_row;
          const int8_t* x2 = x1 + x_row;
          int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
          for (; ow < ow_hi; ++ow, out += channels, x0 += x_step, x1 += x_step, x2 += x_step) {
            a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
            const int8_t* rows[3] = {x0, x1, x2};
#pragma GCC unroll 9
            for (int32_t t = 0; t < 9; ++t) {
              const uint32_t v = dsp::Load4(rows[t / 3] + (t % 3) * x_col);
              const uint32_t xe = dsp::EvenPlus(v, pair), xo = dsp::OddPlus(v, pair);
              a0 = dsp::Smlabb(xe, we[t], a0);
              a2 = dsp::Smlatt(xe, we[t], a2);
              a1 = dsp::Smlabb(xo, wo[t], a1);
              a3 = dsp::Smlatt(xo, wo[t], a3);
            }
            finish(out, a0, a1, a2, a3);
          }
          if (ow >= out_w) break;
        }
        int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
        const int32_t iw0 = ow * stride_w - pad_w;
        for (int32_t kh = 0; kh < 3; ++kh) {
          const int32_t ih = ih0 + kh * dil_h;
          if (ih < 0 || ih >= in_h) continue;
          for (int32_t kw = 0; kw < 3; ++kw) {
            const int32_t iw = iw0 + kw * dil_w;
            if (iw < 0 || iw >= in_w) continue;
            const uint32_t v = dsp::Load4(line + kh * x_row + iw * channels);
            const uint32_t xe = dsp::EvenPlus(v, pair), xo = dsp::OddPlus(v, pair);
            const int32_t t = kh * 3 + kw;
            a0 = dsp::Smlabb(xe, we[t], a0);
            a2 = dsp::Smlatt(xe, we[t], a2);
            a1 = dsp::Smlabb(xo, wo[t], a1);
            a3 = dsp::Smlatt(xo, wo[t], a3);
          }
        }
        finish(out, a0, a1, a2, a3);
      }
    }
  }
}

}  // namespace

bool ConvDsp(const ConvParams& p) {
  if (p.groups != 1 || p.dilation_w != 1 || !ChannelsLast(p)) return false;
  if (p.kernel_h == 1 && p.kernel_w == 1 && p.pad_h == 0 && p.pad_w == 0) {
    Pointwise(p);
    return true;
  }
  if (SmallPatch(p)) {
    SmallPatchConv(p);
    return true;
  }
  const int32_t cin = p.in.c, cout = p.out.c;
  const int64_t w_oc = static_cast<int64_t>(p.kernel_h) * p.kernel_w * cin;  // one OHWI filter
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oh = 0; oh < p.out.h; ++oh) {
      for (int32_t ow = 0; ow < p.out.w; ++ow) {
        int32_t kw0, kw1;
        ColumnRange(p, ow, &kw0, &kw1);
        const int32_t run = (kw1 - kw0) * cin;
        int8_t* out = p.output + p.out.Offset(n, 0, oh, ow);
        int32_t oc = 0;
        for (; oc < cout; oc += kLanes) {
          const int32_t count = cout - oc < kLanes ? cout - oc : kLanes;
          int32_t acc[kLanes];
          for (int32_t j = 0; j < kLanes; ++j)
            acc[j] = j < count && p.bias != nullptr ? p.bias[oc + j] : 0;
          if (run > 0) {
            for (int32_t kh = 0; kh < p.kernel_h; ++kh) {
              const int32_t ih = oh * p.stride_h - p.pad_h + kh * p.dilation_h;
              if (ih < 0 || ih >= p.in.h) continue;
              const int8_t* x = p.input + p.in.Offset(n, 0, ih, ow * p.stride_w - p.pad_w + kw0);
              const int8_t* w = p.weight + oc * w_oc + (kh * p.kernel_w + kw0) * cin;
              if (count == kLanes) {
                dsp::Dot4(x, w, w + w_oc, w + 2 * w_oc, w + 3 * w_oc, run, p.input_offset, acc);
              } else {
                for (int32_t j = 0; j < count; ++j)
                  acc[j] = dsp::Dot(x, w + j * w_oc, run, p.input_offset, acc[j]);
              }
            }
          }
          for (int32_t j = 0; j < count; ++j) out[oc + j] = Finish(p, acc[j], oc + j);
        }
      }
    }
  }
  return true;
}

bool DepthwiseConvDsp(const ConvParams& p) {
  if (p.depth_multiplier != 1 || !ChannelsLast(p) || p.kernel_h * p.kernel_w > kMaxTaps)
    return false;
  const int32_t channels = p.out.c;
  // 3x3 kernels: blocks of four channels first, then the rest below.
  int32_t first = 0;
  if (p.kernel_h == 3 && p.kernel_w == 3) {
    for (; first + kLanes <= channels; first += kLanes) Depthwise3x3Block(p, first);
    if (first == channels) return true;
  }
  const uint32_t pair = dsp::Pair(p.input_offset);
  int32_t x_at[kMaxTaps], w_at[kMaxTaps];  // per tap: input pixel, weight row offsets
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oh = 0; oh < p.out.h; ++oh) {
      for (int32_t ow = 0; ow < p.out.w; ++ow) {
        int32_t taps = 0;
        for (int32_t kh = 0; kh < p.kernel_h; ++kh) {
          const int32_t ih = oh * p.stride_h - p.pad_h + kh * p.dilation_h;
          if (ih < 0 || ih >= p.in.h) continue;
          for (int32_t kw = 0; kw < p.kernel_w; ++kw) {
            const int32_t iw = ow * p.stride_w - p.pad_w + kw * p.dilation_w;
            if (iw < 0 || iw >= p.in.w) continue;
            x_at[taps] = static_cast<int32_t>(p.in.Offset(n, 0, ih, iw));
            w_at[taps] = (kh * p.kernel_w + kw) * channels;
            ++taps;
          }
        }
        int8_t* out = p.output + p.out.Offset(n, 0, oh, ow);
        int32_t c = first;
        for (; c + kLanes <= channels; c += kLanes) {
          int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
          if (p.bias != nullptr) {
            a0 = p.bias[c];
            a1 = p.bias[c + 1];
            a2 = p.bias[c + 2];
            a3 = p.bias[c + 3];
          }
          for (int32_t t = 0; t < taps; ++t) {
            const uint32_t xv = dsp::Load4(p.input + x_at[t] + c);
            const uint32_t wv = dsp::Load4(p.weight + w_at[t] + c);
            const uint32_t xe = dsp::EvenPlus(xv, pair), xo = dsp::OddPlus(xv, pair);
            const uint32_t we = dsp::Even(wv), wo = dsp::Odd(wv);
            a0 = dsp::Smlabb(xe, we, a0);  // channel c
            a2 = dsp::Smlatt(xe, we, a2);  // c + 2
            a1 = dsp::Smlabb(xo, wo, a1);  // c + 1
            a3 = dsp::Smlatt(xo, wo, a3);  // c + 3
          }
          out[c] = Finish(p, a0, c);
          out[c + 1] = Finish(p, a1, c + 1);
          out[c + 2] = Finish(p, a2, c + 2);
          out[c + 3] = Finish(p, a3, c + 3);
        }
        for (; c < channels; ++c) {
          uint32_t acc = p.bias != nullptr ? static_cast<uint32_t>(p.bias[c]) : 0;
          for (int32_t t = 0; t < taps; ++t) {
            acc += static_cast<uint32_t>((p.input[x_at[t] + c] + p.input_offset) *
                                         p.weight[w_at[t] + c]);
          }
          out[c] = Finish(p, static_cast<int32_t>(acc), c);
        }
      }
    }
  }
  return true;
}

#else

bool ConvDsp(const ConvParams& /*p*/) { return false; }
bool DepthwiseConvDsp(const ConvParams& /*p*/) { return false; }

#endif

}  // namespace ethosu_sdk::kernels::cortex_m
