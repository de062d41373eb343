#include "cc/backends/ethosu/ethosu_delegate.h"

namespace ethosu_sdk::backends::ethosu {

Status ExecuteVelaPayload(const VelaPayload& payload, const DelegateBuffers& b,
                          npu::RunStats* stats) {
  ModelNpu model(b.workspace, b.limits, b.observer);
  const Status status = RunDelegate(payload, b, model);
  if (stats != nullptr) *stats = model.stats();
  return status;
}

}  // namespace ethosu_sdk::backends::ethosu
