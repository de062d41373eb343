// Runs examples/lm's KV-cache step as a sequence of calls on one loaded
// method (prompt, then the greedy tokens), on the board's CPU, comparing
// every step's logits with executorch.runtime's. Static arenas only.
#include <cstddef>
#include <cstdint>

#include "cc/kernels/registry.h"
#include "cc/runner/run_program.h"
#include "tests/lm/generation_expected.h"
#include "tests/lm/generation_input.h"
#include "tests/lm/generation_pte.h"

namespace {

using namespace ethosu_sdk;  // NOLINT: a test firmware

alignas(16) uint8_t g_runtime_arena[64 * 1024];
// The caches (2 layers x keys and values x 128 positions x 64 floats) and
// the activations, zero at boot: the caches start empty.
alignas(16) uint8_t g_planned_arena[320 * 1024];

}  // namespace

int main() {
  Arena arena(g_runtime_arena, sizeof(g_runtime_arena));
  const Span<uint8_t> planned[] = {{g_planned_arena, sizeof(g_planned_arena)}};
  runner::RunConfig config;
  config.pte = kGenerationPte;
  config.pte_size = kGenerationPte_size();
  config.inputs = kGenerationInput;
  config.inputs_size = kGenerationInput_size();
  config.expected = kGenerationExpected;
  config.expected_size = kGenerationExpected_size();
  config.registries.operators = kernels::Registry();
  config.runtime_arena = &arena;
  config.planned = {planned, 1};
  config.print_outputs = false;
  return runner::RunProgram(config);
}
