// libFuzzer target: arbitrary bytes as a .pte. Loads the program, loads the
// method "forward" into fixed arenas, and when that succeeds runs it once
// (planned memory is zeroed), with every kernel registered. Any crash, ASan
// or UBSan report is a finding; error statuses are the expected outcome.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cc/kernels/registry.h"
#include "cc/runner/tensor_file.h"
#include "cc/runtime/method.h"
#include "cc/runtime/program.h"

namespace {

using namespace ethosu_sdk::runtime;  // NOLINT: test code
using ethosu_sdk::Arena;
using ethosu_sdk::Span;

constexpr size_t kMaxInput = 1 << 20;
constexpr size_t kPlannedBytes = 1 << 20;
constexpr size_t kMaxPlannedBuffers = 4;

alignas(16) uint8_t g_input[kMaxInput];
alignas(16) uint8_t g_runtime[1 << 18];
alignas(16) uint8_t g_planned[kPlannedBytes];

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  // A fresh copy per run, sized exactly, so ASan sees reads past the input.
  std::memcpy(g_input, data, size);

  ethosu_sdk::runner::TensorFile tensors;
  (void)ethosu_sdk::runner::TensorFile::Parse(g_input, size, &tensors);

  const auto loaded = Program::Load(g_input, size);
  if (!loaded.ok()) return 0;
  const Program& program = *loaded;
  size_t sizes[kMaxPlannedBuffers];
  size_t count = 0;
  if (!Method::PlannedBufferSizes(program, "forward", sizes, kMaxPlannedBuffers, &count).ok()) {
    return 0;
  }
  Span<uint8_t> planned[kMaxPlannedBuffers];
  size_t used = 0;
  for (size_t i = 0; i < count; ++i) {
    if (sizes[i] > kPlannedBytes - used) return 0;
    planned[i] = {g_planned + used, sizes[i]};
    used += (sizes[i] + 15) & ~size_t{15};
    if (used > kPlannedBytes) return 0;
  }
  std::memset(g_planned, 0, used < kPlannedBytes ? used : kPlannedBytes);
  Arena arena(g_runtime, sizeof(g_runtime));
  MethodMemory memory;
  memory.runtime = &arena;
  memory.planned = {planned, count};
  Registries registries;
  registries.operators = ethosu_sdk::kernels::Registry();
  auto method = Method::Load(program, "forward", registries, memory);
  if (!method.ok()) return 0;
  method->SetInstructionBudget(10000);
  (void)method->Execute();
  return 0;
}
