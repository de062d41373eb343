// Runs a parsed Vela payload on the NPU driver: binds the base-pointer
// regions (0 weights, 1 scratch, 2 fast scratch), copies inputs into the
// scratch arena at their offsets, executes, and copies outputs out.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/backends/ethosu/vela_payload.h"
#include "cc/npu/driver.h"

namespace ethosu {

struct DelegateBuffers {
  const void* const* inputs = nullptr;
  const size_t* input_sizes = nullptr;
  int num_inputs = 0;
  void* const* outputs = nullptr;
  const size_t* output_sizes = nullptr;
  int num_outputs = 0;
  uint8_t* scratch = nullptr;  // at least payload.scratch_size bytes
  size_t scratch_size = 0;
  uint8_t* fast_scratch = nullptr;  // optional region 2
  size_t fast_scratch_size = 0;
  npu::Workspace workspace;  // model working memory (see kRecommendedWorkspaceBytes)
  npu::RunLimits limits;
  const npu::OperationObserver* observer = nullptr;  // diagnostics only
};

// Working memory that covers the largest kernel Vela emits for ethos-u85-256
// MobileNetV2-sized networks (decoded weights + decoder scratch).
constexpr size_t kRecommendedWorkspaceBytes = 6u << 20;

Status ExecuteVelaPayload(const VelaPayload& payload, const DelegateBuffers& buffers,
                          npu::RunStats* stats);

}  // namespace ethosu
