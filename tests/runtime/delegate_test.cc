// The backend interface end to end: a .pte with a DelegateCall (lowered by
// ExecuTorch's BackendWithCompilerDemo, which computes sin) runs with a test
// Backend registered under that id. Checks what Init receives (payload,
// compile specs), that Execute gets the call's tensors, that the outputs match
// PyTorch eager, and the errors for a missing or failing backend.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cc/kernels/registry.h"
#include "cc/runner/protocol.h"
#include "cc/runner/tensor_file.h"
#include "cc/runtime/backend.h"
#include "cc/runtime/method.h"
#include "cc/runtime/program.h"
#include "cc/testing/unit_test.h"

namespace {

using namespace ethosu_sdk::runtime;  // NOLINT: test code
using ethosu_sdk::Arena;
using ethosu_sdk::ErrorCode;
using ethosu_sdk::ErrorCodeName;
using ethosu_sdk::Span;
using ethosu_sdk::Status;
using ethosu_sdk::runner::TensorFile;
using ethosu_sdk::runner::TensorRecord;

std::vector<uint64_t> ReadFile(const char* path, size_t* size) {
  std::vector<uint64_t> words;
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return words;
  std::fseek(f, 0, SEEK_END);
  *size = static_cast<size_t>(std::ftell(f));
  std::fseek(f, 0, SEEK_SET);
  words.assign(*size / 8 + 2, 0);
  if (std::fread(words.data(), 1, *size, f) != *size) words.clear();
  std::fclose(f);
  return words;
}

// Executes the demo payload: "...op:demo::aten.sin.default, numel:N, ...#"
// means out = sin(in) over N floats.
class DemoSinBackend final : public Backend {
 public:
  struct Handle {
    size_t numel;
  };
  const char* Id() const override { return "BackendWithCompilerDemo"; }
  Status Init(const DelegateInit& init, void** handle) override {
    payload.assign(reinterpret_cast<const char*>(init.processed.data()), init.processed.size());
    for (const CompileSpec& spec : init.compile_specs) {
      if (std::string(spec.key.data(), spec.key.size()) == "max_value" && spec.value.size() == 1) {
        max_value = spec.value[0];
      }
    }
    const size_t op = payload.find("op:demo::aten.sin.default, numel:");
    if (op == std::string::npos) return Status::Error(ErrorCode::kBackendFailed, "demo: no sin op");
    Handle* h = init.arena->New<Handle>(1);
    if (h == nullptr) return Status::Error(ErrorCode::kOutOfMemory, "demo: handle");
    h->numel = std::strtoul(payload.c_str() + op + std::strlen("op:demo::aten.sin.default, numel:"),
                            nullptr, 10);
    *handle = h;
    ++inits;
    return Status::Ok();
  }
  Status Execute(void* handle, Span<Value* const> args) override {
    ++executes;
    if (fail) return Status::Error(ErrorCode::kBackendFailed, "demo: asked to fail");
    const Handle* h = static_cast<const Handle*>(handle);
    if (args.size() != 2 || !args[0]->IsTensor() || !args[1]->IsTensor()) {
      return Status::Error(ErrorCode::kInvalidArgument, "demo: expects (input, output)");
    }
    const Tensor& in = *args[0]->tensor;
    Tensor& out = *args[1]->tensor;
    if (in.numel != h->numel || out.numel != h->numel || in.dtype != ScalarType::kFloat) {
      return Status::Error(ErrorCode::kInvalidArgument, "demo: tensor sizes");
    }
    for (size_t i = 0; i < h->numel; ++i)
      out.Data<float>()[i] = std::sin(in.Data<const float>()[i]);
    return Status::Ok();
  }

  std::string payload;
  int max_value = -1;
  int inits = 0;
  int executes = 0;
  bool fail = false;
};

struct Run {
  std::vector<uint64_t> runtime_words = std::vector<uint64_t>(1 << 13);
  std::vector<uint64_t> planned_words = std::vector<uint64_t>(1 << 13);
  Arena arena{runtime_words.data(), runtime_words.size() * 8};
  Span<uint8_t> planned{reinterpret_cast<uint8_t*>(planned_words.data()), planned_words.size() * 8};

  ethosu_sdk::Result<Method> Load(const Program& program, const BackendRegistry& backends) {
    MethodMemory memory;
    memory.runtime = &arena;
    memory.planned = {&planned, 1};
    Registries registries;
    registries.operators = ethosu_sdk::kernels::Registry();
    registries.backends = backends;
    return Method::Load(program, "forward", registries, memory);
  }
};

// The test's files, read once.
struct Files {
  size_t pte_size = 0, input_size = 0, expected_size = 0;
  std::vector<uint64_t> pte = ReadFile("tests/runtime/delegate_demo.pte", &pte_size);
  std::vector<uint64_t> input = ReadFile("tests/runtime/delegate_demo.tensors", &input_size);
  std::vector<uint64_t> expected =
      ReadFile("tests/runtime/delegate_demo.expected.tensors", &expected_size);
};

const Files& TestFiles() {
  static const Files files;
  return files;
}

TEST(Delegate, MissingBackendIsReportedByName) {
  const Files& f = TestFiles();
  ASSERT_FALSE(f.pte.empty()) << "read the .pte";
  const auto program = Program::Load(f.pte.data(), f.pte_size);
  ASSERT_TRUE(program.ok()) << "program loads: " << program.status().message();
  Run run;
  const auto method = run.Load(*program, BackendRegistry());
  const Status& status = method.status();
  std::printf("without a backend: %s: %s\n", ErrorCodeName(status.code()), status.message());
  EXPECT_STREQ(ErrorCodeName(status.code()), "NotFound");
  EXPECT_TRUE(std::strstr(status.message(), "backend not registered: BackendWithCompilerDemo") !=
              nullptr)
      << status.message();
}

TEST(Delegate, RunsAndFails) {
  const Files& f = TestFiles();
  ASSERT_TRUE(!f.pte.empty() && !f.input.empty() && !f.expected.empty()) << "read test files";
  const auto program = Program::Load(f.pte.data(), f.pte_size);
  ASSERT_TRUE(program.ok()) << "program loads: " << program.status().message();

  DemoSinBackend demo;
  Backend* const backends[] = {&demo};
  TensorFile inputs, outputs;
  ASSERT_TRUE(TensorFile::Parse(f.input.data(), f.input_size, &inputs).ok()) << "parse input";
  ASSERT_TRUE(TensorFile::Parse(f.expected.data(), f.expected_size, &outputs).ok())
      << "parse expected";
  TensorRecord in, want;
  ASSERT_TRUE(inputs.Get(0, &in).ok() && outputs.Get(0, &want).ok()) << "records";

  {
    Run run;
    auto method = run.Load(*program, BackendRegistry(backends, 1));
    ASSERT_TRUE(method.ok()) << "loads with the backend: " << method.status().message();
    EXPECT_EQ(demo.inits, 1) << "Init called once";
    EXPECT_NE(demo.payload.find("op:demo::aten.sin.default"), std::string::npos)
        << "payload reaches Init";
    EXPECT_EQ(demo.max_value, 4) << "compile spec max_value=4 reaches Init";
    for (int iteration = 0; iteration < 2; ++iteration) {
      EXPECT_TRUE(method->SetInput(0, in.tensor.data, in.tensor.nbytes).ok()) << "set input";
      const Status status = method->Execute();
      ASSERT_TRUE(status.ok()) << "executes: " << status.message();
    }
    EXPECT_EQ(demo.executes, 2) << "Execute once per run";
    const auto c = ethosu_sdk::runner::Compare(*method->Output(0).tensor, want.tensor);
    EXPECT_TRUE(c.shape_ok) << "output shape matches PyTorch";
    EXPECT_EQ(c.mismatches, 0u) << "output matches PyTorch";
  }

  {  // A failing backend: the error and the instruction come back.
    demo.fail = true;
    Run run;
    auto method = run.Load(*program, BackendRegistry(backends, 1));
    ASSERT_TRUE(method.ok()) << "load for failure";
    EXPECT_TRUE(method->SetInput(0, in.tensor.data, in.tensor.nbytes).ok()) << "set input";
    const Status status = method->Execute();
    std::printf("failing backend: %s at instruction %lld: %s\n", ErrorCodeName(status.code()),
                static_cast<long long>(method->FailedInstruction()), status.message());
    EXPECT_STREQ(ErrorCodeName(status.code()), "BackendFailed");
    EXPECT_EQ(method->FailedInstruction(), 0) << "backend failure is returned with its instruction";
  }
}

}  // namespace
