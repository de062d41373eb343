// The output stage for a row of convolution sums, eight channels at a
// time with AVX2 where the values allow it: U85 32-bit accumulators with
// their bias, 31-bit multipliers, shifts up to 61 (so every intermediate
// fits 64 bits), int8/uint8 outputs and no LUT. Bit-identical to
// ChannelScale::Apply + OutputStage::Finish; anything else stays scalar.
// U55/U65 add their 40-bit bias after the 32-bit sum: the vector path takes
// them when the bias fits 32 bits and the sum with it does not overflow.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/npu/output/output_stage.h"

namespace ethosu_sdk::npu {

// The operation's scales rearranged for vector loads, channels padded to 8.
struct RequantTable {
  int32_t* bias = nullptr;
  int32_t* scale = nullptr;
  int64_t* shift = nullptr;
  int64_t* round_positive = nullptr;
  int64_t* round_negative = nullptr;
  int channels = 0;
  bool bias_after_sum = false;  // U55/U65: exact sum + bias, not a 32-bit wrap
};

// Bytes RequantTableFor needs for `channels`.
size_t RequantTableBytes(int channels);
// Fills a table in `memory` from the channel scales; false (table unused)
// when a channel is outside the vector path's limits or the CPU has no AVX2.
bool RequantTableFor(const ChannelScale* scales, int channels, bool bias_after_sum, void* memory,
                     RequantTable* table);

// out[c] = clamp(scaled(sums[c] + bias[c]) + zero_point, lo, hi) for
// channels [first, first + 8), written as bytes (lo and hi within the
// 8-bit OFM's range). False (nothing written) when a U55 sum plus bias
// leaves 32 bits: the caller takes the scalar path.
bool Requantize8(const RequantTable& table, const uint32_t* sums, int first, int32_t zero_point,
                 int32_t lo, int32_t hi, uint8_t* out);

// Requantize8 on `groups` consecutive groups of 8 channels from `first`,
// out[0] for channel `first`; one call per row, so the constants are set
// up once. Returns the channels written: fewer than 8 * groups when a
// group leaves the vector path (that group is not written; the caller
// takes it on the scalar path and resumes after it).
int RequantizeGroups(const RequantTable& table, const uint32_t* sums, int first, int groups,
                     int32_t zero_point, int32_t lo, int32_t hi, uint8_t* out);

}  // namespace ethosu_sdk::npu
