// Elementwise comparisons, bit operations, shifts, CLZ and DIV on the values the
// elementwise kernel hands over (operands minus their zero points; for
// comparisons also pre-scaled). Results go through the output stage like
// any other elementwise result.
#pragma once

#include <cstdint>

#include "sim/npu/operations/elementwise_modes.h"
#include "sim/npu/output/output_stage.h"

namespace ethosu_sdk::npu {

// GUESS (undocumented): a comparison writes all bits set for true and 0 for
// false. Vela 5.1.0 follows every CMP_* it emits for TOSA EQUAL, GREATER and
// GREATER_EQUAL with an AND by a one-element constant to make TOSA's 0/1
// bool, which only a mask needs; torch.ne is CMP_EQ, NOT, then that AND.
// Pinned by u85_gt, u85_ge, u85_lt, u85_eq, u85_ne (sim/tests/npu).
constexpr int64_t kCompareTrue = -1;

inline int64_t Compare(int mode, int64_t a, int64_t b) {
  bool r = false;
  switch (mode) {
    case kEwCmpEq:
      r = a == b;
      break;
    case kEwCmpNe:
      r = a != b;
      break;
    case kEwCmpGe:
      r = a >= b;
      break;
    default:
      r = a > b;
      break;  // kEwCmpGt
  }
  return r ? kCompareTrue : 0;
}

// Bit operations on the 32-bit two's complement operands. GUESS: AND_NOT is
// A AND NOT B (no case pins it: Vela emits it only for SELECT, which
// ExecuTorch does not delegate in our probes).
inline int64_t Bitwise(int mode, int64_t a, int64_t b) {
  const uint32_t x = uint32_t(a), y = uint32_t(b);
  uint32_t r = 0;
  switch (mode) {
    case kEwAnd:
      r = x & y;
      break;
    case kEwOr:
      r = x | y;
      break;
    case kEwXor:
      r = x ^ y;
      break;
    case kEwNot:
      r = ~x;
      break;
    default:
      r = x & ~y;
      break;  // kEwAndNot
  }
  return int64_t(int32_t(r));
}

// Shift amounts: TOSA allows 0..31 (LOGICAL_LEFT_SHIFT,
// ARITHMETIC_RIGHT_SHIFT); GUESS: the NPU reads the amount's low five bits.
constexpr uint32_t kShiftAmountMask = 31;

// SHL: the 32-bit pattern shifted left, bits past 31 dropped (TOSA
// LOGICAL_LEFT_SHIFT). SHR: arithmetic shift right rounded by the OFM
// rounding mode. GUESS: Vela writes OFM_SCALE round_mode TRUNCATE_TO_LOWER
// for ExecuTorch's `>>` (TOSA ARITHMETIC_RIGHT_SHIFT, round = false), so
// the rounding lives there; NATURAL (adding half, TOSA's round = true)
// would add the last bit shifted out. Pinned by u85_shr / u55_shr.
inline int64_t Shift(int mode, int64_t a, int64_t b, RoundMode round) {
  const int amount = int(uint32_t(b) & kShiftAmountMask);
  const int32_t value = int32_t(uint32_t(a));
  if (mode == kEwShl) return int64_t(int32_t(uint32_t(value) << amount));
  return ScaleAndRound(value, 1, amount, round);
}

// DIV: the operands' integer quotient rounded toward zero, TOSA INTDIV
// (Vela 5.1.0 writes unit IFM, IFM2 and OFM scales for it). TOSA makes a
// zero divisor and INT32_MIN / -1 errors; GUESS: the NPU writes 0 for the
// first and wraps the second to INT32_MIN. ExecuTorch's lowerings never
// divide by zero. Pinned by //tests/conformance:div_int32_floor_u85_test
// and div_int16_trunc_u85_test.
inline int64_t Divide(int64_t a, int64_t b) {
  const int32_t x = int32_t(uint32_t(a)), y = int32_t(uint32_t(b));
  if (y == 0) return 0;
  return int64_t(int32_t(uint32_t(int64_t(x) / y)));
}

// Leading zero bits of the 32-bit pattern (32 for 0), TOSA CLZ.
inline int64_t CountLeadingZeros(int64_t a) {
  uint32_t x = uint32_t(a);
  int n = 0;
  for (uint32_t bit = 0x80000000u; bit != 0 && (x & bit) == 0; bit >>= 1) ++n;
  return n;
}

}  // namespace ethosu_sdk::npu
