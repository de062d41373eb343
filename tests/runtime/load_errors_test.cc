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
#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::Arena;
using ethosu_sdk::ErrorCode;
using ethosu_sdk::ErrorCodeName;
using ethosu_sdk::Span;
using ethosu_sdk::Status;
using ethosu_sdk::runtime::Method;
using ethosu_sdk::runtime::MethodMemory;
using ethosu_sdk::runtime::Program;
using ethosu_sdk::runtime::Registries;

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
  Program program;
  Method method;

  // Loads `bytes` and, when that works, method "forward" into `program` and
  // `method`; arenas are sized from the program, then shrunk by
  // `planned_shrink` bytes.
  Status Load(const std::vector<uint8_t>& bytes, size_t planned_shrink,
              size_t runtime_bytes = 1 << 18) {
    pte_words.assign(bytes.size() / 8 + 1, 0);
    if (!bytes.empty()) std::memcpy(pte_words.data(), bytes.data(), bytes.size());
    ESDK_ASSIGN_OR_RETURN(program, Program::Load(pte_words.data(), bytes.size()));
    size_t sizes[8];
    size_t count = 0;
    ESDK_RETURN_IF_ERROR(Method::PlannedBufferSizes(program, "forward", sizes, 8, &count));
    planned_words.assign(count, {});
    planned.assign(count, {});
    for (size_t i = 0; i < count; ++i) {
      if (sizes[i] > (64u << 20)) return Status::Error(ErrorCode::kOutOfMemory, "test: huge plan");
      planned_words[i].assign(sizes[i] / 8 + 1, 0);
      const size_t size = sizes[i] >= planned_shrink ? sizes[i] - planned_shrink : 0;
      planned[i] = {reinterpret_cast<uint8_t*>(planned_words[i].data()), size};
    }
    arena =
        Arena(runtime_words.data(),
              runtime_bytes < runtime_words.size() * 8 ? runtime_bytes : runtime_words.size() * 8);
    MethodMemory memory;
    memory.runtime = &arena;
    memory.planned = {planned.data(), planned.size()};
    Registries registries;
    registries.operators = ethosu_sdk::kernels::Registry();
    ESDK_ASSIGN_OR_RETURN(method, Method::Load(program, "forward", registries, memory));
    return Status::Ok();
  }
};

// The message of an error `status` must contain `message_part`.
#define EXPECT_ERROR(status_expr, want_code, message_part)                                       \
  do {                                                                                           \
    const Status status_ = (status_expr);                                                        \
    EXPECT_STREQ(ErrorCodeName(status_.code()), ErrorCodeName(want_code)) << status_.message();  \
    EXPECT_TRUE(std::strstr(status_.message(), message_part) != nullptr)                         \
        << "got \"" << status_.message() << "\", want it to contain \"" << message_part << "\""; \
  } while (0)

const std::vector<uint8_t>& ConvNet() {
  static const std::vector<uint8_t> pte = ReadFile("tests/runtime/conv_net_f32.pte");
  return pte;
}

void ExpectLoadsAndRuns(const std::vector<uint8_t>& pte) {
  Harness h;
  const Status loaded = h.Load(pte, 0);
  ASSERT_TRUE(loaded.ok()) << "valid program loads: " << loaded.message();
  const Status ran = h.method.Execute();
  EXPECT_TRUE(ran.ok()) << "valid program runs: " << ran.message();
}

TEST(LoadErrors, ValidProgramRuns) {
  ASSERT_FALSE(ConvNet().empty()) << "read conv_net_f32.pte";
  ExpectLoadsAndRuns(ConvNet());
}

TEST(LoadErrors, Truncated) {
  const std::vector<uint8_t>& pte = ConvNet();
  size_t errors = 0;
  for (size_t size = 0; size < pte.size(); ++size) {
    Harness h;
    std::vector<uint8_t> prefix(pte.begin(), pte.begin() + static_cast<long>(size));
    const Status status = h.Load(prefix, 0);
    if (!status.ok() && std::strlen(status.message()) > 0) ++errors;
  }
  EXPECT_EQ(errors, pte.size()) << "every truncation is rejected with a message";
  Harness h;
  std::vector<uint8_t> prefix(pte.begin(), pte.begin() + 100);
  EXPECT_ERROR(h.Load(prefix, 0), ErrorCode::kInvalidProgram, "");
}

// Every single-byte corruption either fails with a message or still loads
// and runs to an OK or error status: the process must survive each one.
TEST(LoadErrors, Corrupt) {
  const std::vector<uint8_t>& pte = ConvNet();
  int rejected = 0, ran = 0;
  for (size_t i = 0; i < pte.size(); ++i) {
    std::vector<uint8_t> bad = pte;
    bad[i] ^= 0xA5;
    Harness h;
    const Status status = h.Load(bad, 0);
    if (!status.ok()) {
      EXPECT_GT(std::strlen(status.message()), 0u) << "corruption error has a message";
      ++rejected;
      continue;
    }
    (void)h.method.Execute();  // any status; inputs are zero
    ++ran;
  }
  std::printf("corrupt: %d of %zu single-byte corruptions rejected at load, %d loaded and ran\n",
              rejected, pte.size(), ran);
  EXPECT_GT(rejected, 0) << "some corruptions are rejected";
  std::vector<uint8_t> bad = pte;
  bad[4] = 'X';  // file identifier
  Harness h;
  EXPECT_ERROR(h.Load(bad, 0), ErrorCode::kInvalidProgram, "identifier");
}

TEST(LoadErrors, BrokenPrograms) {
  struct Case {
    const char* file;
    ErrorCode code;
    const char* message;
  };
  const Case cases[] = {
      {"broken_op_index", ErrorCode::kOutOfRange,
       "operator index 16 out of range: the method has 9 operators"},
      {"broken_value_index", ErrorCode::kOutOfRange,
       "value index 203 out of range: the method has 103 values"},
      {"broken_constant_index", ErrorCode::kOutOfRange, "constant"},
      {"broken_memory_offset", ErrorCode::kOutOfRange, "tensor past its planned buffer"},
      {"broken_memory_id", ErrorCode::kOutOfRange,
       "memory id 9 out of range: the method plans memory ids 1 to 1"},
      {"broken_jump", ErrorCode::kOutOfRange,
       "jump destination 500 out of range: the chain has 12 instructions"},
      {"broken_dim_order", ErrorCode::kInvalidProgram,
       "dim order is not a permutation of the dimensions: entry 2 is 2, out of range or repeated"},
      // Channels-last tensors where a kernel cannot take them: whole messages.
      {"channels_last_add_f32", ErrorCode::kNotSupported,
       "operator aten::add.out: tensors (1,3,4,5) in dim order (0,2,3,1) and (5) in (0); this "
       "kernel takes tensors of one rank and one dim order"},
      {"mixed_dim_order", ErrorCode::kNotSupported,
       "operator aten::tanh.out: tensors (2,3,4,5) in dim order (0,2,3,1) and (2,3,4,5) in "
       "(0,1,2,3); this "
       "kernel takes tensors of one rank and one dim order"},
  };
  for (const Case& c : cases) {
    const std::string path = std::string("tests/runtime/") + c.file + ".pte";
    const std::vector<uint8_t> pte = ReadFile(path.c_str());
    EXPECT_FALSE(pte.empty()) << "read " << path;
    Harness h;
    const Status status = h.Load(pte, 0);
    std::printf("%s: %s: %s\n", c.file, ErrorCodeName(status.code()), status.message());
    EXPECT_ERROR(status, c.code, c.message);
  }
}

TEST(LoadErrors, ArenasTooSmall) {
  const std::vector<uint8_t>& pte = ConvNet();
  {
    Harness h;
    const Status status = h.Load(pte, 16);
    std::printf("planned arena short by 16 bytes: %s\n", status.message());
    EXPECT_ERROR(status, ErrorCode::kOutOfMemory, "planned arena too small");
  }
  {
    Harness h;
    const Status status = h.Load(pte, 0, 512);
    std::printf("runtime arena of 512 bytes: %s\n", status.message());
    EXPECT_ERROR(status, ErrorCode::kOutOfMemory, "runtime arena");
  }
  {
    // No planned arenas at all.
    std::vector<uint64_t> words(pte.size() / 8 + 1);
    std::memcpy(words.data(), pte.data(), pte.size());
    const auto program = Program::Load(words.data(), pte.size());
    ASSERT_TRUE(program.ok()) << "load for arena test: " << program.status().message();
    std::vector<uint64_t> runtime(1 << 15);
    Arena arena(runtime.data(), runtime.size() * 8);
    MethodMemory memory;
    memory.runtime = &arena;
    Registries registries;
    registries.operators = ethosu_sdk::kernels::Registry();
    EXPECT_ERROR(Method::Load(*program, "forward", registries, memory).status(),
                 ErrorCode::kOutOfMemory, "planned arena missing");
  }
}

TEST(LoadErrors, MisalignedAndMisuse) {
  const std::vector<uint8_t>& pte = ConvNet();
  std::vector<uint64_t> words(pte.size() / 8 + 2);
  uint8_t* misaligned = reinterpret_cast<uint8_t*>(words.data()) + 4;
  std::memcpy(misaligned, pte.data(), pte.size());
  EXPECT_ERROR(Program::Load(misaligned, pte.size()).status(), ErrorCode::kInvalidArgument,
               "aligned");

  Harness h;
  ASSERT_TRUE(h.Load(pte, 0).ok()) << "reload";
  size_t sizes[4];
  size_t count = 0;
  EXPECT_ERROR(Method::PlannedBufferSizes(h.program, "no_such_method", sizes, 4, &count),
               ErrorCode::kNotFound, "no method");
  EXPECT_ERROR(h.method.SetInput(0, words.data(), 3), ErrorCode::kInvalidArgument, "input size");
  EXPECT_ERROR(h.method.SetInput(7, words.data(), 3), ErrorCode::kOutOfRange, "input index");
}

// A channels-last program of elementwise kernels loads and runs (the
// programs that are refused are among BrokenPrograms' cases).
TEST(LoadErrors, ChannelsLastRuns) {
  const std::vector<uint8_t> pte = ReadFile("tests/runtime/channels_last_f32.pte");
  ExpectLoadsAndRuns(pte);
  Harness h;
  ASSERT_TRUE(h.Load(pte, 0).ok());
  const ethosu_sdk::runtime::Tensor& input = *h.method.Input(0).tensor;
  char order[32], sizes[64];
  ethosu_sdk::runtime::FormatDimOrder(input, order, sizeof(order));
  ethosu_sdk::runtime::FormatSizes(input.InMemoryOrder(), sizes, sizeof(sizes));
  EXPECT_STREQ(order, "(0,2,3,1)") << "input dim order";
  EXPECT_STREQ(sizes, "(2,4,5,3)") << "input sizes in memory order";
}

}  // namespace
