#include "sim/host/model_npu.h"

#include "cc/ethosu/payload_header.h"

namespace ethosu_sdk::npu_harness {

Status ModelNpu::Run(const ethosu::Job& job) {
  if (job.commands == nullptr)
    return Status::Error(ErrorCode::kInvalidArgument, "NPU job without a command stream");
  // The hardware knows its own configuration; the model is told the one
  // the stream was compiled for.
  ethosu::NpuConfig config;
  if (!ethosu::DecodeCompiledFor(job.compiled, &config)) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "NPU job compiled for an unknown NPU (ID 0x%08x, CONFIG 0x%08x)",
                         unsigned(job.compiled.id), unsigned(job.compiled.config));
  }
  npu::RunStats run{};
  // The model's failures already carry their own codes and command offset.
  ESDK_RETURN_IF_ERROR(npu::RunCommandStream(config, job.commands, job.num_words, job.regions,
                                             workspace_, &run, limits_, observer_));
  ++jobs_;
  stats_.operations += run.operations;
  stats_.dma_transfers += run.dma_transfers;
  stats_.macs += run.macs;
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu_harness
