// Fixed-point scaling of accumulators, as the Ethos-U output and input
// stages do it: 64-bit product, then a rounding right shift.
#pragma once

#include <cstdint>

namespace ethosu_sdk::npu {

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
// (value * scale + round) >> shift in 128-bit two's complement, saturated
// to +-2^62: exact for every input, portable to 32-bit targets (no
// __int128), and free of signed overflow on corrupt streams.
// Two 64-bit words, for compilers without a 128-bit type (and the tests,
// which check it against MulAddShift on hosts that have one).
inline int64_t MulAddShiftPortable(int64_t value, uint32_t scale, int64_t round, int shift) {
  constexpr int64_t kLimit = int64_t(1) << 62;
  const int64_t v_hi = value >> 32;                     // signed upper half
  const uint64_t v_lo = uint64_t(value) & 0xFFFFFFFFu;  // unsigned lower half
  const uint64_t p_lo = v_lo * scale;                   // < 2^64
  const int64_t p_hi = v_hi * int64_t(scale);           // |.| < 2^63
  // product = p_hi * 2^32 + p_lo as (hi:lo)
  uint64_t lo = p_lo + (uint64_t(p_hi) << 32);
  int64_t hi = (p_hi >> 32) + (lo < p_lo ? 1 : 0);
  const uint64_t r_lo = uint64_t(round);
  const uint64_t sum_lo = lo + r_lo;
  hi += (round < 0 ? -1 : 0) + (sum_lo < lo ? 1 : 0);
  lo = sum_lo;
  if (shift > 0) {
    lo = (lo >> shift) | (uint64_t(hi) << (64 - shift));
    hi >>= shift;
  }
  // Saturate to +-2^62, so that sums of two results cannot overflow either.
  if (hi > 0 || (hi == 0 && (lo >> 62) != 0)) return kLimit;
  // Below -2^62, including [-2^64, -2^63) where hi is -1 but lo's top bit is clear.
  if (hi < -1 || (hi == -1 && (int64_t(lo) < -kLimit || int64_t(lo) >= 0))) return -kLimit;
  return int64_t(lo);
}

inline int64_t MulAddShift(int64_t value, uint32_t scale, int64_t round, int shift) {
#if defined(__SIZEOF_INT128__)
  // The same arithmetic in the compiler's 128-bit type where it has one
  // (one multiply instead of four; the hot path of every output).
  constexpr int64_t kLimit = int64_t(1) << 62;
  const __int128 p = (__int128(value) * scale + round) >> shift;
  return p > kLimit ? kLimit : p < -kLimit ? -kLimit : int64_t(p);
#else
  return MulAddShiftPortable(value, scale, round, shift);
#endif
}

// value * scale >> shift with the given rounding. Shift is 0..63.
// NATURAL is round-half-up (TOSA's SINGLE_ROUND). DOUBLE_SYMMETRIC is taken
// to be TOSA's DOUBLE_ROUND (an extra +-2^30 for shift > 31); Vela emits it
// in our tests only with scale 1, shift 0 (U85) or a near-unit scale (U55
// transposes), so that part of the guess is not pinned.
// What ScaleAndRound adds before the shift, for a value of that sign
// (shift 1..63).
inline int64_t RoundAddend(RoundMode mode, int shift, bool negative, uint32_t s) {
  int64_t round = int64_t(1) << (shift - 1);
  switch (mode) {
    case RoundMode::kNatural:
      break;
    case RoundMode::kDoubleSymmetric:
    case RoundMode::kDoubleAsymmetric:
      if (shift > 31) round += negative ? -(int64_t(1) << 30) : (int64_t(1) << 30);
      break;
    case RoundMode::kSymmetric:
      if (negative && s != 0) round -= 1;
      break;
    case RoundMode::kTruncateToZero:
      // 2^shift - 1, computed unsigned: at shift 63 it is INT64_MAX, and the
      // signed form overflows (found by the device fuzzer).
      round = (negative && s != 0) ? int64_t((uint64_t(1) << shift) - 1) : 0;
      break;
    case RoundMode::kTruncateToLower:
      round = 0;
      break;
  }
  return round;
}

inline int64_t ScaleAndRound(int64_t value, int64_t scale, int shift, RoundMode mode) {
  const uint32_t s = uint32_t(scale);
  if (shift == 0) return MulAddShift(value, s, 0, 0);
  return MulAddShift(value, s, RoundAddend(mode, shift, value < 0, s), shift);
}

// One channel's scale with both rounding addends worked out, so that the
// per-element path has no mode switch: ScaleAndRound(v, scale, shift,
// mode) == Apply(v).
struct ChannelScale {
  uint32_t scale = 1;
  int shift = 0;
  int64_t round_positive = 0, round_negative = 0;
  int64_t bias = 0;

  ChannelScale() = default;
  ChannelScale(int64_t multiplier, int shift_bits, RoundMode mode, int64_t bias_value)
      : scale(uint32_t(multiplier)), shift(shift_bits), bias(bias_value) {
    if (shift_bits > 0) {
      round_positive = RoundAddend(mode, shift_bits, false, scale);
      round_negative = RoundAddend(mode, shift_bits, true, scale);
    }
  }
  int64_t Apply(int64_t v) const {
    return MulAddShift(v, scale, v < 0 ? round_negative : round_positive, shift);
  }
};

inline int64_t Clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// An output or input scale: multiplier, shift and rounding.
struct Scale {
  int64_t scale = 1;
  int shift = 0;
  RoundMode round = RoundMode::kNatural;
};

// A scale on int32 values in 64-bit arithmetic. Equal to ScaleAndRound
// when the multiplier fits 31 bits and the shift is at most 61: then
// |v * scale + round| < 2^63, and the result stays inside the +-2^62 that
// MulAddShift saturates to, so neither needs its 128-bit product.
struct Int32Scale {
  static constexpr int kMaxShift = 61;
  int64_t scale = 0, round_positive = 0, round_negative = 0;
  int shift = 0;

  static bool Fits(const Scale& s) {
    return uint32_t(s.scale) <= uint32_t(INT32_MAX) && s.shift >= 0 && s.shift <= kMaxShift;
  }
  explicit Int32Scale(const Scale& s) {
    const ChannelScale c(s.scale, s.shift, s.round, 0);  // the same addends
    scale = c.scale;
    shift = c.shift;
    round_positive = c.round_positive;
    round_negative = c.round_negative;
  }
  int64_t Apply(int32_t v) const {
    return (v * scale + (v < 0 ? round_negative : round_positive)) >> shift;
  }
};

// One output channel's record from the scale stream: bias, then its scale
// (the rounding mode is the operation's).
struct ScaleRecord {
  int64_t bias;  // U85: 32-bit (48-bit for 16-bit activations), U55: 40-bit
  uint32_t scale;
  int shift;
};

}  // namespace ethosu_sdk::npu
