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

}  // namespace

__attribute__((target("avx2"))) bool Requantize8(const RequantTable& t, const uint32_t* sums,
                                                 int first, int32_t zero_point, int32_t lo,
                                                 int32_t hi, uint8_t* out) {
  const __m256i sum = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sums + first));
  const __m256i bias = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(t.bias + first));
  const __m256i acc = _mm256_add_epi32(sum, bias);  // U85: a 32-bit wrap, as its accumulators do
  if (t.bias_after_sum) {
    // Signed overflow: operands of one sign, a result of the other.
    const __m256i overflow =
        _mm256_and_si256(_mm256_xor_si256(sum, acc), _mm256_xor_si256(bias, acc));
    if (_mm256_movemask_ps(_mm256_castsi256_ps(overflow)) != 0) return false;
  }
  const __m256i zp = _mm256_set1_epi64x(zero_point);
  const __m256i vlo = _mm256_set1_epi64x(lo), vhi = _mm256_set1_epi64x(hi);
  const __m256i a = ScaleFour(_mm256_castsi256_si128(acc), t, first, zp, vlo, vhi);
  const __m256i b = ScaleFour(_mm256_extracti128_si256(acc, 1), t, first + 4, zp, vlo, vhi);
  // The low byte of each 64-bit lane, in channel order.
  const __m256i bytes =
      _mm256_setr_epi8(0, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 8, -1, -1,
                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i pa = _mm256_shuffle_epi8(a, bytes), pb = _mm256_shuffle_epi8(b, bytes);
  const uint32_t a4 = uint32_t(_mm_extract_epi16(_mm256_castsi256_si128(pa), 0)) |
                      uint32_t(_mm_extract_epi16(_mm256_extracti128_si256(pa, 1), 0)) << 16;
  const uint32_t b4 = uint32_t(_mm_extract_epi16(_mm256_castsi256_si128(pb), 0)) |
                      uint32_t(_mm_extract_epi16(_mm256_extracti128_si256(pb, 1), 0)) << 16;
  for (int k = 0; k < 4; ++k) {
    out[k] = uint8_t(a4 >> (8 * k));
    out[4 + k] = uint8_t(b4 >> (8 * k));
  }
  return true;
}
#else
bool Requantize8(const RequantTable&, const uint32_t*, int, int32_t, int32_t, int32_t, uint8_t*) {
  return false;
}
#endif

}  // namespace ethosu_sdk::npu
