// From the weight registers to decoded weights: which streams an operation
// reads and in what layout (DescribeWeights, checked against the region),
// then the decode into the canonical order [ofm][ky][kx][ifm] (int16).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "sim/npu/commands/register_file.h"
#include "sim/npu/memory/workspace_arena.h"
#include "sim/npu/types.h"
#include "sim/npu/weights/weight_layout_u55.h"
#include "sim/npu/weights/weight_layout_u85.h"
#include "sim/npu/weights/weight_streams.h"

namespace ethosu_sdk::npu {

struct WeightSource {
  bool u55 = false;
  U85WeightLayout u85_layout;
  U55WeightLayout u55_layout;
  bool fwd = false;  // U85 WEIGHT_FORMAT: fast weight decoder format (else SWD)
  int cores = 1;     // one stream per core
  WeightStream streams[kMaxWeightStreams];
  int ofm_depth = 0, taps = 0, ifm_depth = 0;  // canonical shape (ifm_depth 1: depthwise)
  size_t count() const { return size_t(ofm_depth) * size_t(taps) * size_t(ifm_depth); }
};

// Reads the weight registers for an operation with these depths.
Status DescribeWeights(const NpuConfig& config, const RegisterFile& regs,
                       const Region (&regions)[kNumRegions], bool depthwise, int ofm_depth,
                       int ifm_depth, WeightSource* source);

// Decodes into `out` (source.count() weights); scratch comes from `arena`.
Status DecodeWeights(const WeightSource& source, int16_t* out, WorkspaceArena* arena);

}  // namespace ethosu_sdk::npu
