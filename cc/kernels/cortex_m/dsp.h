// The Armv8-M DSP extension's SIMD as the cortex_m:: kernels use it on the
// Cortex-M33 (and M4/M7): int8 pairs sign-extended into 16-bit lanes
// (SXTB16, SXTAB16 adding an offset in the same instruction) and
// multiplied-and-summed into an int32 (SMLAD: two 16x16 products per
// instruction; SMLABB/SMLATT: one lane each). Every sum wraps modulo 2^32,
// as the reference's int32 tensors do: SMLAD sets the Q flag on overflow but
// writes the low 32 bits.
//
// ESDK_CORTEX_M_DSP is defined where these variants run: DSP and no MVE
// (with MVE the Helium variants serve, see conv_params.h). Building with
// -DESDK_CORTEX_M_NO_DSP leaves them out, so the plain C path can be
// measured on the same CPU (bench/RESULTS.md's before/after).
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_DSP_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_DSP_H_

#include <cstdint>

#if defined(__ARM_FEATURE_DSP) && !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)) && \
    !defined(ESDK_CORTEX_M_NO_DSP)
#define ESDK_CORTEX_M_DSP 1
#endif

#ifdef ESDK_CORTEX_M_DSP
#include <arm_acle.h>

#include <cstring>

#include "cc/kernels/cortex_m/arith.h"

namespace ethosu_sdk::kernels::cortex_m::dsp {

// Four int8 as one word; the M33 loads unaligned words (LDR), and memcpy
// compiles to one.
inline uint32_t Load4(const int8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// Bytes 0 and 2 of `v`, sign-extended into the two 16-bit lanes.
inline uint32_t Even(uint32_t v) { return static_cast<uint32_t>(__sxtb16(v)); }
// Bytes 1 and 3 (SXTB16's rotation, which GCC's intrinsic does not fold).
inline uint32_t Odd(uint32_t v) {
  uint32_t r;
  __asm("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}
// Even/Odd plus `pair` (an offset in both lanes): x + offset stays within
// int16 for int8 x and |offset| <= 255, as the glue checks offsets.
inline uint32_t EvenPlus(uint32_t v, uint32_t pair) {
  return static_cast<uint32_t>(__sxtab16(pair, v));
}
inline uint32_t OddPlus(uint32_t v, uint32_t pair) {
  uint32_t r;
  __asm("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(pair), "r"(v));
  return r;
}
// An int16 value in both lanes.
inline uint32_t Pair(int32_t v) {
  return (static_cast<uint32_t>(v) & 0xFFFFu) | (static_cast<uint32_t>(v) << 16);
}

inline int32_t Smlad(uint32_t a, uint32_t b, int32_t acc) {
  return __smlad(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlabb(uint32_t a, uint32_t b, int32_t acc) {
  return __smlabb(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}
inline int32_t Smlatt(uint32_t a, uint32_t b, int32_t acc) {
  return __smlatt(static_cast<int32_t>(a), static_cast<int32_t>(b), acc);
}

// acc + sum((x[i] + offset) * w[i]) for i < len, four MACs per two SMLADs.
inline int32_t Dot(const int8_t* x, const int8_t* w, int32_t len, int32_t offset, int32_t acc) {
  const uint32_t pair = Pair(offset);
  int32_t i = 0;
  for (; i + 4 <= len; i += 4) {
    const uint32_t xv = Load4(x + i), wv = Load4(w + i);
    acc = Smlad(EvenPlus(xv, pair), Even(wv), acc);
    acc = Smlad(OddPlus(xv, pair), Odd(wv), acc);
  }
  uint32_t tail = static_cast<uint32_t>(acc);
  for (; i < len; ++i) tail += static_cast<uint32_t>((x[i] + offset) * w[i]);
  return static_cast<int32_t>(tail);
}

// acc[j] += sum((x[i] + offset) * w_j[i]): one input run against four weight
// rows, each input word loaded and widened once for 16 MACs.
inline void Dot4(const int8_t* x, const int8_t* w0, const int8_t* w1, const int8_t* w2,
                 const int8_t* w3, int32_t len, int32_t offset, int32_t* acc) {
  const uint32_t pair = Pair(offset);
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  int32_t i = 0;
  for (; i + 4 <= len; i += 4) {
    const uint32_t xv = Load4(x + i);
    const uint32_t xe = EvenPlus(xv, pair), xo = OddPlus(xv, pair);
    uint32_t wv = Load4(w0 + i);
    a0 = Smlad(xo, Odd(wv), Smlad(xe, Even(wv), a0));
    wv = Load4(w1 + i);
    a1 = Smlad(xo, Odd(wv), Smlad(xe, Even(wv), a1));
    wv = Load4(w2 + i);
    a2 = Smlad(xo, Odd(wv), Smlad(xe, Even(wv), a2));
    wv = Load4(w3 + i);
    a3 = Smlad(xo, Odd(wv), Smlad(xe, Even(wv), a3));
  }
  uint32_t t0 = static_cast<uint32_t>(a0), t1 = static_cast<uint32_t>(a1);
  uint32_t t2 = static_cast<uint32_t>(a2), t3 = static_cast<uint32_t>(a3);
  for (; i < len; ++i) {
    const int32_t xi = x[i] + offset;
    t0 += static_cast<uint32_t>(xi * w0[i]);
    t1 += static_cast<uint32_t>(xi * w1[i]);
    t2 += static_cast<uint32_t>(xi * w2[i]);
    t3 += static_cast<uint32_t>(xi * w3[i]);
  }
  acc[0] = static_cast<int32_t>(t0);
  acc[1] = static_cast<int32_t>(t1);
  acc[2] = static_cast<int32_t>(t2);
  acc[3] = static_cast<int32_t>(t3);
}

// acc[j] += sum(x[i] * w_j[i]) for i < 4 * words, w_j = w0 + j * stride:
// one input run against four weight rows with no offset (the caller folds
// it in through the weight sums). In assembly because GCC 14 keeps neither
// the four row pointers nor the four sums in registers around the SMLADs
// (it spills on every pass); here thirteen registers hold the loop: per
// input word one load and two SXTB16, per row one load, two SXTB16 and two
// SMLADs (16 MACs in 25 instructions).
inline void Dot4Words(const int8_t* x, const int8_t* w0, int32_t stride, int32_t words,
                      int32_t* acc) {
  if (words <= 0) return;
  const int8_t* end = x + 4 * words;
  const int8_t* w2 = w0 + 2 * stride;
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  uint32_t xe, xo, wv, t;
  __asm volatile(
      "1:\n"
      "ldr %[xe], [%[x]], #4\n"
      "sxtb16 %[xo], %[xe], ror #8\n"
      "sxtb16 %[xe], %[xe]\n"
      "ldr %[wv], [%[w0], %[s]]\n"
      "sxtb16 %[t], %[wv]\n"
      "smlad %[a1], %[xe], %[t], %[a1]\n"
      "sxtb16 %[wv], %[wv], ror #8\n"
      "smlad %[a1], %[xo], %[wv], %[a1]\n"
      "ldr %[wv], [%[w0]], #4\n"
      "sxtb16 %[t], %[wv]\n"
      "smlad %[a0], %[xe], %[t], %[a0]\n"
      "sxtb16 %[wv], %[wv], ror #8\n"
      "smlad %[a0], %[xo], %[wv], %[a0]\n"
      "ldr %[wv], [%[w2], %[s]]\n"
      "sxtb16 %[t], %[wv]\n"
      "smlad %[a3], %[xe], %[t], %[a3]\n"
      "sxtb16 %[wv], %[wv], ror #8\n"
      "smlad %[a3], %[xo], %[wv], %[a3]\n"
      "ldr %[wv], [%[w2]], #4\n"
      "sxtb16 %[t], %[wv]\n"
      "smlad %[a2], %[xe], %[t], %[a2]\n"
      "sxtb16 %[wv], %[wv], ror #8\n"
      "smlad %[a2], %[xo], %[wv], %[a2]\n"
      "cmp %[x], %[end]\n"
      "bne 1b\n"
      : [x] "+r"(x), [w0] "+r"(w0), [w2] "+r"(w2), [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2),
        [a3] "+r"(a3), [xe] "=&r"(xe), [xo] "=&r"(xo), [wv] "=&r"(wv), [t] "=&r"(t)
      : [end] "r"(end), [s] "r"(stride)
      : "cc", "memory");
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// Words of weight rows Dot4Wide takes widened (C_in up to 1,024: 8 KiB
// on the stack).
inline constexpr int32_t kMaxWideWords = 256;

// Four weight rows (w0 + j * stride) widened once into int16 pairs,
// interleaved per input word: even and odd pairs of row 0, then of rows 1,
// 2, 3 (32 bytes a word), the order Dot4Wide reads them in.
inline void WidenRows4(const int8_t* w0, int32_t stride, int32_t words, uint32_t* wide) {
  for (int32_t i = 0; i < words; ++i, wide += 8) {
    for (int32_t j = 0; j < 4; ++j) {
      const uint32_t v = Load4(w0 + j * stride + 4 * i);
      wide[2 * j] = Even(v);
      wide[2 * j + 1] = Odd(v);
    }
  }
}

// Dot4Words with the rows widened beforehand (WidenRows4): per input word
// one load and two SXTB16, per row one LDRD and two SMLADs (16 MACs in 17
// instructions, against 25 when each row's word is widened every time).
// Used where a block of rows meets many pixels (the 1x1 GEMM).
inline void Dot4Wide(const int8_t* x, const uint32_t* wide, int32_t words, int32_t* acc) {
  if (words <= 0) return;
  const int8_t* end = x + 4 * words;
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  uint32_t xe, xo, we, wo;
  __asm volatile(
      "1:\n"
      "ldr %[xe], [%[x]], #4\n"
      "sxtb16 %[xo], %[xe], ror #8\n"
      "sxtb16 %[xe], %[xe]\n"
      "ldrd %[we], %[wo], [%[w]], #8\n"
      "smlad %[a0], %[xe], %[we], %[a0]\n"
      "smlad %[a0], %[xo], %[wo], %[a0]\n"
      "ldrd %[we], %[wo], [%[w]], #8\n"
      "smlad %[a1], %[xe], %[we], %[a1]\n"
      "smlad %[a1], %[xo], %[wo], %[a1]\n"
      "ldrd %[we], %[wo], [%[w]], #8\n"
      "smlad %[a2], %[xe], %[we], %[a2]\n"
      "smlad %[a2], %[xo], %[wo], %[a2]\n"
      "ldrd %[we], %[wo], [%[w]], #8\n"
      "smlad %[a3], %[xe], %[we], %[a3]\n"
      "smlad %[a3], %[xo], %[wo], %[a3]\n"
      "cmp %[x], %[end]\n"
      "bne 1b\n"
      : [x] "+r"(x), [w] "+r"(wide), [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3),
        [xe] "=&r"(xe), [xo] "=&r"(xo), [we] "=&r"(we), [wo] "=&r"(wo)
      : [end] "r"(end)
      : "cc", "memory");
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

// sum(w[i]) for i < len (SMLAD against ones: two bytes per instruction).
inline int32_t Sum(const int8_t* w, int32_t len) {
  const uint32_t ones = Pair(1);
  int32_t sum = 0;
  int32_t i = 0;
  for (; i + 4 <= len; i += 4) {
    const uint32_t v = Load4(w + i);
    sum = Smlad(Odd(v), ones, Smlad(Even(v), ones, sum));
  }
  for (; i < len; ++i) sum += w[i];
  return sum;
}

// Requantize (arith.h) in 32-bit steps where that is exact: the value
// shifted left once more fits int32, so SMMULR's rounded high word of
// (2 * value) * multiplier is the reference's doubling high multiply
// ((value * multiplier + 2^30) >> 31), and the rounding right shift (ties
// away from zero) is done in int32. Otherwise, and for an INT32_MIN
// multiplier (whose doubled product overflows), the 64-bit Requantize.
// Made once per channel where a kernel loops over pixels inside channels.
class Requant {
 public:
  Requant(int32_t multiplier, int32_t shift)
      : multiplier_(multiplier),
        shift_(shift),
        left_(shift > 0 ? shift + 1 : 1),
        right_(shift < 0 ? -shift : 0),
        mask_(static_cast<int32_t>((uint32_t{1} << right_) - 1)),
        half_(right_ > 0 ? static_cast<int32_t>(uint32_t{1} << (right_ - 1)) : 0),
        fast_(multiplier != INT32_MIN && right_ >= 1 && right_ <= 30) {}

  int32_t operator()(int32_t acc) const {
    // The usual form, a right shift of 1 to 30: the doubled value's overflow
    // is ADDS's V flag, and the rounding shift is one add, one subtract and
    // one shift: |smmulr| <= 2^30 and half <= 2^29, so x + half fits, and
    // (x + half - (x < 0)) >> right rounds half away from zero.
    if (__builtin_expect(fast_, 1)) {
      int32_t value;
      if (__builtin_expect(__builtin_add_overflow(acc, acc, &value), 0))
        return Requantize(acc, multiplier_, shift_);
      int32_t x;
      __asm("smmulr %0, %1, %2" : "=r"(x) : "r"(value), "r"(multiplier_));
      return (x + half_ - static_cast<int32_t>(static_cast<uint32_t>(x) >> 31)) >> right_;
    }
    return General(acc);
  }

 private:
  // Left shifts, no shift, a right shift of 31 and the INT32_MIN multiplier.
  __attribute__((noinline)) int32_t General(int32_t acc) const {
    const int32_t value = static_cast<int32_t>(static_cast<uint32_t>(acc) << left_);
    if ((value >> left_) != acc || multiplier_ == INT32_MIN)
      return Requantize(acc, multiplier_, shift_);
    int32_t result;
    __asm("smmulr %0, %1, %2" : "=r"(result) : "r"(value), "r"(multiplier_));
    if (right_ > 0) {
      const int32_t remainder = result & mask_;
      result >>= right_;
      if (remainder > (mask_ >> 1) + (result < 0 ? 1 : 0)) ++result;
    }
    return result;
  }

  int32_t multiplier_, shift_, left_, right_, mask_, half_;
  bool fast_;
};

// The same for one value, without a Requant made per call (kernels whose
// channel changes with every output: depthwise, the general convolution).
inline int32_t RequantizeFast(int32_t acc, int32_t multiplier, int32_t shift) {
  int32_t value;
  if (__builtin_expect(static_cast<uint32_t>(shift) + 30u < 30u && multiplier != INT32_MIN, 1) &&
      __builtin_expect(!__builtin_add_overflow(acc, acc, &value), 1)) {
    int32_t x;
    __asm("smmulr %0, %1, %2" : "=r"(x) : "r"(value), "r"(multiplier));
    const int32_t right = -shift;
    return (x + static_cast<int32_t>(uint32_t{1} << (right - 1)) -
            static_cast<int32_t>(static_cast<uint32_t>(x) >> 31)) >>
           right;
  }
  return Requant(multiplier, shift)(acc);
}

}  // namespace ethosu_sdk::kernels::cortex_m::dsp

#endif  // ESDK_CORTEX_M_DSP

#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_DSP_H_
