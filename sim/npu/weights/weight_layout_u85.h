// The order in which Ethos-U85 weight streams list kernel weights.
//
// Vela writes weights in the order the hardware's weight decoder feeds the
// MAC array; the model walks the same order to put each decoded weight back
// at its (ofm channel, ky, kx, ifm channel) position. The order follows from
// the block config in the command stream (OFM block depth, microblock), the
// traversal (depth-first, part-kernel-first, depthwise), stride and
// dilation. Facts from Vela's U85 weight encoder; the walk is our own.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::npu {

enum class U85Traversal { kDepthFirst, kPartKernelFirst, kDepthwise };

struct U85WeightLayout {
  int ofm_depth = 0;  // output channels in this operation (stripe)
  int ifm_depth = 0;  // input channels; 1 for depthwise
  int kernel_h = 0, kernel_w = 0;
  int stride_x = 1, stride_y = 1;
  int dilation_x = 1, dilation_y = 1;
  int ofm_block_depth = 0;
  int ofm_ublock_depth = 0;
  int ifm_bits = 8;
  int macs = 256;
  int cores = 1;
  // With several cores each has its own stream: stream s holds OFM channels
  // 4s..4s+3 of every 4*cores in each microblock (Vela's InterleaveDepth).
  int stream = 0;
  U85Traversal traversal = U85Traversal::kDepthFirst;
  // WEIGHT_FORMAT sparsity 2:4: Vela checked that every 4 consecutive IFM
  // channels hold at least two zeros and orders the stream for the sparse
  // MAC path (16 IFM channels per microblock step, part-kernel-first
  // rounding to 10 kernel elements, IFM block depth 128 depth-first). The
  // stream still carries every weight, zeros included, so the values are
  // placed like dense ones.
  bool sparse = false;
};

// IFM block depth the U85 block config implies (not in any register).
int U85IfmBlockDepth(const U85WeightLayout& layout);

// Calls visit(o, ky, kx, i) for every weight of the stream in order;
// o == -1 marks a padding weight (always zero in the stream). Returns the
// number of weights. `Visit` returns false to stop early.
template <typename Visit>
size_t ForEachU85Weight(const U85WeightLayout& p, Visit visit) {
  const bool depthwise = p.traversal == U85Traversal::kDepthwise;
  const bool ifm16 = p.ifm_bits == 16;
  const int ifm_block_depth = depthwise ? 1 : U85IfmBlockDepth(p);
  int stride_x = p.stride_x, stride_y = p.stride_y;
  int sub_kernel_round = 1;
  int ifm_ublock_depth = ifm_block_depth;
  if (p.traversal == U85Traversal::kPartKernelFirst) {
    sub_kernel_round = (ifm16 || p.sparse) ? 10 : 5;
    ifm_ublock_depth = (ifm16 && !p.sparse) ? 8 : ifm_block_depth;
  } else if (p.traversal == U85Traversal::kDepthFirst) {
    stride_x = stride_y = 1;
  } else {
    sub_kernel_round = 10;
    ifm_ublock_depth = 1;
  }
  const int decomp_x = 8 / p.dilation_x, decomp_y = 8 / p.dilation_y;
  const int dw_padding = (!ifm16 && p.macs <= 256) ? 0 : (p.macs <= 512 ? 2 : 6);
  const int inner_step = depthwise ? 1 : (p.sparse ? 16 : 8);
  const int interleave = 4;
  size_t n = 0;
  auto pad = [&](int count) -> bool {
    for (int k = 0; k < count; ++k, ++n)
      if (!visit(-1, 0, 0, 0)) return false;
    return true;
  };
  // IFM blocks are walked forwards and backwards on alternate OFM blocks.
  int ifm_inc = -ifm_block_depth;
  int ifm_block_start = 0;
  const int ifm_limit = depthwise ? 1 : p.ifm_depth;
  for (int ofm_block = 0; ofm_block < p.ofm_depth; ofm_block += p.ofm_block_depth) {
    ifm_inc = -ifm_inc;
    const int ofm_block_depth =
        p.ofm_block_depth < p.ofm_depth - ofm_block ? p.ofm_block_depth : p.ofm_depth - ofm_block;
    for (int ifm_block = ifm_block_start; ifm_block < ifm_limit && ifm_block >= 0;
         ifm_block += ifm_inc) {
      ifm_block_start = ifm_block;
      const int ifm_clipped =
          ifm_block_depth < p.ifm_depth - ifm_block ? ifm_block_depth : p.ifm_depth - ifm_block;
      for (int sub_x = 0; sub_x < p.kernel_w; sub_x += decomp_x) {
        const int sub_w = p.kernel_w - sub_x < decomp_x ? p.kernel_w - sub_x : decomp_x;
        for (int sub_y = 0; sub_y < p.kernel_h; sub_y += decomp_y) {
          const int sub_h = p.kernel_h - sub_y < decomp_y ? p.kernel_h - sub_y : decomp_y;
          const int ifm_outer_limit = depthwise ? 1 : ifm_clipped;
          for (int ifm_outer = 0; ifm_outer < ifm_outer_limit; ifm_outer += ifm_ublock_depth) {
            for (int ofm_outer = 0; ofm_outer < ofm_block_depth; ofm_outer += p.ofm_ublock_depth) {
              const int elements = sub_w * sub_h;
              int remaining =
                  (elements + sub_kernel_round - 1) / sub_kernel_round * sub_kernel_round;
              for (int phase_y = 0; phase_y < stride_y; ++phase_y) {
                const int strided_h = (sub_h + stride_y - 1 - phase_y) / stride_y;
                for (int phase_x = 0; phase_x < stride_x; ++phase_x) {
                  const int strided_w = (sub_w + stride_x - 1 - phase_x) / stride_x;
                  for (int ky = 0; ky < strided_h; ++ky) {
                    for (int kx_step = 0; kx_step < strided_w; ++kx_step) {
                      // Serpentine over the kernel rows.
                      const int kx = ky % 2 == 0 ? kx_step : strided_w - 1 - kx_step;
                      --remaining;
                      const int wx = sub_x + phase_x + kx * stride_x;
                      const int wy = sub_y + phase_y + ky * stride_y;
                      for (int ifm_inner = 0; ifm_inner < ifm_ublock_depth;
                           ifm_inner += inner_step) {
                        for (int ofm_z = p.stream * interleave; ofm_z < p.ofm_ublock_depth;
                             ofm_z += interleave * p.cores) {
                          for (int ofm_inner = 0; ofm_inner < interleave; ++ofm_inner) {
                            for (int ifm_z = 0; ifm_z < inner_step; ++ifm_z) {
                              const int i = ifm_block + ifm_outer + ifm_inner + ifm_z;
                              const int o = ofm_block + ofm_outer + ofm_inner + ofm_z;
                              const bool valid =
                                  i < (depthwise ? 1 : p.ifm_depth) && o < p.ofm_depth;
                              ++n;
                              if (!(valid ? visit(o, wy, wx, i) : visit(-1, 0, 0, 0))) return n;
                            }
                          }
                        }
                      }
                      if (depthwise && remaining % sub_kernel_round == 0) {
                        if (!pad(dw_padding * p.ofm_ublock_depth / p.cores)) return n;
                      }
                    }
                  }
                }
              }
              if (remaining > 0) {
                const int count = (remaining + (depthwise ? dw_padding : 0)) * ifm_ublock_depth *
                                  p.ofm_ublock_depth / p.cores;
                if (!pad(count)) return n;
              }
            }
          }
        }
      }
    }
  }
  return n;
}

}  // namespace ethosu_sdk::npu
