#include "cc/backends/ethosu/model_npu.h"

namespace ethosu_sdk::backends::ethosu {
namespace {

// Each kind of model failure keeps a code of its own, and the offset of the
// failing command, through the delegate and the runtime to the report.
ErrorCode CodeOf(npu::FaultKind kind) {
  switch (kind) {
    case npu::FaultKind::kParse: return ErrorCode::kNpuCommandStream;
    case npu::FaultKind::kBus: return ErrorCode::kNpuBusError;
    case npu::FaultKind::kUnsupported: return ErrorCode::kNpuUnsupported;
    case npu::FaultKind::kLimit: return ErrorCode::kNpuLimit;
    case npu::FaultKind::kNone: break;
  }
  return ErrorCode::kInternal;  // a failed npu::Status always has a kind
}

Status FromModel(const npu::Status& status) {
  if (status.ok()) return Status::Ok();
  const uint32_t offset =
      status.command_offset() == npu::Status::kNoOffset ? Status::kNoCommandOffset : status.command_offset();
  return Status::Error(CodeOf(status.kind()), "%s", status.message()).WithCommandOffset(offset);
}

}  // namespace

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
  const npu::Status status =
      npu::RunCommandStream(ModelConfig(*job.payload), job.payload->commands,
                            job.payload->num_commands, regions, workspace_, &run, limits_, observer_);
  ESDK_RETURN_IF_ERROR(FromModel(status));
  ++jobs_;
  stats_.operations += run.operations;
  stats_.dma_transfers += run.dma_transfers;
  stats_.macs += run.macs;
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends::ethosu
