// Broken programs and short arenas give errors with reasons, never a crash:
// truncated files, flipped bytes, out-of-range indices and offsets and a dim
// order that is not a permutation written by make_programs.py, arenas that
// are too small, a misaligned buffer; channels-last tensors that a kernel
// cannot take.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cc/kernels/registry.h"
#include "cc/runtime/method.h"
#include "cc/runtime/program.h"

namespace {

using ethosu_sdk::Arena;
using ethosu_sdk::ErrorCode;
using ethosu_sdk::ErrorCodeName;
using ethosu_sdk::runtime::Method;
using ethosu_sdk::runtime::MethodMemory;
using ethosu_sdk::runtime::Program;
using ethosu_sdk::runtime::Registries;
using ethosu_sdk::Span;
using ethosu_sdk::Status;

int failures = 0;

void Check(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL %s\n", what.c_str());
    ++failures;
  }
}

std::vector<uint8_t> ReadFile(const char* path) {
  std::vector<uint8_t> data;
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return data;
  int c;
  while ((c = std::fgetc(f)) != EOF) data.push_back(static_cast<uint8_t>(c));
  std::fclose(f);
  return data;
}

// Owns aligned copies of a program and the arenas a method needs.
struct Harness {
  std::vector<uint64_t> pte_words;
  std::vector<uint64_t> runtime_words = std::vector<uint64_t>(1 << 15);
  std::vector<std::vector<uint64_t>> planned_words;
  std::vector<Span<uint8_t>> planned;
  Arena arena;

  // Loads `bytes` and, when that works, method "forward"; arenas are sized
  // from the program, then shrunk by `planned_shrink` bytes.
  Status Load(const std::vector<uint8_t>& bytes, size_t planned_shrink, Program* program,
              Method* method, size_t runtime_bytes = 1 << 18) {
    pte_words.assign(bytes.size() / 8 + 1, 0);
    if (!bytes.empty()) std::memcpy(pte_words.data(), bytes.data(), bytes.size());
    Status status = Program::Load(pte_words.data(), bytes.size(), program);
    if (!status.ok()) return status;
    size_t sizes[8];
    size_t count = 0;
    status = Method::PlannedBufferSizes(*program, "forward", sizes, 8, &count);
    if (!status.ok()) return status;
    planned_words.assign(count, {});
    planned.assign(count, {});
    for (size_t i = 0; i < count; ++i) {
      if (sizes[i] > (64u << 20)) return Status::Error(ErrorCode::kOutOfMemory, "test: huge plan");
      planned_words[i].assign(sizes[i] / 8 + 1, 0);
      const size_t size = sizes[i] >= planned_shrink ? sizes[i] - planned_shrink : 0;
      planned[i] = {reinterpret_cast<uint8_t*>(planned_words[i].data()), size};
    }
    arena = Arena(runtime_words.data(), runtime_bytes < runtime_words.size() * 8 ? runtime_bytes : runtime_words.size() * 8);
    MethodMemory memory;
    memory.runtime = &arena;
    memory.planned = {planned.data(), planned.size()};
    Registries registries;
    registries.operators = ethosu_sdk::kernels::Registry();
    return Method::Load(*program, "forward", registries, memory, method);
  }
};

void ExpectError(const Status& status, ErrorCode code, const char* message_part,
                 const std::string& what) {
  const bool ok = !status.ok() && status.code() == code &&
                  std::strstr(status.message(), message_part) != nullptr;
  Check(ok, what + ": got " + ErrorCodeName(status.code()) + " \"" + status.message() +
                "\", want " + ErrorCodeName(code) + " containing \"" + message_part + "\"");
}

void TestValidProgramRuns(const std::vector<uint8_t>& pte) {
  Harness h;
  Program program;
  Method method;
  Status status = h.Load(pte, 0, &program, &method);
  Check(status.ok(), std::string("valid program loads: ") + status.message());
  if (status.ok()) {
    status = method.Execute();
    Check(status.ok(), std::string("valid program runs: ") + status.message());
  }
}

void TestTruncated(const std::vector<uint8_t>& pte) {
  int errors = 0;
  for (size_t size = 0; size < pte.size(); ++size) {
    Harness h;
    Program program;
    Method method;
    std::vector<uint8_t> prefix(pte.begin(), pte.begin() + static_cast<long>(size));
    const Status status = h.Load(prefix, 0, &program, &method);
    if (!status.ok() && std::strlen(status.message()) > 0) ++errors;
  }
  Check(errors == static_cast<int>(pte.size()),
        "every truncation is rejected with a message (" + std::to_string(errors) + " of " +
            std::to_string(pte.size()) + ")");
  Harness h;
  Program program;
  Method method;
  std::vector<uint8_t> prefix(pte.begin(), pte.begin() + 100);
  ExpectError(h.Load(prefix, 0, &program, &method), ErrorCode::kInvalidProgram, "",
              "100-byte prefix");
}

// Every single-byte corruption either fails with a message or still loads
// and runs to an OK or error status: the process must survive each one.
void TestCorrupt(const std::vector<uint8_t>& pte) {
  int rejected = 0, ran = 0;
  for (size_t i = 0; i < pte.size(); ++i) {
    std::vector<uint8_t> bad = pte;
    bad[i] ^= 0xA5;
    Harness h;
    Program program;
    Method method;
    const Status status = h.Load(bad, 0, &program, &method);
    if (!status.ok()) {
      Check(std::strlen(status.message()) > 0, "corruption error has a message");
      ++rejected;
      continue;
    }
    (void)method.Execute();  // any status; inputs are zero
    ++ran;
  }
  std::printf("corrupt: %d of %zu single-byte corruptions rejected at load, %d loaded and ran\n",
              rejected, pte.size(), ran);
  Check(rejected > 0, "some corruptions are rejected");
  std::vector<uint8_t> bad = pte;
  bad[4] = 'X';  // file identifier
  Harness h;
  Program program;
  Method method;
  ExpectError(h.Load(bad, 0, &program, &method), ErrorCode::kInvalidProgram, "identifier",
              "bad identifier");
}

void TestBrokenPrograms() {
  struct Case {
    const char* file;
    ErrorCode code;
    const char* message;
  };
  const Case cases[] = {
      {"broken_op_index", ErrorCode::kOutOfRange, "operator index"},
      {"broken_value_index", ErrorCode::kOutOfRange, "value index"},
      {"broken_constant_index", ErrorCode::kOutOfRange, "constant"},
      {"broken_memory_offset", ErrorCode::kOutOfRange, "tensor past its planned buffer"},
      {"broken_memory_id", ErrorCode::kOutOfRange, "memory id"},
      {"broken_jump", ErrorCode::kOutOfRange, "jump destination"},
      {"broken_dim_order", ErrorCode::kInvalidProgram,
       "dim order is not a permutation of the dimensions (2, 2)"},
      // Channels-last tensors where a kernel cannot take them: whole messages.
      {"channels_last_conv_f32", ErrorCode::kNotSupported,
       "operator aten::convolution.out: a tensor in dim order (0,2,3,1); this kernel takes tensors in the "
       "default dim order only"},
      {"channels_last_add_f32", ErrorCode::kNotSupported,
       "operator aten::add.out: a tensor in dim order (0,2,3,1); this kernel takes tensors in the default "
       "dim order only"},
      {"mixed_dim_order", ErrorCode::kNotSupported,
       "operator aten::tanh.out: tensors (2,3,4,5) in dim order (0,2,3,1) and (2,3,4,5) in (0,1,2,3); this "
       "kernel takes tensors of one shape and one dim order"},
  };
  for (const Case& c : cases) {
    const std::string path = std::string("tests/runtime/") + c.file + ".pte";
    const std::vector<uint8_t> pte = ReadFile(path.c_str());
    Check(!pte.empty(), "read " + path);
    Harness h;
    Program program;
    Method method;
    const Status status = h.Load(pte, 0, &program, &method);
    std::printf("%s: %s: %s\n", c.file, ErrorCodeName(status.code()), status.message());
    ExpectError(status, c.code, c.message, c.file);
  }
}

void TestArenasTooSmall(const std::vector<uint8_t>& pte) {
  {
    Harness h;
    Program program;
    Method method;
    const Status status = h.Load(pte, 16, &program, &method);
    std::printf("planned arena short by 16 bytes: %s\n", status.message());
    ExpectError(status, ErrorCode::kOutOfMemory, "planned arena too small", "planned arena");
  }
  {
    Harness h;
    Program program;
    Method method;
    const Status status = h.Load(pte, 0, &program, &method, 512);
    std::printf("runtime arena of 512 bytes: %s\n", status.message());
    ExpectError(status, ErrorCode::kOutOfMemory, "runtime arena", "runtime arena");
  }
  {
    // No planned arenas at all.
    std::vector<uint64_t> words(pte.size() / 8 + 1);
    std::memcpy(words.data(), pte.data(), pte.size());
    Program program;
    Check(Program::Load(words.data(), pte.size(), &program).ok(), "load for arena test");
    std::vector<uint64_t> runtime(1 << 15);
    Arena arena(runtime.data(), runtime.size() * 8);
    MethodMemory memory;
    memory.runtime = &arena;
    Registries registries;
    registries.operators = ethosu_sdk::kernels::Registry();
    Method method;
    ExpectError(Method::Load(program, "forward", registries, memory, &method),
                ErrorCode::kOutOfMemory, "planned arena missing", "no planned arenas");
  }
}

void TestMisalignedAndMisuse(const std::vector<uint8_t>& pte) {
  std::vector<uint64_t> words(pte.size() / 8 + 2);
  uint8_t* misaligned = reinterpret_cast<uint8_t*>(words.data()) + 4;
  std::memcpy(misaligned, pte.data(), pte.size());
  Program program;
  ExpectError(Program::Load(misaligned, pte.size(), &program), ErrorCode::kInvalidArgument,
              "aligned", "misaligned buffer");

  Harness h;
  Method method;
  Check(h.Load(pte, 0, &program, &method).ok(), "reload");
  size_t sizes[4];
  size_t count = 0;
  ExpectError(Method::PlannedBufferSizes(program, "no_such_method", sizes, 4, &count),
              ErrorCode::kNotFound, "no method", "unknown method");
  ExpectError(method.SetInput(0, words.data(), 3), ErrorCode::kInvalidArgument, "input size",
              "input of the wrong size");
  ExpectError(method.SetInput(7, words.data(), 3), ErrorCode::kOutOfRange, "input index",
              "input index out of range");
}

// A channels-last program of elementwise kernels loads and runs (the
// programs that are refused are among TestBrokenPrograms' cases).
void TestChannelsLastRuns() {
  const std::vector<uint8_t> pte = ReadFile("tests/runtime/channels_last_f32.pte");
  TestValidProgramRuns(pte);
  Harness h;
  Program program;
  Method method;
  if (!h.Load(pte, 0, &program, &method).ok()) return;
  const ethosu_sdk::runtime::Tensor& input = *method.Input(0).tensor;
  char order[32], sizes[64];
  ethosu_sdk::runtime::FormatDimOrder(input, order, sizeof(order));
  ethosu_sdk::runtime::FormatSizes(input.InMemoryOrder(), sizes, sizeof(sizes));
  Check(std::string(order) == "(0,2,3,1)", std::string("input dim order ") + order);
  Check(std::string(sizes) == "(2,4,5,3)", std::string("input sizes in memory order ") + sizes);
}

}  // namespace

int main() {
  const std::vector<uint8_t> pte = ReadFile("tests/runtime/conv_net_f32.pte");
  Check(!pte.empty(), "read conv_net_f32.pte");
  if (pte.empty()) return 1;
  TestValidProgramRuns(pte);
  TestTruncated(pte);
  TestCorrupt(pte);
  TestBrokenPrograms();
  TestArenasTooSmall(pte);
  TestMisalignedAndMisuse(pte);
  TestChannelsLastRuns();
  std::printf(failures == 0 ? "PASS\n" : "FAILED: %d\n", failures);
  return failures == 0 ? 0 : 1;
}
