// Top-k sampling over int8 logits with integers only, so the firmware and
// u85_check.py's reference (top_k_sampler.py, the same rule written again)
// draw the same token from the same logits and seed.
//
// The rule, for logits l[0..n) and 1 <= k <= n:
// - candidates: the k ids of highest logit, an equal logit ranking the lower
//   id first (so k = 1 is the argmax, the lowest id among equal maxima);
// - weights: w(i) = table[m - l[i]], m the highest logit; the table is
//   kWeightTableSize entries of round(kWeightOne * exp(-d * scale / T)) for
//   d = 0..255 logit steps, made by u85_generation.py from the logits'
//   quantization scale (so w is the softmax numerator up to rounding);
// - one draw x of xorshift32 (Marsaglia 2003, shifts 13, 17, 5) per sampled
//   token: r = (x * total) >> 32, then the candidate whose span of the
//   cumulative weights, in id order, holds r.
#ifndef ETHOSU_SDK_EXAMPLES_LM_TOP_K_SAMPLER_H_
#define ETHOSU_SDK_EXAMPLES_LM_TOP_K_SAMPLER_H_

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::examples::lm {

constexpr size_t kWeightTableSize = 256;  // every difference of two int8 values
constexpr int32_t kWeightOne = 1 << 16;   // the weight of the highest logit
constexpr size_t kMaxLogits = 65535;      // keeps the total weight below 2^32

class XorShift32 {
 public:
  explicit XorShift32(uint32_t seed) : state_(seed) {}  // seed != 0 (0 stays 0)
  uint32_t Next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }

 private:
  uint32_t state_;
};

// Whether `table` is a usable weight table: every entry in [0, kWeightOne],
// the first positive (the highest logit can always be drawn).
bool ValidWeightTable(const int32_t* table);

// The id the rule above draws; advances `rng` by one. Requires
// 1 <= k <= n <= kMaxLogits and ValidWeightTable(table).
int32_t SampleTopK(const int8_t* logits, size_t n, size_t k, const int32_t* table, XorShift32& rng);

}  // namespace ethosu_sdk::examples::lm

#endif  // ETHOSU_SDK_EXAMPLES_LM_TOP_K_SAMPLER_H_
