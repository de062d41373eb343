// Output and input scales from the registers, and the per-channel scale
// records of the scale stream in its three formats (U55/U65 40-bit bias;
// U85 32-bit and 48-bit accumulators).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "sim/npu/commands/register_file.h"
#include "sim/npu/output/output_stage.h"
#include "sim/npu/types.h"

namespace ethosu_sdk::npu {

// Bytes of one record in the scale stream.
constexpr size_t kScaleRecordBytes = 10;

Scale OfmScale(const RegisterFile& regs, bool u55);
// IFM_SCALE or IFM2_SCALE (U85 elementwise pre-scaling).
Scale IfmScale(const RegisterFile& regs, bool second);
// U55/U65 precision round_mode field (IFM and OFM) as a RoundMode.
RoundMode U55RoundMode(uint32_t field);
// True if OFM_PRECISION selects per-channel records (else OFM_SCALE).
bool PerChannelScales(const RegisterFile& regs);

// Where an operation's records live (checked against the region).
struct ScaleSource {
  const uint8_t* streams[2] = {nullptr, nullptr};  // U65-512: one per core
  int streams_used = 1;
  int format = 0;  // U85 ACC_FORMAT (0: 32-bit, 1: 48-bit); U55: 0
  bool u55 = false;
  int ofm_depth = 0;
  size_t stream_bytes() const {
    return size_t((ofm_depth + streams_used - 1) / streams_used) * kScaleRecordBytes;
  }
};

Status DescribeScales(const NpuConfig& config, const RegisterFile& regs,
                      const Region (&regions)[kNumRegions], int ofm_depth, ScaleSource* source);
void DecodeScales(const ScaleSource& source, ScaleRecord* out);

}  // namespace ethosu_sdk::npu
