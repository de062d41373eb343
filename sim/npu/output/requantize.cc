#include "sim/npu/output/requantize.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NPU_X86_SIMD 1
#endif

namespace ethosu_sdk::npu {
namespace {

constexpr int kLanes = 8;
constexpr int kMaxVectorShift = 61;  // |acc * scale + round| < 2^63 below this

int Padded(int channels) { return (channels + kLanes - 1) / kLanes * kLanes; }

bool HasAvx2() {
#ifdef NPU_X86_SIMD
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace

size_t RequantTableBytes(int channels) {
  return size_t(Padded(channels)) * (2 * sizeof(int32_t) + 3 * sizeof(int64_t));
}

bool RequantTableFor(const ChannelScale* scales, int channels, bool bias_after_sum, void* memory,
                     RequantTable* t) {
  static const bool avx2 = HasAvx2();
  if (!avx2) return false;
  for (int c = 0; c < channels; ++c) {
    const ChannelScale& s = scales[c];
    const bool bias32 = s.bias >= INT32_MIN && s.bias <= INT32_MAX;
    if (s.scale > uint32_t(INT32_MAX) || s.shift > kMaxVectorShift || !bias32) return false;
  }
  const int n = Padded(channels);
  auto* p = static_cast<uint8_t*>(memory);
  t->shift = reinterpret_cast<int64_t*>(p);
  t->round_positive = t->shift + n;
  t->round_negative = t->round_positive + n;
  t->bias = reinterpret_cast<int32_t*>(t->round_negative + n);
  t->scale = t->bias + n;
  t->channels = channels;
  t->bias_after_sum = bias_after_sum;
  for (int c = 0; c < n; ++c) {
    const ChannelScale s = c < channels ? scales[c] : ChannelScale();
    t->bias[c] = int32_t(s.bias);
    t->scale[c] = int32_t(s.scale);
    t->shift[c] = s.shift;
    t->round_positive[c] = s.round_positive;
    t->round_negative[c] = s.round_negative;
  }
  return true;
}

#ifdef NPU_X86_SIMD
namespace {

// Four channels: sign-extended accumulators and multipliers in 64-bit lanes.
__attribute__((target("avx2"))) __m256i ScaleFour(__m128i acc, const RequantTable& t, int c,
                                                  __m256i zero_point, __m256i lo, __m256i hi) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i a = _mm256_cvtepi32_epi64(acc);
  const __m256i s =
      _mm256_cvtepi32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t.scale + c)));
  __m256i p = _mm256_mul_epi32(a, s);  // low 32 bits of each lane, signed
  const __m256i negative = _mm256_cmpgt_epi64(zero, a);
  const __m256i round = _mm256_blendv_epi8(
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.round_positive + c)),
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.round_negative + c)), negative);
  p = _mm256_add_epi64(p, round);
  // Arithmetic shift by a per-lane count: a logical shift of the value
  // with its sign bits flipped, flipped back.
  const __m256i sign = _mm256_cmpgt_epi64(zero, p);
  const __m256i shift = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.shift + c));
  __m256i v = _mm256_xor_si256(_mm256_srlv_epi64(_mm256_xor_si256(p, sign), shift), sign);
  v = _mm256_add_epi64(v, zero_point);
  v = _mm256_blendv_epi8(v, lo, _mm256_cmpgt_epi64(lo, v));
  return _mm256_blendv_epi8(v, hi, _mm256_cmpgt_epi64(v, hi));
}

// The broadcast output constants of one row.
struct Bounds {
  __m256i zero_point, lo, hi;
};

__attribute__((target("avx2"))) Bounds BoundsOf(int32_t zero_point, int32_t lo, int32_t hi) {
  return {_mm256_set1_epi64x(zero_point), _mm256_set1_epi64x(lo), _mm256_set1_epi64x(hi)};
}

// Channels [first, first + 8); false (nothing written) on a U55 overflow.
__attribute__((target("avx2"))) inline bool Group(const RequantTable& t, const uint32_t* sums,
                                                  int first, const Bounds& b, uint8_t* out) {
  const __m256i sum = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sums + first));
  const __m256i bias = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.bias + first));
  const __m256i acc = _mm256_add_epi32(sum, bias);  // U85: a 32-bit wrap, as its accumulators do
  if (t.bias_after_sum) {
    // Signed overflow: operands of one sign, a result of the other.
    const __m256i overflow =
        _mm256_and_si256(_mm256_xor_si256(sum, acc), _mm256_xor_si256(bias, acc));
    if (_mm256_movemask_ps(_mm256_castsi256_ps(overflow)) != 0) return false;
  }
  const __m256i lo4 = ScaleFour(_mm256_castsi256_si128(acc), t, first, b.zero_point, b.lo, b.hi);
  const __m256i hi4 =
      ScaleFour(_mm256_extracti128_si256(acc, 1), t, first + 4, b.zero_point, b.lo, b.hi);
  // The clamped values fit 16 bits: the low 32 bits of each 64-bit lane,
  // packed to words, then each word's low byte.
  const __m256i low_dwords = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  const __m128i words =
      _mm_packs_epi32(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(lo4, low_dwords)),
                      _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(hi4, low_dwords)));
  const __m128i low_bytes =
      _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(words, low_bytes));
  return true;
}

}  // namespace

__attribute__((target("avx2"))) bool Requantize8(const RequantTable& t, const uint32_t* sums,
                                                 int first, int32_t zero_point, int32_t lo,
                                                 int32_t hi, uint8_t* out) {
  return Group(t, sums, first, BoundsOf(zero_point, lo, hi), out);
}

__attribute__((target("avx2"))) int RequantizeGroups(const RequantTable& t, const uint32_t* sums,
                                                     int first, int groups, int32_t zero_point,
                                                     int32_t lo, int32_t hi, uint8_t* out) {
  const Bounds b = BoundsOf(zero_point, lo, hi);
  int done = 0;
  for (int g = 0; g < groups; ++g, done += kLanes) {
    if (!Group(t, sums, first + done, b, out + done)) break;
  }
  return done;
}
#else
bool Requantize8(const RequantTable&, const uint32_t*, int, int32_t, int32_t, int32_t, uint8_t*) {
  return false;
}
int RequantizeGroups(const RequantTable&, const uint32_t*, int, int, int32_t, int32_t, int32_t,
                     uint8_t*) {
  return 0;
}
#endif

}  // namespace ethosu_sdk::npu
