// The firmware's main: runs the model linked into the image (its .pte, input
// and expected output, embedded by the ethosu_firmware rule) with the
// runtime, the selected CPU kernels and the Ethos-U backend, which drives the
// board's NPU through its registers, and reports in the line protocol
// (PROTOCOL.md), adding the memory and NPU figures.
#include <cstddef>
#include <cstdint>

#include "cc/backends/ethosu/board_npu.h"
#include "cc/backends/ethosu/ethosu_backend.h"
#include "cc/core/arena.h"
#include "cc/drivers/ethosu/identity.h"
#include "cc/drivers/ethosu/pmu.h"
#include "cc/kernels/registry.h"
#include "cc/platform/platform.h"
#include "cc/platform/stack.h"
#include "cc/runner/firmware_memory.h"
#include "cc/runner/run_program.h"
#include "cc/support/crc32.h"
#include "cc/support/text_builder.h"

// Embedded by the ethosu_firmware rule (tools/rules/embed.bzl).
extern "C" const unsigned char esdk_model_pte[], esdk_model_pte_end[];
extern "C" const unsigned char esdk_model_input[], esdk_model_input_end[];
extern "C" const unsigned char esdk_model_expected[], esdk_model_expected_end[];

namespace {

using ethosu_sdk::TextBuilder;

size_t Size(const unsigned char* begin, const unsigned char* end) {
  return static_cast<size_t>(end - begin);
}

void Emit(TextBuilder& line) {
  line.Char('\n');
  ethosu_sdk::platform::ConsoleWrite(line.c_str(), line.size());
}

// The ESDK NPU record: what the driver found and the PMU totals.
void AppendNpuFigures(const ethosu_sdk::backends::ethosu::DriverNpu& npu, TextBuilder& line) {
  namespace driver = ethosu_sdk::drivers::ethosu;
  const driver::Identity& identity = npu.driver().identity();
  line.Str(" jobs=").UInt(npu.figures().jobs).Str(" npu=");
  if (npu.driver().initialized()) {
    line.Str(driver::ProductName(identity.product)).Char('-').UInt(uint64_t(identity.macs));
  } else {
    line.Str("none");  // no job ran: the NPU was never probed
  }
  line.Str(" id=0x").Hex(identity.id, 8).Str(" config=0x").Hex(identity.config, 8);
  line.Str(" cycles=").UInt(npu.figures().cycles);
  for (int i = 0; i < driver::kPmuEvents; ++i) {
    line.Str(" pmu_").Str(driver::kPmuEventList[i].name).Char('=').UInt(npu.figures().events[i]);
  }
}

}  // namespace

int main() {
  ethosu_sdk::platform::PaintStack();  // for the MEMORY record's stack high-water mark
  const auto& memory = ethosu_sdk::firmware::kMemory;
  ethosu_sdk::backends::ethosu::DriverNpu& npu = ethosu_sdk::backends::ethosu::BoardDriverNpu();
  static ethosu_sdk::backends::EthosUBackend ethosu_backend(npu, memory.fast_scratch);
  ethosu_sdk::runtime::Backend* const backends[] = {&ethosu_backend};
  const size_t pte_size = Size(esdk_model_pte, esdk_model_pte_end);
  char buffer[256];
  TextBuilder line(buffer, sizeof(buffer));
  // Which program this image carries, so the host can tie results to a build.
  line.Str("ESDK PROGRAM board=")
      .Str(ethosu_sdk::platform::BoardName())
      .Str(" bytes=")
      .UInt(pte_size);
  line.Str(" crc32=").Hex(ethosu_sdk::Crc32(esdk_model_pte, pte_size), 8);
  Emit(line);

  ethosu_sdk::Arena runtime_arena(memory.runtime_arena.data(), memory.runtime_arena.size());
  ethosu_sdk::runner::RunConfig config;
  config.pte = esdk_model_pte;
  config.pte_size = pte_size;
  config.inputs = esdk_model_input;
  config.inputs_size = Size(esdk_model_input, esdk_model_input_end);
  config.expected = esdk_model_expected;
  config.expected_size = Size(esdk_model_expected, esdk_model_expected_end);
  config.registries.operators = ethosu_sdk::kernels::Registry();
  config.registries.backends = ethosu_sdk::runtime::BackendRegistry(backends, 1);
  config.runtime_arena = &runtime_arena;
  config.planned = memory.planned;
  const int result = ethosu_sdk::runner::RunProgram(config);

  size_t planned_bytes = 0;
  for (const auto& span : memory.planned) planned_bytes += span.size();
  line.Clear();
  line.Str("ESDK MEMORY program=").UInt(pte_size).Str(" planned=").UInt(planned_bytes);
  line.Str(" runtime_arena_used=")
      .UInt(runtime_arena.used())
      .Str(" runtime_arena=")
      .UInt(runtime_arena.size());
  line.Str(" npu_scratch=").UInt(ethosu_backend.scratch_bytes());
  line.Str(" fast_scratch=").UInt(memory.fast_scratch.size());
  line.Str(" peak=").UInt(planned_bytes + runtime_arena.used());
  // The stack's deepest point over loading and running the method.
  const size_t stack = ethosu_sdk::platform::StackHighWater();
  line.Str(" stack=").UInt(stack).Str(" stack_size=").UInt(ethosu_sdk::platform::StackSize());
  line.Str(" total=").UInt(planned_bytes + runtime_arena.used() + stack);
  Emit(line);
  line.Clear();
  line.Str("ESDK NPU delegate_calls=").UInt(ethosu_backend.delegate_calls());
  AppendNpuFigures(npu, line);
  line.Str(" ticks=").UInt(ethosu_backend.ticks());
  Emit(line);
  return result;
}
