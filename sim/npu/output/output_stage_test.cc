// The output stage (output_stage.h) against oracles written here from the
// definitions, in exact 128-bit arithmetic (__int128, host only):
//  - value * scale is an exact integer x; a rounding mode rounds the exact
//    quotient x / 2^shift (floor, toward zero, nearest with ties up, nearest
//    with ties away from zero);
//  - the model saturates every result to +-2^62 (its documented range);
//  - TOSA's apply_scale_32 (SINGLE_ROUND, DOUBLE_ROUND) and apply_scale_16,
//    from the specification's definition, where the model says NATURAL and
//    the DOUBLE modes are TOSA's.
// DOUBLE_SYMMETRIC and DOUBLE_ASYMMETRIC are a documented GUESS in
// output_stage.h (both TOSA's DOUBLE_ROUND, not checked against silicon):
// this test pins that guess, it does not confirm it.
//
// MulAddShift and MulAddShiftPortable (the two-word form for compilers
// without a 128-bit type) are both checked, and ChannelScale::Apply, the
// per-channel form of ScaleAndRound, and Int32Scale::Apply (64-bit, for
// int32 values and 31-bit multipliers) where it applies. (This test found the two-word form
// missing saturation for results in [-2^64, -2^63).)
#include "sim/npu/output/output_stage.h"
#include <cstdint>
#include "cc/testing/unit_test.h"

namespace npu = ethosu_sdk::npu;

namespace {

using npu::RoundMode;
using Int128 = __int128;

constexpr int64_t kSaturation = int64_t(1) << 62;  // the model's result range
constexpr int kMaxShift = 63;
constexpr uint32_t kMaxScale = 0xFFFFFFFFu;  // OFM_SCALE's scale is 32-bit unsigned

constexpr RoundMode kModes[] = {RoundMode::kDoubleSymmetric,  RoundMode::kNatural,
                                RoundMode::kDoubleAsymmetric, RoundMode::kSymmetric,
                                RoundMode::kTruncateToZero,   RoundMode::kTruncateToLower};

// A broken mode fails most of the million samples: report the first few.
constexpr int kMaxReported = 20;
int mismatches = 0;

const char* Name(RoundMode mode) {
  switch (mode) {
    case RoundMode::kDoubleSymmetric:
      return "DOUBLE_SYMMETRIC";
    case RoundMode::kNatural:
      return "NATURAL";
    case RoundMode::kDoubleAsymmetric:
      return "DOUBLE_ASYMMETRIC";
    case RoundMode::kSymmetric:
      return "SYMMETRIC";
    case RoundMode::kTruncateToZero:
      return "TRUNCATE_TO_ZERO";
    case RoundMode::kTruncateToLower:
      return "TRUNCATE_TO_LOWER";
  }
  return "?";
}

void ExpectEq(int64_t got, int64_t want, const char* what, int64_t value, int64_t scale,
              int shift) {
  if (got == want || ++mismatches > kMaxReported) return;
  EXPECT_EQ(got, want) << what << ": value " << value << " scale " << scale << " shift " << shift;
}

// floor(x / 2^shift): C++ division truncates toward zero, so a negative
// inexact quotient is one too high.
Int128 FloorDiv(Int128 x, int shift) {
  const Int128 divisor = Int128(1) << shift;
  Int128 q = x / divisor;
  if (x % divisor != 0 && x < 0) --q;
  return q;
}

// Nearest integer to x / 2^shift, ties toward +infinity: floor(x/2^s + 1/2).
Int128 NearestTiesUp(Int128 x, int shift) {
  return FloorDiv(2 * x + (Int128(1) << shift), shift + 1);
}

Int128 Saturate(Int128 v) {
  return v > kSaturation ? kSaturation : (v < -kSaturation ? -kSaturation : v);
}

// `got` against the exact result saturated to the model's range.
void ExpectSaturated(int64_t got, Int128 exact, const char* what, int64_t value, int64_t scale,
                     int shift) {
  ExpectEq(got, int64_t(Saturate(exact)), what, value, scale, shift);
}

// The rounding modes by their definitions on the exact quotient x / 2^shift.
// `value_negative`: the sign of the accumulator (the DOUBLE modes follow it,
// as TOSA's DOUBLE_ROUND does).
Int128 Rounded(Int128 x, int shift, RoundMode mode, bool value_negative) {
  switch (mode) {
    case RoundMode::kTruncateToLower:
      return FloorDiv(x, shift);
    case RoundMode::kTruncateToZero:
      return x / (Int128(1) << shift);
    case RoundMode::kNatural:
      return NearestTiesUp(x, shift);
    case RoundMode::kSymmetric: {
      const Int128 magnitude = NearestTiesUp(x < 0 ? -x : x, shift);
      return x < 0 ? -magnitude : magnitude;
    }
    case RoundMode::kDoubleSymmetric:
    case RoundMode::kDoubleAsymmetric: {
      // GUESS (output_stage.h): TOSA DOUBLE_ROUND, whose rounding addend
      // 2^(shift-1) gains +-2^30 (the sign of the accumulator) above a
      // 31-bit shift; below it, NATURAL.
      const Int128 double_adjust = Int128(1) << 30;
      const Int128 adjust = shift > 31 ? (value_negative ? -double_adjust : double_adjust) : 0;
      return NearestTiesUp(x + adjust, shift);
    }
  }
  return 0;
}

// The exact rounded result, before saturation.
Int128 Oracle(int64_t value, uint32_t scale, int shift, RoundMode mode) {
  return Rounded(Int128(value) * scale, shift, mode, value < 0);
}

void CheckAllModes(int64_t value, uint32_t scale, int shift) {
  for (RoundMode mode : kModes) {
    const Int128 exact = Oracle(value, scale, shift, mode);
    ExpectSaturated(npu::ScaleAndRound(value, scale, shift, mode), exact, Name(mode), value, scale,
                    shift);
    const npu::ChannelScale channel(scale, shift, mode, /*bias_value=*/0);
    ExpectSaturated(channel.Apply(value), exact, "ChannelScale::Apply", value, scale, shift);
    const npu::Scale s{scale, shift, mode};
    if (npu::Int32Scale::Fits(s) && value >= INT32_MIN && value <= INT32_MAX) {
      ExpectSaturated(npu::Int32Scale(s).Apply(int32_t(value)), exact, "Int32Scale::Apply", value,
                      scale, shift);
    }
  }
}

}  // namespace

// Values worked out by hand from the definitions (x / 2^shift written out).
TEST(OutputStage, WorkedValues) {
  struct Row {
    int64_t value;
    uint32_t scale;
    int shift;
    // DOUBLE_SYMMETRIC, NATURAL, DOUBLE_ASYMMETRIC, SYMMETRIC,
    // TRUNCATE_TO_ZERO, TRUNCATE_TO_LOWER
    int64_t want[6];
  };
  const Row rows[] = {
      {3, 1, 1, {2, 2, 2, 2, 1, 1}},         // 1.5
      {-3, 1, 1, {-1, -1, -1, -2, -1, -2}},  // -1.5: ties up vs away from zero
      {-5, 1, 2, {-1, -1, -1, -1, -1, -2}},  // -1.25
      {-6, 1, 2, {-1, -1, -1, -2, -1, -2}},  // -1.5
      {7, 3, 3, {3, 3, 3, 3, 2, 2}},         // 21/8 = 2.625
      {-7, 3, 3, {-3, -3, -3, -3, -2, -3}},  // -2.625
      {5, 0, 4, {0, 0, 0, 0, 0, 0}},         // zero scale
      {-5, 0, 4, {0, 0, 0, 0, 0, 0}},
      {-123, 7, 0, {-861, -861, -861, -861, -861, -861}},  // shift 0: the product
      // 2^30 / 2^32 = 0.25: rounded once it is 0; DOUBLE rounds it to 31
      // bits first (0.5 -> 1), then the remaining bit (0.5 -> 1).
      {1, 1u << 30, 32, {1, 0, 1, 0, 0, 0}},
      // -0.25: DOUBLE: -0.5 at 31 bits, away from zero -> -1, then -0.5 -> 0.
      {-1, 1u << 30, 32, {0, 0, 0, 0, 0, -1}},
      // -0.75: DOUBLE: -1.5 -> -2, then -1 -> -1.
      {-3, 1u << 30, 32, {-1, -1, -1, -1, 0, -1}},
      // INT64_MIN / 2^63 = -1 exactly.
      {INT64_MIN, 1, 63, {-1, -1, -1, -1, -1, -1}},
      // (2^63 - 1) / 2^63, just under 1.
      {INT64_MAX, 1, 63, {1, 1, 1, 1, 0, 0}},
      // 2^63 * (2^32 - 1) is far beyond 2^62: saturated.
      {INT64_MIN,
       kMaxScale,
       0,
       {-kSaturation, -kSaturation, -kSaturation, -kSaturation, -kSaturation, -kSaturation}},
      {INT64_MAX,
       2,
       0,
       {kSaturation, kSaturation, kSaturation, kSaturation, kSaturation, kSaturation}},
      // Just inside and just outside the range.
      {kSaturation - 1,
       1,
       0,
       {kSaturation - 1, kSaturation - 1, kSaturation - 1, kSaturation - 1, kSaturation - 1,
        kSaturation - 1}},
      {-kSaturation - 1,
       1,
       0,
       {-kSaturation, -kSaturation, -kSaturation, -kSaturation, -kSaturation, -kSaturation}},
  };
  for (const Row& r : rows) {
    for (int m = 0; m < 6; ++m) {
      ExpectEq(npu::ScaleAndRound(r.value, r.scale, r.shift, kModes[m]), r.want[m], Name(kModes[m]),
               r.value, r.scale, r.shift);
      // The oracle agrees with the hand-worked values too.
      ExpectEq(int64_t(Saturate(Oracle(r.value, r.scale, r.shift, kModes[m]))), r.want[m], "oracle",
               r.value, r.scale, r.shift);
    }
  }
}

// Every mode on a grid of edge values: shifts around 0, 31/32 and 62/63,
// extremes of int64 and of the 32-bit scale, and exact ties.
TEST(OutputStage, EdgeGrid) {
  const int shifts[] = {0, 1, 2, 15, 30, 31, 32, 33, 47, 61, 62, 63};
  const uint32_t scales[] = {0, 1, 2, 3, 0x7FFF, 0x40000000u, 0x7FFFFFFFu, 0x80000000u, kMaxScale};
  for (int shift : shifts) {
    // Ties: odd multiples of 2^(shift-1) (3 * 2^62 wraps, as any value may).
    const int64_t half = shift > 0 ? int64_t(uint64_t(1) << (shift - 1)) : 0;
    const int64_t three_halves = int64_t(3 * uint64_t(half));
    const int64_t values[] = {0,
                              1,
                              -1,
                              2,
                              -2,
                              3,
                              -3,
                              half,
                              -half,
                              half + 1,
                              -half - 1,
                              half - 1,
                              -half + 1,
                              three_halves,
                              -three_halves,
                              INT32_MAX,
                              INT32_MIN,
                              INT64_MAX,
                              INT64_MIN,
                              INT64_MAX - 1,
                              INT64_MIN + 1,
                              int64_t(1) << 47,
                              -(int64_t(1) << 47)};
    for (int64_t value : values) {
      for (uint32_t scale : scales) CheckAllModes(value, scale, shift);
    }
  }
}

// A deterministic pseudo-random sweep (64-bit LCG, Knuth's MMIX constants)
// over magnitudes from 0 to 63 bits, every scale width and every shift.
TEST(OutputStage, RandomSweep) {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&state]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state;
  };
  for (int i = 0; i < 200000; ++i) {
    const int64_t value = int64_t(next()) >> (next() % 64);
    const uint32_t scale = uint32_t(next() >> 32) >> (next() % 32);
    const int shift = int(next() % (kMaxShift + 1));
    CheckAllModes(value, scale, shift);
  }
}

// MulAddShift in both forms: (value * scale + round) >> shift, exact, saturated.
TEST(OutputStage, MulAddShiftBothForms) {
  const int64_t rounds[] = {0, 1, -1, int64_t(1) << 30, -(int64_t(1) << 30), INT64_MAX, INT64_MIN};
  const int64_t values[] = {0, 1, -1, 12345, -12345, INT32_MIN, INT64_MAX, INT64_MIN};
  const uint32_t scales[] = {0, 1, 0x12345678u, kMaxScale};
  for (int shift = 0; shift <= kMaxShift; ++shift) {
    for (int64_t value : values) {
      for (uint32_t scale : scales) {
        for (int64_t round : rounds) {
          const Int128 exact = FloorDiv(Int128(value) * scale + round, shift);
          ExpectSaturated(npu::MulAddShift(value, scale, round, shift), exact, "MulAddShift", value,
                          scale, shift);
          ExpectSaturated(npu::MulAddShiftPortable(value, scale, round, shift), exact,
                          "MulAddShiftPortable", value, scale, shift);
        }
      }
    }
  }
}

namespace {

// TOSA apply_scale_32 from the specification's definition: with
// REQUIRE(multiplier >= 0), REQUIRE(2 <= shift <= 62) and a value in
// [-2^(shift-1), 2^(shift-1)), the result is
// floor((value * multiplier + round) / 2^shift) with round = 2^(shift-1),
// and with DOUBLE_ROUND above a 31-bit shift round +-= 2^30 by the sign of
// value; REQUIRE the result fits int32. False if a REQUIRE fails.
bool TosaApplyScale32(int32_t value, int32_t multiplier, int shift, bool double_round,
                      int64_t* out) {
  if (multiplier < 0 || shift < 2 || shift > 62) return false;
  const Int128 bound = Int128(1) << (shift - 1);
  if (value < -bound || value >= bound) return false;
  Int128 round = bound;
  if (double_round && shift > 31) round += value >= 0 ? (Int128(1) << 30) : -(Int128(1) << 30);
  const Int128 result = FloorDiv(Int128(value) * multiplier + round, shift);
  if (result < INT32_MIN || result > INT32_MAX) return false;
  *out = int64_t(result);
  return true;
}

// TOSA apply_scale_16: a 48-bit value, REQUIRE(multiplier >= 0) on the
// int16 multiplier, 2 <= shift <= 62, round = 2^(shift-1), no double
// rounding; REQUIRE the result fits int32.
bool TosaApplyScale16(int64_t value, int16_t multiplier, int shift, int64_t* out) {
  if (multiplier < 0 || shift < 2 || shift > 62) return false;
  if (value < -(int64_t(1) << 47) || value >= (int64_t(1) << 47)) return false;
  const Int128 result = FloorDiv(Int128(value) * multiplier + (Int128(1) << (shift - 1)), shift);
  if (result < INT32_MIN || result > INT32_MAX) return false;
  *out = int64_t(result);
  return true;
}

}  // namespace

TEST(OutputStage, MatchesTosaApplyScale) {
  uint64_t state = 0x2545F4914F6CDD1Dull;
  auto next = [&state]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state;
  };
  long compared = 0;
  for (int i = 0; i < 200000; ++i) {
    const int shift = 2 + int(next() % 61);
    const int32_t value = int32_t(uint32_t(next() >> 32)) >> (next() % 32);
    const int32_t multiplier = int32_t(uint32_t(next() >> 33) >> (next() % 31));
    int64_t single = 0, twice = 0;
    if (TosaApplyScale32(value, multiplier, shift, false, &single)) {
      ExpectEq(npu::ScaleAndRound(value, multiplier, shift, RoundMode::kNatural), single,
               "NATURAL vs TOSA SINGLE_ROUND", value, multiplier, shift);
      ++compared;
    }
    if (TosaApplyScale32(value, multiplier, shift, true, &twice)) {
      ExpectEq(npu::ScaleAndRound(value, multiplier, shift, RoundMode::kDoubleSymmetric), twice,
               "DOUBLE_SYMMETRIC vs TOSA DOUBLE_ROUND (GUESS)", value, multiplier, shift);
      ExpectEq(npu::ScaleAndRound(value, multiplier, shift, RoundMode::kDoubleAsymmetric), twice,
               "DOUBLE_ASYMMETRIC vs TOSA DOUBLE_ROUND (GUESS)", value, multiplier, shift);
    }
    const int64_t value48 = int64_t(next()) >> (16 + next() % 48);
    const int16_t multiplier16 = int16_t(uint16_t(next() >> 49) >> (next() % 15));
    int64_t scaled16 = 0;
    if (TosaApplyScale16(value48, multiplier16, shift, &scaled16)) {
      ExpectEq(npu::ScaleAndRound(value48, multiplier16, shift, RoundMode::kNatural), scaled16,
               "NATURAL vs TOSA apply_scale_16", value48, multiplier16, shift);
    }
  }
  // Most samples meet the REQUIREs; a sweep that compared few is broken.
  EXPECT_GT(compared, 100000) << "TOSA samples within the REQUIREs";
}

TEST(OutputStage, Clamp) {
  EXPECT_EQ(npu::Clamp(-129, -128, 127), -128) << "Clamp low";
  EXPECT_EQ(npu::Clamp(128, -128, 127), 127) << "Clamp high";
  EXPECT_EQ(npu::Clamp(5, -128, 127), 5) << "Clamp inside";
  EXPECT_EQ(npu::Clamp(INT64_MIN, INT32_MIN, INT32_MAX), INT32_MIN) << "Clamp INT64_MIN";
  EXPECT_EQ(npu::Clamp(INT64_MAX, INT32_MIN, INT32_MAX), INT32_MAX) << "Clamp INT64_MAX";
}
