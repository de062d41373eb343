// Runs CPU-only programs on the board with the runtime and kernels built for
// Cortex-M55, comparing with ExecuTorch's host outputs embedded next to them.
// Static arenas only; the exit status is the worst run's (0: all PASS).
#include <cstddef>
#include <cstdint>

#include "cc/kernels/registry.h"
#include "cc/runner/run_program.h"
#include "tests/runtime/firmware/conv_net_f32_expected.h"
#include "tests/runtime/firmware/conv_net_f32_input.h"
#include "tests/runtime/firmware/conv_net_f32_pte.h"
#include "tests/runtime/firmware/pt2e_channels_last_int8_expected.h"
#include "tests/runtime/firmware/pt2e_channels_last_int8_input.h"
#include "tests/runtime/firmware/pt2e_channels_last_int8_pte.h"
#include "tests/runtime/firmware/quant_conv_int8_expected.h"
#include "tests/runtime/firmware/quant_conv_int8_input.h"
#include "tests/runtime/firmware/quant_conv_int8_pte.h"
#include "tests/runtime/firmware/quant_linear_int8_expected.h"
#include "tests/runtime/firmware/quant_linear_int8_input.h"
#include "tests/runtime/firmware/quant_linear_int8_pte.h"

namespace {

using namespace ethosu_sdk;  // NOLINT: a test firmware

alignas(16) uint8_t g_runtime_arena[32 * 1024];
alignas(16) uint8_t g_planned_arena[64 * 1024];

int Run(const unsigned char* pte, size_t pte_size, const unsigned char* input, size_t input_size,
        const unsigned char* expected, size_t expected_size) {
  Arena arena(g_runtime_arena, sizeof(g_runtime_arena));
  const Span<uint8_t> planned[] = {{g_planned_arena, sizeof(g_planned_arena)}};
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
  const int a = Run(kConvNetPte, kConvNetPte_size(), kConvNetInput, kConvNetInput_size(),
                    kConvNetExpected, kConvNetExpected_size());
  const int b = Run(kQuantConvPte, kQuantConvPte_size(), kQuantConvInput, kQuantConvInput_size(),
                    kQuantConvExpected, kQuantConvExpected_size());
  const int c = Run(kQuantLinearPte, kQuantLinearPte_size(), kQuantLinearInput,
                    kQuantLinearInput_size(), kQuantLinearExpected, kQuantLinearExpected_size());
  // Its input and expected output are in memory order (N,H,W,C).
  const int d = Run(kChannelsLastQuantPte, kChannelsLastQuantPte_size(), kChannelsLastQuantInput,
                    kChannelsLastQuantInput_size(), kChannelsLastQuantExpected,
                    kChannelsLastQuantExpected_size());
  int worst = a;
  for (const int r : {b, c, d}) worst = r > worst ? r : worst;
  return worst;
}
