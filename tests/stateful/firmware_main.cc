// Runs stateful programs on the board: each program's sequence of calls on
// one loaded method, whose mutable buffers carry state from call to call,
// compared call by call with ExecuTorch's host runtime making the same calls.
// Static arenas only; the exit status is the worst run's (0: all PASS).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cc/kernels/registry.h"
#include "cc/runner/run_program.h"
#include "tests/stateful/counter_f32_expected.h"
#include "tests/stateful/counter_f32_input.h"
#include "tests/stateful/counter_f32_pte.h"
#include "tests/stateful/initialized_i32_expected.h"
#include "tests/stateful/initialized_i32_input.h"
#include "tests/stateful/initialized_i32_pte.h"
#include "tests/stateful/position_cache_f32_expected.h"
#include "tests/stateful/position_cache_f32_input.h"
#include "tests/stateful/position_cache_f32_pte.h"
#include "tests/stateful/recurrent_f32_expected.h"
#include "tests/stateful/recurrent_f32_input.h"
#include "tests/stateful/recurrent_f32_pte.h"

namespace {

using namespace ethosu_sdk;  // NOLINT: a test firmware

alignas(16) uint8_t g_runtime_arena[32 * 1024];
alignas(16) uint8_t g_planned_arena[16 * 1024];

struct Sequence {
  const unsigned char* pte;
  size_t pte_size;
  const unsigned char* input;
  size_t input_size;
  const unsigned char* expected;
  size_t expected_size;
};

int Run(const Sequence& s) {
  // Buffers without an initial state start at zero, as in ExecuTorch's
  // runners; the previous program's state must not leak into this one.
  std::memset(g_planned_arena, 0, sizeof(g_planned_arena));
  Arena arena(g_runtime_arena, sizeof(g_runtime_arena));
  const Span<uint8_t> planned[] = {{g_planned_arena, sizeof(g_planned_arena)}};
  runner::RunConfig config;
  config.pte = s.pte;
  config.pte_size = s.pte_size;
  config.inputs = s.input;
  config.inputs_size = s.input_size;
  config.expected = s.expected;
  config.expected_size = s.expected_size;
  config.registries.operators = kernels::Registry();
  config.runtime_arena = &arena;
  config.planned = {planned, 1};
  return runner::RunProgram(config);
}

}  // namespace

int main() {
  const Sequence sequences[] = {
      {kCounterF32Pte, kCounterF32Pte_size(), kCounterF32Input, kCounterF32Input_size(),
       kCounterF32Expected, kCounterF32Expected_size()},
      {kInitializedI32Pte, kInitializedI32Pte_size(), kInitializedI32Input,
       kInitializedI32Input_size(), kInitializedI32Expected, kInitializedI32Expected_size()},
      {kPositionCacheF32Pte, kPositionCacheF32Pte_size(), kPositionCacheF32Input,
       kPositionCacheF32Input_size(), kPositionCacheF32Expected, kPositionCacheF32Expected_size()},
      {kRecurrentF32Pte, kRecurrentF32Pte_size(), kRecurrentF32Input, kRecurrentF32Input_size(),
       kRecurrentF32Expected, kRecurrentF32Expected_size()},
  };
  int worst = 0;
  for (const Sequence& s : sequences) {
    const int result = Run(s);
    worst = result > worst ? result : worst;
  }
  return worst;
}
