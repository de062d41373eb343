// Helium (add_helium.cc, linear.cc) and DSP (add_dsp.cc, linear_dsp.cc)
// quantized_add and quantized_linear against their plain C arithmetic (AddElement, LinearReference;
// bit-exact against ExecuTorch's Python reference in :kernel_cases_test), byte for byte over drawn
// sizes, zero points, multipliers and shifts (left shifts that overflow int32 included). On QEMU's
// Cortex-M55 the Helium code runs, on QEMU's Cortex-M33 the DSP code; without its extension a
// variant must decline every call.
#include <cstdint>
#include <cstring>

#include "cc/kernels/cortex_m/add_helium.h"
#include "cc/kernels/cortex_m/linear.h"
#include "cc/kernels/cortex_m/test_draw.h"
#include "cc/testing/unit_test.h"

namespace ethosu_sdk::kernels::cortex_m {
namespace {

constexpr int32_t kMax = 4096;
int8_t a[kMax], b[kMax], expected[kMax], actual[kMax];
int32_t sums[kMax / 8];

using AddVariant = bool (*)(const int8_t*, const int8_t*, int8_t*, size_t, const AddParams&);

void CompareAdd(AddVariant variant, bool expected_taken) {
  Draw d(0x1B873593u);
  int32_t taken = 0;
  for (int32_t t = 0; t < 200; ++t) {
    const int32_t count = d.In(1, 300);
    for (int32_t i = 0; i < count; ++i) {
      a[i] = static_cast<int8_t>(d.Next());
      b[i] = static_cast<int8_t>(d.Next());
    }
    AddParams p;
    p.a_zero_point = d.In(-128, 127), p.a_multiplier = d.Multiplier(), p.a_shift = d.Shift();
    p.b_zero_point = d.In(-128, 127), p.b_multiplier = d.Multiplier(), p.b_shift = d.Shift();
    p.out_zero_point = d.In(-128, 127), p.out_multiplier = d.Multiplier(), p.out_shift = d.Shift();
    p.activation_min = d.In(-128, 0), p.activation_max = d.In(p.activation_min, 127);
    std::memset(actual, 0x55, sizeof(actual));
    std::memset(expected, 0x55, sizeof(expected));
    for (int32_t i = 0; i < count; ++i) expected[i] = AddElement(a[i], b[i], p);
    const bool taken_here = variant(a, b, actual, static_cast<size_t>(count), p);
    EXPECT_EQ(taken_here, expected_taken);
    if (!taken_here) continue;
    ++taken;
    EXPECT_EQ(std::memcmp(expected, actual, sizeof(actual)), 0)
        << "case " << t << ": " << count << " elements";
  }
  EXPECT_EQ(taken, expected_taken ? 200 : 0);
}

TEST(AddHelium, MatchesAddElement) { CompareAdd(AddHelium, kHelium); }
TEST(AddDsp, MatchesAddElement) { CompareAdd(AddDsp, kDsp); }

using LinearVariant = bool (*)(const LinearParams&);

// `bias_form`: without kernel_sum (bias, input_offset, filter_offset 0), the
// form the DSP variant also takes.
void CompareLinear(LinearVariant variant, bool expected_taken, bool bias_form) {
  Draw d(0x1B873593u);
  int32_t taken = 0;
  for (int32_t t = 0; t < 150; ++t) {
    LinearParams p;
    p.rows = d.In(1, 3), p.k = d.In(1, 200), p.n = d.In(1, 20);
    for (int32_t i = 0; i < p.rows * p.k; ++i) a[i] = static_cast<int8_t>(d.Next());
    for (int32_t i = 0; i < p.n * p.k; ++i) b[i] = static_cast<int8_t>(d.Next());
    for (int32_t i = 0; i < p.n; ++i) sums[i] = d.In(-2000000, 2000000);
    p.input = a, p.weights = b, p.kernel_sum = sums;
    p.input_offset = d.In(-127, 128), p.filter_offset = d.In(-127, 128);
    if (bias_form) p.kernel_sum = nullptr, p.bias = sums, p.filter_offset = 0;
    p.output_offset = d.In(-128, 127);
    p.multiplier = d.Multiplier(), p.shift = d.Shift();
    p.activation_min = d.In(-128, 0), p.activation_max = d.In(p.activation_min, 127);
    std::memset(actual, 0x55, sizeof(actual));
    std::memset(expected, 0x55, sizeof(expected));
    p.output = expected;
    LinearReference(p);
    p.output = actual;
    const bool taken_here = variant(p);
    EXPECT_EQ(taken_here, expected_taken);
    if (!taken_here) continue;
    ++taken;
    EXPECT_EQ(std::memcmp(expected, actual, sizeof(actual)), 0)
        << "case " << t << ": [" << p.rows << ", " << p.k << "] x [" << p.n << "]";
  }
  EXPECT_EQ(taken, expected_taken ? 150 : 0);
}

TEST(LinearHelium, MatchesLinearReference) { CompareLinear(LinearHelium, kHelium, false); }
TEST(LinearDsp, MatchesLinearReference) { CompareLinear(LinearDsp, kDsp, false); }
TEST(LinearDsp, BiasFormMatchesLinearReference) { CompareLinear(LinearDsp, kDsp, true); }

TEST(LinearDsp, DeclinesAFilterOffsetWithoutKernelSum) {
  LinearParams p;
  p.rows = 1, p.k = 4, p.n = 4, p.input = a, p.weights = b, p.output = actual;
  p.filter_offset = 3;
  EXPECT_FALSE(LinearDsp(p));
}

TEST(LinearHelium, DeclinesTheBiasForm) {
  // Without kernel_sum the C arithmetic serves (the passes' form for
  // Helium targets always has it).
  LinearParams p;
  p.rows = 1, p.k = 4, p.n = 4, p.input = a, p.weights = b, p.output = actual;
  EXPECT_FALSE(LinearHelium(p));
}

}  // namespace
}  // namespace ethosu_sdk::kernels::cortex_m
