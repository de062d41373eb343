#include "cc/backends/ethosu/driver_npu.h"

namespace ethosu_sdk::backends::ethosu {

namespace driver = ::ethosu_sdk::drivers::ethosu;

Status DriverNpu::Run(const NpuJob& job) {
  if (job.payload == nullptr) return Status::Error(ErrorCode::kInvalidArgument, "NPU job without a payload");
  // The driver's errors carry their own codes (timeout, fault, bus error, ...).
  if (!driver_.initialized()) ESDK_RETURN_IF_ERROR(driver_.Init());
  const VelaPayload& payload = *job.payload;
  driver::Job request;
  request.commands = payload.commands;
  request.num_words = payload.num_commands;
  request.compiled_id = payload.arch_version;
  request.compiled_config = payload.arch_config;
  for (int i = 0; i < kNpuRegions && i < driver::kRegions; ++i) {
    const NpuRegion& region = job.regions[i];
    request.regions[i] = {region.data, region.size, region.writable};
  }
  driver::JobStats stats;
  ESDK_RETURN_IF_ERROR(driver_.Run(request, &stats));
  ++figures_.jobs;
  figures_.cycles += stats.pmu.cycles;
  for (int i = 0; i < driver::kPmuEvents; ++i) figures_.events[i] += stats.pmu.events[i];
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends::ethosu
