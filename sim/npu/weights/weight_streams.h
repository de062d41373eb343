// Weights split over several streams, one per core (weight decoder): U85
// configurations with 2 or 4 cores (512 MACs and up) and the dual-core U65.
// Facts from Vela's weight encoders (EthosU85WeightOrdering(Fwd),
// EthosUWeightOrdering with separated OFM streams); the decoding is ours.
//
//  - U85 SWD: one mlw stream per core at WEIGHT_BASE, WEIGHT1..3_BASE.
//    Stream s walks the single-core order but takes, in every OFM
//    microblock, only channels 4s..4s+3 of each 4*cores (U85WeightLayout's
//    `stream`).
//  - U85 FWD: one stream at WEIGHT_BASE in which the cores' orders alternate
//    in blocks of ofm_ublock * ifm_ublock * sub_kernel_round / cores
//    weights (stream 0's first block, stream 1's first block, ...).
//  - U55/U65: one mlw stream per core (WEIGHT_BASE, WEIGHT1_BASE); core s
//    computes OFM channels s, s + cores, ...: its stream is the single-core
//    order of those channels, OFM block depth ceil((depth - s) / cores).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "sim/npu/configs.h"
#include "sim/npu/weights/weight_layout_u55.h"
#include "sim/npu/weights/weight_layout_u85.h"

namespace ethosu_sdk::npu {

struct WeightStream {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// Scratch bytes the decoders below need for this layout.
size_t U85WeightStreamsScratchBytes(const U85WeightLayout& layout, bool fwd);
size_t U55WeightStreamsScratchBytes(const U55WeightLayout& layout, int cores);

// Decodes the weights of one operation from layout.cores streams (FWD: only
// streams[0] is read) into `out`, OHWI with ifm depth layout.ifm_depth
// (zeroed by the caller). Padding weights must be zero.
Status DecodeU85WeightStreams(const U85WeightLayout& layout, bool fwd,
                              const WeightStream (&streams)[kMaxWeightStreams], int16_t* out,
                              void* scratch, size_t scratch_size);

// Same for a U55/U65 with `cores` cores; `layout` describes the whole
// operation (all OFM channels).
Status DecodeU55WeightStreams(const U55WeightLayout& layout, int cores,
                              const WeightStream (&streams)[kMaxWeightStreams], int16_t* out,
                              void* scratch, size_t scratch_size);

}  // namespace ethosu_sdk::npu
