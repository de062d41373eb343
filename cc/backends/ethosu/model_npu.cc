#include "cc/backends/ethosu/model_npu.h"

namespace ethosu_sdk::backends::ethosu {


npu::NpuConfig ModelConfig(const VelaPayload& payload) {
  npu::NpuConfig config;
  switch (payload.product) {
    case NpuProduct::kEthosU55: config.arch = npu::Architecture::kEthosU55; break;
    case NpuProduct::kEthosU65: config.arch = npu::Architecture::kEthosU65; break;
    case NpuProduct::kEthosU85: config.arch = npu::Architecture::kEthosU85; break;
  }
  config.macs = payload.macs;
  config.cores = payload.cores;
  return config;
}

Status ModelNpu::Run(const NpuJob& job) {
  if (job.payload == nullptr) return Status::Error(ErrorCode::kInvalidArgument, "NPU job without a payload");
  npu::Region regions[npu::kNumRegions];
  for (int i = 0; i < kNpuRegions && i < npu::kNumRegions; ++i) {
    const NpuRegion& r = job.regions[i];
    if (r.data == nullptr) continue;
    regions[i].read = r.data;
    regions[i].write = r.writable ? r.data : nullptr;
    regions[i].size = r.size;
  }
  npu::RunStats run{};
  // The model's failures already carry their own codes and command offset.
  ESDK_RETURN_IF_ERROR(npu::RunCommandStream(ModelConfig(*job.payload), job.payload->commands,
                                             job.payload->num_commands, regions, workspace_, &run,
                                             limits_, observer_));
  ++jobs_;
  stats_.operations += run.operations;
  stats_.dma_transfers += run.dma_transfers;
  stats_.macs += run.macs;
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends::ethosu
