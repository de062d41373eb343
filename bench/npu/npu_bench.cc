// Host time per inference of a Vela payload through the NPU model.
// Usage: npu_bench PAYLOAD TENSORS [RUNS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cc/backends/ethosu/ethosu_delegate.h"
#include "cc/backends/ethosu/vela_payload.h"

namespace {

std::vector<uint8_t> ReadFile(const char* path) {
  std::vector<uint8_t> out;
  FILE* f = fopen(path, "rb");
  if (f == nullptr) return out;
  uint8_t buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0) out.insert(out.end(), buffer, buffer + n);
  fclose(f);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s PAYLOAD TENSORS [RUNS]\n", argv[0]);
    return 2;
  }
  const int runs = argc > 3 ? atoi(argv[3]) : 5;
  std::vector<uint8_t> file = ReadFile(argv[1]);
  std::vector<uint8_t> tensors = ReadFile(argv[2]);
  ethosu_sdk::backends::ethosu::VelaPayload payload;
  ethosu_sdk::Status status = ethosu_sdk::backends::ethosu::ParseVelaPayload(file.data(), file.size(), &payload);
  if (!status.ok() || payload.num_inputs != 1 || payload.num_outputs != 1 || tensors.size() < 72) {
    fprintf(stderr, "bad inputs: %s\n", status.message());
    return 1;
  }
  // First tensor record of the .tensors file: header 16 bytes, record 56.
  uint64_t input_bytes;
  memcpy(&input_bytes, tensors.data() + 16 + 48, 8);
  const void* input = tensors.data() + 16 + 56;
  const size_t in_size = size_t(input_bytes);
  std::vector<uint8_t> output(payload.outputs[0].bytes());
  void* out_ptr = output.data();
  const size_t out_size = output.size();
  std::vector<uint8_t> scratch(payload.scratch_size);
  std::vector<uint8_t> workspace(ethosu_sdk::backends::ethosu::kRecommendedWorkspaceBytes);
  ethosu_sdk::backends::ethosu::DelegateBuffers b;
  b.inputs = &input;
  b.input_sizes = &in_size;
  b.num_inputs = 1;
  b.outputs = &out_ptr;
  b.output_sizes = &out_size;
  b.num_outputs = 1;
  b.scratch = scratch.data();
  b.scratch_size = scratch.size();
  b.workspace = {workspace.data(), workspace.size()};
  double best = 1e9, total = 0;
  npu::RunStats stats;
  for (int i = 0; i < runs; ++i) {
    stats = npu::RunStats();
    const auto start = std::chrono::steady_clock::now();
    status = ethosu_sdk::backends::ethosu::ExecuteVelaPayload(payload, b, &stats);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!status.ok()) {
      fprintf(stderr, "execute: %s\n", status.message());
      return 1;
    }
    best = ms < best ? ms : best;
    total += ms;
  }
  printf("%d runs: mean %.1f ms, best %.1f ms per inference; %u NPU ops, %llu MACs\n", runs,
         total / runs, best, stats.operations, (unsigned long long)stats.macs);
  return 0;
}
