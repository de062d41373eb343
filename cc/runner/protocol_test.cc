// The comparison rules of cc/runner/PROTOCOL.md on int8 outputs: exact
// without a scale; within one integer step with one (an integer-I/O
// program's quantized output against PyTorch's quantized graph).
#include "cc/runner/protocol.h"

#include <cstdint>

#include "cc/testing/unit_test.h"

namespace ethosu_sdk::runner {
namespace {

// A rank-1 tensor of `count` elements of type T at `values`.
template <typename T>
runtime::Tensor Vector(runtime::ScalarType dtype, T* values, int32_t count) {
  runtime::Tensor t;
  t.dtype = dtype;
  t.rank = 1;
  t.sizes[0] = count;
  t.data = values;
  t.numel = static_cast<size_t>(count);
  t.nbytes = static_cast<size_t>(count) * sizeof(T);
  return t;
}

runtime::Tensor Int8Vector(int8_t* values, int32_t count) {
  return Vector(runtime::ScalarType::kChar, values, count);
}

TEST(Compare, Int8WithoutScaleIsExact) {
  int8_t actual[3] = {-128, 0, 5};
  int8_t expected[3] = {-128, 0, 6};
  const Comparison c = Compare(Int8Vector(actual, 3), Int8Vector(expected, 3), 0.0f);
  EXPECT_TRUE(c.rule == Rule::kExact) << "no scale: integers compare bit for bit";
  EXPECT_EQ(c.mismatches, 1u);
  EXPECT_EQ(c.exact, 2u);
}

TEST(Compare, QuantizedInt8IsWithinOneStep) {
  int8_t actual[4] = {-128, 0, 5, 127};
  int8_t expected[4] = {-127, 0, 6, 127};
  // A tiny scale: the tolerance is one integer step, not one scale unit.
  const Comparison c = Compare(Int8Vector(actual, 4), Int8Vector(expected, 4), 0.0004f);
  EXPECT_TRUE(c.rule == Rule::kQuantization) << "a scale: one quantization step";
  EXPECT_EQ(c.mismatches, 0u) << "differences of one step pass";
  EXPECT_EQ(c.exact, 2u) << "bit-identical elements are still counted";
  EXPECT_EQ(c.max_abs_diff, 1.0f) << "in integer steps";
}

TEST(Compare, QuantizedInt8BeyondOneStepFails) {
  int8_t actual[2] = {3, 10};
  int8_t expected[2] = {5, 10};
  const Comparison c = Compare(Int8Vector(actual, 2), Int8Vector(expected, 2), 0.5f);
  EXPECT_EQ(c.mismatches, 1u) << "two steps apart";
  EXPECT_EQ(c.max_abs_diff, 2.0f);
}

runtime::Tensor Int16Vector(int16_t* values, int32_t count) {
  return Vector(runtime::ScalarType::kShort, values, count);
}

// A 16-bit output computed through a 16-bit TABLE: the record allows 16
// steps (python/ethosu_sdk/tosa_tables.py); 17 still fail.
TEST(Compare, TableToleranceAllowsItsStepsAndNoMore) {
  int16_t actual[3] = {1000, -2000, 30000};
  int16_t expected[3] = {1016, -2000, 29983};
  const Comparison c = Compare(Int16Vector(actual, 3), Int16Vector(expected, 3), 1e-4f, 16);
  EXPECT_TRUE(c.rule == Rule::kQuantization);
  EXPECT_EQ(c.tolerance_steps, 16u);
  EXPECT_EQ(c.mismatches, 1u) << "16 steps pass, 17 fail";
  EXPECT_EQ(c.max_abs_diff, 17.0f);
  // The same outputs held to the default one step.
  EXPECT_EQ(Compare(Int16Vector(actual, 3), Int16Vector(expected, 3), 1e-4f).mismatches, 2u);
}

runtime::Tensor FloatVector(float* values, int32_t count) {
  return Vector(runtime::ScalarType::kFloat, values, count);
}

// A dequantized 16-bit output near full scale: levels 30019 and 30020 at
// scale 0.0123 lie 1.0024 steps apart in float32, one step; 30021 is two.
TEST(Compare, DequantizedNeighboursNearFullScaleAreOneStepApart) {
  const float scale = 0.0123f;
  float expected[2] = {30019.0f * scale, 30019.0f * scale};
  float actual[2] = {30020.0f * scale, 30021.0f * scale};
  const Comparison c = Compare(FloatVector(actual, 2), FloatVector(expected, 2), scale);
  EXPECT_TRUE(c.rule == Rule::kQuantization);
  EXPECT_TRUE(static_cast<double>(actual[0]) - static_cast<double>(expected[0]) > 1.002 * scale)
      << "float32 puts the neighbours more than a step and a thousandth apart";
  EXPECT_EQ(c.mismatches, 1u) << "the neighbour passes, two levels off fails";
}

}  // namespace
}  // namespace ethosu_sdk::runner
