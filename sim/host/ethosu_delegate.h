// Runs a parsed Vela payload on the functional NPU model directly (host
// tools and tests: the reference path the driver is compared with). The
// backend itself goes through the NPU interface (npu_interface.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/backends/ethosu/delegate_io.h"
#include "cc/backends/ethosu/vela_payload.h"
#include "sim/host/model_npu.h"
#include "sim/npu/model.h"

namespace ethosu_sdk::npu_harness {

struct DelegateBuffers : backends::ethosu::DelegateIo {
  npu::Workspace workspace;  // model working memory (see kRecommendedWorkspaceBytes)
  npu::RunLimits limits;
  const npu::OperationObserver* observer = nullptr;  // diagnostics only
};

// Working memory that covers the largest kernel Vela emits for ethos-u85-256
// MobileNetV2-sized networks (decoded weights + decoder scratch).
constexpr size_t kRecommendedWorkspaceBytes = 6u << 20;
// Memory for an npu::WeightCache that keeps every zoo network's decoded
// weights (MobileNetV2: about 7 MiB) across inferences.
constexpr size_t kRecommendedWeightCacheBytes = 32u << 20;

Status ExecuteVelaPayload(const backends::ethosu::VelaPayload& payload,
                          const DelegateBuffers& buffers, npu::RunStats* stats);

}  // namespace ethosu_sdk::npu_harness
