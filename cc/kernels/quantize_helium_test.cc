// Firmware test, run on QEMU's Cortex-M55: the Helium quantize/dequantize
// loops against the plain C element functions, bit for bit, over edge values
// (NaN of both signs, +-inf, ties at .5, saturation, subnormals, -0) and a
// pseudo-random sweep, for several scales, zero points and ranges. On
// cc/testing (firmware only: the host has no Helium).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>

#include "cc/kernels/quantize_helium.h"
#include "cc/kernels/quantize_value.h"
#include "cc/testing/unit_test.h"

namespace {

using namespace ethosu_sdk::kernels;  // NOLINT: a test firmware

// A length that is not a multiple of the four lanes: the tail is the
// caller's, and the count returned must say so.
constexpr size_t kCount = 1023;

float g_in[kCount];
int8_t g_q8[kCount];
uint8_t g_qu8[kCount];
float g_out[kCount];

// A broken loop fails most elements: report the first few.
constexpr int kMaxReported = 20;
int g_mismatches = 0;

void Fail(const char* what, size_t i, float in, int got, int want) {
  if (++g_mismatches > kMaxReported) return;  // the test has failed already
  // The input by its bits: the board's printf has no %a.
  uint32_t bits;
  std::memcpy(&bits, &in, sizeof(bits));
  ADD_FAILURE() << what << " i=" << i << " input bits " << bits << " got=" << got
                << " want=" << want;
}

// Edge values in the quantized domain (before the scale is applied).
void FillInputs(float scale) {
  const float inf = std::numeric_limits<float>::infinity();
  const float edges[] = {std::numeric_limits<float>::quiet_NaN(),
                         -std::numeric_limits<float>::quiet_NaN(),
                         inf,
                         -inf,
                         0.0f,
                         -0.0f,
                         std::numeric_limits<float>::denorm_min(),
                         -std::numeric_limits<float>::denorm_min(),
                         std::numeric_limits<float>::min(),
                         std::numeric_limits<float>::max(),
                         -std::numeric_limits<float>::max(),
                         1e10f,
                         -1e10f};
  size_t i = 0;
  for (const float e : edges) g_in[i++] = e;
  // Ties and their neighbours, every other one from -300.5 to 299.5, in units of
  // the scale, so value * inv_scale lands on or next to .5.
  for (int k = -601; k <= 601 && i + 3 <= kCount; k += 4) {
    const float half = static_cast<float>(k) * 0.5f * scale;
    g_in[i++] = half;
    g_in[i++] = std::nextafter(half, inf);
    g_in[i++] = std::nextafter(half, -inf);
  }
  // The rest: a linear congruential sweep over [-400, 400) scales.
  uint32_t state = 12345u;
  while (i < kCount) {
    state = state * 1664525u + 1013904223u;  // Numerical Recipes' LCG constants
    g_in[i++] = (static_cast<float>(state >> 8) / 16777216.0f * 800.0f - 400.0f) * scale;
  }
}

void CheckQuantize(float scale, int32_t zp, int32_t lo, int32_t hi) {
  FillInputs(scale);
  const float inv_scale = 1.0f / scale;  // as quantize.cc computes it
  if (lo < 0) {
    const size_t done = QuantizeInt8Helium(g_in, g_q8, kCount, inv_scale, zp, lo, hi);
    if (done != kCount - kCount % 4) Fail("int8 count", done, 0, static_cast<int>(done), 0);
    for (size_t i = 0; i < done; ++i) {
      const int8_t want = QuantizeValue<int8_t>(g_in[i], inv_scale, zp, lo, hi);
      if (g_q8[i] != want) Fail("quantize int8", i, g_in[i], g_q8[i], want);
    }
  } else {
    const size_t done = QuantizeUint8Helium(g_in, g_qu8, kCount, inv_scale, zp, lo, hi);
    if (done != kCount - kCount % 4) Fail("uint8 count", done, 0, static_cast<int>(done), 0);
    for (size_t i = 0; i < done; ++i) {
      const uint8_t want = QuantizeValue<uint8_t>(g_in[i], inv_scale, zp, lo, hi);
      if (g_qu8[i] != want) Fail("quantize uint8", i, g_in[i], g_qu8[i], want);
    }
  }
}

// Every 8-bit value, compared by bit pattern.
void CheckDequantize(float scale, int32_t zp, bool is_signed) {
  for (size_t i = 0; i < 256; ++i) {
    g_q8[i] = static_cast<int8_t>(static_cast<int>(i) - 128);
    g_qu8[i] = static_cast<uint8_t>(i);
  }
  const size_t done = is_signed ? DequantizeInt8Helium(g_q8, g_out, 256, zp, scale)
                                : DequantizeUint8Helium(g_qu8, g_out, 256, zp, scale);
  if (done != 256) Fail("dequantize count", done, 0, static_cast<int>(done), 256);
  for (size_t i = 0; i < done; ++i) {
    const int32_t q = is_signed ? g_q8[i] : g_qu8[i];
    const float want = static_cast<float>(static_cast<int64_t>(q) - zp) * scale;
    if (std::memcmp(&want, &g_out[i], sizeof(float)) != 0) {
      Fail("dequantize", i, static_cast<float>(q), static_cast<int>(g_out[i] * 1000),
           static_cast<int>(want * 1000));
    }
  }
}

}  // namespace

TEST(QuantizeHelium, MatchesTheElementFunctions) {
  ASSERT_TRUE(HeliumQuantizeAvailable()) << "built without MVE floating point";
  // 1/128 and 1/255 are the usual image scales; 0.0173 has an inexact
  // inverse; 3.0 scales up.
  const float scales[] = {1.0f, 0.0078125f, 1.0f / 255.0f, 0.0173f, 3.0f};
  for (const float s : scales) {
    for (const int32_t zp : {-128, -3, 0, 5, 127}) {
      CheckQuantize(s, zp, -128, 127);
      CheckQuantize(s, zp > -127 ? zp : -127, -127, 127);  // narrow range
      CheckDequantize(s, zp, true);
    }
    for (const int32_t zp : {0, 128, 255}) {
      CheckQuantize(s, zp, 0, 255);
      CheckDequantize(s, zp, false);
    }
  }
}
