// Fixed-point scaling of accumulators, as the Ethos-U output and input
// stages do it: 64-bit product, then a rounding right shift.
#pragma once

#include <cstdint>

namespace npu {

// OFM rounding modes (field round_mode of OFM_SCALE; IFM_SCALE has 0/1).
enum class RoundMode : uint8_t {
  kDoubleSymmetric = 0,
  kNatural = 1,
  kDoubleAsymmetric = 2,
  kSymmetric = 3,
  kTruncateToZero = 4,
  kTruncateToLower = 5,
};

// value * scale >> shift with the given rounding. Shift is 0..63.
// NATURAL is round-half-up (TOSA's SINGLE_ROUND). DOUBLE_SYMMETRIC with a
// zero dbl_rnd field is taken to be the same as NATURAL when the scale is
// unit (the only way Vela emits it in our tests; pinned by the transpose
// tests). GUESS, see below, for other cases: TOSA's DOUBLE_ROUND (an extra
// +-2^30 for shift > 31).
inline int64_t ScaleAndRound(int64_t value, int64_t scale, int shift, RoundMode mode) {
  const int64_t product = value * scale;
  if (shift == 0) return product;
  int64_t round = int64_t(1) << (shift - 1);
  switch (mode) {
    case RoundMode::kNatural:
      break;
    case RoundMode::kDoubleSymmetric:
    case RoundMode::kDoubleAsymmetric:
      if (shift > 31) round += value >= 0 ? (int64_t(1) << 30) : -(int64_t(1) << 30);
      break;
    case RoundMode::kSymmetric:
      if (product < 0) round -= 1;
      break;
    case RoundMode::kTruncateToZero:
      round = product < 0 ? (int64_t(1) << shift) - 1 : 0;
      break;
    case RoundMode::kTruncateToLower:
      round = 0;
      break;
  }
  return (product + round) >> shift;
}

inline int64_t Clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

}  // namespace npu
