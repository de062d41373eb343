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

// Four rows' int32 lane sums reduced to four sums: horizontal adds, then
// the two 128-bit halves added.
__attribute__((target("avx2"))) __m128i Reduce4(__m256i s0, __m256i s1, __m256i s2, __m256i s3) {
  const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
  return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

// One row at a time: the rows after the last block of four.
__attribute__((target("avx2"))) uint32_t DotOneAvx2(const int16_t* a, const int16_t* w, size_t n) {
  __m256i s = _mm256_setzero_si256();
  for (size_t j = 0; j < n; j += 16) {
    s = _mm256_add_epi32(
        s, _mm256_madd_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + j)),
                             _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + j))));
  }
  return Sum256(s);
}

// Eight rows share each load of `a`, and their sums are reduced together
// (Reduce4 twice): the reduction costs as much as a block of 16 products,
// so it matters for the short rows of 1x1 convolutions.
__attribute__((target("avx2"))) void DotAvx2(const int16_t* a, const int16_t* rows, size_t stride,
                                             size_t n, int count, uint32_t* out) {
  constexpr int kBlock = 8;
  int r = 0;
  for (; r + kBlock <= count; r += kBlock) {
    const int16_t* w = rows + size_t(r) * stride;
    __m256i s[kBlock];
    for (__m256i& v : s) v = _mm256_setzero_si256();
    for (size_t j = 0; j < n; j += 16) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + j));
      for (int k = 0; k < kBlock; ++k) {
        const auto* wk = reinterpret_cast<const __m256i*>(w + size_t(k) * stride + j);
        s[k] = _mm256_add_epi32(s[k], _mm256_madd_epi16(x, _mm256_loadu_si256(wk)));
      }
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + r), Reduce4(s[0], s[1], s[2], s[3]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + r + 4), Reduce4(s[4], s[5], s[6], s[7]));
  }
  for (; r < count; ++r) out[r] = DotOneAvx2(a, rows + size_t(r) * stride, n);
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
