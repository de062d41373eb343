#include "cc/drivers/ethosu/driver.h"

#include "cc/drivers/ethosu/cache.h"
#include "cc/drivers/ethosu/job_status.h"
#include "cc/ethosu/mmio.h"

namespace ethosu_sdk::drivers::ethosu {
namespace {

namespace mmio = ::ethosu_sdk::ethosu::mmio;

uint64_t MsToTicks(WaitHooks& hooks, uint32_t ms) { return hooks.TicksPerSecond() * ms / 1000u; }

void AppendProt(uint32_t prot, TextBuilder& text) {
  text.Str((prot & mmio::prot::kPrivileged) != 0 ? "privileged " : "user ");
  text.Str((prot & mmio::prot::kNonSecure) != 0 ? "non-secure" : "secure");
}

}  // namespace

uint32_t Driver::CommandBits() const {
  // Keep the clock and power Q-channels enabled with every command.
  return mmio::cmd::kClockQEnable | mmio::cmd::kPowerQEnable;
}

Result Driver::Reset() {
  const uint32_t requested = (config_.privileged ? mmio::prot::kPrivileged : 0u) |
                             (config_.secure ? 0u : mmio::prot::kNonSecure);
  bus_.Write(mmio::kReset, requested);
  const uint64_t start = hooks_.Ticks();
  const uint64_t limit = MsToTicks(hooks_, config_.reset_timeout_ms);
  uint32_t status = bus_.Read(mmio::kStatus);
  // Polled, not interrupt-driven: a reset completes in a few NPU cycles.
  while ((status & mmio::status::kResetStatus) != 0) {
    if (hooks_.Ticks() - start > limit) {
      Result result;
      result.Fail().Str("NPU reset did not complete within ").UInt(config_.reset_timeout_ms).Str(" ms (STATUS 0x")
          .Hex(status, 8).Char(')');
      return result;
    }
    status = bus_.Read(mmio::kStatus);
  }
  const uint32_t prot = bus_.Read(mmio::kProt) & (mmio::prot::kPrivileged | mmio::prot::kNonSecure);
  if (prot != requested) {
    Result result;
    TextBuilder text = result.Fail();
    text.Str("NPU protection mismatch: requested ");
    AppendProt(requested, text);
    text.Str(", PROT reports ");
    AppendProt(prot, text);
    text.Str(" (0x").Hex(prot, 1).Char(')');
    return result;
  }
  bus_.Write(mmio::kCmd, CommandBits());
  irq_seen_ = false;
  return Result::Ok();
}

Result Driver::Init() {
  initialized_ = false;
  // Identify first: with nothing at the address (reads as zero) the reset
  // sequence would fail with a less useful message.
  identity_ = Identity::FromRegisters(bus_.Read(mmio::kId), bus_.Read(mmio::kConfig));
  if (identity_.product == Product::kUnknown || identity_.arch_major == 0) {
    Result result;
    result.Fail().Str("no Ethos-U answers at the NPU address (ID 0x").Hex(identity_.id, 8).Str(", CONFIG 0x")
        .Hex(identity_.config, 8).Char(')');
    return result;
  }
  const Result reset = Reset();
  if (!reset.ok()) return reset;
  // Reset must not change what the NPU is; read it again all the same.
  identity_ = Identity::FromRegisters(bus_.Read(mmio::kId), bus_.Read(mmio::kConfig));
  initialized_ = true;
  return Result::Ok();
}

void Driver::HandleInterrupt() {
  const uint32_t status = bus_.Read(mmio::kStatus);
  bus_.Write(mmio::kCmd, CommandBits() | mmio::cmd::kClearIrq);
  irq_status_ = status;
  irq_seen_ = true;
}

Result Driver::WaitForCompletion(uint32_t* status) {
  const uint64_t start = hooks_.Ticks();
  const uint64_t limit = MsToTicks(hooks_, config_.job_timeout_ms);
  hooks_.BeginWait();
  bool timed_out = false;
  while (!irq_seen_) {
    if (hooks_.Ticks() - start > limit) {
      timed_out = !irq_seen_;
      break;
    }
    hooks_.Wait(irq_seen_);
  }
  hooks_.EndWait();
  if (!timed_out) {
    *status = irq_status_;
    return Result::Ok();
  }
  Result result;
  TextBuilder text = result.Fail();
  text.Str("NPU did not complete within ").UInt(config_.job_timeout_ms).Str(" ms");
  AppendRegisters(bus_.Read(mmio::kStatus), bus_.Read(mmio::kQread), text);
  return result;
}

Result Driver::Run(const Job& job, JobStats* stats) {
  if (!initialized_) {
    Result result;
    result.Fail().Str("NPU driver used before Init");
    return result;
  }
  if (job.commands == nullptr || job.num_words == 0) {
    Result result;
    result.Fail().Str("NPU job without a command stream");
    return result;
  }
  const Result compatible =
      CheckCompatible(Identity::FromRegisters(job.compiled_id, job.compiled_config), identity_);
  if (!compatible.ok()) return compatible;
  const uint32_t idle_status = bus_.Read(mmio::kStatus);
  if ((idle_status & mmio::status::kState) != 0) {
    Result result;
    TextBuilder text = result.Fail();
    text.Str("NPU busy before a job starts");
    AppendRegisters(idle_status, bus_.Read(mmio::kQread), text);
    return result;
  }
  const bool u85 = identity_.IsU85Layout();
  ProgramBusConfig(bus_, u85, config_.bus);
  const uint64_t queue = reinterpret_cast<uintptr_t>(job.commands);
  bus_.Write(mmio::kQbase, uint32_t(queue));
  bus_.Write(mmio::kQbaseHi, uint32_t(queue >> 32));
  bus_.Write(mmio::kQsize, uint32_t(job.num_words * 4u));
  for (int i = 0; i < kRegions; ++i) {
    const uint64_t base = reinterpret_cast<uintptr_t>(job.regions[i].data);
    bus_.Write(mmio::BasepLow(i), uint32_t(base));
    bus_.Write(mmio::BasepHigh(i), uint32_t(base >> 32));
  }
  PmuStart(bus_, u85);
  // What the NPU reads must be in memory, not only in the CPU's cache.
  ethosu_sdk_npu_cache_clean(job.commands, job.num_words * 4u);
  for (const JobRegion& region : job.regions) {
    if (region.data != nullptr) ethosu_sdk_npu_cache_clean(region.data, region.size);
  }
  irq_seen_ = false;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  bus_.Write(mmio::kCmd, CommandBits() | mmio::cmd::kTransitionToRunning);

  uint32_t status = 0;
  Result result = WaitForCompletion(&status);
  const uint32_t qread = bus_.Read(mmio::kQread);
  if (result.ok()) result = DecodeJobStatus(status, qread);
  for (const JobRegion& region : job.regions) {
    if (region.data != nullptr && region.npu_writes) ethosu_sdk_npu_cache_invalidate(region.data, region.size);
  }
  if (stats != nullptr) {
    stats->pmu = PmuRead(bus_, u85);
    stats->qread = qread;
  }
  if (!result.ok()) {
    // Stop whatever is left (a timed-out job may still be running); the
    // job's own error is what the caller sees.
    if (!Reset().ok()) initialized_ = false;
  }
  return result;
}

}  // namespace ethosu_sdk::drivers::ethosu
