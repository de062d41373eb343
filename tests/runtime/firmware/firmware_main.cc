// Runs CPU-only programs on the board with the runtime and kernels built for
// Cortex-M55, comparing with ExecuTorch's host outputs embedded next to them.
// Static arenas only; the exit status is the worst run's (0: all PASS).
#include <cstddef>
#include <cstdint>

#include "cc/kernels/registry.h"
#include "cc/runner/run_program.h"

namespace ethosu_sdk::embedded {
extern const uint8_t kConvNetPte[], kConvNetInput[], kConvNetExpected[];
extern const size_t kConvNetPteSize, kConvNetInputSize, kConvNetExpectedSize;
extern const uint8_t kQuantConvPte[], kQuantConvInput[], kQuantConvExpected[];
extern const size_t kQuantConvPteSize, kQuantConvInputSize, kQuantConvExpectedSize;
extern const uint8_t kQuantLinearPte[], kQuantLinearInput[], kQuantLinearExpected[];
extern const size_t kQuantLinearPteSize, kQuantLinearInputSize, kQuantLinearExpectedSize;
}  // namespace ethosu_sdk::embedded

namespace {

using namespace ethosu_sdk;  // NOLINT: a test firmware

alignas(16) uint8_t g_runtime_arena[32 * 1024];
alignas(16) uint8_t g_planned_arena[64 * 1024];

int Run(const uint8_t* pte, size_t pte_size, const uint8_t* input, size_t input_size,
        const uint8_t* expected, size_t expected_size) {
  runtime::Arena arena(g_runtime_arena, sizeof(g_runtime_arena));
  const runtime::Span<uint8_t> planned[] = {{g_planned_arena, sizeof(g_planned_arena)}};
  runner::RunConfig config;
  config.pte = pte;
  config.pte_size = pte_size;
  config.inputs = input;
  config.inputs_size = input_size;
  config.expected = expected;
  config.expected_size = expected_size;
  config.registries.operators = kernels::Registry();
  config.runtime_arena = &arena;
  config.planned = {planned, 1};
  config.iterations = 2;
  return runner::RunProgram(config);
}

}  // namespace

int main() {
  using namespace ethosu_sdk::embedded;  // NOLINT
  const int a = Run(kConvNetPte, kConvNetPteSize, kConvNetInput, kConvNetInputSize,
                    kConvNetExpected, kConvNetExpectedSize);
  const int b = Run(kQuantConvPte, kQuantConvPteSize, kQuantConvInput, kQuantConvInputSize,
                    kQuantConvExpected, kQuantConvExpectedSize);
  const int c = Run(kQuantLinearPte, kQuantLinearPteSize, kQuantLinearInput,
                    kQuantLinearInputSize, kQuantLinearExpected, kQuantLinearExpectedSize);
  const int ab = a > b ? a : b;
  return ab > c ? ab : c;
}
