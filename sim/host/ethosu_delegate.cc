#include "sim/host/ethosu_delegate.h"

namespace ethosu_sdk::npu_harness {

Status ExecuteVelaPayload(const backends::ethosu::VelaPayload& payload, const DelegateBuffers& b,
                          npu::RunStats* stats) {
  ModelNpu model(b.workspace, b.limits, b.observer);
  const Status status = backends::ethosu::RunDelegate(payload, b, model);
  if (stats != nullptr) *stats = model.stats();
  return status;
}

}  // namespace ethosu_sdk::npu_harness
