#include "sim/npu/weights/weight_layout_u85.h"

namespace ethosu_sdk::npu {

int U85IfmBlockDepth(const U85WeightLayout& layout) {
  if (layout.traversal == U85Traversal::kPartKernelFirst) return 16;
  if (layout.ifm_bits == 32 || ((layout.macs == 128 || layout.macs == 256) &&
                                layout.ofm_ublock_depth == 16 && !layout.sparse)) {
    return 32;
  }
  if (layout.sparse && layout.ifm_bits == 8) return 128;
  return 64;
}

}  // namespace ethosu_sdk::npu
