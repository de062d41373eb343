#include "cc/drivers/ethosu/driver.h"

#include "cc/core/format.h"
#include "cc/drivers/ethosu/cache.h"
#include "cc/drivers/ethosu/job_status.h"
#include "cc/ethosu/mmio.h"

namespace ethosu_sdk::drivers::ethosu {
namespace {

namespace mmio = ::ethosu_sdk::ethosu::mmio;

uint64_t MsToTicks(WaitHooks& hooks, uint32_t ms) { return hooks.TicksPerSecond() * ms / 1000u; }

const char* ProtName(uint32_t prot) {
  const bool privileged = (prot & mmio::prot::kPrivileged) != 0;
  if ((prot & mmio::prot::kNonSecure) != 0)
    return privileged ? "privileged non-secure" : "user non-secure";
  return privileged ? "privileged secure" : "user secure";
}

}  // namespace

uint32_t Driver::CommandBits() const {
  // Keep the clock and power Q-channels enabled with every command.
  return mmio::cmd::kClockQEnable | mmio::cmd::kPowerQEnable;
}

Status Driver::Reset() {
  const uint32_t requested = (config_.privileged ? mmio::prot::kPrivileged : 0u) |
                             (config_.secure ? 0u : mmio::prot::kNonSecure);
  bus_.Write(mmio::kReset, requested);
  const uint64_t start = hooks_.Ticks();
  const uint64_t limit = MsToTicks(hooks_, config_.reset_timeout_ms);
  uint32_t status = bus_.Read(mmio::kStatus);
  // Polled, not interrupt-driven: a reset completes in a few NPU cycles.
  while ((status & mmio::status::kResetStatus) != 0) {
    if (hooks_.Ticks() - start > limit) {
      return Status::Error(ErrorCode::kNpuTimeout,
                           "NPU reset did not complete within %u ms (STATUS 0x%08x)",
                           unsigned(config_.reset_timeout_ms), unsigned(status));
    }
    status = bus_.Read(mmio::kStatus);
  }
  const uint32_t prot = bus_.Read(mmio::kProt) & (mmio::prot::kPrivileged | mmio::prot::kNonSecure);
  if (prot != requested) {
    return Status::Error(ErrorCode::kNpuFault,
                         "NPU protection mismatch: requested %s, PROT reports %s (0x%x)",
                         ProtName(requested), ProtName(prot), unsigned(prot));
  }
  bus_.Write(mmio::kCmd, CommandBits());
  irq_seen_ = false;
  return Status::Ok();
}

Status Driver::Init() {
  initialized_ = false;
  // Identify first: with nothing at the address (reads as zero) the reset
  // sequence would fail with a less useful message.
  identity_ = Identity::FromRegisters(bus_.Read(mmio::kId), bus_.Read(mmio::kConfig));
  if (identity_.product == Product::kUnknown || identity_.arch_major == 0) {
    return Status::Error(ErrorCode::kNpuFault,
                         "no Ethos-U answers at the NPU address (ID 0x%08x, CONFIG 0x%08x)",
                         unsigned(identity_.id), unsigned(identity_.config));
  }
  ESDK_RETURN_IF_ERROR(Reset());
  // Reset must not change what the NPU is; read it again all the same.
  identity_ = Identity::FromRegisters(bus_.Read(mmio::kId), bus_.Read(mmio::kConfig));
  initialized_ = true;
  return Status::Ok();
}

void Driver::HandleInterrupt() {
  const uint32_t status = bus_.Read(mmio::kStatus);
  bus_.Write(mmio::kCmd, CommandBits() | mmio::cmd::kClearIrq);
  irq_status_ = status;
  irq_seen_ = true;
}

Status Driver::WaitForCompletion(uint32_t* status) {
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
    return Status::Ok();
  }
  char what[64];
  Format(what, sizeof(what), "NPU did not complete within %u ms", unsigned(config_.job_timeout_ms));
  return JobError(ErrorCode::kNpuTimeout, what, bus_.Read(mmio::kStatus), bus_.Read(mmio::kQread));
}

Status Driver::Run(const hw::Job& job, JobStats* stats) {
  if (!initialized_)
    return Status::Error(ErrorCode::kInvalidArgument, "NPU driver used before Init");
  if (job.commands == nullptr || job.num_words == 0) {
    return Status::Error(ErrorCode::kInvalidArgument, "NPU job without a command stream");
  }
  ESDK_RETURN_IF_ERROR(
      CheckCompatible(Identity::FromRegisters(job.compiled.id, job.compiled.config), identity_));
  const uint32_t idle_status = bus_.Read(mmio::kStatus);
  if ((idle_status & mmio::status::kState) != 0) {
    return JobError(ErrorCode::kNpuFault, "NPU busy before a job starts", idle_status,
                    bus_.Read(mmio::kQread));
  }
  const bool u85 = identity_.IsU85Layout();
  ProgramBusConfig(bus_, u85, config_.bus);
  const uint64_t queue = reinterpret_cast<uintptr_t>(job.commands);
  bus_.Write(mmio::kQbase, uint32_t(queue));
  bus_.Write(mmio::kQbaseHi, uint32_t(queue >> 32));
  bus_.Write(mmio::kQsize, uint32_t(job.num_words * 4u));
  for (int i = 0; i < hw::kNumRegions; ++i) {
    const uint64_t base = reinterpret_cast<uintptr_t>(job.regions[i].data);
    bus_.Write(mmio::BasepLow(i), uint32_t(base));
    bus_.Write(mmio::BasepHigh(i), uint32_t(base >> 32));
  }
  PmuStart(bus_, u85);
  // What the NPU reads must be in memory, not only in the CPU's cache.
  ethosu_sdk_npu_cache_clean(job.commands, job.num_words * 4u);
  for (const hw::Region& region : job.regions) {
    if (region.data != nullptr) ethosu_sdk_npu_cache_clean(region.data, region.size);
  }
  irq_seen_ = false;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  bus_.Write(mmio::kCmd, CommandBits() | mmio::cmd::kTransitionToRunning);

  uint32_t status = 0;
  Status result = WaitForCompletion(&status);
  const uint32_t qread = bus_.Read(mmio::kQread);
  if (result.ok()) result = DecodeJobStatus(status, qread);
  for (const hw::Region& region : job.regions) {
    if (region.data != nullptr && region.writable)
      ethosu_sdk_npu_cache_invalidate(region.data, region.size);
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
