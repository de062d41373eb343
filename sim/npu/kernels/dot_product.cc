#include "sim/npu/kernels/dot_product.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NPU_X86_SIMD 1
#endif

namespace ethosu_sdk::npu {
namespace {

using DotFunction = void (*)(const int16_t*, const int16_t*, size_t, size_t, int, uint32_t*);

[[maybe_unused]] [[maybe_unused]] void DotPortable(const int16_t* a, const int16_t* rows,
                                                   size_t stride, size_t n, int count,
                                                   uint32_t* out) {
  for (int r = 0; r < count; ++r) {
    const int16_t* w = rows + size_t(r) * stride;
    uint32_t sum = 0;
    for (size_t j = 0; j < n; ++j) sum += uint32_t(int32_t(a[j]) * int32_t(w[j]));
    out[r] = sum;
  }
}

#ifdef NPU_X86_SIMD
// _mm_madd_epi16 multiplies int16 pairs and adds adjacent products into
// int32 lanes; lane sums wrap like the hardware's accumulators.
uint32_t Sum128(__m128i v) {
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
  return uint32_t(_mm_cvtsi128_si32(v));
}

void DotSse2(const int16_t* a, const int16_t* rows, size_t stride, size_t n, int count,
             uint32_t* out) {
  int r = 0;
  for (; r + 4 <= count; r += 4) {
    const int16_t* w = rows + size_t(r) * stride;
    __m128i s0 = _mm_setzero_si128(), s1 = s0, s2 = s0, s3 = s0;
    for (size_t j = 0; j < n; j += 8) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + j));
      s0 = _mm_add_epi32(
          s0, _mm_madd_epi16(x, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + j))));
      s1 = _mm_add_epi32(
          s1, _mm_madd_epi16(x, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + stride + j))));
      s2 = _mm_add_epi32(
          s2,
          _mm_madd_epi16(x, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 2 * stride + j))));
      s3 = _mm_add_epi32(
          s3,
          _mm_madd_epi16(x, _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 3 * stride + j))));
    }
    out[r] = Sum128(s0);
    out[r + 1] = Sum128(s1);
    out[r + 2] = Sum128(s2);
    out[r + 3] = Sum128(s3);
  }
  for (; r < count; ++r) {
    const int16_t* w = rows + size_t(r) * stride;
    __m128i s = _mm_setzero_si128();
    for (size_t j = 0; j < n; j += 8) {
      s = _mm_add_epi32(s,
                        _mm_madd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + j)),
                                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + j))));
    }
    out[r] = Sum128(s);
  }
}

__attribute__((target("avx2"))) uint32_t Sum256(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
  return uint32_t(_mm_cvtsi128_si32(s));
}

__attribute__((target("avx2"))) void DotAvx2(const int16_t* a, const int16_t* rows, size_t stride,
                                             size_t n, int count, uint32_t* out) {
  int r = 0;
  for (; r + 4 <= count; r += 4) {
    const int16_t* w = rows + size_t(r) * stride;
    __m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
    for (size_t j = 0; j < n; j += 16) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + j));
      s0 = _mm256_add_epi32(
          s0, _mm256_madd_epi16(x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + j))));
      s1 = _mm256_add_epi32(
          s1, _mm256_madd_epi16(
                  x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + stride + j))));
      s2 = _mm256_add_epi32(
          s2, _mm256_madd_epi16(
                  x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 2 * stride + j))));
      s3 = _mm256_add_epi32(
          s3, _mm256_madd_epi16(
                  x, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 3 * stride + j))));
    }
    out[r] = Sum256(s0);
    out[r + 1] = Sum256(s1);
    out[r + 2] = Sum256(s2);
    out[r + 3] = Sum256(s3);
  }
  for (; r < count; ++r) {
    const int16_t* w = rows + size_t(r) * stride;
    __m256i s = _mm256_setzero_si256();
    for (size_t j = 0; j < n; j += 16) {
      s = _mm256_add_epi32(
          s, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + j)),
                               _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + j))));
    }
    out[r] = Sum256(s);
  }
}
#endif

DotFunction Select() {
#ifdef NPU_X86_SIMD
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return DotAvx2;
  return DotSse2;
#else
  return DotPortable;
#endif
}

}  // namespace

void DotRows(const int16_t* a, const int16_t* rows, size_t stride, size_t n, int count,
             uint32_t* out) {
  static const DotFunction dot = Select();
  dot(a, rows, stride, n, count, out);
}

}  // namespace ethosu_sdk::npu
