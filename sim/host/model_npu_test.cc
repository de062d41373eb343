// The functional model behind the NPU interface: each kind of model failure
// comes out of ModelNpu (and the delegate around it) with its own ErrorCode
// and the byte offset of the failing command, not as one generic code.
#include "sim/host/model_npu.h"

#include <cstring>
#include <initializer_list>
#include <vector>

#include "cc/backends/ethosu/delegate_io.h"
#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::ErrorCodeName;
using ethosu_sdk::Status;
using namespace ethosu_sdk::backends::ethosu;  // NOLINT: test code
using ethosu_sdk::npu_harness::ModelNpu;
namespace npu = ethosu_sdk::npu;

// Fails unless `status` has `code`, the command offset `offset` and a
// message containing `text`.
void ExpectFailure(const Status& status, ErrorCode code, uint32_t offset, const char* text,
                   const char* what) {
  EXPECT_STREQ(ErrorCodeName(status.code()), ErrorCodeName(code))
      << what << ": " << status.message();
  EXPECT_EQ(status.command_offset(), offset) << what;
  EXPECT_TRUE(std::strstr(status.message(), text) != nullptr)
      << what << ": \"" << status.message() << "\" does not contain \"" << text << "\"";
}

constexpr uint32_t kStop = 0x00000000u;           // NPU_OP_STOP
constexpr uint32_t kNoSuchCommand = 0x000003FFu;  // opcode no Ethos-U has
constexpr uint32_t kNone = Status::kNoCommandOffset;

alignas(16) uint8_t weights[64];
alignas(16) uint8_t scratch[256];

// The payload header's words for an Ethos-U85 with 2^log2_macs MACs on
// one core (ID: architecture 2; CONFIG: product 2, log2 of the MACs).
constexpr uint32_t kU85Id = 0x20000000u;
constexpr uint32_t U85Config(uint32_t log2_macs) { return 0x20000000u | log2_macs; }

// Runs `words` as an Ethos-U85 stream (256 MACs unless told) with weights
// in region 0 and scratch in region 1.
Status Run(std::initializer_list<uint32_t> words, const npu::RunLimits& limits = npu::RunLimits(),
           uint32_t log2_macs = 8) {
  const std::vector<uint32_t> stream(words);
  hw::Job job;
  job.commands = stream.data();
  job.num_words = stream.size();
  job.compiled = {kU85Id, U85Config(log2_macs)};
  job.regions[0] = {weights, sizeof(weights), false};
  job.regions[1] = {scratch, sizeof(scratch), true};
  std::vector<uint8_t> workspace(1u << 16);
  ModelNpu model({workspace.data(), workspace.size()}, limits);
  return model.Run(job);
}

// A 16-byte DMA from region 0 (weights) to region 1 (scratch), then STOP.
std::initializer_list<uint32_t> kDma = {0x00000130u, 0x00010131u, 0x00004030u, 0x0u,
                                        0x00004031u, 0x0u,        0x00004032u, 16u,
                                        0x00000010u, kStop};

TEST(ModelNpu, EachFaultKindHasItsCode) {
  ExpectFailure(Run({kNoSuchCommand}), ErrorCode::kNpuCommandStream, 0, "unknown command",
                "parse error at 0");
  // OFM_PRECISION (a valid command) first: the failure is one word in.
  ExpectFailure(Run({0x01000114u, kNoSuchCommand}), ErrorCode::kNpuCommandStream, 4,
                "unknown command", "parse error at 4");
  // DMA source 240 bytes past region 0's 64: a bus error at the DMA_START (word 8).
  ExpectFailure(Run({0x00000130u, 0x00010131u, 0x00004030u, 0xF0u, 0x00004031u, 0x0u, 0x00004032u,
                     16u, 0x00000010u, kStop}),
                ErrorCode::kNpuBusError, 32, "DMA", "bus error");
  npu::RunLimits tight;
  tight.max_total_work = 8;  // the DMA moves 16 bytes
  ExpectFailure(Run(kDma, tight), ErrorCode::kNpuLimit, 32, "", "beyond the run limits");
  // No Vela configuration has a 64-MAC U85: refused before any command runs.
  ExpectFailure(Run({kStop}, npu::RunLimits(), 6), ErrorCode::kNpuUnsupported, kNone, "",
                "unknown configuration");
  EXPECT_TRUE(Run(kDma).ok()) << "the same DMA within its regions and limits runs";
}

TEST(ModelNpu, TheDelegatePassesThemOn) {
  const std::vector<uint32_t> stream = {0x01000114u, kNoSuchCommand};
  VelaPayload payload;
  payload.commands = stream.data();
  payload.num_commands = stream.size();
  payload.compiled = {kU85Id, U85Config(8)};
  payload.weights = weights;
  payload.weights_size = sizeof(weights);
  payload.scratch_size = sizeof(scratch);
  DelegateIo io;
  io.scratch = scratch;
  io.scratch_size = sizeof(scratch);
  std::vector<uint8_t> workspace(1u << 16);
  ModelNpu model({workspace.data(), workspace.size()});
  ExpectFailure(RunDelegate(payload, io, model), ErrorCode::kNpuCommandStream, 4, "unknown command",
                "through RunDelegate");
  io.scratch_size = sizeof(scratch) - 1;
  ExpectFailure(RunDelegate(payload, io, model), ErrorCode::kOutOfMemory, kNone, "scratch",
                "scratch too small");
}

}  // namespace
