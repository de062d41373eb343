// The NPU interface on the host: the functional model (sim/npu) executes the
// command stream directly on the region memory. Host runner and tests only;
// firmware uses the register-level driver (cc/backends/ethosu/driver_npu.h).
#pragma once

#include "cc/backends/ethosu/npu_interface.h"
#include "sim/npu/model.h"

namespace ethosu_sdk::npu_harness {

class ModelNpu final : public backends::ethosu::Npu {
 public:
  // `workspace`: the model's working memory (decoded weights), owned by the
  // caller. `observer`: diagnostics only (may be null).
  ModelNpu(npu::Workspace workspace, const npu::RunLimits& limits = npu::RunLimits(),
           const npu::OperationObserver* observer = nullptr)
      : workspace_(workspace), limits_(limits), observer_(observer) {}

  Status Run(const ethosu::Job& job) override;

  // Totals over every Run.
  const npu::RunStats& stats() const { return stats_; }
  uint32_t jobs() const { return jobs_; }

 private:
  npu::Workspace workspace_;
  npu::RunLimits limits_;
  const npu::OperationObserver* observer_;
  npu::RunStats stats_{};
  uint32_t jobs_ = 0;
};

}  // namespace ethosu_sdk::npu_harness
