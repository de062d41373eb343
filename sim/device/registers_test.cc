// The device through its C ABI as a driver sees it: create, reset and
// protection, register read-back, IRQ raise and clear, QREAD progress, the
// PMU (enables, resets, overflow), never_complete, and faults (parse error,
// bus errors, start while running). Jobs here are small hand-built streams
// (a DMA, a STOP); real Vela payloads are in payload_test.cc.
#include <cstring>
#include <vector>

#include "cc/ethosu/mmio.h"
#include "cc/testing/unit_test.h"
#include "sim/device/pmu.h"
#include "sim/npu/commands/u85_registers.h"
#include "sim/tests/device/fake_host.h"

namespace {

using namespace ethosu_sdk::npu_device_tests;
namespace mmio = ethosu_sdk::ethosu::mmio;
namespace pmu = mmio::pmu;
namespace status = mmio::status;
namespace u85 = ethosu_sdk::npu::u85;
using ethosu_sdk::npu_device::kDmaBytesPerCycle;

constexpr uint64_t kFlash = 0x10000000;  // read-only guest memory: region 0
constexpr size_t kFlashBytes = 4096;
constexpr uint64_t kRam = 0x20000000;  // RAM: region 1 and the command stream
constexpr size_t kRamBytes = 0x10000;
constexpr uint64_t kStream = kRam + 0x8000;
constexpr uint64_t kUnmapped = 0x70000000;
constexpr uint32_t kJobIrqHistory = 1u << status::kIrqHistoryShift;

struct Board {
  FakeHost host;
  uint8_t* flash = host.Add(kFlash, kFlashBytes, false);
  uint8_t* ram = host.Add(kRam, kRamBytes, true);
  Board() {
    for (size_t i = 0; i < kFlashBytes; ++i) flash[i] = uint8_t(i * 7 + 3);
  }
};

// DMA `length` bytes from region 0 + src to region 1 + dst.
void Dma(std::vector<uint32_t>* s, uint32_t src, uint32_t dst, uint32_t length) {
  s->push_back(Cmd0(u85::kDma0SrcRegion, 0));
  s->push_back(Cmd0(u85::kDma0DstRegion, 1));
  Cmd1(s, u85::kDma0Src, src);
  Cmd1(s, u85::kDma0Dst, dst);
  Cmd1(s, u85::kDma0Len, length);
  s->push_back(Cmd0(u85::kOpDmaStart));
}

// Places `words` at kStream and programs QBASE/QSIZE and BASEP0/1.
void Program(Board* b, Npu* npu, const std::vector<uint32_t>& words) {
  memcpy(b->ram + (kStream - kRam), words.data(), words.size() * 4);
  npu->Write(mmio::kQbase, uint32_t(kStream));
  npu->Write(mmio::kQbaseHi, 0);
  npu->Write(mmio::kQsize, uint32_t(words.size() * 4));
  npu->Write(mmio::BasepLow(0), uint32_t(kFlash));
  npu->Write(mmio::BasepLow(1), uint32_t(kRam));
}

void TestCreate() {
  FakeHost host;
  const esdk_npu_device_api* api = esdk_npu_device_api_v1();
  EXPECT_EQ(api->abi_version, ESDK_NPU_DEVICE_ABI_VERSION) << "abi version";
  esdk_npu_host h = host.Host();
  char error[200] = {0};
  const esdk_npu_device_config bad[] = {{"ethos-u55", 512, 0},
                                        {"ethos-u65", 128, 0},
                                        {"ethos-u85", 64, 0},
                                        {"ethos-u75", 256, 0},
                                        {nullptr, 256, 0}};
  for (const esdk_npu_device_config& c : bad) {
    error[0] = 0;
    EXPECT_TRUE(api->create(&c, &h, error, sizeof(error)) == nullptr)
        << "unknown configuration refused";
    EXPECT_TRUE(strstr(error, "unknown Ethos-U configuration") != nullptr)
        << "refusal names the reason";
  }
  esdk_npu_host no_map = h;
  no_map.map = nullptr;
  const esdk_npu_device_config good{"ethos-u85", 256, 0};
  EXPECT_TRUE(api->create(&good, &no_map, error, sizeof(error)) == nullptr)
      << "host without map refused";
  EXPECT_TRUE(api->create(&good, nullptr, error, sizeof(error)) == nullptr) << "null host refused";
}

void TestResetAndProtection(const char* product, int macs, bool u85_layout) {
  Board b;
  Npu npu(product, macs, &b.host);
  ASSERT_TRUE(npu.ok());
  EXPECT_EQ(npu.WindowBytes(), u85_layout ? mmio::u85::kWindowBytes : mmio::u55::kWindowBytes)
      << "window bytes";
  EXPECT_EQ(b.host.irq(), 0) << "IRQ low after power-on";
  EXPECT_EQ(npu.Read(mmio::kStatus), 0) << "STATUS after power-on";
  EXPECT_EQ(npu.Read(mmio::kCmd), mmio::cmd::kClockQEnable | mmio::cmd::kPowerQEnable)
      << "CMD reset value (Q-channel enables)";
  EXPECT_EQ(npu.Read(mmio::kProt), 0) << "PROT after power-on: user, secure";
  const uint32_t pmu_base = u85_layout ? mmio::u85::kPmuBase : mmio::u55::kPmuBase;
  const uint32_t counters =
      u85_layout ? mmio::u85::kNumEventCounters : mmio::u55::kNumEventCounters;
  EXPECT_EQ(npu.Read(pmu_base + pmu::kPmcr), counters << pmu::pmcr::kNumEventCountersShift)
      << "PMCR reports the event counters";

  // Everything a driver configures reads back (within its fields).
  npu.Write(mmio::kQbase, 0x12345678);
  npu.Write(mmio::kQbaseHi, 0x9A);
  npu.Write(mmio::kQsize, 0x100);
  npu.Write(mmio::kQconfig, 0xFFFFFFFF);
  npu.Write(mmio::kRegioncfg, 0xFFFFFFFF);
  for (int n = 0; n < mmio::kNumRegions; ++n) {
    npu.Write(mmio::BasepLow(n), 0x1000u * uint32_t(n + 1));
    npu.Write(mmio::BasepHigh(n), uint32_t(n));
  }
  const uint32_t bus = u85_layout ? mmio::u85::kMemAttr0 : mmio::u55::kAxiLimit0;
  npu.Write(bus, 0xFFFFFFFF);
  npu.Write(pmu_base + pmu::kPmcntenset, 0xFFFFFFFF);
  EXPECT_EQ(npu.Read(mmio::kQbase), 0x12345678) << "QBASE";
  EXPECT_EQ(npu.Read(mmio::kQbaseHi), 0x9A) << "QBASE_HI";
  EXPECT_EQ(npu.Read(mmio::kQsize), 0x100) << "QSIZE";
  EXPECT_EQ(npu.Read(mmio::kQconfig), 0x3) << "QCONFIG holds cmd_region0 only";
  EXPECT_EQ(npu.Read(mmio::kRegioncfg), 0xFFFF) << "REGIONCFG holds 8 x 2 bits";
  for (int n = 0; n < mmio::kNumRegions; ++n) {
    EXPECT_EQ(npu.Read(mmio::BasepLow(n)), 0x1000u * uint32_t(n + 1)) << "BASEP low";
    EXPECT_EQ(npu.Read(mmio::BasepHigh(n)), uint32_t(n)) << "BASEP high";
  }
  EXPECT_TRUE(npu.Read(bus) != 0 && npu.Read(bus) != 0xFFFFFFFF)
      << "bus config keeps its fields only";
  EXPECT_EQ(npu.Read(pmu_base + pmu::kPmcntenset), ((1u << counters) - 1) | pmu::kCycleCounterBit)
      << "PMCNTENSET keeps the counters that exist";
  if (u85_layout) {
    npu.Write(mmio::u85::kAxiSram, 0xFFFFFFFF);
    npu.Write(mmio::u85::kAxiExt, 0x1);
    EXPECT_TRUE(npu.Read(mmio::u85::kAxiSram) != 0) << "AXI_SRAM";
    EXPECT_EQ(npu.Read(mmio::u85::kAxiExt), 0x1) << "AXI_EXT";
  } else {
    npu.Write(mmio::u55::kAxiLimit0 + 12, 0x000000F0);
    EXPECT_EQ(npu.Read(mmio::u55::kAxiLimit0 + 12), 0xF0) << "AXI_LIMIT3 memtype";
  }

  // Read-only registers ignore writes; unknown offsets read 0 and log.
  const uint32_t id = npu.Read(mmio::kId), config = npu.Read(mmio::kConfig);
  npu.Write(mmio::kId, 0);
  npu.Write(mmio::kConfig, 0);
  npu.Write(mmio::kQread, 0x40);
  EXPECT_EQ(npu.Read(mmio::kId), id) << "ID read-only";
  EXPECT_EQ(npu.Read(mmio::kConfig), config) << "CONFIG read-only";
  EXPECT_EQ(npu.Read(mmio::kQread), 0) << "QREAD read-only";
  EXPECT_TRUE(b.host.Logged("read-only register")) << "write to a read-only register logged";
  const size_t logs = b.host.logs.size();
  EXPECT_EQ(npu.Read(0x3F0), 0) << "unknown offset reads 0";
  npu.Write(0x3F0, 1);
  EXPECT_EQ(npu.Read(0x3F0), 0) << "unknown offset ignores writes";
  EXPECT_EQ(npu.Read(0x2), 0) << "unaligned offset reads 0";
  EXPECT_EQ(b.host.logs.size(), logs + 4) << "unknown accesses logged";

  // Soft reset at the requested privilege and security.
  npu.Write(mmio::kReset, mmio::prot::kPrivileged | mmio::prot::kNonSecure);
  EXPECT_EQ(npu.Read(mmio::kProt), mmio::prot::kPrivileged | mmio::prot::kNonSecure)
      << "PROT after reset to privileged non-secure";
  EXPECT_EQ(npu.Read(mmio::kStatus) & status::kResetStatus, 0) << "reset complete";
  EXPECT_EQ(npu.Read(mmio::kQbase), 0) << "QBASE reset";
  EXPECT_EQ(npu.Read(mmio::kQbaseHi), 0) << "QBASE_HI reset";
  EXPECT_EQ(npu.Read(mmio::kQsize), 0) << "QSIZE reset";
  EXPECT_EQ(npu.Read(mmio::kRegioncfg), 0) << "REGIONCFG reset";
  EXPECT_EQ(npu.Read(mmio::BasepLow(3)), 0) << "BASEP reset";
  EXPECT_EQ(npu.Read(bus), 0) << "bus config reset";
  EXPECT_EQ(npu.Read(pmu_base + pmu::kPmcntenset), 0) << "PMU reset";
  EXPECT_EQ(npu.Read(mmio::kId), id) << "ID survives reset";
  npu.Write(mmio::kReset, mmio::prot::kPrivileged);
  EXPECT_EQ(npu.Read(mmio::kProt), mmio::prot::kPrivileged) << "PROT privileged secure";
  npu.Write(mmio::kReset, 0);
  EXPECT_EQ(npu.Read(mmio::kProt), 0) << "PROT user secure";
}

void TestJobIrqQreadPmu(const char* product, int macs, bool u85_layout) {
  Board b;
  Npu npu(product, macs, &b.host);
  ASSERT_TRUE(npu.ok());
  const uint32_t pmu_base = u85_layout ? mmio::u85::kPmuBase : mmio::u55::kPmuBase;
  auto pmu_write = [&](uint32_t offset, uint32_t value) { npu.Write(pmu_base + offset, value); };
  auto pmu_read = [&](uint32_t offset) { return npu.Read(pmu_base + offset); };

  constexpr uint32_t kLength = 256;
  std::vector<uint32_t> stream;
  Dma(&stream, 0x10, 0x100, kLength);
  stream.push_back(Cmd0(u85::kOpStop));
  Program(&b, &npu, stream);

  pmu_write(pmu::kPmcr, pmu::pmcr::kCountEnable);
  pmu_write(pmu::kPmcntenset, pmu::kCycleCounterBit | 0xF);
  pmu_write(pmu::kPmevtyper0 + 0, pmu::event::kCycle);
  pmu_write(pmu::kPmevtyper0 + 4, pmu::event::kNpuActive);
  pmu_write(pmu::kPmevtyper0 + 8, pmu::event::kMacActive);
  pmu_write(pmu::kPmevtyper0 + 12, pmu::event::kNpuIdle);

  npu.Write(mmio::kCmd, mmio::cmd::kTransitionToRunning);
  const uint32_t done = status::kCmdEndReached | status::kIrqRaised | kJobIrqHistory;
  EXPECT_EQ(npu.Read(mmio::kStatus), done) << "STATUS after a job: end reached, IRQ, history";
  EXPECT_EQ(npu.Read(mmio::kQread), stream.size() * 4) << "QREAD = QSIZE after a job";
  EXPECT_EQ(b.host.irq(), 1) << "IRQ raised";
  EXPECT_TRUE(memcmp(b.ram + 0x100, b.flash + 0x10, kLength) == 0) << "DMA copied the bytes";
  EXPECT_TRUE(b.host.WasWritten(kRam + 0x100, kLength)) << "written range reported";
  const uint64_t cycles = kLength / kDmaBytesPerCycle;  // one DMA, no operations
  EXPECT_EQ(pmu_read(pmu::kPmccntrLo), cycles) << "cycle counter: DMA beats";
  EXPECT_EQ(pmu_read(pmu::kPmevcntr0), cycles) << "CYCLE event";
  EXPECT_EQ(pmu_read(pmu::kPmevcntr0 + 4), cycles) << "NPU_ACTIVE event";
  EXPECT_EQ(pmu_read(pmu::kPmevcntr0 + 8), 0) << "MAC_ACTIVE: no MACs in a DMA";
  EXPECT_EQ(pmu_read(pmu::kPmevcntr0 + 12), 0) << "NPU_IDLE never counts";

  // Clear the IRQ, then its history.
  npu.Write(mmio::kCmd, mmio::cmd::kClearIrq);
  EXPECT_EQ(npu.Read(mmio::kStatus), status::kCmdEndReached | kJobIrqHistory) << "IRQ cleared";
  EXPECT_EQ(b.host.irq(), 0) << "IRQ line low";
  npu.Write(mmio::kCmd, 0xFFFFu << mmio::cmd::kClearIrqHistoryShift);
  EXPECT_EQ(npu.Read(mmio::kStatus), status::kCmdEndReached) << "IRQ history cleared";

  // A second job: counters accumulate; then PMCR resets.
  npu.Write(mmio::kCmd, mmio::cmd::kTransitionToRunning);
  EXPECT_EQ(b.host.raises(), 2) << "second IRQ";
  EXPECT_EQ(pmu_read(pmu::kPmccntrLo), 2 * cycles) << "cycle counter accumulates";
  pmu_write(pmu::kPmcr, pmu::pmcr::kCountEnable | pmu::pmcr::kEventCounterReset);
  EXPECT_EQ(pmu_read(pmu::kPmevcntr0), 0) << "event counter reset";
  EXPECT_EQ(pmu_read(pmu::kPmccntrLo), 2 * cycles) << "cycle counter kept by an event reset";
  pmu_write(pmu::kPmcr, pmu::pmcr::kCountEnable | pmu::pmcr::kCycleCounterReset);
  EXPECT_EQ(pmu_read(pmu::kPmccntrLo), 0) << "cycle counter reset";
  EXPECT_EQ(pmu_read(pmu::kPmcr) & pmu::pmcr::kCycleCounterReset, 0) << "reset bits self-clear";

  // PMCNTENCLR stops the cycle counter only; PMCR.cnt_en stops all.
  pmu_write(pmu::kPmcntenclr, pmu::kCycleCounterBit);
  npu.Write(mmio::kCmd, mmio::cmd::kClearIrq | mmio::cmd::kTransitionToRunning);
  EXPECT_EQ(pmu_read(pmu::kPmccntrLo), 0) << "disabled cycle counter holds";
  EXPECT_EQ(pmu_read(pmu::kPmevcntr0), cycles) << "enabled event counter counts";
  pmu_write(pmu::kPmcr, 0);
  npu.Write(mmio::kCmd, mmio::cmd::kClearIrq | mmio::cmd::kTransitionToRunning);
  EXPECT_EQ(pmu_read(pmu::kPmevcntr0), cycles) << "cnt_en 0 stops every counter";

  // Overflow of an event counter with its interrupt enabled.
  pmu_write(pmu::kPmcr, pmu::pmcr::kCountEnable);
  pmu_write(pmu::kPmcntenset, pmu::kCycleCounterBit);
  pmu_write(pmu::kPmevcntr0, 0xFFFFFFFF - uint32_t(cycles) + 2);
  pmu_write(pmu::kPmccntrHi, 0xFFFF);
  pmu_write(pmu::kPmccntrLo, 0xFFFFFFFF);
  pmu_write(pmu::kPmintset, 1);
  npu.Write(mmio::kCmd, mmio::cmd::kClearIrq | mmio::cmd::kTransitionToRunning);
  EXPECT_EQ(pmu_read(pmu::kPmevcntr0), 1) << "event counter wraps";
  EXPECT_EQ(pmu_read(pmu::kPmovsset), 1u | pmu::kCycleCounterBit) << "overflow flags";
  EXPECT_EQ(pmu_read(pmu::kPmccntrHi), 0) << "48-bit cycle counter wraps";
  EXPECT_EQ(pmu_read(pmu::kPmccntrLo), cycles - 1) << "cycle counter after the wrap";
  npu.Write(mmio::kCmd, mmio::cmd::kClearIrq);
  EXPECT_TRUE((npu.Read(mmio::kStatus) & status::kPmuIrqRaised) != 0) << "PMU IRQ raised";
  EXPECT_EQ(b.host.irq(), 1) << "PMU overflow holds the IRQ line";
  pmu_write(pmu::kPmovsclr, 1);
  EXPECT_EQ(npu.Read(mmio::kStatus) & status::kPmuIrqRaised, 0) << "PMU IRQ cleared";
  EXPECT_EQ(b.host.irq(), 0) << "IRQ line low after PMOVSCLR";
  EXPECT_EQ(pmu_read(pmu::kPmovsset), pmu::kCycleCounterBit) << "cycle overflow flag stays";
}

// Faults: where the stream stopped (QREAD), which STATUS bit, the IRQ.
void TestFaults(const char* product, int macs) {
  const uint32_t start = mmio::cmd::kClearIrq | mmio::cmd::kTransitionToRunning;
  {  // An unknown command after a DMA: parse error, QREAD just past it.
    Board b;
    Npu npu(product, macs, &b.host);
    std::vector<uint32_t> s;
    Dma(&s, 0, 0, 64);
    const size_t bad = s.size();
    s.push_back(Cmd0(0xFF));  // no command 0x0FF exists
    s.push_back(Cmd0(u85::kOpStop));
    Program(&b, &npu, s);
    npu.Write(mmio::kCmd, start);
    EXPECT_EQ(npu.Read(mmio::kStatus), status::kCmdParseError | status::kIrqRaised | kJobIrqHistory)
        << "unknown command: parse error";
    EXPECT_EQ(npu.Read(mmio::kQread), 4 * (bad + 1)) << "QREAD stops after the bad command";
    EXPECT_EQ(b.host.irq(), 1) << "parse error raises the IRQ";
    EXPECT_TRUE(memcmp(b.ram, b.flash, 64) == 0) << "the DMA before it ran";
    EXPECT_TRUE(b.host.Logged("parse error")) << "parse error logged";
    // The next good job clears the fault bits.
    s[bad] = Cmd0(u85::kOpDmaWait);
    Program(&b, &npu, s);
    npu.Write(mmio::kCmd, start);
    EXPECT_EQ(npu.Read(mmio::kStatus) & ~kJobIrqHistory,
              status::kCmdEndReached | status::kIrqRaised)
        << "a good job after a fault";
  }
  {  // No STOP: parse error at the end of the stream.
    Board b;
    Npu npu(product, macs, &b.host);
    std::vector<uint32_t> s;
    Dma(&s, 0, 0, 16);
    Program(&b, &npu, s);
    npu.Write(mmio::kCmd, start);
    EXPECT_TRUE((npu.Read(mmio::kStatus) & status::kCmdParseError) != 0) << "stream without STOP";
    EXPECT_EQ(npu.Read(mmio::kQread), 4 * s.size()) << "QREAD at the end";
  }
  {  // DMA source beyond region 0's memory: bus error after the DMA command.
    Board b;
    Npu npu(product, macs, &b.host);
    std::vector<uint32_t> s;
    s.push_back(Cmd0(u85::kOpDmaWait));
    Dma(&s, kFlashBytes - 8, 0, 16);
    s.push_back(Cmd0(u85::kOpStop));
    Program(&b, &npu, s);
    npu.Write(mmio::kCmd, start);
    EXPECT_EQ(npu.Read(mmio::kStatus), status::kBusStatus | status::kIrqRaised | kJobIrqHistory)
        << "access past the region: bus error";
    EXPECT_EQ(npu.Read(mmio::kQread), 4 * (s.size() - 1)) << "QREAD after the DMA_START";
    EXPECT_TRUE(b.host.Logged("bus error")) << "bus error logged";
  }
  // Region 1 in read-only memory (a DMA writes it) or where nothing is
  // mapped: bus error.
  for (const uint64_t region1 : {kFlash, kUnmapped}) {
    Board b;
    Npu npu(product, macs, &b.host);
    std::vector<uint32_t> s;
    Dma(&s, 0, 0, 16);
    s.push_back(Cmd0(u85::kOpStop));
    Program(&b, &npu, s);
    npu.Write(mmio::BasepLow(1), uint32_t(region1));
    npu.Write(mmio::kCmd, start);
    EXPECT_EQ(npu.Read(mmio::kStatus) & (status::kBusStatus | status::kIrqRaised),
              status::kBusStatus | status::kIrqRaised)
        << (region1 == kFlash ? "write to ROM: bus error" : "unmapped BASEP: bus error");
  }
  {  // QBASE unmapped, QSIZE past the memory, QBASE misaligned.
    Board b;
    Npu npu(product, macs, &b.host);
    std::vector<uint32_t> s = {Cmd0(u85::kOpStop)};
    Program(&b, &npu, s);
    const uint64_t cases[][2] = {{kUnmapped, 4}, {kStream, kRamBytes}, {kStream + 2, 4}};
    for (const auto& c : cases) {
      npu.Write(mmio::kQbase, uint32_t(c[0]));
      npu.Write(mmio::kQsize, uint32_t(c[1]));
      npu.Write(mmio::kCmd, start);
      EXPECT_EQ(npu.Read(mmio::kStatus), status::kBusStatus | status::kIrqRaised | kJobIrqHistory)
          << "bad command stream address: bus error";
      EXPECT_EQ(npu.Read(mmio::kQread), 0) << "nothing read";
    }
    npu.Write(mmio::kQbase, uint32_t(kStream));
    npu.Write(mmio::kQbaseHi, 1);  // above 4 GiB: nothing there
    npu.Write(mmio::kQsize, 4);
    npu.Write(mmio::kCmd, start);
    EXPECT_TRUE((npu.Read(mmio::kStatus) & status::kBusStatus) != 0) << "QBASE_HI is used";
  }
}

void TestNeverComplete() {
  Board b;
  Npu npu("ethos-u55", 128, &b.host, /*never_complete=*/true);
  ASSERT_TRUE(npu.ok());
  std::vector<uint32_t> s;
  Dma(&s, 0, 0, 16);
  s.push_back(Cmd0(u85::kOpStop));
  Program(&b, &npu, s);
  npu.Write(mmio::kCmd, mmio::cmd::kTransitionToRunning);
  EXPECT_EQ(npu.Read(mmio::kStatus), status::kState) << "never_complete: running, no IRQ";
  EXPECT_EQ(b.host.raises(), 0) << "never_complete: IRQ never raised";
  EXPECT_EQ(npu.Read(mmio::kQread), 0) << "never_complete: QREAD stays 0";
  EXPECT_TRUE(b.ram[0] == 0) << "never_complete: nothing executed";
  npu.Write(mmio::kCmd, mmio::cmd::kTransitionToRunning);
  EXPECT_TRUE(b.host.Logged("start while a job is running")) << "start while running logged";
  EXPECT_EQ(npu.Read(mmio::kStatus), status::kState) << "start while running ignored";
  npu.Write(mmio::kCmd, mmio::cmd::kStopRequest);
  EXPECT_EQ(npu.Read(mmio::kStatus), 0) << "stop request ends the job, no IRQ";
  npu.Write(mmio::kCmd, mmio::cmd::kTransitionToRunning);
  npu.Write(mmio::kReset, mmio::prot::kPrivileged);
  EXPECT_EQ(npu.Read(mmio::kStatus), 0) << "soft reset ends the job";
  npu.Write(mmio::kCmd, mmio::cmd::kTransitionToRunning);
  npu.PowerOnReset();
  EXPECT_EQ(npu.Read(mmio::kStatus), 0) << "power-on reset ends the job";
  EXPECT_EQ(b.host.raises(), 0) << "still no IRQ";
}

}  // namespace

TEST(Device, Create) { TestCreate(); }

TEST(DeviceU55, ResetAndProtection) { TestResetAndProtection("ethos-u55", 128, false); }
TEST(DeviceU55, JobIrqQreadPmu) { TestJobIrqQreadPmu("ethos-u55", 128, false); }
TEST(DeviceU55, Faults) { TestFaults("ethos-u55", 128); }

TEST(DeviceU65, ResetAndProtection) { TestResetAndProtection("ethos-u65", 512, false); }
TEST(DeviceU65, JobIrqQreadPmu) { TestJobIrqQreadPmu("ethos-u65", 512, false); }
TEST(DeviceU65, Faults) { TestFaults("ethos-u65", 512); }

TEST(DeviceU85, ResetAndProtection) { TestResetAndProtection("ethos-u85", 256, true); }
TEST(DeviceU85, JobIrqQreadPmu) { TestJobIrqQreadPmu("ethos-u85", 256, true); }
TEST(DeviceU85, Faults) { TestFaults("ethos-u85", 256); }

TEST(Device, NeverComplete) { TestNeverComplete(); }
