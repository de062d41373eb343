// The driver's register sequence against a scripted fake: reset and
// protection, what is programmed before CMD start, interrupt clear, fault
// and timeout messages, the configuration check.
#include <cstdio>
#include <cstring>

#include "cc/drivers/ethosu/driver.h"
#include "cc/drivers/ethosu/fake_npu.h"
#include "cc/ethosu/mmio.h"
#include "cc/testing/unit_test.h"

namespace {

using namespace ethosu_sdk::drivers::ethosu;
using ethosu_sdk::ErrorCode;
using testing::FakeNpu;
using testing::PollHooks;
namespace mmio = ::ethosu_sdk::ethosu::mmio;

void ExpectError(const ethosu_sdk::Status& status, ethosu_sdk::ErrorCode code, const char* want,
                 const char* what) {
  EXPECT_STREQ(ethosu_sdk::ErrorCodeName(status.code()), ethosu_sdk::ErrorCodeName(code)) << what;
  EXPECT_STREQ(status.message(), want) << what;
}

alignas(16) uint32_t commands[8] = {0x00000000u};
alignas(16) uint8_t weights[64], scratch[256], fast[128];

hw::Job MakeJob(uint32_t id, uint32_t config) {
  hw::Job job;
  job.commands = commands;
  job.num_words = 8;
  job.compiled = {id, config};
  job.regions[0] = {weights, sizeof(weights), false};
  job.regions[1] = {scratch, sizeof(scratch), true};
  job.regions[2] = {fast, sizeof(fast), true};
  return job;
}

uint64_t Address(const void* p) { return reinterpret_cast<uintptr_t>(p); }

TEST(DriverSequence, InitRequestsSecurePrivileged) {
  FakeNpu npu;
  PollHooks hooks(npu);
  Driver driver(npu, hooks);
  const ethosu_sdk::Status init = driver.Init();
  EXPECT_TRUE(init.ok()) << "init succeeds";
  EXPECT_TRUE(npu.regs[mmio::kReset] == mmio::prot::kPrivileged)
      << "RESET asks for privileged secure";
  EXPECT_TRUE(driver.identity().product == Product::kEthosU55 && driver.identity().macs == 128)
      << "U55-128 identified";
}

TEST(DriverSequence, NothingAtTheAddress) {
  FakeNpu npu;
  npu.id = 0;
  npu.config = 0;
  PollHooks hooks(npu);
  Driver driver(npu, hooks);
  ExpectError(driver.Init(), ErrorCode::kNpuFault,
              "no Ethos-U answers at the NPU address (ID 0x00000000, CONFIG 0x00000000)",
              "nothing at the address");
  EXPECT_TRUE(npu.resets == 0) << "no reset without an NPU";
}

TEST(DriverSequence, ProtectionMismatch) {
  FakeNpu npu;
  npu.prot_override = mmio::prot::kNonSecure;  // user, non-secure
  PollHooks hooks(npu);
  Driver driver(npu, hooks);
  ExpectError(
      driver.Init(), ErrorCode::kNpuFault,
      "NPU protection mismatch: requested privileged secure, PROT reports user non-secure (0x2)",
      "protection mismatch");
  EXPECT_TRUE(!driver.initialized()) << "not initialised after a protection mismatch";
}

TEST(DriverSequence, ResetTimeout) {
  FakeNpu npu;
  npu.reset_sticks = true;
  PollHooks hooks(npu);
  // The fake's clock only moves on Wait; a reset poll reads the clock.
  struct Clock final : WaitHooks {
    uint64_t now = 0;
    uint64_t Ticks() override { return now++; }
    uint64_t TicksPerSecond() override { return 1000; }
    void Wait(const volatile bool&) override {}
  } clock;
  Driver driver(npu, clock);
  ExpectError(driver.Init(), ErrorCode::kNpuTimeout,
              "NPU reset did not complete within 100 ms (STATUS 0x00000008)", "reset timeout");
}

TEST(DriverSequence, JobSequence) {
  FakeNpu npu;
  npu.end_qread = 32;
  PollHooks hooks(npu);
  Driver driver(npu, hooks);
  hooks.set_driver(&driver);
  EXPECT_TRUE(driver.Init().ok()) << "init";
  npu.regs[mmio::u55::kPmuBase + mmio::pmu::kPmccntrLo] = 1234;
  npu.regs[mmio::u55::kPmuBase + mmio::pmu::kPmevcntr0] = 77;
  JobStats stats;
  const ethosu_sdk::Status run = driver.Run(MakeJob(0x10066001u, 0x00001807u), &stats);
  EXPECT_TRUE(run.ok()) << "job succeeds: " << run.message();
  auto& at = npu.regs_at_start;
  EXPECT_TRUE(npu.starts == 1) << "one start";
  EXPECT_TRUE(at[mmio::kQbase] == uint32_t(Address(commands)) &&
              at[mmio::kQbaseHi] == uint32_t(Address(commands) >> 32))
      << "QBASE is the command stream";
  EXPECT_TRUE(at[mmio::kQsize] == 32) << "QSIZE is the stream length in bytes";
  EXPECT_TRUE(at[mmio::BasepLow(0)] == uint32_t(Address(weights))) << "BASEP0 is the weights";
  EXPECT_TRUE(at[mmio::BasepLow(1)] == uint32_t(Address(scratch))) << "BASEP1 is the scratch";
  EXPECT_TRUE(at[mmio::BasepLow(2)] == uint32_t(Address(fast))) << "BASEP2 is the fast scratch";
  EXPECT_TRUE(at[mmio::BasepHigh(1)] == uint32_t(Address(scratch) >> 32)) << "BASEP1 high word";
  EXPECT_TRUE(at.count(mmio::BasepLow(3)) == 1 && at[mmio::BasepLow(3)] == 0)
      << "unused regions are 0";
  EXPECT_TRUE(at.count(mmio::kRegioncfg) == 1 && at.count(mmio::u55::kAxiLimit0 + 12) == 1)
      << "REGIONCFG and AXI_LIMIT3";
  EXPECT_TRUE((at[mmio::u55::kPmuBase + mmio::pmu::kPmcntenset] & mmio::pmu::kCycleCounterBit) != 0)
      << "PMU cycle counter on";
  EXPECT_TRUE((at[mmio::u55::kPmuBase + mmio::pmu::kPmcr] & mmio::pmu::pmcr::kCountEnable) != 0)
      << "PMU counting";
  EXPECT_TRUE(npu.irq_clears == 1 && !npu.irq) << "interrupt cleared";
  EXPECT_TRUE(stats.pmu.cycles == 1234 && stats.pmu.events[0] == 77 && stats.qread == 32)
      << "PMU and QREAD in stats";
}

TEST(DriverSequence, U85Layout) {
  FakeNpu npu;
  npu.id = 0x20007000u;
  npu.config = 0x20000118u;  // U85-256
  PollHooks hooks(npu);
  Driver driver(npu, hooks);
  hooks.set_driver(&driver);
  EXPECT_TRUE(driver.Init().ok()) << "U85 init";
  EXPECT_TRUE(driver.Run(MakeJob(0x20007000u, 0x20000118u), nullptr).ok()) << "U85 job";
  auto& at = npu.regs_at_start;
  EXPECT_TRUE(at.count(mmio::u85::kAxiSram) == 1 && at.count(mmio::u85::kAxiExt) == 1)
      << "U85 AXI_SRAM/AXI_EXT set";
  // Region 2 (the fast scratch of Vela's Dedicated_Sram modes) is the NPU's
  // SRAM: its REGIONCFG entry names a MEM_ATTR set whose AXI port (bit 2) is
  // SRAM (0); the weights (region 0) go out on the external port.
  const auto port_of = [&](int region) {
    const uint32_t set = (at[mmio::kRegioncfg] >> mmio::RegioncfgShift(region)) & 3u;
    return (at[mmio::u85::kMemAttr0 + 4u * set] >> 2) & 1u;
  };
  EXPECT_TRUE(port_of(2) == 0 && port_of(0) == 1)
      << "U85 region 2 on the SRAM port, region 0 on EXT";
  EXPECT_TRUE(at[mmio::BasepLow(2)] == uint32_t(Address(fast))) << "U85 BASEP2 is the fast scratch";
  EXPECT_TRUE((at[mmio::u85::kPmuBase + mmio::pmu::kPmcntenset] & mmio::pmu::kCycleCounterBit) != 0)
      << "U85 PMU block";
}

TEST(DriverSequence, Mismatch) {
  FakeNpu npu;
  PollHooks hooks(npu);
  Driver driver(npu, hooks);
  hooks.set_driver(&driver);
  EXPECT_TRUE(driver.Init().ok()) << "init";
  ExpectError(
      driver.Run(MakeJob(0x20007000u, 0x20000118u), nullptr), ErrorCode::kNpuUnsupported,
      "NPU mismatch: the model was compiled for Ethos-U85-256 (arch 2.0.0, CONFIG 0x20000118), "
      "this NPU is Ethos-U55-128 (arch 1.0.6, CONFIG 0x00001807)",
      "configuration mismatch");
  EXPECT_TRUE(npu.starts == 0) << "a mismatched job never starts";
  // Same product, other MACs; and an older architecture revision.
  EXPECT_TRUE(!driver.Run(MakeJob(0x10066001u, 0x00001808u), nullptr).ok()) << "MAC count mismatch";
  EXPECT_TRUE(!driver.Run(MakeJob(0x10176001u, 0x00001807u), nullptr).ok())
      << "newer compiled arch than hardware";
  EXPECT_TRUE(driver.Run(MakeJob(0x10056001u, 0x00001807u), nullptr).ok())
      << "older compiled patch runs";
}

TEST(DriverSequence, Faults) {
  FakeNpu npu;
  npu.end_status = mmio::status::kBusStatus | mmio::status::kCmdParseError;
  npu.end_qread = 20;
  PollHooks hooks(npu);
  Driver driver(npu, hooks);
  hooks.set_driver(&driver);
  EXPECT_TRUE(driver.Init().ok()) << "init";
  const int resets = npu.resets;
  // Both faults named; the bus error gives the code.
  ExpectError(
      driver.Run(MakeJob(0x10066001u, 0x00001807u), nullptr), ErrorCode::kNpuBusError,
      "NPU fault: bus error (an access outside the memory the NPU can reach), command stream parse "
      "error (STATUS 0x00000016, QREAD 20)",
      "fault names");
  EXPECT_TRUE(npu.resets == resets + 1) << "reset after a fault";
  npu.end_status = mmio::status::kCmdParseError;
  ExpectError(driver.Run(MakeJob(0x10066001u, 0x00001807u), nullptr), ErrorCode::kNpuCommandStream,
              "NPU fault: command stream parse error (STATUS 0x00000012, QREAD 20)",
              "parse error alone");
  npu.end_status = mmio::status::kEccFault;
  EXPECT_TRUE(driver.Run(MakeJob(0x10066001u, 0x00001807u), nullptr).code() == ErrorCode::kNpuFault)
      << "ECC fault";
  npu.end_status = 0;
  ExpectError(driver.Run(MakeJob(0x10066001u, 0x00001807u), nullptr), ErrorCode::kNpuFault,
              "NPU stopped before the end of its command stream (STATUS 0x00000002, QREAD 20)",
              "no end, no fault");
}

TEST(DriverSequence, Timeout) {
  FakeNpu npu;
  npu.never_complete = true;
  PollHooks hooks(npu);
  DriverConfig config;
  config.job_timeout_ms = 50;
  Driver driver(npu, hooks, config);
  hooks.set_driver(&driver);
  EXPECT_TRUE(driver.Init().ok()) << "init";
  ExpectError(driver.Run(MakeJob(0x10066001u, 0x00001807u), nullptr), ErrorCode::kNpuTimeout,
              "NPU did not complete within 50 ms (STATUS 0x00000001, QREAD 0)", "timeout");
  EXPECT_TRUE(hooks.polls >= 50 && hooks.polls <= 52) << "timeout after ~50 polls";
  EXPECT_TRUE(driver.initialized()) << "reset after timeout leaves the driver usable";
}

}  // namespace
