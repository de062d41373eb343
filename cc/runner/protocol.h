// The runner's console line protocol (PROTOCOL.md): one record per line,
// "ESDK <KEY> <fields...>", tensors as the exact bits of every element so
// the host can compare bit for bit. Shared by the host runner and the
// firmware: output goes through the board's ConsoleWrite.
#ifndef ETHOSU_SDK_CC_RUNNER_PROTOCOL_H_
#define ETHOSU_SDK_CC_RUNNER_PROTOCOL_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "cc/runtime/tensor.h"

namespace ethosu_sdk::runner {

// Elements per DATA line.
constexpr size_t kElementsPerLine = 16;

// How an output is compared with its expected tensor (PROTOCOL.md).
enum class Rule {
  kExact,         // integers and bool: bit for bit
  kRelative,      // float: |a - e| <= 1e-5 |e| + 1e-6
  kQuantization,  // quantized values (dequantized floats, or an integer-I/O program's
                  // integers): within the record's tolerance in quantization steps
};

struct Comparison {
  Rule rule = Rule::kExact;
  uint32_t tolerance_steps = 1;  // kQuantization: steps allowed
  size_t mismatches = 0;
  size_t exact = 0;           // elements with identical bits
  float max_abs_diff = 0.0f;  // float outputs only
  bool shape_ok = true;
};

void PrintBegin(const char* method, size_t inputs, size_t outputs);
// OUTPUT header and DATA lines of output `index`: the data as it lies in
// memory, with its sizes listed in memory order (in dim order), as tensor
// files hold them (schema/tensor_file.md).
void PrintTensor(const char* key, size_t index, const runtime::Tensor& tensor);
void PrintComparison(size_t index, const Comparison& comparison);
void PrintTime(uint32_t iteration, uint64_t ticks, uint64_t ticks_per_second);
void PrintProfile(size_t instruction, uint64_t ticks, const char* name);
void PrintError(const Status& status, int64_t instruction);
void PrintResult(const char* result);
void PrintEnd();

// Integer outputs must be equal, except 8- and 16-bit ones with a
// `quant_scale` > 0 (an integer-I/O program's quantized outputs): within
// `tolerance_steps` integer steps. Float ones within the tolerances of PROTOCOL.md: one
// quantization step when the expected tensor says it holds quantized values
// (`quant_scale` > 0), else a relative bound. A quantized output may differ
// by `tolerance_steps` steps (the record's; more than one only for a 16-bit
// output the lowering computes through a 16-bit TABLE). Shapes and
// dtypes must match; `expected` is a tensor file's record, whose sizes are
// in memory order, so `actual`'s are compared in memory order.
Comparison Compare(const runtime::Tensor& actual, const runtime::Tensor& expected,
                   float quant_scale = 0.0f, uint32_t tolerance_steps = 1);
bool IsExactType(runtime::ScalarType type);

}  // namespace ethosu_sdk::runner

#endif  // ETHOSU_SDK_CC_RUNNER_PROTOCOL_H_
