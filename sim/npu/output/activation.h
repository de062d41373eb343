// The activation stage that follows the output scale: a clip to
// ACTIVATION_MIN/MAX (or a forced type range), then an optional lookup
// table in the NPU's LUT memory, which a DMA filled earlier in the stream.
#pragma once

#include <cstdint>

#include "sim/npu/output/output_stage.h"

namespace ethosu_sdk::npu {

// Bytes of LUT memory: U85's LUT RAM; on U55 the last two SHRAM banks.
constexpr int kLutMemoryBytes = 2048;

struct ActivationStage {
  bool clip = false;
  int64_t clip_min = 0, clip_max = 0;
  // Lookup table (null: none): 256 entries indexed by the clipped 8-bit
  // value, each `entry_bytes` little-endian, sign-extended if signed.
  const uint8_t* lut = nullptr;
  int entry_bytes = 1;
  bool entry_signed = true;
  bool index_signed = true;
  // A 16-bit table (U85 LUT_S16_S16, U55 TABLE_k on a 16-bit OFM): 512
  // 32-bit entries (base in the low half, slope to the next entry in the
  // high half) indexed by a 16-bit value and interpolated.
  bool interpolate16 = false;
  // U85 LUT_S16_S32: the same table and point, the result kept at 32 bits
  // with its 7 fraction bits (TOSA TABLE's int16 output, which an int32 OFM
  // takes as is).
  bool interpolate16_wide = false;
  static constexpr int kInterpolatedEntries = 512, kInterpolatedEntryBytes = 4;
  static constexpr int kInterpolatedTableBytes = kInterpolatedEntries * kInterpolatedEntryBytes;

  // GUESS (undocumented): the LUT index is the value after the output
  // scale, the zero point and the clip, saturated to the 8-bit index type
  // (signed: v + 128); the entry is written as is (the OFM zero point is
  // not added again: Vela's tables hold final OFM values). Pinned by the
  // sigmoid/tanh/gelu/softmax cases against the TOSA reference model.
  int64_t Apply(int64_t v) const {
    if (clip) v = Clamp(v, clip_min, clip_max);
    if (lut == nullptr) return v;
    if (interpolate16) return Interpolate16(v);
    const int64_t index = index_signed ? Clamp(v, -128, 127) + 128 : Clamp(v, 0, 255);
    const uint8_t* p = lut + index * entry_bytes;
    uint32_t raw = 0;
    for (int k = 0; k < entry_bytes; ++k) raw |= uint32_t(p[k]) << (8 * k);
    if (!entry_signed) return int64_t(raw);
    const int unused = 32 - 8 * entry_bytes;
    return int64_t(int32_t(raw << unused) >> unused);
  }

  // GUESS (undocumented): the clipped value saturates to int16; its top 9
  // bits (offset by 32768) pick the entry, its low 7 bits the point between
  // base and base + slope, rounded half up: Vela builds the table for that
  // (512 steps of 128, slope = next base - base) as TOSA TABLE does for
  // int16. Pinned by {u85,u55}_a16w8_{conv_tanh,linear_sigmoid,conv_gelu}.
  int64_t Interpolate16(int64_t v) const {
    constexpr int kFractionBits = 7;
    const uint32_t offset = uint32_t(Clamp(v, INT16_MIN, INT16_MAX) + 32768);
    const uint8_t* p = lut + (offset >> kFractionBits) * kInterpolatedEntryBytes;
    const int32_t base = int16_t(uint16_t(p[0] | (p[1] << 8)));
    const int32_t slope = int16_t(uint16_t(p[2] | (p[3] << 8)));
    const int32_t fraction = int32_t(offset & ((1u << kFractionBits) - 1));
    // GUESS (undocumented): LUT_S16_S32 is TOSA TABLE's int16 formula, base
    // scaled by 2^7 plus the slope times the fraction, unrounded. Pinned by
    // test_sigmoid_32bit's U85 cases against the TOSA reference model.
    if (interpolate16_wide) return int64_t(base) * (1 << kFractionBits) + slope * fraction;
    return base + ((slope * fraction + (1 << (kFractionBits - 1))) >> kFractionBits);
  }
};

}  // namespace ethosu_sdk::npu
