// Loads a .pte, feeds it the inputs of a tensor file, runs it and reports on
// the console in the line protocol, comparing with expected outputs when
// given. The caller provides all memory, so the firmware runner and the host
// runner share this code.
#ifndef ETHOSU_SDK_CC_RUNNER_RUN_PROGRAM_H_
#define ETHOSU_SDK_CC_RUNNER_RUN_PROGRAM_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/arena.h"
#include "cc/runtime/method.h"
#include "cc/runtime/value.h"

namespace ethosu_sdk::runner {

struct RunConfig {
  const void* pte = nullptr;  // 16-byte aligned
  size_t pte_size = 0;
  const void* inputs = nullptr;  // tensor file, 8-byte aligned
  size_t inputs_size = 0;
  const void* expected = nullptr;  // optional tensor file
  size_t expected_size = 0;
  const char* method = "forward";
  runtime::Registries registries;
  Arena* runtime_arena = nullptr;
  Span<const Span<uint8_t>> planned;
  uint32_t iterations = 1;  // timed runs; outputs are those of the last
  bool print_outputs = true;
};

// Exit status: 0 outputs match (or were only printed), 1 mismatch, 2 error.
enum RunResult : int { kRunPass = 0, kRunMismatch = 1, kRunError = 2 };
RunResult RunProgram(const RunConfig& config);

}  // namespace ethosu_sdk::runner

#endif  // ETHOSU_SDK_CC_RUNNER_RUN_PROGRAM_H_
