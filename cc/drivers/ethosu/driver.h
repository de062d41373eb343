// A register-level Ethos-U driver (U55, U65, U85): soft reset with a
// privilege/security check, one job at a time started through CMD and
// completed by the NPU's interrupt, faults decoded from STATUS, PMU counts
// per job. No heap; every error is one Status: kNpuTimeout, kNpuFault,
// kNpuBusError, kNpuCommandStream, kNpuUnsupported (a stream compiled for
// another NPU) or kInvalidArgument, with a message naming the registers.
//
// Firmware owns one Driver per NPU, routes the NPU's interrupt to
// HandleInterrupt(), and calls Init() once and Run() per job.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_DRIVER_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_DRIVER_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "cc/drivers/ethosu/bus.h"
#include "cc/drivers/ethosu/bus_config.h"
#include "cc/drivers/ethosu/identity.h"
#include "cc/drivers/ethosu/pmu.h"
#include "cc/drivers/ethosu/wait_hooks.h"
#include "cc/ethosu/job.h"

namespace ethosu_sdk::drivers::ethosu {

struct DriverConfig {
  // The level the NPU's bus accesses run at after reset; our boards run
  // the firmware secure and privileged.
  bool secure = true;
  bool privileged = true;
  uint32_t reset_timeout_ms = 100;
  uint32_t job_timeout_ms = 5000;
  BusConfig bus;
};

struct JobStats {
  PmuCounts pmu;
  uint32_t qread = 0;  // bytes of the stream the NPU consumed
};

class Driver {
 public:
  Driver(Bus& bus, WaitHooks& hooks, const DriverConfig& config = DriverConfig())
      : bus_(bus), hooks_(hooks), config_(config) {}

  // Soft reset at the configured privilege/security level, then identify.
  Status Init();
  bool initialized() const { return initialized_; }
  const Identity& identity() const { return identity_; }

  // Runs one job to completion (or fault, or timeout). After a fault or a
  // timeout the NPU is reset, so the next job starts clean. The regions'
  // memory is where the NPU sees it at the same address as the CPU (true on
  // Corstone-300/320 and QEMU's AN547, secure aliases included); an unbound
  // region is BASEPn = 0, and writable ones are invalidated from the D-cache
  // after the job.
  Status Run(const hw::Job& job, JobStats* stats);

  // The NPU's interrupt: records STATUS and clears the interrupt (the line
  // is level-sensitive and stays raised until cleared).
  void HandleInterrupt();

 private:
  Status Reset();
  Status WaitForCompletion(uint32_t* status);
  uint32_t CommandBits() const;

  Bus& bus_;
  WaitHooks& hooks_;
  DriverConfig config_;
  Identity identity_;
  bool initialized_ = false;
  volatile bool irq_seen_ = false;
  volatile uint32_t irq_status_ = 0;
};

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_DRIVER_H_
