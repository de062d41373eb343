#include "sim/npu/kernels/depthwise_sums.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NPU_X86_SIMD 1
#endif

namespace ethosu_sdk::npu {
namespace {

using SumsFunction = void (*)(const DepthwiseTap*, int, int, const Int8Channels&, uint32_t*);

int64_t OffsetOf(const Int8Channels& layout, int c) {
  return layout.brick ? (c >> 4) * layout.brick_stride + (c & 15) : c;
}

// Channels [first, channels) one at a time: the portable path, and the
// vector path's last few channels.
void SumsScalar(const DepthwiseTap* taps, int tap_count, int first, int channels,
                const Int8Channels& layout, uint32_t* sums) {
  for (int c = first; c < channels; ++c) {
    const int64_t offset = OffsetOf(layout, c);
    uint32_t sum = 0;
    for (int t = 0; t < tap_count; ++t) {
      const uint8_t v = taps[t].pixel[offset];
      const int32_t value =
          (layout.is_signed ? int32_t(int8_t(v)) : int32_t(v)) - layout.zero_point;
      sum += uint32_t(value * int32_t(taps[t].weights[c]));
    }
    sums[c] = sum;
  }
}

[[maybe_unused]] void SumsPortable(const DepthwiseTap* taps, int tap_count, int channels,
                                   const Int8Channels& layout, uint32_t* sums) {
  SumsScalar(taps, tap_count, 0, channels, layout, sums);
}

#ifdef NPU_X86_SIMD
// Eight channels a step: eight bytes widened to int32 lanes, minus the
// zero point, times the weights widened likewise. A step never leaves a
// brick: steps start at multiples of 8 and bricks hold 16 channels.
template <bool kSigned>
__attribute__((target("avx2"))) void SumsAvx2(const DepthwiseTap* taps, int tap_count, int channels,
                                              const Int8Channels& layout, uint32_t* sums) {
  constexpr int kLanes = 8;
  const __m256i zero_point = _mm256_set1_epi32(layout.zero_point);
  int c = 0;
  for (; c + kLanes <= channels; c += kLanes) {
    const int64_t offset = OffsetOf(layout, c);
    __m256i acc = _mm256_setzero_si256();
    for (int t = 0; t < tap_count; ++t) {
      const __m128i bytes =
          _mm_loadl_epi64(reinterpret_cast<const __m128i*>(taps[t].pixel + offset));
      const __m256i v = kSigned ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes);
      const __m256i w = _mm256_cvtepi16_epi32(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(taps[t].weights + c)));
      acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(_mm256_sub_epi32(v, zero_point), w));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(sums + c), acc);
  }
  SumsScalar(taps, tap_count, c, channels, layout, sums);
}

void SumsVector(const DepthwiseTap* taps, int tap_count, int channels, const Int8Channels& layout,
                uint32_t* sums) {
  if (layout.is_signed) return SumsAvx2<true>(taps, tap_count, channels, layout, sums);
  SumsAvx2<false>(taps, tap_count, channels, layout, sums);
}
#endif

SumsFunction Select() {
#ifdef NPU_X86_SIMD
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) return SumsVector;
#endif
  return SumsPortable;
}

}  // namespace

void DepthwiseSums(const DepthwiseTap* taps, int tap_count, int channels,
                   const Int8Channels& layout, uint32_t* sums) {
  static const SumsFunction sums_of = Select();
  sums_of(taps, tap_count, channels, layout, sums);
}

}  // namespace ethosu_sdk::npu
