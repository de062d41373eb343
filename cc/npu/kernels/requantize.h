// The output stage for a row of convolution sums, eight channels at a
// time with AVX2 where the values allow it: U85 32-bit accumulators with
// their bias, 31-bit multipliers, shifts up to 61 (so every intermediate
// fits 64 bits), int8/uint8 outputs and no LUT. Bit-identical to
// ChannelScale::Apply + OutputStage::Finish; anything else stays scalar.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/npu/kernels/output_stage.h"

namespace npu {

// The operation's scales rearranged for vector loads, channels padded to 8.
struct RequantTable {
  int32_t* bias = nullptr;
  int32_t* scale = nullptr;
  int64_t* shift = nullptr;
  int64_t* round_positive = nullptr;
  int64_t* round_negative = nullptr;
  int channels = 0;
};

// Bytes RequantTableFor needs for `channels`.
size_t RequantTableBytes(int channels);
// Fills a table in `memory` from the channel scales; false (table unused)
// when a channel is outside the vector path's limits or the CPU has no AVX2.
bool RequantTableFor(const ChannelScale* scales, int channels, void* memory, RequantTable* table);

// out[c] = clamp(scaled(sums[c] + bias[c]) + zero_point, lo, hi) for
// channels [first, first + 8), written as bytes.
void Requantize8(const RequantTable& table, const uint32_t* sums, int first, int32_t zero_point,
                 int32_t lo, int32_t hi, uint8_t* out);

}  // namespace npu
