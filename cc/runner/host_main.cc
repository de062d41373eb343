// Host runner: runs a .pte on the build machine with our runtime and prints
// the line protocol (PROTOCOL.md) on stdout. Host-only (reads files).
//
//   host_runner --pte=model.pte --input=in.tensors [--expected=out.tensors]
//               [--iterations=N] [--method=forward] [--quiet]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cc/backends/ethosu/ethosu_backend.h"
#include "cc/backends/ethosu/ethosu_delegate.h"
#include "cc/backends/ethosu/model_npu.h"
#include "cc/kernels/registry.h"
#include "cc/runner/run_program.h"
#include "cc/runtime/method.h"
#include "cc/runtime/program.h"

namespace {

using ethosu_sdk::runtime::Span;

// File contents in 16-byte aligned storage (the runtime reads in place).
struct FileData {
  std::vector<unsigned long long> words;
  size_t size = 0;
  const void* data() const { return words.data(); }
};

bool ReadFile(const std::string& path, FileData* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  if (size < 0) {
    std::fclose(f);
    return false;
  }
  out->size = static_cast<size_t>(size);
  out->words.assign(out->size / 8 + 2, 0);
  const bool ok = std::fread(out->words.data(), 1, out->size, f) == out->size;
  std::fclose(f);
  return ok;
}

const char* Flag(const char* arg, const char* name) {
  const size_t n = std::strlen(name);
  return std::strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::string pte_path, input_path, expected_path, method = "forward";
  unsigned iterations = 1;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    const char* v;
    if ((v = Flag(argv[i], "--pte"))) pte_path = v;
    else if ((v = Flag(argv[i], "--input"))) input_path = v;
    else if ((v = Flag(argv[i], "--expected"))) expected_path = v;
    else if ((v = Flag(argv[i], "--method"))) method = v;
    else if ((v = Flag(argv[i], "--iterations"))) iterations = static_cast<unsigned>(std::strtoul(v, nullptr, 10));
    else if (std::strcmp(argv[i], "--quiet") == 0) quiet = true;
    else {
      std::fprintf(stderr,
                   "usage: %s --pte=FILE --input=FILE [--expected=FILE] [--method=NAME] "
                   "[--iterations=N] [--quiet]\n",
                   argv[0]);
      return 2;
    }
  }
  FileData pte, input, expected;
  if (pte_path.empty() || input_path.empty() || !ReadFile(pte_path, &pte) ||
      !ReadFile(input_path, &input) || (!expected_path.empty() && !ReadFile(expected_path, &expected))) {
    std::fprintf(stderr, "cannot read --pte, --input or --expected\n");
    return 2;
  }

  // Arenas sized from the program itself; the firmware uses static ones.
  ethosu_sdk::runtime::Program program;
  size_t sizes[16];
  size_t count = 0;
  if (ethosu_sdk::runtime::Program::Load(pte.data(), pte.size, &program).ok()) {
    if (!ethosu_sdk::runtime::Method::PlannedBufferSizes(program, method.c_str(), sizes, 16, &count).ok()) {
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
  ethosu_sdk::runtime::Arena runtime_arena(runtime_storage.data(), runtime_storage.size() * 8);

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
  static std::vector<uint8_t> workspace(ethosu::kRecommendedWorkspaceBytes);
  static ethosu::ModelNpu model({workspace.data(), workspace.size()});
  static ethosu_sdk::backends::EthosUBackend ethosu_backend(model);
  static ethosu_sdk::runtime::Backend* const backends[] = {&ethosu_backend};
  config.registries.backends = ethosu_sdk::runtime::BackendRegistry(backends, 1);
  config.runtime_arena = &runtime_arena;
  config.planned = {planned.data(), planned.size()};
  config.iterations = iterations;
  config.print_outputs = !quiet;
  return ethosu_sdk::runner::RunProgram(config);
}
