#include "cc/backends/ethosu/driver_npu.h"

namespace ethosu_sdk::backends::ethosu {

namespace driver = ::ethosu_sdk::drivers::ethosu;

Status DriverNpu::Run(const NpuJob& job) {
  if (job.payload == nullptr) return Status::Error("NPU job without a payload");
  if (!driver_.initialized()) {
    const driver::Result init = driver_.Init();
    if (!init.ok()) return Status::Error("%s", init.message());
  }
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
  const driver::Result result = driver_.Run(request, &stats);
  if (!result.ok()) return Status::Error("%s", result.message());
  ++figures_.jobs;
  figures_.cycles += stats.pmu.cycles;
  for (int i = 0; i < driver::kPmuEvents; ++i) figures_.events[i] += stats.pmu.events[i];
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends::ethosu
