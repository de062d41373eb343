// Host runner: runs a .pte on the build machine with our runtime and prints
// the line protocol (PROTOCOL.md) on stdout. Host-only (reads files).
//
//   host_runner --pte=model.pte --input=in.tensors [--expected=out.tensors]
//               [--iterations=N] [--method=forward] [--fast_scratch_bytes=N] [--quiet]
//
// --fast_scratch_bytes: the NPU's fast scratch (Vela's region 2, the arena
// cache of its Dedicated_Sram modes); the default holds the largest one that
// Vela's own configuration defines, so any such .pte runs.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cc/backends/ethosu/ethosu_backend.h"
#include "cc/kernels/registry.h"
#include "cc/runner/run_program.h"
#include "cc/runtime/method.h"
#include "cc/runtime/program.h"
#include "sim/host/ethosu_delegate.h"
#include "sim/host/model_npu.h"
#include "sim/npu/weights/weight_cache.h"

namespace {

using ethosu_sdk::Span;

// File contents in 16-byte aligned storage (the runtime reads in place).
struct FileData {
  std::vector<unsigned long long> words;
  size_t size = 0;
  const void* data() const { return words.data(); }
};

// Reads `path` (the value of `flag`); on failure prints one line naming both
// and the reason.
bool ReadFile(const char* flag, const std::string& path, FileData* out) {
  errno = 0;
  FILE* f = std::fopen(path.c_str(), "rb");
  long size = -1;
  if (f != nullptr && std::fseek(f, 0, SEEK_END) == 0) size = std::ftell(f);
  bool ok = size >= 0 && std::fseek(f, 0, SEEK_SET) == 0;
  if (ok) {
    out->size = static_cast<size_t>(size);
    out->words.assign(out->size / 8 + 2, 0);
    ok = std::fread(out->words.data(), 1, out->size, f) == out->size;
  }
  const int error = errno;
  if (f != nullptr) std::fclose(f);
  if (!ok) {
    std::fprintf(stderr, "host_runner: error: cannot read %s=%s: %s\n", flag, path.c_str(),
                 error != 0 ? std::strerror(error) : "not a regular file");
  }
  return ok;
}

// Vela's Arm/vela.ini: Dedicated_Sram_512KB is its largest arena cache.
constexpr size_t kDefaultFastScratchBytes = 512 * 1024;

const char* Flag(const char* arg, const char* name) {
  const size_t n = std::strlen(name);
  return std::strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::string pte_path, input_path, expected_path, method = "forward";
  unsigned iterations = 1;
  size_t fast_scratch_bytes = kDefaultFastScratchBytes;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    const char* v;
    if ((v = Flag(argv[i], "--pte")))
      pte_path = v;
    else if ((v = Flag(argv[i], "--input")))
      input_path = v;
    else if ((v = Flag(argv[i], "--expected")))
      expected_path = v;
    else if ((v = Flag(argv[i], "--method")))
      method = v;
    else if ((v = Flag(argv[i], "--iterations")))
      iterations = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    else if ((v = Flag(argv[i], "--fast_scratch_bytes")))
      fast_scratch_bytes = std::strtoull(v, nullptr, 10);
    else if (std::strcmp(argv[i], "--quiet") == 0)
      quiet = true;
    else {
      std::fprintf(
          stderr,
          "host_runner: error: unknown argument '%s'; usage: host_runner --pte=FILE --input=FILE "
          "[--expected=FILE] [--method=NAME] [--iterations=N] [--fast_scratch_bytes=N] [--quiet]\n",
          argv[i]);
      return 2;
    }
  }
  if (pte_path.empty() || input_path.empty()) {
    std::fprintf(stderr, "host_runner: error: --pte=FILE and --input=FILE are required\n");
    return 2;
  }
  FileData pte, input, expected;
  if (!ReadFile("--pte", pte_path, &pte) || !ReadFile("--input", input_path, &input) ||
      (!expected_path.empty() && !ReadFile("--expected", expected_path, &expected))) {
    return 2;
  }

  // Arenas sized from the program itself; the firmware uses static ones.
  size_t sizes[16];
  size_t count = 0;
  const auto program = ethosu_sdk::runtime::Program::Load(pte.data(), pte.size);
  if (program.ok()) {
    if (!ethosu_sdk::runtime::Method::PlannedBufferSizes(*program, method.c_str(), sizes, 16,
                                                         &count)
             .ok()) {
      count = 0;  // RunProgram reports the error
    }
  }
  std::vector<std::vector<unsigned long long>> planned_storage(count);
  std::vector<Span<uint8_t>> planned(count);
  for (size_t i = 0; i < count; ++i) {
    planned_storage[i].assign(sizes[i] / 8 + 2, 0);
    planned[i] = {reinterpret_cast<uint8_t*>(planned_storage[i].data()), sizes[i]};
  }
  // Room for the Ethos-U delegate's scratch.
  std::vector<unsigned long long> runtime_storage(2 << 20);  // 16 MiB
  ethosu_sdk::Arena runtime_arena(runtime_storage.data(), runtime_storage.size() * 8);

  ethosu_sdk::runner::RunConfig config;
  config.pte = pte.data();
  config.pte_size = pte.size;
  config.inputs = input.data();
  config.inputs_size = input.size;
  if (!expected_path.empty()) {
    config.expected = expected.data();
    config.expected_size = expected.size;
  }
  config.method = method.c_str();
  config.registries.operators = ethosu_sdk::kernels::Registry();
  // On the host, Ethos-U delegates run on the functional NPU model (the
  // firmware drives the NPU through its registers).
  static std::vector<uint8_t> workspace(ethosu_sdk::npu_harness::kRecommendedWorkspaceBytes);
  // Decoded weights kept across iterations (and across delegates).
  static std::unique_ptr<uint8_t[]> cache_memory(
      new uint8_t[ethosu_sdk::npu_harness::kRecommendedWeightCacheBytes]);
  static ethosu_sdk::npu::WeightCache weight_cache(
      cache_memory.get(), ethosu_sdk::npu_harness::kRecommendedWeightCacheBytes);
  static ethosu_sdk::npu_harness::ModelNpu model(
      {workspace.data(), workspace.size(), &weight_cache});
  static std::vector<unsigned long long> fast_scratch(fast_scratch_bytes / 8 + 1);
  static ethosu_sdk::backends::EthosUBackend ethosu_backend(
      model, {reinterpret_cast<uint8_t*>(fast_scratch.data()), fast_scratch_bytes});
  static ethosu_sdk::runtime::Backend* const backends[] = {&ethosu_backend};
  config.registries.backends = ethosu_sdk::runtime::BackendRegistry(backends, 1);
  config.runtime_arena = &runtime_arena;
  config.planned = {planned.data(), planned.size()};
  config.iterations = iterations;
  config.print_outputs = !quiet;
  return ethosu_sdk::runner::RunProgram(config);
}
