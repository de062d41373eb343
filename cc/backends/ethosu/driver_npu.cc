#include "cc/backends/ethosu/driver_npu.h"

namespace ethosu_sdk::backends::ethosu {

namespace driver = ::ethosu_sdk::drivers::ethosu;

Status DriverNpu::Run(const hw::Job& job) {
  // The driver's errors carry their own codes (timeout, fault, bus error, ...).
  if (!driver_.initialized()) ESDK_RETURN_IF_ERROR(driver_.Init());
  driver::JobStats stats;
  ESDK_RETURN_IF_ERROR(driver_.Run(job, &stats));
  ++figures_.jobs;
  figures_.cycles += stats.pmu.cycles;
  for (int i = 0; i < driver::kPmuEvents; ++i) figures_.events[i] += stats.pmu.events[i];
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends::ethosu
