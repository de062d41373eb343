// Helium (MVE) arithmetic of the cortex_m:: convolution and depthwise
// convolution on Cortex-M55/M85, for the passes' layout (channels innermost).
//
// Convolution as a GEMM without im2col: per output pixel, four output
// channels per pass; each kernel row whose taps are all inside the input is
// one contiguous run of kernel_w * C_in int8 values in NHWC memory, and so
// is the matching OHWI weight row, so a run is read once and dotted with
// four weight rows by VMLADAVA (16 int8 MACs each). The input offset is
// folded out: sum((x + off) * w) = sum(x * w) + off * sum(w), the weight
// sums taken once per channel block (and per tap at the borders). Small
// patches (the 3-channel first layer) are gathered per pixel (im2col of a
// tile, in the operator's scratch tensor) so each pixel is one dot product. Depthwise: 3x3 on eight
// channels in int16 lanes (VMULLB/VMULLT into even and odd int32 sums), anything else on four
// channels in int32 lanes (VMUL, VADD: MVE has no vector-by-vector integer VMLA). The sums of a
// tile of pixels are then requantized four channels at once (requantize_helium.h) and stored with
// narrowing VSTRB.
#include <cstddef>
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

// The sizes and element steps of a convolution's input and output, in
// locals: the int8 output stores may alias anything, so fields read through
// `p` inside the loops would be read again after every store.
struct Frame {
  int32_t out_h, out_w, in_h, in_w;
  int32_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w;
  int32_t in_sn, in_sh, in_sw, out_sn, out_sh, out_sw;
};

Frame MakeFrame(const ConvParams& p) {
  return {p.out.h,
          p.out.w,
          p.in.h,
          p.in.w,
          p.stride_h,
          p.stride_w,
          p.pad_h,
          p.pad_w,
          p.dilation_h,
          p.dilation_w,
          static_cast<int32_t>(p.in.sn),
          static_cast<int32_t>(p.in.sh),
          static_cast<int32_t>(p.in.sw),
          static_cast<int32_t>(p.out.sn),
          static_cast<int32_t>(p.out.sh),
          static_cast<int32_t>(p.out.sw)};
}

// Calls pixel(i, x, kh0, kh1, kw0, kw1) for each output pixel of a tile of
// at most kTile pixels along an output row (x: the input offset of its first
// inside tap; [kh0, kh1) x [kw0, kw1): its inside taps), then flush(m,
// out) for the tile's m pixels (out: the first one's output offset).
template <typename Pixel, typename Flush>
void ForEachTile(const ConvParams& p, const Frame& f, int32_t kernel_h, int32_t kernel_w,
                 Pixel pixel, Flush flush) {
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oh = 0; oh < f.out_h; ++oh) {
      int32_t kh0, kh1;
      ValidTaps(oh, f.stride_h, f.pad_h, f.dilation_h, kernel_h, f.in_h, &kh0, &kh1);
      const int32_t ih0 = oh * f.stride_h - f.pad_h + kh0 * f.dilation_h;  // first inside row
      for (int32_t ow0 = 0; ow0 < f.out_w; ow0 += kTile) {
        const int32_t m = f.out_w - ow0 < kTile ? f.out_w - ow0 : kTile;
        for (int32_t i = 0; i < m; ++i) {
          const int32_t ow = ow0 + i;
          int32_t kw0, kw1;
          ValidTaps(ow, f.stride_w, f.pad_w, f.dilation_w, kernel_w, f.in_w, &kw0, &kw1);
          const int32_t iw0 = ow * f.stride_w - f.pad_w + kw0 * f.dilation_w;
          pixel(i, n * f.in_sn + ih0 * f.in_sh + iw0 * f.in_sw, kh0, kh1, kw0, kw1);
        }
        flush(m, n * f.out_sn + oh * f.out_sh + ow0 * f.out_sw);
      }
    }
  }
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
  const Frame f = MakeFrame(p);
  const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
  const RequantLanes r = ChannelLanes(p, c0, lanes);
  const int8_t* w[kLanes];
  ChannelRows(p, c0, count, per_channel, w);
  const int32x4_t bias = p.bias != nullptr ? vldrwq_z_s32(p.bias + c0, lanes) : vdupq_n_s32(0);
  // bias + offset * sum(w) over the whole kernel: what every interior pixel adds.
  const int32x4_t interior = vmlaq_n_s32(bias, WeightSums(w, per_channel), offset);
  // Steps between the kernel's rows and columns in the input.
  const int32_t x_row = f.in_sh * f.dilation_h, x_col = f.in_sw * f.dilation_w;
  int32_t tile[kTile * kLanes];
  ForEachTile(
      p, f, kernel_h, kernel_w,
      [&](int32_t i, int32_t x0, int32_t kh0, int32_t kh1, int32_t kw0, int32_t kw1) {
        const bool whole_row = kw0 == 0 && kw1 == kernel_w;
        Dot4 dot;
        for (int32_t kh = kh0; kh < kh1; ++kh) {
          const int8_t* x = p.input + (x0 + (kh - kh0) * x_row);
          const int32_t row = kh * row_len;
          if (whole_row && rows_contiguous) {
            dot.Run(x, w[0] + row, w[1] + row, w[2] + row, w[3] + row, row_len);
            continue;
          }
          for (int32_t kw = kw0; kw < kw1; ++kw) {
            const int32_t tap = row + kw * cin;
            dot.Run(x + (kw - kw0) * x_col, w[0] + tap, w[1] + tap, w[2] + tap, w[3] + tap, cin);
          }
        }
        int32x4_t acc = Lanes(dot.a0, dot.a1, dot.a2, dot.a3);
        if (whole_row && kh0 == 0 && kh1 == kernel_h) {
          acc = vaddq_s32(acc, interior);
        } else {
          // A border pixel: the zero padding adds nothing, so only the
          // inside taps' weights meet the offset.
          int32x4_t sums = vdupq_n_s32(0);
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
      },
      [&](int32_t m, int32_t out) {
        FlushTile<kTail>(p, r, tile, m, vdupq_n_s32(0), p.output + (out + c0), f.out_sw, c0, count);
      });
}

// Kernels whose whole patch (kernel_h * kernel_w * C_in) is this small
// (MobileNet's first layer: 3x3x3) gather each output pixel's patch into a
// row of their own (im2col for a tile of pixels): one dot product per
// pixel instead of a short run per kernel row. The rows are the operator's
// scratch tensor, which ExecuTorch's passes size for CMSIS-NN's im2col
// (at least one patch for every convolution that is not 1x1; four on
// Cortex-M55 in general): planned memory, not a stack frame of kTile rows.
constexpr int32_t kMaxPatch = 64;

// The patch's padding holds the input zero point (-input_offset), which
// adds (zp + offset) * w = 0, as the zero padding does: every pixel then
// takes the whole kernel's weight sum. A 1x1 kernel's patch is already one
// contiguous run: ConvBlock takes it, with no scratch (CMSIS-NN's 1x1
// kernels have none, so the passes give none).
bool PatchFits(const ConvParams& p) {
  return p.kernel_h * p.kernel_w > 1 && p.kernel_h * p.kernel_w * p.in.c <= kMaxPatch &&
         p.input_offset >= -127 && p.input_offset <= 128;
}

bool Takes(const ConvParams& p) {
  return p.in.sc == 1 && p.out.sc == 1 && p.groups == 1 && p.in.c != 0 &&
         VectorRequantizable(p.multipliers, p.out.c);
}

bool Pointwise(const ConvParams& p) {
  return p.kernel_h == 1 && p.kernel_w == 1 && p.stride_h == 1 && p.stride_w == 1 && p.pad_h == 0 &&
         p.pad_w == 0 && DenseNhwc(p.in) && DenseNhwc(p.out);
}

// Output channels whose bias + offset * sum(w) PatchConv keeps for every
// pixel (on the stack: 256 B), so a few im2col rows cost no weight sums per
// pixel group; more channels are done in chunks of this many, each
// gathering the patches again.
constexpr int32_t kChunkChannels = 64;

void PatchConv(const ConvParams& p) {
  const int32_t cin = p.in.c, cout = p.out.c;
  const int32_t kernel_h = p.kernel_h, kernel_w = p.kernel_w;
  const int32_t patch = kernel_h * kernel_w * cin;
  // As many rows as the scratch holds, up to a tile (the glue checked one).
  const int64_t held = p.scratch_bytes / patch;
  const int32_t rows = held < kTile ? static_cast<int32_t>(held) : kTile;
  int8_t* const patches = reinterpret_cast<int8_t*>(p.scratch);
  const int8_t pad_value = static_cast<int8_t>(-p.input_offset);
  const int32_t in_sn = static_cast<int32_t>(p.in.sn), in_sh = static_cast<int32_t>(p.in.sh),
                in_sw = static_cast<int32_t>(p.in.sw);
  const int32_t out_sn = static_cast<int32_t>(p.out.sn), out_sh = static_cast<int32_t>(p.out.sh),
                out_sw = static_cast<int32_t>(p.out.sw);
  int32_t tile[kTile * kLanes];
  int32_t bases[kChunkChannels];
  for (int32_t chunk = 0; chunk < cout; chunk += kChunkChannels) {
    const int32_t chunk_end = cout - chunk < kChunkChannels ? cout : chunk + kChunkChannels;
    for (int32_t c0 = chunk; c0 < chunk_end; c0 += kLanes) {
      const int32_t count = chunk_end - c0 < kLanes ? chunk_end - c0 : kLanes;
      const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
      const int8_t* w[kLanes];
      ChannelRows(p, c0, count, patch, w);
      const int32x4_t bias = p.bias != nullptr ? vldrwq_z_s32(p.bias + c0, lanes) : vdupq_n_s32(0);
      vstrwq_p_s32(bases + (c0 - chunk), vmlaq_n_s32(bias, WeightSums(w, patch), p.input_offset),
                   lanes);
    }
    for (int32_t n = 0; n < p.out.n; ++n) {
      for (int32_t oh = 0; oh < p.out.h; ++oh) {
        for (int32_t ow0 = 0; ow0 < p.out.w; ow0 += rows) {
          const int32_t m = p.out.w - ow0 < rows ? p.out.w - ow0 : rows;
          for (int32_t i = 0; i < m; ++i) {
            int8_t* row = patches + i * patch;
            for (int32_t kh = 0; kh < kernel_h; ++kh) {
              const int32_t ih = (oh * p.stride_h) - p.pad_h + kh * p.dilation_h;
              for (int32_t kw = 0; kw < kernel_w; ++kw, row += cin) {
                const int32_t iw = (ow0 + i) * p.stride_w - p.pad_w + kw * p.dilation_w;
                if (ih < 0 || ih >= p.in.h || iw < 0 || iw >= p.in.w) {
                  for (int32_t c = 0; c < cin; ++c) row[c] = pad_value;
                } else {
                  const int8_t* x = p.input + (n * in_sn + ih * in_sh + iw * in_sw);
                  for (int32_t c = 0; c < cin; ++c) row[c] = x[c];
                }
              }
            }
          }
          int8_t* out = p.output + (n * out_sn + oh * out_sh + ow0 * out_sw);
          for (int32_t c0 = chunk; c0 < chunk_end; c0 += kLanes) {
            const int32_t count = chunk_end - c0 < kLanes ? chunk_end - c0 : kLanes;
            const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
            const RequantLanes r = ChannelLanes(p, c0, lanes);
            const int8_t* w[kLanes];
            ChannelRows(p, c0, count, patch, w);
            const int32x4_t base = vldrwq_z_s32(bases + (c0 - chunk), lanes);
            for (int32_t i = 0; i < m; ++i) {
              Dot4 dot;
              dot.Run(patches + i * patch, w[0], w[1], w[2], w[3], patch);
              dot.Save(tile + i * kLanes);
            }
            if (count == kLanes) {
              FlushTile<false>(p, r, tile, m, base, out + c0, out_sw, c0, count);
            } else {
              FlushTile<true>(p, r, tile, m, base, out + c0, out_sw, c0, count);
            }
          }
        }
      }
    }
  }
}

// Patches of at most two vectors (MobileNet's first layer: 3x3x3 = 27
// bytes): per output pixel the patch is gathered into one row of the
// scratch and held in two Q registers, and every output channel is one dot
// product with it (two VMLADAVs); four channels are then requantized per
// vector. The channels' constants (bias + offset * sum(w), the
// requantization's lanes) are laid out once per chunk of channels, so the
// pixel loop only loads them.
constexpr int32_t kMaxRowPatch = 2 * kBytes;

// One pixel's dot products and requantization for `blocks` whole blocks of
// four output channels in a row (right shifts only, every weight row
// followed by at least 16 more bytes of weights): the pixel's patch (one or,
// with `two`, two vectors at xv), each block's weight rows from wb on, its
// constants at k (per block bias + offset * sum(w), multiplier, VRSHL's
// right shift, the rounding fix-up: 64 bytes), the activation limits'
// vectors at lohi. In assembly because GCC 14 recomputes the rows' addresses
// and the constants' layout in every block: about 95 instructions per block
// against 45 here (two vectors) or 37 (one).
inline void RowBlocks(const int8_t* xv, const int8_t* wb, int32_t patch, const int32_t* k,
                      const int32_t* lohi, int8_t* out, int32_t blocks, int32_t out_offset,
                      bool two) {
  if (blocks <= 0) return;
  int32_t s0, s1, s2, s3;
  const int8_t* t;
#define ESDK_ROW_REQUANT              \
  "vmov q3[2], q3[0], %[s0], %[s2]\n" \
  "vmov q3[3], q3[1], %[s1], %[s3]\n" \
  "vldrw.u32 q2, [%[k]]\n"            \
  "vadd.i32 q3, q3, q2\n"             \
  "vldrw.u32 q2, [%[k], #16]\n"       \
  "vqrdmulh.s32 q3, q3, q2\n"         \
  "vldrw.u32 q2, [%[k], #48]\n"       \
  "vshr.s32 q4, q3, #31\n"            \
  "vand q4, q4, q2\n"                 \
  "vqadd.s32 q3, q3, q4\n"            \
  "vldrw.u32 q2, [%[k], #32]\n"       \
  "vrshl.s32 q3, q3, q2\n"            \
  "vadd.i32 q3, q3, %[off]\n"         \
  "vmax.s32 q3, q3, q6\n"             \
  "vmin.s32 q3, q3, q7\n"             \
  "vstrb.32 q3, [%[out]], #4\n"       \
  "adds %[k], %[k], #64\n"            \
  "subs %[n], %[n], #1\n"             \
  "bne 1b\n"
  if (two) {
    __asm volatile(
        "vldrb.u8 q0, [%[xv]]\n"
        "vldrb.u8 q1, [%[xv], #16]\n"
        "vldrw.u32 q6, [%[lohi]]\n"
        "vldrw.u32 q7, [%[lohi], #16]\n"
        "1:\n"
        "vldrb.u8 q2, [%[wb]]\n"
        "vmlav.s8 %[s0], q0, q2\n"
        "vldrb.u8 q2, [%[wb], #16]\n"
        "vmlava.s8 %[s0], q1, q2\n"
        "add %[t], %[wb], %[patch]\n"
        "vldrb.u8 q2, [%[t]]\n"
        "vmlav.s8 %[s1], q0, q2\n"
        "vldrb.u8 q2, [%[t], #16]\n"
        "vmlava.s8 %[s1], q1, q2\n"
        "add %[t], %[t], %[patch]\n"
        "vldrb.u8 q2, [%[t]]\n"
        "vmlav.s8 %[s2], q0, q2\n"
        "vldrb.u8 q2, [%[t], #16]\n"
        "vmlava.s8 %[s2], q1, q2\n"
        "add %[t], %[t], %[patch]\n"
        "vldrb.u8 q2, [%[t]]\n"
        "vmlav.s8 %[s3], q0, q2\n"
        "vldrb.u8 q2, [%[t], #16]\n"
        "vmlava.s8 %[s3], q1, q2\n"
        "add %[wb], %[t], %[patch]\n" ESDK_ROW_REQUANT
        : [wb] "+r"(wb), [k] "+r"(k), [out] "+r"(out), [n] "+r"(blocks), [t] "=&r"(t),
          [s0] "=&Te"(s0), [s1] "=&Te"(s1), [s2] "=&Te"(s2), [s3] "=&Te"(s3)
        : [xv] "r"(xv), [lohi] "r"(lohi), [patch] "r"(patch), [off] "r"(out_offset)
        : "cc", "memory", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d12", "d13",
          "d14", "d15");
  } else {
    __asm volatile(
        "vldrb.u8 q0, [%[xv]]\n"
        "vldrw.u32 q6, [%[lohi]]\n"
        "vldrw.u32 q7, [%[lohi], #16]\n"
        "1:\n"
        "vldrb.u8 q2, [%[wb]]\n"
        "vmlav.s8 %[s0], q0, q2\n"
        "add %[t], %[wb], %[patch]\n"
        "vldrb.u8 q2, [%[t]]\n"
        "vmlav.s8 %[s1], q0, q2\n"
        "add %[t], %[t], %[patch]\n"
        "vldrb.u8 q2, [%[t]]\n"
        "vmlav.s8 %[s2], q0, q2\n"
        "add %[t], %[t], %[patch]\n"
        "vldrb.u8 q2, [%[t]]\n"
        "vmlav.s8 %[s3], q0, q2\n"
        "add %[wb], %[t], %[patch]\n" ESDK_ROW_REQUANT
        : [wb] "+r"(wb), [k] "+r"(k), [out] "+r"(out), [n] "+r"(blocks), [t] "=&r"(t),
          [s0] "=&Te"(s0), [s1] "=&Te"(s1), [s2] "=&Te"(s2), [s3] "=&Te"(s3)
        : [xv] "r"(xv), [lohi] "r"(lohi), [patch] "r"(patch), [off] "r"(out_offset)
        : "cc", "memory", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d12", "d13",
          "d14", "d15");
  }
#undef ESDK_ROW_REQUANT
}

// `direct`: a 1x1 convolution over dense pixels of 8 to 32 channels,
// whose patch is the pixel itself, loaded straight from the input (lanes
// past C_in zero): the same loop, without the gathering.
void RowPatchConv(const ConvParams& p, bool direct) {
  const int32_t cin = p.in.c, cout = p.out.c;
  const int32_t kernel_h = p.kernel_h, kernel_w = p.kernel_w;
  const int32_t patch = kernel_h * kernel_w * cin;
  const bool two = patch > kBytes;  // a second vector
  const mve_pred16_t first = vctp8q(static_cast<uint32_t>(patch));
  const int32_t run = kernel_w * cin;  // one kernel row's taps
  // The patch row, on the stack: a kernel row is copied by one whole-vector
  // store (its lanes past the run zero; the next row's store overwrites
  // them), so it needs a vector of slack; the lanes past the patch stay
  // zero, which lets the second vector's weights run into the next channel.
  alignas(16) int8_t row[kMaxRowPatch + kBytes];
  // Zero first: the rows' stores need not reach the end of the second vector.
  for (int32_t i = 0; i < kMaxRowPatch + kBytes; i += kBytes) vst1q_s8(row + i, vdupq_n_s8(0));
  const int8_t pad_value = static_cast<int8_t>(-p.input_offset);
  const Frame f = MakeFrame(p);
  const mve_pred16_t run_lanes = vctp8q(static_cast<uint32_t>(run));
  const mve_pred16_t tail = vctp8q(static_cast<uint32_t>(two ? patch - kBytes : 0));
  // A kernel row is one contiguous run of input when pixels are dense.
  const bool dense = f.in_sw == cin && f.dilation_w == 1 && run <= kBytes;
  const int32_t out_offset = p.output_offset, lo = p.activation_min, hi = p.activation_max;
  // Per chunk of channels: bias + offset * sum(w), and the requantization's
  // multiplier, left shift, right shift and rounding fix-up.
  int32_t base[kChunkChannels], mult[kChunkChannels], left[kChunkChannels],
      right_neg[kChunkChannels], round_fix[kChunkChannels];
  // The same per block of four, interleaved for RowBlocks, and the limits.
  alignas(16) int32_t blk[kChunkChannels * 4];
  alignas(16) int32_t lohi[8];
  alignas(16) int8_t xv[2 * kBytes];
  vst1q_s32(lohi, vdupq_n_s32(p.activation_min));
  vst1q_s32(lohi + 4, vdupq_n_s32(p.activation_max));
  for (int32_t chunk = 0; chunk < cout; chunk += kChunkChannels) {
    const int32_t chunk_end = cout - chunk < kChunkChannels ? cout : chunk + kChunkChannels;
    bool left_shifts = false;
    for (int32_t c0 = chunk; c0 < chunk_end; c0 += kLanes) {
      const int32_t count = chunk_end - c0 < kLanes ? chunk_end - c0 : kLanes;
      const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
      const int8_t* w[kLanes];
      ChannelRows(p, c0, count, patch, w);
      const int32x4_t bias = p.bias != nullptr ? vldrwq_z_s32(p.bias + c0, lanes) : vdupq_n_s32(0);
      const int32_t at = c0 - chunk;
      vst1q_s32(base + at, vmlaq_n_s32(bias, WeightSums(w, patch), p.input_offset));
      const RequantLanes r = ChannelLanes(p, c0, lanes);
      vst1q_s32(mult + at, r.multiplier);
      vst1q_s32(left + at, r.left);
      vst1q_s32(right_neg + at, r.right_neg);
      vst1q_s32(round_fix + at, r.round_fix);
      vst1q_s32(blk + 4 * at, vld1q_s32(base + at));
      vst1q_s32(blk + 4 * at + 4, r.multiplier);
      vst1q_s32(blk + 4 * at + 8, r.right_neg);
      vst1q_s32(blk + 4 * at + 12, r.round_fix);
      left_shifts = left_shifts || r.left_shifts;
    }
    for (int32_t n = 0; n < p.out.n; ++n) {
      for (int32_t oh = 0; oh < f.out_h; ++oh) {
        const int32_t ih0 = oh * f.stride_h - f.pad_h;
        const bool rows_inside = ih0 >= 0 && ih0 + (kernel_h - 1) * f.dilation_h < f.in_h;
        for (int32_t ow = 0; ow < f.out_w; ++ow) {
          int8x16_t x0, x1;
          if (direct) {
            const int8_t* x = p.input + (n * f.in_sn + oh * f.in_sh + ow * f.in_sw);
            x0 = vldrbq_z_s8(x, first);
            x1 = vldrbq_z_s8(x + kBytes, tail);
          } else {
            // The patch, its padding holding the input zero point (adds nothing).
            const int32_t iw0 = ow * f.stride_w - f.pad_w;
            if (dense && rows_inside && iw0 >= 0 && iw0 + kernel_w <= f.in_w) {
              const int8_t* x = p.input + (n * f.in_sn + ih0 * f.in_sh + iw0 * f.in_sw);
              for (int32_t kh = 0; kh < kernel_h; ++kh)
                vst1q_s8(row + kh * run, vldrbq_z_s8(x + kh * f.dilation_h * f.in_sh, run_lanes));
            } else {
              int8_t* r = row;
              for (int32_t kh = 0; kh < kernel_h; ++kh) {
                const int32_t ih = ih0 + kh * f.dilation_h;
                const bool row_inside = ih >= 0 && ih < f.in_h;
                const int8_t* x = p.input + (n * f.in_sn + ih * f.in_sh);
                for (int32_t kw = 0; kw < kernel_w; ++kw, r += cin) {
                  const int32_t iw = iw0 + kw * f.dilation_w;
                  const bool inside = row_inside && iw >= 0 && iw < f.in_w;
                  for (int32_t c = 0; c < cin; ++c) r[c] = inside ? x[iw * f.in_sw + c] : pad_value;
                }
              }
              vst1q_s8(row + patch, vdupq_n_s8(0));
            }
            x0 = vld1q_s8(row);
            x1 = vld1q_s8(row + kBytes);  // zero past the patch
          }
          int8_t* out = p.output + (n * f.out_sn + oh * f.out_sh + ow * f.out_sw);
          const int8_t* wb = p.weight + static_cast<int64_t>(chunk) * patch;
          int32_t c0 = chunk;
          if (!left_shifts) {
            // Whole blocks followed by another channel's weights (a row
            // read past its end runs into them): the assembly loop.
            const int32_t fast_end = chunk_end < cout ? chunk_end : cout - kLanes;
            const int32_t blocks = fast_end > chunk ? (fast_end - chunk) / kLanes : 0;
            vst1q_s8(xv, x0);
            vst1q_s8(xv + kBytes, x1);
            RowBlocks(xv, wb, patch, blk, lohi, out + chunk, blocks, out_offset, two);
            c0 += blocks * kLanes;
            wb += blocks * kLanes * patch;
          }
          for (; c0 < chunk_end; c0 += kLanes, wb += kLanes * patch) {
            const int32_t count = chunk_end - c0 < kLanes ? chunk_end - c0 : kLanes;
            alignas(16) int32_t s[kLanes];
            if (!two && c0 + kLanes < cout) {
              // One whole vector, which may run into the next channel's
              // weights: they meet the zero lanes of x0.
              s[0] = vmladavq_s8(x0, vldrbq_s8(wb));
              s[1] = vmladavq_s8(x0, vldrbq_s8(wb + patch));
              s[2] = vmladavq_s8(x0, vldrbq_s8(wb + 2 * patch));
              s[3] = vmladavq_s8(x0, vldrbq_s8(wb + 3 * patch));
            } else if (c0 + kLanes < cout) {
              // Whole vectors: the second may run into the next channel's
              // weights, which meet the zero lanes of x1.
              const int8_t* w1 = wb + patch;
              const int8_t* w2 = wb + 2 * patch;
              const int8_t* w3 = wb + 3 * patch;
              s[0] = vmladavaq_s8(vmladavq_s8(x0, vldrbq_s8(wb)), x1, vldrbq_s8(wb + kBytes));
              s[1] = vmladavaq_s8(vmladavq_s8(x0, vldrbq_s8(w1)), x1, vldrbq_s8(w1 + kBytes));
              s[2] = vmladavaq_s8(vmladavq_s8(x0, vldrbq_s8(w2)), x1, vldrbq_s8(w2 + kBytes));
              s[3] = vmladavaq_s8(vmladavq_s8(x0, vldrbq_s8(w3)), x1, vldrbq_s8(w3 + kBytes));
            } else {
              const int8_t* w[kLanes];
              ChannelRows(p, c0, count, patch, w);
              for (int32_t j = 0; j < kLanes; ++j)
                s[j] = vmladavaq_s8(vmladavq_s8(x0, vldrbq_z_s8(w[j], first)), x1,
                                    vldrbq_z_s8(w[j] + kBytes, tail));
            }
            const int32_t at = c0 - chunk;
            const int32x4_t acc = vaddq_s32(vld1q_s32(s), vld1q_s32(base + at));
            RequantLanes rl;
            rl.multiplier = vld1q_s32(mult + at);
            rl.left = vld1q_s32(left + at);
            rl.right_neg = vld1q_s32(right_neg + at);
            rl.round_fix = vld1q_s32(round_fix + at);
            rl.output_offset = out_offset;
            rl.lo = lo;
            rl.hi = hi;
            rl.left_shifts = left_shifts;
            if (!LeftShiftExact(acc, rl)) {
              int32_t sums[kLanes];
              vst1q_s32(sums, acc);
              for (int32_t j = 0; j < count; ++j) out[c0 + j] = FinishConv(p, sums[j], c0 + j);
            } else if (count == kLanes) {
              vstrbq_s32(out + c0, RequantizeLanes(acc, rl));
            } else {
              vstrbq_p_s32(out + c0, RequantizeLanes(acc, rl),
                           vctp32q(static_cast<uint32_t>(count)));
            }
          }
        }
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

// The taps of a 3x3 kernel, whose weights DepthwisePairBlock holds per
// channel block.
constexpr int32_t kHeldTaps = 9;

// One block of four channels (fewer with kTail) over every output pixel:
// any kernel (3x3 blocks of eight channels take DepthwisePairBlock).
template <bool kTail>
void DepthwiseBlock(const ConvParams& p, const DepthwiseGeometry& g, int32_t c0, int32_t count) {
  const mve_pred16_t lanes = vctp32q(static_cast<uint32_t>(count));
  const RequantLanes r = ChannelLanes(p, c0, lanes);
  const int8_t* w = p.weight + c0;
  const int32x4_t bias = p.bias != nullptr ? vldrwq_z_s32(p.bias + c0, lanes) : vdupq_n_s32(0);
  const int32_t offset = p.input_offset;
  int32x4_t all_taps = vdupq_n_s32(0);
  for (int32_t t = 0; t < g.kernel_h * g.kernel_w; ++t)
    all_taps = vaddq_s32(all_taps, Load4<kTail>(w + t * g.w_col, lanes));
  // bias + offset * sum(w): what every interior pixel adds.
  const int32x4_t interior = vmlaq_n_s32(bias, all_taps, offset);
  const int8_t* input = p.input + c0;
  int32_t tile[kTile * kLanes];
  ForEachTile(
      p, MakeFrame(p), g.kernel_h, g.kernel_w,
      [&](int32_t i, int32_t x0, int32_t kh0, int32_t kh1, int32_t kw0, int32_t kw1) {
        const int8_t* x = input + x0;
        // Inside the input: the whole kernel's offset term; at a border only
        // the inside taps' weights meet the offset (the padding adds nothing).
        const bool inside = kh1 - kh0 == g.kernel_h && kw1 - kw0 == g.kernel_w;
        int32x4_t acc = inside ? interior : bias;
        int32x4_t sums = vdupq_n_s32(0);
        for (int32_t kh = kh0; kh < kh1; ++kh) {
          for (int32_t kw = kw0; kw < kw1; ++kw) {
            const int32x4_t wv = Load4<kTail>(w + kh * g.w_row + kw * g.w_col, lanes);
            const int8_t* xt = x + (kh - kh0) * g.x_row + (kw - kw0) * g.x_col;
            acc = vaddq_s32(acc, vmulq_s32(Load4<kTail>(xt, lanes), wv));
            sums = vaddq_s32(sums, wv);
          }
        }
        if (!inside) acc = vmlaq_n_s32(acc, sums, offset);
        vst1q_s32(tile + i * kLanes, acc);
      },
      [&](int32_t m, int32_t out) {
        FlushTile<kTail>(p, r, tile, m, vdupq_n_s32(0), p.output + (out + c0),
                         static_cast<int32_t>(p.out.sw), c0, count);
      });
}

// Eight channels per block, for 3x3 kernels: int8 loaded into eight int16
// lanes, VMULLB/VMULLT multiplying the even and the odd channels into two
// int32 accumulators (|x * w| <= 2^14 fits int16's operands; the sums are
// int32). One tap then costs a load and two multiply-adds for eight
// channels instead of four. Each pixel is requantized as soon as it is
// summed and its two parities narrowed back into channel order
// (VQMOVNB/VQMOVNT), clamped once in int16 lanes and stored by one VSTRB:
// no tile of sums, no scatter stores. Rows and columns whose 3x3 window is
// inside the input take a straight-line path with the input offset folded
// into the bias (sum((x + o) * w) = sum(x * w) + o * sum(w)); border pixels
// add the offset to their inside taps instead, so the padding adds nothing.
constexpr int32_t kPairLanes = 8;

// One parity's requantization constants: those of RequantizeLanes, held in
// memory across a block so the pixel loop keeps its Q registers for sums.
struct ParityRequant {
  int32x4_t multiplier, left, right_neg, round_fix;
};

// Requantizes the even and odd sums of one pixel (output offset added, not
// clamped) and narrows them into eight int16 lanes in channel order.
template <bool kLeft>
__attribute__((always_inline)) inline int16x8_t RequantPair(int32x4_t even, int32x4_t odd,
                                                            const ParityRequant& re,
                                                            const ParityRequant& ro,
                                                            int32_t offset) {
  if (kLeft) {
    even = vshlq_s32(even, re.left);
    odd = vshlq_s32(odd, ro.left);
  }
  even = vqrdmulhq_s32(even, re.multiplier);
  odd = vqrdmulhq_s32(odd, ro.multiplier);
  even = vqaddq_s32(even, vandq_s32(vshrq_n_s32(even, 31), re.round_fix));
  odd = vqaddq_s32(odd, vandq_s32(vshrq_n_s32(odd, 31), ro.round_fix));
  even = vaddq_n_s32(vrshlq_s32(even, re.right_neg), offset);
  odd = vaddq_n_s32(vrshlq_s32(odd, ro.right_neg), offset);
  // Saturating to int16 before the clamp changes nothing: the limits are int8.
  return vqmovntq_s32(vqmovnbq_s32(vdupq_n_s16(0), even), odd);
}

// Whether every lane's left shift is exact (see requantize_helium.h).
__attribute__((always_inline)) inline bool PairShiftExact(int32x4_t even, int32x4_t odd,
                                                          const ParityRequant& re,
                                                          const ParityRequant& ro) {
  const int32x4_t be = vshlq_s32(vshlq_s32(even, re.left), vnegq_s32(re.left));
  const int32x4_t bo = vshlq_s32(vshlq_s32(odd, ro.left), vnegq_s32(ro.left));
  return (vcmpneq_s32(be, even) | vcmpneq_s32(bo, odd)) == 0;
}

// A block's widened weights and per-parity constants (even channels in
// [0], odd in [1]), laid out for PairRun's immediate offsets.
struct alignas(16) PairConsts {
  int16_t w[kHeldTaps * kPairLanes];       // bytes 0..143
  int32_t interior_even[kLanes];           // 144: bias + offset * sum(w)
  int32_t interior_odd[kLanes];            // 160
  int32_t multiplier[2][kLanes];           // 176
  int32_t round_fix[2][kLanes];            // 208
  int32_t right_neg[2][kLanes];            // 240
  int16_t lo[kPairLanes], hi[kPairLanes];  // 272, 288
};
static_assert(offsetof(PairConsts, interior_even) == 144 && offsetof(PairConsts, lo) == 272 &&
                  offsetof(PairConsts, hi) == 288,
              "PairRun's offsets");

// `count` interior pixels of a 3x3 depthwise row for one block of eight
// channels (right shifts only: no exactness check), x and out stepping by
// x_step and out_step. In assembly because GCC 14 spills the held weights
// to a second stack copy and reloads each accumulator: about 150
// instructions per pixel against 84 here (per tap a load of eight inputs
// and of eight weights, VMULLB/VMULLT and two VADDs; then the
// requantization of both parities, narrowed, clamped, one VSTRB).
inline void PairRun(const PairConsts* k, const int8_t* x, int32_t x_row, int32_t x_col,
                    int32_t x_step, int8_t* out, int32_t out_step, int32_t count,
                    int32_t out_offset) {
  if (count <= 0) return;
  const int8_t* t;
#define ESDK_TAP(W)           \
  "vldrb.s16 q0, [%[t]]\n"    \
  "vldrh.u16 q1, [%[k], #" #W \
  "]\n"                       \
  "vmullb.s16 q2, q0, q1\n"   \
  "vadd.i32 q6, q6, q2\n"     \
  "vmullt.s16 q2, q0, q1\n"   \
  "vadd.i32 q7, q7, q2\n"
  __asm volatile(
      "vldrw.u32 q3, [%[k], #208]\n"
      "vldrw.u32 q4, [%[k], #224]\n"
      "1:\n"
      "vldrw.u32 q6, [%[k], #144]\n"
      "vldrw.u32 q7, [%[k], #160]\n"
      "mov %[t], %[x]\n" ESDK_TAP(0) "add %[t], %[t], %[col]\n" ESDK_TAP(16)
      "add %[t], %[t], %[col]\n" ESDK_TAP(32)
      "add %[t], %[x], %[row]\n" ESDK_TAP(48) "add %[t], %[t], %[col]\n" ESDK_TAP(64)
      "add %[t], %[t], %[col]\n" ESDK_TAP(80)
      "add %[t], %[x], %[row], lsl #1\n" ESDK_TAP(96) "add %[t], %[t], %[col]\n" ESDK_TAP(112)
      "add %[t], %[t], %[col]\n" ESDK_TAP(128)
      "vldrw.u32 q0, [%[k], #176]\n"
      "vqrdmulh.s32 q6, q6, q0\n"
      "vldrw.u32 q1, [%[k], #192]\n"
      "vqrdmulh.s32 q7, q7, q1\n"
      "vshr.s32 q0, q6, #31\n"
      "vand q0, q0, q3\n"
      "vqadd.s32 q6, q6, q0\n"
      "vshr.s32 q1, q7, #31\n"
      "vand q1, q1, q4\n"
      "vqadd.s32 q7, q7, q1\n"
      "vldrw.u32 q0, [%[k], #240]\n"
      "vrshl.s32 q6, q6, q0\n"
      "vldrw.u32 q1, [%[k], #256]\n"
      "vrshl.s32 q7, q7, q1\n"
      "vadd.i32 q6, q6, %[off]\n"
      "vadd.i32 q7, q7, %[off]\n"
      "vqmovnb.s32 q0, q6\n"
      "vqmovnt.s32 q0, q7\n"
      "vldrw.u32 q1, [%[k], #272]\n"
      "vmax.s16 q0, q0, q1\n"
      "vldrw.u32 q1, [%[k], #288]\n"
      "vmin.s16 q0, q0, q1\n"
      "vstrb.16 q0, [%[out]]\n"
      "add %[out], %[out], %[ostep]\n"
      "add %[x], %[x], %[xstep]\n"
      "subs %[n], %[n], #1\n"
      "bne 1b\n"
      : [x] "+r"(x), [out] "+r"(out), [n] "+r"(count), [t] "=&r"(t)
      : [k] "r"(k), [row] "r"(x_row), [col] "r"(x_col), [xstep] "r"(x_step),
        [ostep] "r"(out_step), [off] "r"(out_offset)
      : "cc", "memory", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11",
        "d12", "d13", "d14", "d15");
#undef ESDK_TAP
}

template <bool kLeft>
void DepthwisePairBlock(const ConvParams& p, const DepthwiseGeometry& g, int32_t c0) {
  const int8_t* w = p.weight + c0;
  const uint32x4_t words = vidupq_n_u32(0, 2);
  const int32x4_t bias_even =
      p.bias != nullptr ? vldrwq_gather_shifted_offset_s32(p.bias + c0, words) : vdupq_n_s32(0);
  const int32x4_t bias_odd =
      p.bias != nullptr ? vldrwq_gather_shifted_offset_s32(p.bias + c0 + 1, words) : vdupq_n_s32(0);
  const int32_t offset = p.input_offset;
  // The block's nine weight vectors, widened once, and its constants, at
  // small immediate offsets from one pointer (PairRun's loads).
  PairConsts k;
  int32x4_t all_even = vdupq_n_s32(0), all_odd = vdupq_n_s32(0);
  for (int32_t t = 0; t < kHeldTaps; ++t) {
    const int16x8_t wv = vldrbq_s16(w + t * g.w_col);
    vst1q_s16(k.w + t * kPairLanes, wv);
    all_even = vaddq_s32(all_even, vmovlbq_s16(wv));
    all_odd = vaddq_s32(all_odd, vmovltq_s16(wv));
  }
  const int16_t* const held = k.w;
  vst1q_s32(k.interior_even, vmlaq_n_s32(bias_even, all_even, offset));
  vst1q_s32(k.interior_odd, vmlaq_n_s32(bias_odd, all_odd, offset));
  ParityRequant rq[2];
  for (int32_t parity = 0; parity < 2; ++parity) {
    const RequantLanes r = LoadRequantLanes(
        vldrwq_gather_shifted_offset_s32(p.multipliers + c0 + parity, words),
        vldrwq_gather_shifted_offset_s32(p.shifts + c0 + parity, words), 0, INT32_MIN, INT32_MAX);
    rq[parity] = {r.multiplier, r.left, r.right_neg, r.round_fix};
    vst1q_s32(k.multiplier[parity], r.multiplier);
    vst1q_s32(k.round_fix[parity], r.round_fix);
    vst1q_s32(k.right_neg[parity], r.right_neg);
  }
  vst1q_s16(k.lo, vdupq_n_s16(static_cast<int16_t>(p.activation_min)));
  vst1q_s16(k.hi, vdupq_n_s16(static_cast<int16_t>(p.activation_max)));
  const ParityRequant& re = rq[0];
  const ParityRequant& ro = rq[1];
  const int32_t out_offset = p.output_offset;
  const Frame f = MakeFrame(p);
  const int32_t x_row = g.x_row, x_col = g.x_col, x_step = f.in_sw * f.stride_w;
  // Output columns whose three taps are inside the input: [ow_lo, ow_hi).
  const int32_t ow_lo = f.pad_w > 0 ? (f.pad_w + f.stride_w - 1) / f.stride_w : 0;
  const int32_t last_start = f.in_w - 1 - 2 * f.dilation_w + f.pad_w;  // largest ow * stride
  int32_t ow_hi = last_start >= 0 ? last_start / f.stride_w + 1 : 0;
  if (ow_hi > f.out_w) ow_hi = f.out_w;
  if (ow_hi < ow_lo) ow_hi = ow_lo;

  // Stores one pixel's sums; lane by lane in C where a left shift overflows.
  auto store = [&](int8_t* out, int32x4_t even, int32x4_t odd) {
    if (!kLeft || PairShiftExact(even, odd, re, ro)) {
      int16x8_t v = RequantPair<kLeft>(even, odd, re, ro, out_offset);
      v = vminq_s16(vmaxq_s16(v, vld1q_s16(k.lo)), vld1q_s16(k.hi));
      vstrbq_s16(out, v);
      return;
    }
    int32_t sums[kPairLanes];
    vst1q_s32(sums, even);
    vst1q_s32(sums + kLanes, odd);
    for (int32_t j = 0; j < kLanes; ++j) {
      out[2 * j] = FinishConv(p, sums[j], c0 + 2 * j);
      out[2 * j + 1] = FinishConv(p, sums[kLanes + j], c0 + 2 * j + 1);
    }
  };
  // A pixel with some taps outside: the offset is added to the inside taps.
  auto border = [&](const int8_t* x, int8_t* out, int32_t kh0, int32_t kh1, int32_t kw0,
                    int32_t kw1) {
    int32x4_t even = bias_even, odd = bias_odd;
    for (int32_t kh = kh0; kh < kh1; ++kh) {
      for (int32_t kw = kw0; kw < kw1; ++kw) {
        const int16x8_t wv = vld1q_s16(held + (kh * 3 + kw) * kPairLanes);
        const int16x8_t xv = vaddq_n_s16(vldrbq_s16(x + (kh - kh0) * x_row + (kw - kw0) * x_col),
                                         static_cast<int16_t>(offset));
        even = vaddq_s32(even, vmullbq_int_s16(xv, wv));
        odd = vaddq_s32(odd, vmulltq_int_s16(xv, wv));
      }
    }
    store(out, even, odd);
  };
  const int8_t* input = p.input + c0;
  for (int32_t n = 0; n < p.out.n; ++n) {
    for (int32_t oh = 0; oh < f.out_h; ++oh) {
      int32_t kh0, kh1;
      ValidTaps(oh, f.stride_h, f.pad_h, f.dilation_h, 3, f.in_h, &kh0, &kh1);
      const int8_t* x_line =
          input + n * f.in_sn + (oh * f.stride_h - f.pad_h + kh0 * f.dilation_h) * f.in_sh;
      int8_t* out = p.output + (n * f.out_sn + oh * f.out_sh + c0);
      const bool full = kh0 == 0 && kh1 == 3;
      for (int32_t ow = 0; ow < f.out_w; ++ow, out += f.out_sw) {
        if (full && ow == ow_lo) {
          // The straight-line run across the row's interior columns.
          const int8_t* x = x_line + (ow_lo * f.stride_w - f.pad_w) * f.in_sw;
          if (!kLeft) {
            PairRun(&k, x, x_row, x_col, x_step, out, f.out_sw, ow_hi - ow_lo, out_offset);
            out += (ow_hi - ow_lo) * f.out_sw;
            ow = ow_hi;
          }
          for (; ow < ow_hi; ++ow, out += f.out_sw, x += x_step) {
            int32x4_t even = vld1q_s32(k.interior_even), odd = vld1q_s32(k.interior_odd);
#pragma GCC unroll 3
            for (int32_t kh = 0; kh < 3; ++kh) {
#pragma GCC unroll 3
              for (int32_t kw = 0; kw < 3; ++kw) {
                const int16x8_t xv = vldrbq_s16(x + kh * x_row + kw * x_col);
                const int16x8_t wv = vld1q_s16(held + (kh * 3 + kw) * kPairLanes);
                even = vaddq_s32(even, vmullbq_int_s16(xv, wv));
                odd = vaddq_s32(odd, vmulltq_int_s16(xv, wv));
              }
            }
            store(out, even, odd);
          }
          if (ow == f.out_w) break;
        }
        int32_t kw0, kw1;
        ValidTaps(ow, f.stride_w, f.pad_w, f.dilation_w, 3, f.in_w, &kw0, &kw1);
        const int32_t iw0 = ow * f.stride_w - f.pad_w + kw0 * f.dilation_w;
        border(x_line + iw0 * f.in_sw, out, kh0, kh1, kw0, kw1);
      }
    }
  }
}

// Eight-channel blocks for 3x3 kernels, then four-channel blocks, then the
// last channels with predicated lanes.
void Depthwise(const ConvParams& p, const DepthwiseGeometry& g) {
  const int32_t channels = p.out.c;
  int32_t c0 = 0;
  if (g.kernel_h == 3 && g.kernel_w == 3) {
    for (; c0 + kPairLanes <= channels; c0 += kPairLanes) {
      // Left shifts need the exactness check per pixel; right shifts alone do not.
      if (vmaxvq_s32(0, vldrwq_s32(p.shifts + c0)) > 0 ||
          vmaxvq_s32(0, vldrwq_s32(p.shifts + c0 + kLanes)) > 0) {
        DepthwisePairBlock<true>(p, g, c0);
      } else {
        DepthwisePairBlock<false>(p, g, c0);
      }
    }
  }
  for (; c0 + kLanes <= channels; c0 += kLanes) DepthwiseBlock<false>(p, g, c0, kLanes);
  if (c0 < channels) DepthwiseBlock<true>(p, g, c0, channels - c0);
}

}  // namespace

int64_t ConvScratchBytes(const ConvParams& p) {
  if (!Takes(p) || Pointwise(p) || !PatchFits(p)) return 0;
  return int64_t{p.kernel_h} * p.kernel_w * p.in.c;  // one patch row
}

bool ConvHelium(const ConvParams& p) {
  if (!Takes(p)) return false;
  const bool pointwise = Pointwise(p);
  // Without a row of scratch (a caller that skipped the glue's check) the
  // blocks serve a small patch too.
  if (!pointwise && PatchFits(p) && p.scratch_bytes >= ConvScratchBytes(p)) {
    if (p.kernel_h * p.kernel_w * p.in.c > kBytes &&
        p.kernel_h * p.kernel_w * p.in.c <= kMaxRowPatch) {
      RowPatchConv(p, false);
    } else {
      PatchConv(p);
    }
    return true;
  }
  // Few input channels: the requantization outweighs the dot products, so
  // each pixel is loaded once for all its output channels.
  // (From 8: one weight vector may then run past its row by at most two rows.)
  if (pointwise && p.in.c >= 8 && p.in.c <= kMaxRowPatch) {
    RowPatchConv(p, true);
    return true;
  }
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
  Depthwise(p, g);
  return true;
}

#else  // no Helium: the caller runs the plain C arithmetic

bool ConvHelium(const ConvParams& /*p*/) { return false; }
bool DepthwiseConvHelium(const ConvParams& /*p*/) { return false; }
int64_t ConvScratchBytes(const ConvParams& /*p*/) { return 0; }

#endif

}  // namespace ethosu_sdk::kernels::cortex_m
