#include "examples/lm/top_k_sampler.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cc/testing/unit_test.h"

namespace ethosu_sdk::examples::lm {
namespace {

// exp(-d / 8) in kWeightOne units: a logit scale of 1/8 at temperature 1.
void FillTable(int32_t* table) {
  for (size_t d = 0; d < kWeightTableSize; ++d) {
    table[d] =
        static_cast<int32_t>(std::lround(kWeightOne * std::exp(-static_cast<double>(d) / 8)));
  }
}

TEST(XorShift32, MatchesMarsaglia) {
  // Marsaglia, "Xorshift RNGs" (J. Stat. Softw. 8(14), 2003): the 13/17/5
  // generator from y = 2463534242 first returns 723471715.
  XorShift32 rng(2463534242u);
  EXPECT_EQ(rng.Next(), 723471715u);
}

TEST(SampleTopK, KOfOneIsTheLowestIdOfTheHighestLogit) {
  int32_t table[kWeightTableSize];
  FillTable(table);
  const int8_t logits[] = {3, -7, 12, 12, 5, 12};
  XorShift32 rng(7);
  for (int draw = 0; draw < 50; ++draw) EXPECT_EQ(SampleTopK(logits, 6, 1, table, rng), 2);
}

TEST(SampleTopK, DrawsOnlyCandidatesAndTiesAdmitLowerIds) {
  int32_t table[kWeightTableSize];
  FillTable(table);
  // k = 3: id 1 (40), then two of the three 20s: ids 0 and 3, never 5 or below.
  const int8_t logits[] = {20, 40, -128, 20, 19, 20};
  int seen[6] = {};
  XorShift32 rng(12345);
  for (int draw = 0; draw < 4000; ++draw) ++seen[SampleTopK(logits, 6, 3, table, rng)];
  EXPECT_GT(seen[0], 0);
  EXPECT_GT(seen[1], 0);
  EXPECT_GT(seen[3], 0);
  EXPECT_EQ(seen[2] + seen[4] + seen[5], 0);
}

TEST(SampleTopK, FrequenciesFollowTheWeights) {
  int32_t table[kWeightTableSize];
  FillTable(table);
  // Weights exp(0), exp(-1), exp(-2) of the highest: shares 0.665, 0.245, 0.090.
  const int8_t logits[] = {-16, 0, -8, -100};
  const double share[] = {std::exp(-2.0), 1.0, std::exp(-1.0), 0.0};
  const double sum = share[0] + share[1] + share[2];
  constexpr int kDraws = 20000;
  int seen[4] = {};
  XorShift32 rng(99);
  for (int draw = 0; draw < kDraws; ++draw) ++seen[SampleTopK(logits, 4, 3, table, rng)];
  for (int i = 0; i < 4; ++i) {
    const double expected = kDraws * share[i] / sum;
    // Five standard deviations of a binomial count.
    const double allowed = 5 * std::sqrt(expected * (1 - share[i] / sum)) + 1;
    EXPECT_LE(std::fabs(seen[i] - expected), allowed) << "id " << i << ": " << seen[i];
  }
}

TEST(ValidWeightTable, RejectsOutOfRangeEntries) {
  int32_t table[kWeightTableSize];
  FillTable(table);
  EXPECT_TRUE(ValidWeightTable(table));
  table[0] = 0;
  EXPECT_FALSE(ValidWeightTable(table));
  FillTable(table);
  table[200] = -1;
  EXPECT_FALSE(ValidWeightTable(table));
  table[200] = kWeightOne + 1;
  EXPECT_FALSE(ValidWeightTable(table));
}

}  // namespace
}  // namespace ethosu_sdk::examples::lm
