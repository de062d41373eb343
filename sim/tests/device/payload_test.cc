// Real Vela payloads through the register interface, as a driver runs them:
// soft reset, ID/CONFIG checked against the payload, QBASE/QSIZE and the
// BASEPs pointing at fake guest memory, CMD start, the IRQ. The guest's
// scratch arena (and U65 fast scratch) afterwards must equal, byte for byte,
// what npu::RunCommandStream leaves when called directly on the same bytes
// (that path is verified against the TOSA reference model by sim/tests/npu).
// Then the same payload corrupted (parse error), with its scratch region too
// small and its weights unmapped (bus errors).
// Usage: payload_test PRODUCT MACS FILE [PRODUCT MACS FILE ...]  (FILE: .pte or .payload)
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "cc/ethosu/mmio.h"
#include "cc/testing/unit_test.h"
#include "sim/device/device.h"
#include "sim/device/pmu.h"
#include "sim/host/payload_harness.h"
#include "sim/npu/commands/u85_registers.h"
#include "sim/tests/device/fake_host.h"
#include "sim/tests/device/payload_file.h"

namespace npu = ethosu_sdk::npu;

namespace {

using namespace ethosu_sdk::npu_device_tests;
using ethosu_sdk::npu_harness::AlignedBytes;
using ethosu_sdk::npu_harness::PayloadHarness;
using ethosu_sdk::npu_harness::WeightsBinding;
namespace mmio = ethosu_sdk::ethosu::mmio;
namespace pmu = mmio::pmu;
namespace status = mmio::status;

constexpr uint64_t kWeights = 0x10000000;  // read-only, like flash
constexpr uint64_t kStream = 0x18000000;   // read-only
constexpr uint64_t kScratch = 0x20000000;
constexpr uint64_t kFastScratch = 0x30000000;
constexpr uint64_t kUnmapped = 0x70000000;
constexpr int kMacActiveCounter = 0;
constexpr uint32_t kStart = mmio::cmd::kClearIrq | mmio::cmd::kTransitionToRunning;

std::vector<uint8_t> PseudoRandom(size_t size, uint32_t seed) {
  std::vector<uint8_t> out(size);
  ethosu_sdk::npu_harness::FillPseudoRandom(out.data(), out.size(), &seed);
  return out;
}

// The direct run's buffers for `p`: scratch and fast scratch start as
// `initial` and `initial_fast` (their sizes).
void BindDirect(const ethosu_sdk::backends::ethosu::VelaPayload& p,
                const std::vector<uint8_t>& initial, const std::vector<uint8_t>& initial_fast,
                PayloadHarness* run) {
  ethosu_sdk::npu_harness::HarnessOptions options;
  options.workspace_bytes = ethosu_sdk::npu_device::kWorkspaceBytes;
  EXPECT_TRUE(run->Bind(p, options).ok()) << "the harness binds the payload";
  std::copy(initial.begin(), initial.end(), run->scratch().data());
  std::copy(initial_fast.begin(), initial_fast.end(), run->fast_scratch().data());
}

struct Guest {
  FakeHost host;
  uint8_t* scratch = nullptr;
  uint8_t* fast = nullptr;
};

// Guest memory for `p`: weights, stream, scratch (`scratch_bytes` of it
// mapped) and fast scratch, scratch filled from `initial`.
void Populate(const ethosu_sdk::backends::ethosu::VelaPayload& p,
              const std::vector<uint32_t>& words, const std::vector<uint8_t>& initial,
              const std::vector<uint8_t>& initial_fast, size_t scratch_bytes, Guest* g) {
  uint8_t* weights = g->host.Add(kWeights, p.weights_size + 16, false);
  if (p.weights_size) memcpy(weights, p.weights, p.weights_size);
  uint8_t* stream = g->host.Add(kStream, words.size() * 4, false);
  memcpy(stream, words.data(), words.size() * 4);
  g->scratch = g->host.Add(kScratch, scratch_bytes, true);
  memcpy(g->scratch, initial.data(),
         scratch_bytes < initial.size() ? scratch_bytes : initial.size());
  if (!initial_fast.empty()) {
    g->fast = g->host.Add(kFastScratch, initial_fast.size(), true);
    memcpy(g->fast, initial_fast.data(), initial_fast.size());
  }
}

// The driver's side: reset, identity check, queue and regions, PMU, start.
// Returns STATUS after the job.
uint32_t RunAsDriver(Npu* npu, const ethosu_sdk::backends::ethosu::VelaPayload& p, size_t words,
                     bool has_fast, uint64_t weights_address, uint32_t pmu_base) {
  npu->Write(mmio::kReset, mmio::prot::kPrivileged | mmio::prot::kNonSecure);
  EXPECT_EQ(npu->Read(mmio::kProt), mmio::prot::kPrivileged | mmio::prot::kNonSecure) << "PROT";
  EXPECT_EQ(npu->Read(mmio::kId), p.compiled.id) << "ID matches the payload";
  EXPECT_EQ(npu->Read(mmio::kConfig), p.compiled.config) << "CONFIG matches the payload";
  npu->Write(mmio::kQconfig, 0);
  npu->Write(mmio::kRegioncfg, 0);
  npu->Write(mmio::kQbase, uint32_t(kStream));
  npu->Write(mmio::kQbaseHi, 0);
  npu->Write(mmio::kQsize, uint32_t(words * 4));
  npu->Write(mmio::BasepLow(0), uint32_t(weights_address));
  npu->Write(mmio::BasepLow(1), uint32_t(kScratch));
  npu->Write(mmio::BasepLow(2), has_fast ? uint32_t(kFastScratch) : 0);
  npu->Write(pmu_base + pmu::kPmcr, pmu::pmcr::kCountEnable | pmu::pmcr::kEventCounterReset |
                                        pmu::pmcr::kCycleCounterReset);
  npu->Write(pmu_base + pmu::kPmevtyper0 + 4 * kMacActiveCounter, pmu::event::kMacActive);
  npu->Write(pmu_base + pmu::kPmcntenset, pmu::kCycleCounterBit | (1u << kMacActiveCounter));
  npu->Write(mmio::kCmd, kStart);
  return npu->Read(mmio::kStatus);
}

// Index of the first NPU operation (a cmd0 below 256 other than STOP).
size_t FirstOperation(const std::vector<uint32_t>& words) {
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t opcode = words[i] & 0x3FF;
    if (words[i] & kPayloadFollows) {
      ++i;
      continue;
    }
    if (opcode != npu::u85::kOpStop && opcode < 256) return i;
  }
  return words.size();
}

void TestPayload(const char* product, int macs, const char* path) {
  const std::string where =
      std::string(" (") + path + " on " + product + "-" + std::to_string(macs) + ")";
  PayloadFile file;
  ASSERT_TRUE(LoadPayload(path, &file)) << where;
  const ethosu_sdk::backends::ethosu::VelaPayload& p = file.payload;
  const std::vector<uint32_t> words(p.commands, p.commands + p.num_commands);
  const std::vector<uint8_t> initial = PseudoRandom(p.scratch_size, 1);
  const std::vector<uint8_t> initial_fast = PseudoRandom(p.fast_scratch_size, 2);
  const bool has_fast = p.fast_scratch_size != 0;
  ethosu_sdk::npu_device::Identity identity;
  EXPECT_TRUE(ethosu_sdk::npu_device::LookupIdentity(product, macs, &identity))
      << "configuration" << where;
  const uint32_t pmu_base = identity.pmu_base;

  // Direct: the functional model on host copies of the same bytes.
  PayloadHarness direct_run;
  BindDirect(p, initial, initial_fast, &direct_run);
  npu::RunStats direct;
  const ethosu_sdk::Status ran = direct_run.RunStream(&direct);
  EXPECT_TRUE(ran.ok() && direct.operations > 0)
      << "the payload runs directly: " << ran.message() << where;
  const AlignedBytes& scratch = direct_run.scratch();
  const AlignedBytes& fast = direct_run.fast_scratch();

  // Through the registers.
  Guest g;
  Populate(p, words, initial, initial_fast, p.scratch_size, &g);
  Npu npu(product, macs, &g.host);
  ASSERT_TRUE(npu.ok()) << where;
  const uint32_t after = RunAsDriver(&npu, p, words.size(), has_fast, kWeights, pmu_base);
  EXPECT_EQ(after, status::kCmdEndReached | status::kIrqRaised | (1u << status::kIrqHistoryShift))
      << "STATUS: end reached, IRQ" << where;
  EXPECT_EQ(g.host.irq(), 1) << "IRQ raised" << where;
  EXPECT_EQ(npu.Read(mmio::kQread), words.size() * 4) << "QREAD = QSIZE" << where;
  size_t differ = 0;
  for (size_t i = 0; i < scratch.size(); ++i) differ += scratch[i] != g.scratch[i];
  for (size_t i = 0; i < fast.size(); ++i) differ += fast[i] != g.fast[i];
  printf("%s on %s-%d: %zu commands, %u operations, %llu MACs, %zu of %zu scratch bytes differ\n",
         path, product, macs, words.size(), unsigned(direct.operations),
         (unsigned long long)direct.macs, differ, scratch.size() + fast.size());
  EXPECT_EQ(differ, 0) << "scratch byte for byte as the direct run" << where;
  EXPECT_TRUE(!std::equal(initial.begin(), initial.end(), scratch.data()))
      << "the job wrote the scratch arena" << where;
  EXPECT_TRUE(g.host.WasWritten(kScratch, p.scratch_size)) << "scratch reported written" << where;
  const uint64_t mac_cycles = (direct.macs + uint64_t(macs) - 1) / uint64_t(macs);
  EXPECT_EQ(npu.Read(pmu_base + pmu::kPmevcntr0 + 4 * kMacActiveCounter), mac_cycles)
      << "MAC_ACTIVE = MACs / MACs per cycle" << where;
  const uint64_t cycles =
      npu.Read(pmu_base + pmu::kPmccntrLo) | (uint64_t(npu.Read(pmu_base + pmu::kPmccntrHi)) << 32);
  EXPECT_EQ(cycles, ethosu_sdk::npu_device::ModelActivity(direct, macs).active_cycles)
      << "cycle counter: the documented model of the direct run" << where;
  npu.Write(mmio::kCmd, mmio::cmd::kClearIrq);
  EXPECT_EQ(g.host.irq(), 0) << "IRQ cleared" << where;

  // Corrupt the first operation: parse error there.
  {
    std::vector<uint32_t> corrupt = words;
    const size_t at = FirstOperation(words);
    EXPECT_TRUE(at < words.size()) << "stream has an operation" << where;
    if (at < words.size()) corrupt[at] = Cmd0(0xFF);
    Guest bad;
    Populate(p, corrupt, initial, initial_fast, p.scratch_size, &bad);
    Npu npu2(product, macs, &bad.host);
    const uint32_t s = RunAsDriver(&npu2, p, corrupt.size(), has_fast, kWeights, pmu_base);
    EXPECT_EQ(s & (status::kCmdParseError | status::kIrqRaised | status::kCmdEndReached),
              status::kCmdParseError | status::kIrqRaised)
        << "corrupt stream: parse error" << where;
    EXPECT_EQ(npu2.Read(mmio::kQread), 4 * (at + 1)) << "QREAD after the corrupt command" << where;
    EXPECT_EQ(bad.host.irq(), 1) << "IRQ on a parse error" << where;
  }
  // Scratch region too small for the stream: bus error.
  {
    Guest bad;
    Populate(p, words, initial, initial_fast, 16, &bad);
    Npu npu2(product, macs, &bad.host);
    const uint32_t s = RunAsDriver(&npu2, p, words.size(), has_fast, kWeights, pmu_base);
    EXPECT_EQ(s & (status::kBusStatus | status::kIrqRaised | status::kCmdEndReached),
              status::kBusStatus | status::kIrqRaised)
        << "scratch too small: bus error" << where;
    EXPECT_TRUE(npu2.Read(mmio::kQread) < words.size() * 4) << "QREAD short of the end" << where;
  }
  // Weights (BASEP0) where nothing is mapped: a bus error exactly when the
  // direct run with region 0 unbound fails with one (a matmul reads none).
  {
    PayloadHarness unbound_run;
    BindDirect(p, initial, initial_fast, &unbound_run);
    const ethosu_sdk::Status unbound = unbound_run.RunStream(nullptr, WeightsBinding::kUnbound);
    const bool bus = !unbound.ok() && unbound.code() == ethosu_sdk::ErrorCode::kNpuBusError;
    EXPECT_TRUE(bus || unbound.ok()) << "direct run without weights: ok or a bus error" << where;
    Guest bad;
    Populate(p, words, initial, initial_fast, p.scratch_size, &bad);
    Npu npu2(product, macs, &bad.host);
    const uint32_t s = RunAsDriver(&npu2, p, words.size(), has_fast, kUnmapped, pmu_base);
    EXPECT_EQ(s & (status::kBusStatus | status::kCmdEndReached | status::kIrqRaised),
              (bus ? status::kBusStatus : status::kCmdEndReached) | status::kIrqRaised)
        << "unmapped weights: bus error where the stream reads them" << where;
  }
}

struct Case {
  const char* product;
  int macs;
  const char* path;
};

// From the command line, before the tests run.
std::vector<Case> cases;

}  // namespace

TEST(Payload, ThroughRegistersAsDirectAndFaults) {
  for (const Case& c : cases) TestPayload(c.product, c.macs, c.path);
}

int main(int argc, char** argv) {
  if (argc < 4 || (argc - 1) % 3 != 0) {
    fprintf(stderr, "usage: payload_test PRODUCT MACS FILE [PRODUCT MACS FILE ...]\n");
    return 2;
  }
  for (int i = 1; i + 2 < argc; i += 3)
    cases.push_back(Case{argv[i], atoi(argv[i + 1]), argv[i + 2]});
  return RUN_ALL_TESTS();
}
