// libFuzzer target: arbitrary bytes as (a) a whole Vela payload, parsed and
// executed, or (b) a raw register command stream run against small fixed
// regions. The first byte picks the mode. Built with clang-19
// -fsanitize=fuzzer,address,undefined (see BUILD.bazel).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cc/backends/ethosu/ethosu_delegate.h"
#include "cc/backends/ethosu/vela_payload.h"

namespace {

constexpr size_t kMaxScratch = 1u << 20;
constexpr size_t kWorkspace = 1u << 20;

void RunPayload(const uint8_t* data, size_t size) {
  // Exactly-sized, 4-aligned copy: ASan sees any overread.
  if (size == 0) return;
  std::vector<uint32_t> aligned((size + 3) / 4);
  memcpy(aligned.data(), data, size);
  ethosu_sdk::backends::ethosu::VelaPayload payload;
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(aligned.data());
  if (!ethosu_sdk::backends::ethosu::ParseVelaPayload(bytes, size, &payload).ok()) return;
  if (payload.scratch_size > kMaxScratch) return;
  std::vector<std::vector<uint8_t>> inputs(static_cast<size_t>(payload.num_inputs));
  std::vector<std::vector<uint8_t>> outputs(static_cast<size_t>(payload.num_outputs));
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  std::vector<size_t> in_sizes, out_sizes;
  for (int i = 0; i < payload.num_inputs; ++i) {
    if (payload.inputs[i].bytes() > kMaxScratch) return;
    inputs[size_t(i)].assign(payload.inputs[i].bytes(), 1);
    in_ptrs.push_back(inputs[size_t(i)].data());
    in_sizes.push_back(inputs[size_t(i)].size());
  }
  for (int i = 0; i < payload.num_outputs; ++i) {
    if (payload.outputs[i].bytes() > kMaxScratch) return;
    outputs[size_t(i)].assign(payload.outputs[i].bytes(), 0);
    out_ptrs.push_back(outputs[size_t(i)].data());
    out_sizes.push_back(outputs[size_t(i)].size());
  }
  std::vector<uint8_t> scratch(payload.scratch_size);
  std::vector<uint8_t> fast_scratch(payload.fast_scratch_size);
  std::vector<uint8_t> workspace(kWorkspace);
  ethosu_sdk::backends::ethosu::DelegateBuffers b;
  b.inputs = in_ptrs.data();
  b.input_sizes = in_sizes.data();
  b.num_inputs = payload.num_inputs;
  b.outputs = out_ptrs.data();
  b.output_sizes = out_sizes.data();
  b.num_outputs = payload.num_outputs;
  b.scratch = scratch.data();
  b.scratch_size = scratch.size();
  b.fast_scratch = fast_scratch.empty() ? nullptr : fast_scratch.data();
  b.fast_scratch_size = fast_scratch.size();
  b.workspace = {workspace.data(), workspace.size()};
  b.limits.max_work_per_operation = 1u << 18;
  npu::RunStats stats;
  (void)ethosu_sdk::backends::ethosu::ExecuteVelaPayload(payload, b, &stats);
}

void RunCommands(const uint8_t* data, size_t size) {
  if (size < 4) return;
  std::vector<uint32_t> words(size / 4);
  memcpy(words.data(), data, words.size() * 4);
  static uint8_t weights[4096];
  std::vector<uint8_t> scratch(4096), fast(1024), workspace(kWorkspace);
  for (size_t i = 0; i < sizeof(weights); ++i) weights[i] = uint8_t(i * 37);
  npu::Region regions[npu::kNumRegions];
  regions[0] = {weights, nullptr, sizeof(weights)};
  regions[1] = {scratch.data(), scratch.data(), scratch.size()};
  regions[2] = {fast.data(), fast.data(), fast.size()};
  npu::RunLimits limits;
  limits.max_work_per_operation = 1u << 18;
  npu::NpuConfig config;
  if (size > 0 && (data[0] & 2)) config = {npu::Architecture::kEthosU55, 128};
  // Multi-core configurations read one weight stream per core.
  if (size > 0 && (data[0] & 4)) {
    config = (data[0] & 2) ? npu::NpuConfig{npu::Architecture::kEthosU65, 256, 2}
                           : npu::NpuConfig{npu::Architecture::kEthosU85, 1024, 4};
  }
  (void)npu::RunCommandStream(config, words.data(), words.size(), regions,
                              {workspace.data(), workspace.size()}, nullptr, limits);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  if (data[0] & 1) {
    RunCommands(data + 1, size - 1);
  } else {
    RunPayload(data + 1, size - 1);
  }
  return 0;
}
