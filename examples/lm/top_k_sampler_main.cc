// The firmware's sampler (top_k_sampler.h) on the host, for
// u85_sampler_test.py to hold it against top_k_sampler.py. Reads from stdin
// the weight table (kWeightTableSize integers), then cases of
// "k seed draws n logit_0 .. logit_n-1"; writes each case's drawn ids on a
// line. Any malformed case ends the run with one error line and status 2.
#include <cstdint>
#include <cstdio>

#include "examples/lm/top_k_sampler.h"

namespace {

using ethosu_sdk::examples::lm::kWeightTableSize;

constexpr unsigned kMaxCaseLogits = 256;

int Fail(const char* what) {
  std::fprintf(stderr, "top_k_sampler_main: error: %s\n", what);
  return 2;
}

}  // namespace

int main() {
  namespace lm = ethosu_sdk::examples::lm;
  int32_t table[kWeightTableSize];
  for (int32_t& entry : table) {
    if (std::scanf("%d", &entry) != 1) return Fail("want the weight table first");
  }
  if (!lm::ValidWeightTable(table))
    return Fail("weight table entries must lie in [0, 65536], the first > 0");
  unsigned k, seed, draws, n;
  while (std::scanf("%u %u %u %u", &k, &seed, &draws, &n) == 4) {
    if (n == 0 || n > kMaxCaseLogits || k == 0 || k > n) return Fail("want 1 <= k <= n <= 256");
    int8_t logits[kMaxCaseLogits];
    for (unsigned i = 0; i < n; ++i) {
      int value;
      if (std::scanf("%d", &value) != 1 || value < -128 || value > 127)
        return Fail("want n int8 logits");
      logits[i] = static_cast<int8_t>(value);
    }
    lm::XorShift32 rng(seed);
    for (unsigned d = 0; d < draws; ++d)
      std::printf("%s%d", d ? " " : "", lm::SampleTopK(logits, n, k, table, rng));
    std::printf("\n");
  }
  return 0;
}
