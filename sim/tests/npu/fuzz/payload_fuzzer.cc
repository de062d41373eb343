// libFuzzer target: arbitrary bytes as (a) a whole Vela payload, parsed and
// executed, or (b) a raw register command stream run against small fixed
// regions. The first byte picks the mode. Built with clang-19
// -fsanitize=fuzzer,address,undefined (see BUILD.bazel).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/host/payload_harness.h"
#include "sim/npu/model.h"

namespace npu = ethosu_sdk::npu;

namespace {

constexpr size_t kMaxBufferBytes = 1u << 20;
constexpr size_t kWorkspace = 1u << 20;
// A stream that branches back over operations repeats them: its work and
// its loops are bounded (as the device bounds a guest's job), so each input
// ends fast.
constexpr uint64_t kMaxStreamWork = uint64_t(1) << 24;
constexpr uint64_t kMaxBranches = 64;

void RunPayload(const uint8_t* data, size_t size) {
  ethosu_sdk::npu_harness::HarnessOptions options;
  options.workspace_bytes = kWorkspace;
  options.limits.max_work_per_operation = 1u << 18;
  options.limits.max_total_work = kMaxStreamWork;
  options.limits.max_branches_taken = kMaxBranches;
  options.input_fill = 1;
  options.max_buffer_bytes = kMaxBufferBytes;
  (void)ethosu_sdk::npu_harness::RunPayloadBytes(data, size, options);
}

void RunCommands(const uint8_t* data, size_t size) {
  if (size < 4) return;
  std::vector<uint32_t> words(size / 4);
  memcpy(words.data(), data, words.size() * 4);
  static uint8_t weights[4096];
  std::vector<uint8_t> scratch(4096), fast(1024), workspace(kWorkspace);
  for (size_t i = 0; i < sizeof(weights); ++i) weights[i] = uint8_t(i * 37);
  npu::Region regions[npu::kNumRegions];
  regions[0] = {weights, sizeof(weights), false};
  regions[1] = {scratch.data(), scratch.size(), true};
  regions[2] = {fast.data(), fast.size(), true};
  npu::RunLimits limits;
  limits.max_work_per_operation = 1u << 18;
  limits.max_total_work = kMaxStreamWork;
  limits.max_branches_taken = kMaxBranches;
  npu::NpuConfig config;
  if (size > 0 && (data[0] & 2)) config = {ethosu_sdk::ethosu::Product::kEthosU55, 128};
  // Multi-core configurations read one weight stream per core.
  if (size > 0 && (data[0] & 4)) {
    config = (data[0] & 2) ? npu::NpuConfig{ethosu_sdk::ethosu::Product::kEthosU65, 256, 2}
                           : npu::NpuConfig{ethosu_sdk::ethosu::Product::kEthosU85, 1024, 4};
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
