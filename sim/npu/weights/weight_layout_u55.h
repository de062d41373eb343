// The order in which Ethos-U55 weight streams list kernel weights (facts
// from Vela's U55 weight encoder; the walk is our own). Simpler than U85:
// fixed microblocks per MAC configuration, no serpentine, no stride phases.
#pragma once

#include <cstddef>

#include "sim/npu/weights/weight_layout_u85.h"

namespace ethosu_sdk::npu {

struct U55WeightLayout {
  int ofm_depth = 0;
  int ifm_depth = 0;  // 1 for depthwise
  int kernel_h = 0, kernel_w = 0;
  int dilation_x = 1, dilation_y = 1;
  int ofm_block_depth = 0;
  int ofm_ublock_depth = 8;  // U55-128/256: 8
  int ifm_ublock_depth = 8;
  int ifm_bits = 8;
  U85Traversal traversal = U85Traversal::kDepthFirst;  // same three kinds
};

// Calls visit(o, ky, kx, i) per stream weight; o == -1 marks padding.
template <typename Visit>
size_t ForEachU55Weight(const U55WeightLayout& p, Visit visit) {
  const bool depthwise = p.traversal == U85Traversal::kDepthwise;
  const bool part_kernel = p.traversal == U85Traversal::kPartKernelFirst;
  const bool ifm16 = p.ifm_bits == 16;
  const int ifm_block_depth = (part_kernel || ifm16) ? 16 : 32;
  const int decomp_x = 8 / p.dilation_x, decomp_y = 8 / p.dilation_y;
  const int round = depthwise ? 4 : (part_kernel ? (ifm16 ? 2 : 4) : 1);
  const int ifm_limit = depthwise ? 1 : p.ifm_depth;
  size_t n = 0;
  for (int ofm_block = 0; ofm_block < p.ofm_depth; ofm_block += p.ofm_block_depth) {
    const int ofm_clipped =
        p.ofm_block_depth < p.ofm_depth - ofm_block ? p.ofm_block_depth : p.ofm_depth - ofm_block;
    for (int ifm_block = 0; ifm_block < ifm_limit; ifm_block += ifm_block_depth) {
      int ifm_clipped = ifm_block_depth;
      if (depthwise) {
        ifm_clipped = p.ifm_ublock_depth;
      } else if (part_kernel && p.ifm_depth - ifm_block < ifm_block_depth) {
        ifm_clipped = p.ifm_depth - ifm_block;
      }
      for (int sub_y = 0; sub_y < p.kernel_h; sub_y += decomp_y) {
        const int sub_h = p.kernel_h - sub_y < decomp_y ? p.kernel_h - sub_y : decomp_y;
        for (int sub_x = 0; sub_x < p.kernel_w; sub_x += decomp_x) {
          const int sub_w = p.kernel_w - sub_x < decomp_x ? p.kernel_w - sub_x : decomp_x;
          const int elements = (sub_w * sub_h + round - 1) / round * round;
          const int outer_limit = part_kernel ? ifm_clipped : 1;
          const int inner_limit = part_kernel ? 1 : ifm_clipped;
          for (int ifm_outer = 0; ifm_outer < outer_limit; ifm_outer += p.ifm_ublock_depth) {
            for (int ofm_u = 0; ofm_u < ofm_clipped; ofm_u += p.ofm_ublock_depth) {
              for (int e = 0; e < elements; ++e) {
                const int kx = e % sub_w, ky = e / sub_w;
                for (int ifm_inner = 0; ifm_inner < inner_limit; ifm_inner += p.ifm_ublock_depth) {
                  for (int oz = 0; oz < p.ofm_ublock_depth; ++oz) {
                    for (int iz = 0; iz < (depthwise ? 1 : p.ifm_ublock_depth); ++iz) {
                      const int i = ifm_block + ifm_outer + ifm_inner + iz;
                      const int o = ofm_block + ofm_u + oz;
                      const bool valid =
                          i < (depthwise ? 1 : p.ifm_depth) && o < p.ofm_depth && ky < sub_h;
                      ++n;
                      if (!(valid ? visit(o, sub_y + ky, sub_x + kx, i) : visit(-1, 0, 0, 0))) {
                        return n;
                      }
                    }
                  }
                }
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
