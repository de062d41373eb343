// The four-lane requantization (requantize_helium.h) against the reference's
// scalar one (arith.h), bit for bit, on QEMU's Cortex-M55: drawn sums,
// multipliers and shifts, rounding ties and the extremes. Without MVE there
// is nothing to compare and the test says so by its single check.
#include <cstdint>

#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/requantize_helium.h"
#include "cc/kernels/cortex_m/test_draw.h"
#include "cc/testing/unit_test.h"

namespace ethosu_sdk::kernels::cortex_m {
namespace {

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

// Compares the lanes of one (acc, multiplier, shift) draw; returns false on
// the first lane that differs, after reporting it.
bool Check(const int32_t acc[4], const int32_t mult[4], const int32_t shift[4], int32_t offset) {
  const RequantLanes r = LoadRequantLanes(vld1q_s32(mult), vld1q_s32(shift), offset, -128, 127);
  const int32x4_t accs = vld1q_s32(acc);
  if (!LeftShiftExact(accs, r)) {
    for (int j = 0; j < 4; ++j) {
      // The fallback is taken only when some lane's acc << shift overflows.
      if (shift[j] > 0 && static_cast<int64_t>(acc[j]) * (int64_t{1} << shift[j]) !=
                              static_cast<int32_t>(static_cast<uint32_t>(acc[j]) << shift[j])) {
        return true;
      }
    }
    ADD_FAILURE() << "LeftShiftExact refused lanes that fit";
    return false;
  }
  int32_t got[4];
  vst1q_s32(got, RequantizeLanes(accs, r));
  for (int j = 0; j < 4; ++j) {
    const int32_t want =
        Clamp(WrappingAdd(Requantize(acc[j], mult[j], shift[j]), offset), -128, 127);
    if (got[j] != want) {
      ADD_FAILURE() << "acc " << acc[j] << " multiplier " << mult[j] << " shift " << shift[j]
                    << ": " << got[j] << " vs " << want;
      return false;
    }
  }
  return true;
}

TEST(RequantizeLanes, MatchesScalar) {
  Draw d(0x9E3779B9u);
  int32_t failures = 0;
  for (int32_t i = 0; i < 20000 && failures < 5; ++i) {
    int32_t acc[4], mult[4], shift[4];
    for (int j = 0; j < 4; ++j) {
      const uint32_t bits = d.Next();
      // Small sums (where ties happen) and full-range ones.
      acc[j] = (bits & 1) ? static_cast<int32_t>(d.Next())
                          : static_cast<int32_t>(d.Next() % 4001) - 2000;
      mult[j] = static_cast<int32_t>(0x40000000u + (d.Next() & 0x3FFFFFFFu));
      if ((bits & 6) == 0) mult[j] = -mult[j];
      shift[j] = static_cast<int32_t>(d.Next() % 62) - 31;
    }
    if (!Check(acc, mult, shift, static_cast<int32_t>(d.Next() % 256) - 128)) ++failures;
  }
  EXPECT_EQ(failures, 0);
}

#else

TEST(RequantizeLanes, NoHeliumHere) { EXPECT_TRUE(true); }

#endif

}  // namespace
}  // namespace ethosu_sdk::kernels::cortex_m
