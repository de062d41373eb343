// The NPU interface on a real (or emulated) Ethos-U: each job goes through
// the register-level driver (cc/drivers/ethosu). The driver is initialised
// on the first job, so a firmware whose model has no NPU delegate never
// touches the NPU.
#pragma once

#include <cstdint>

#include "cc/backends/ethosu/npu_interface.h"
#include "cc/drivers/ethosu/driver.h"

namespace ethosu_sdk::backends::ethosu {

// Totals over every job, from the NPU's PMU.
struct DriverFigures {
  uint32_t jobs = 0;
  uint64_t cycles = 0;
  uint64_t events[ethosu_sdk::drivers::ethosu::kPmuEvents] = {};
};

class DriverNpu final : public Npu {
 public:
  explicit DriverNpu(ethosu_sdk::drivers::ethosu::Driver& driver) : driver_(driver) {}

  Status Run(const hw::Job& job) override;

  const DriverFigures& figures() const { return figures_; }
  const ethosu_sdk::drivers::ethosu::Driver& driver() const { return driver_; }

 private:
  ethosu_sdk::drivers::ethosu::Driver& driver_;
  DriverFigures figures_{};
};

}  // namespace ethosu_sdk::backends::ethosu
