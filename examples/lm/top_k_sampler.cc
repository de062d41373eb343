#include "examples/lm/top_k_sampler.h"

namespace ethosu_sdk::examples::lm {
namespace {

constexpr int kLevels = 256;  // int8 values, indexed by value + 128

// The k-th highest logit value, and how many ids of that value are
// candidates (the lowest ones): a histogram, so no sort and no buffer.
struct Cutoff {
  int value;
  size_t admitted;
};

Cutoff FindCutoff(const int8_t* logits, size_t n, size_t k) {
  uint16_t count[kLevels] = {};
  for (size_t i = 0; i < n; ++i) ++count[logits[i] + 128];
  size_t above = 0;
  int level = kLevels - 1;
  while (above + count[level] < k) above += count[level--];
  return {level - 128, k - above};
}

// Calls `visit(id, weight)` for each candidate in id order.
template <typename Visit>
void ForEachCandidate(const int8_t* logits, size_t n, const Cutoff& cutoff, const int32_t* table,
                      int highest, Visit visit) {
  size_t at_cutoff = 0;
  for (size_t i = 0; i < n; ++i) {
    const int value = logits[i];
    if (value < cutoff.value) continue;
    if (value == cutoff.value && at_cutoff++ >= cutoff.admitted) continue;
    if (!visit(static_cast<int32_t>(i), static_cast<uint32_t>(table[highest - value]))) return;
  }
}

}  // namespace

bool ValidWeightTable(const int32_t* table) {
  for (size_t d = 0; d < kWeightTableSize; ++d) {
    if (table[d] < 0 || table[d] > kWeightOne) return false;
  }
  return table[0] > 0;
}

int32_t SampleTopK(const int8_t* logits, size_t n, size_t k, const int32_t* table,
                   XorShift32& rng) {
  int highest = logits[0];
  for (size_t i = 1; i < n; ++i) highest = logits[i] > highest ? logits[i] : highest;
  const Cutoff cutoff = FindCutoff(logits, n, k);
  uint64_t total = 0;
  ForEachCandidate(logits, n, cutoff, table, highest, [&](int32_t, uint32_t weight) {
    total += weight;
    return true;
  });
  uint64_t r = (static_cast<uint64_t>(rng.Next()) * total) >> 32;
  int32_t chosen = -1;
  ForEachCandidate(logits, n, cutoff, table, highest, [&](int32_t id, uint32_t weight) {
    if (r < weight) {
      chosen = id;
      return false;
    }
    r -= weight;
    return true;
  });
  return chosen;
}

}  // namespace ethosu_sdk::examples::lm
