#include "cc/runner/protocol.h"

#include <cstring>

#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

namespace ethosu_sdk::runner {
namespace {

// Relative tolerance of float outputs, with an absolute floor for values
// near zero (where a relative bound is meaningless).
constexpr float kRelativeTolerance = 1e-5f;
constexpr float kAbsoluteFloor = 1e-6f;

// Beyond a quantized output's tolerance: a thousandth of a step, plus the
// float32 rounding of the two dequantized values (a relative 2^-24 each,
// counted as 2^-23): neighbouring 16-bit levels near full scale lie up to
// 1.0024 steps apart in float32.
constexpr double kDequantizeSlack = 0.001;
constexpr double kFloat32Rounding = 1.0 / (1 << 23);

constexpr size_t kLineCapacity = 512;

void Emit(TextBuilder& line) {
  line.Char('\n');
  platform::ConsoleWrite(line.c_str(), line.size());
}

void Shape(TextBuilder& line, const runtime::Tensor& t) {
  line.Str(" shape=");
  if (t.rank == 0) line.Str("scalar");
  for (int32_t d = 0; d < t.rank; ++d) {
    if (d > 0) line.Char('x');
    line.Int(t.sizes[d]);
  }
}

uint64_t ElementBits(const runtime::Tensor& t, size_t i) {
  const size_t size = t.ElementSize();
  uint64_t bits = 0;
  std::memcpy(&bits, t.Data<const uint8_t>() + i * size, size);  // little-endian targets
  return bits;
}

uint32_t FloatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

double ElementAsDouble(const runtime::Tensor& t, size_t i) {
  switch (t.dtype) {
    case runtime::ScalarType::kFloat:
      return t.Data<const float>()[i];
    case runtime::ScalarType::kDouble:
      return t.Data<const double>()[i];
    case runtime::ScalarType::kChar:
      return t.Data<const int8_t>()[i];
    case runtime::ScalarType::kByte:
      return t.Data<const uint8_t>()[i];
    case runtime::ScalarType::kShort:
      return t.Data<const int16_t>()[i];
    default:
      return 0.0;
  }
}

}  // namespace

bool IsExactType(runtime::ScalarType type) {
  return type != runtime::ScalarType::kFloat && type != runtime::ScalarType::kDouble;
}

void PrintBegin(const char* method, size_t inputs, size_t outputs) {
  char buffer[kLineCapacity];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK BEGIN method=")
      .Str(method)
      .Str(" inputs=")
      .UInt(inputs)
      .Str(" outputs=")
      .UInt(outputs);
  Emit(line);
}

void PrintTensor(const char* key, size_t index, const runtime::Tensor& tensor) {
  char buffer[kLineCapacity];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK ").Str(key).Char(' ').UInt(index).Str(" dtype=").Str(
      runtime::ScalarTypeName(tensor.dtype));
  Shape(line, tensor.InMemoryOrder());  // the sizes of the data as printed
  line.Str(" numel=").UInt(tensor.numel);
  Emit(line);
  const int digits = static_cast<int>(tensor.ElementSize() * 2);
  for (size_t start = 0; start < tensor.numel; start += kElementsPerLine) {
    line.Clear();
    line.Str("ESDK DATA ").UInt(index).Char(' ').UInt(start);
    for (size_t i = start; i < tensor.numel && i < start + kElementsPerLine; ++i) {
      line.Char(' ').Hex(ElementBits(tensor, i), digits);
    }
    Emit(line);
  }
}

void PrintComparison(size_t index, const Comparison& c) {
  char buffer[kLineCapacity];
  TextBuilder line(buffer, sizeof(buffer));
  const bool pass = c.shape_ok && c.mismatches == 0;
  line.Str("ESDK COMPARE ").UInt(index).Str(pass ? " PASS" : " FAIL");
  line.Str(" mismatches=").UInt(c.mismatches);
  line.Str(" shape=").Str(c.shape_ok ? "ok" : "differs");
  line.Str(" rule=");
  if (c.rule == Rule::kExact) line.Str("exact");
  if (c.rule == Rule::kRelative) line.Str("rel1e-5");
  if (c.rule == Rule::kQuantization) line.Char('q').UInt(c.tolerance_steps).Str("step");
  line.Str(" exact=").UInt(c.exact);
  if (c.rule != Rule::kExact) line.Str(" max_abs_diff_f32=").Hex(FloatBits(c.max_abs_diff), 8);
  Emit(line);
}

void PrintTime(uint32_t iteration, uint64_t ticks, uint64_t ticks_per_second) {
  char buffer[kLineCapacity];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK TIME ")
      .UInt(iteration)
      .Str(" ticks=")
      .UInt(ticks)
      .Str(" ticks_per_second=")
      .UInt(ticks_per_second);
  Emit(line);
}

void PrintProfile(size_t instruction, uint64_t ticks, const char* name) {
  char buffer[kLineCapacity];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK PROFILE ").UInt(instruction).Str(" ticks=").UInt(ticks).Str(" name=").Str(name);
  Emit(line);
}

void PrintError(const Status& status, int64_t instruction) {
  char buffer[kLineCapacity];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK ERROR ").Str(ErrorCodeName(status.code()));
  line.Str(" instruction=").Int(instruction);
  if (status.has_command_offset()) line.Str(" command=").UInt(status.command_offset());
  line.Char(' ').Str(status.message());
  Emit(line);
}

void PrintResult(const char* result) {
  char buffer[kLineCapacity];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK RESULT ").Str(result);
  Emit(line);
}

void PrintEnd() {
  char buffer[16];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK END");
  Emit(line);
}

Comparison Compare(const runtime::Tensor& actual, const runtime::Tensor& expected,
                   float quant_scale, uint32_t tolerance_steps) {
  Comparison c;
  c.tolerance_steps = tolerance_steps;
  // An integer-I/O program's quantized output (a scale in the record) is
  // judged as its dequantized values would be: within one step.
  const bool quantized_integers =
      quant_scale > 0.0f &&
      (actual.dtype == runtime::ScalarType::kChar || actual.dtype == runtime::ScalarType::kByte ||
       actual.dtype == runtime::ScalarType::kShort);
  const bool exact = IsExactType(actual.dtype) && !quantized_integers;
  c.rule = exact ? Rule::kExact : quant_scale > 0.0f ? Rule::kQuantization : Rule::kRelative;
  // Integers count in steps of one; dequantized floats in steps of the scale.
  const double step = quantized_integers ? 1.0 : static_cast<double>(quant_scale);
  // `expected` (a tensor file's record) lists its sizes in memory order.
  if (actual.dtype != expected.dtype || !actual.InMemoryOrder().SameShape(expected)) {
    c.shape_ok = false;
    return c;
  }
  // The record's steps, with room for the float rounding of dequantization.
  const double step_tolerance = (static_cast<double>(tolerance_steps) + kDequantizeSlack) * step;
  for (size_t i = 0; i < actual.numel; ++i) {
    const bool same_bits = ElementBits(actual, i) == ElementBits(expected, i);
    if (same_bits) ++c.exact;
    if (exact) {
      if (!same_bits) ++c.mismatches;
      continue;
    }
    const double a = ElementAsDouble(actual, i), e = ElementAsDouble(expected, i);
    if (a != a || e != e) {  // NaN matches only NaN
      if (!(a != a && e != e)) ++c.mismatches;
      continue;
    }
    const double diff = a > e ? a - e : e - a;
    const double magnitude = e < 0 ? -e : e;
    const double actual_magnitude = a < 0 ? -a : a;
    const double rounding =
        quantized_integers ? 0.0 : (magnitude + actual_magnitude) * kFloat32Rounding;
    const double tolerance = c.rule == Rule::kQuantization
                                 ? step_tolerance + rounding
                                 : kRelativeTolerance * magnitude + kAbsoluteFloor;
    if (diff > tolerance) ++c.mismatches;
    if (static_cast<float>(diff) > c.max_abs_diff) c.max_abs_diff = static_cast<float>(diff);
  }
  return c;
}

}  // namespace ethosu_sdk::runner
