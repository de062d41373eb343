// Host time per inference of a Vela payload through the NPU model.
// Usage: npu_bench PAYLOAD TENSORS [RUNS]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "sim/host/case_files.h"
#include "sim/host/payload_harness.h"

namespace npu = ethosu_sdk::npu;

namespace npu_harness = ethosu_sdk::npu_harness;

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s PAYLOAD TENSORS [RUNS]\n", argv[0]);
    return 2;
  }
  const int runs = argc > 3 ? atoi(argv[3]) : 5;
  npu_harness::CaseFiles files;
  if (!npu_harness::LoadCase(argv[1], argv[2], &files)) return 1;
  // Decoded weights kept across inferences, as the host runner keeps them.
  npu_harness::HarnessOptions options;
  options.weight_cache_bytes = ethosu_sdk::npu_harness::kRecommendedWeightCacheBytes;
  npu_harness::PayloadHarness harness;
  ethosu_sdk::Status status = npu_harness::BindCase(files, files.payload, options, &harness);
  double best = 1e9, total = 0;
  npu::RunStats stats;
  for (int i = 0; i < runs && status.ok(); ++i) {
    stats = npu::RunStats();
    const auto start = std::chrono::steady_clock::now();
    status = harness.Run(&stats);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    best = ms < best ? ms : best;
    total += ms;
  }
  if (!status.ok()) {
    fprintf(stderr, "execute: %s\n", status.message());
    return 1;
  }
  printf("%d runs: mean %.1f ms, best %.1f ms per inference; %u NPU ops, %llu MACs\n", runs,
         total / runs, best, stats.operations, (unsigned long long)stats.macs);
  return 0;
}
