// The Ethos-U delegate as a runtime Backend (cc/runtime/backend.h): matches
// ExecuTorch's "EthosUBackend" delegates, parses their Vela payload at method
// load and runs it on the NPU driver at every DelegateCall.
//
// Memory: each delegate's scratch (Vela's region 1) and one working area
// shared by all delegates (they run one at a time) come from the method's
// arena at Init; nothing is allocated later.
#ifndef ETHOSU_SDK_CC_BACKENDS_ETHOSU_ETHOSU_BACKEND_H_
#define ETHOSU_SDK_CC_BACKENDS_ETHOSU_ETHOSU_BACKEND_H_

#include <cstddef>
#include <cstdint>

#include "cc/npu/driver.h"
#include "cc/runtime/backend.h"

namespace ethosu_sdk::backends {

class EthosUBackend final : public runtime::Backend {
 public:
  // `workspace_bytes`: the NPU model's working memory (decoded weights).
  explicit constexpr EthosUBackend(size_t workspace_bytes) : workspace_bytes_(workspace_bytes) {}

  const char* Id() const override { return "EthosUBackend"; }
  runtime::Status Init(const runtime::DelegateInit& init, void** handle) override;
  runtime::Status Execute(void* handle, runtime::Span<runtime::Value* const> args) override;

  // Totals over every Execute since start: for the run report.
  const npu::RunStats& stats() const { return stats_; }
  uint32_t delegate_calls() const { return calls_; }
  // Board timer ticks spent in the NPU driver: on a board without an NPU,
  // the cost of simulating it on the CPU (not what an NPU would take).
  uint64_t ticks() const { return ticks_; }
  // Arena bytes taken for NPU scratch and workspace.
  size_t scratch_bytes() const { return scratch_bytes_; }
  size_t workspace_bytes() const { return workspace_.size; }

 private:
  size_t workspace_bytes_;
  npu::Workspace workspace_{};
  npu::RunStats stats_{};
  uint32_t calls_ = 0;
  uint64_t ticks_ = 0;
  size_t scratch_bytes_ = 0;
};

}  // namespace ethosu_sdk::backends

#endif  // ETHOSU_SDK_CC_BACKENDS_ETHOSU_ETHOSU_BACKEND_H_
