#include "cc/backends/ethosu/board_npu.h"

#include "cc/drivers/ethosu/bus.h"
#include "cc/drivers/ethosu/wait_hooks.h"
#include "cc/platform/interrupts.h"
#include "cc/platform/platform.h"

namespace ethosu_sdk::backends::ethosu {
namespace {

namespace driver = ::ethosu_sdk::drivers::ethosu;
namespace platform = ::ethosu_sdk::platform;

class BoardWaitHooks final : public driver::WaitHooks {
 public:
  uint64_t Ticks() override { return platform::TimerTicks(); }
  uint64_t TicksPerSecond() override { return platform::TimerTicksPerSecond(); }
  void Wait(const volatile bool& done) override { platform::WaitForInterrupt(done); }
  // The wake-up timer runs only while a job is waited for, so CPU work is
  // never interrupted by it.
  void BeginWait() override { platform::StartWakeTimer(); }
  void EndWait() override { platform::StopWakeTimer(); }
};

void OnNpuInterrupt(void* context) { static_cast<driver::Driver*>(context)->HandleInterrupt(); }

driver::DriverConfig BoardDriverConfig() {
  driver::DriverConfig config;
  config.job_timeout_ms = ESDK_NPU_TIMEOUT_MS;
  return config;
}

}  // namespace

DriverNpu& BoardDriverNpu() {
  static driver::MmioBus bus(platform::BoardNpu().base);
  static BoardWaitHooks hooks;
  static driver::Driver npu_driver(bus, hooks, BoardDriverConfig());
  static DriverNpu npu(npu_driver);
  static const bool attached =
      platform::AttachInterrupt(platform::BoardNpu().irq, OnNpuInterrupt, &npu_driver);
  (void)attached;  // a board's table covers its NPU's IRQ
  return npu;
}

}  // namespace ethosu_sdk::backends::ethosu
