// One delegate call of a parsed Vela payload on the functional NPU model,
// with every buffer it needs owned here: inputs, outputs, the scratch arena
// (region 1), fast scratch (region 2, U65) and the model's workspace. The
// tests, fuzzers and benchmarks of sim/tests/npu, sim/tests/device,
// tests/ethosu_driver and bench/npu bind payloads through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "cc/backends/ethosu/vela_payload.h"
#include "sim/host/aligned_bytes.h"
#include "sim/host/ethosu_delegate.h"
#include "sim/npu/model.h"
#include "sim/npu/weights/weight_cache.h"

namespace ethosu_sdk::npu_harness {

// How PayloadHarness::Bind sizes and fills the buffers.
struct HarnessOptions {
  size_t workspace_bytes = kRecommendedWorkspaceBytes;
  // Nonzero: an npu::WeightCache of this many bytes keeps decoded weights
  // across this harness's runs (what the host runner does).
  size_t weight_cache_bytes = 0;
  npu::RunLimits limits;
  const npu::OperationObserver* observer = nullptr;  // diagnostics only
  uint8_t input_fill = 0;
  // Nonzero: inputs are FillPseudoRandom's sequence from this seed (one
  // sequence across all inputs) instead of `input_fill`.
  uint32_t input_seed = 0;
  // Outputs start as this byte, a pattern the run must overwrite.
  uint8_t output_fill = 0;
  // Bind refuses a payload asking for a larger scratch, fast scratch or
  // I/O buffer (a fuzzed header may ask for gigabytes).
  size_t max_buffer_bytes = SIZE_MAX;
};

// Whether RunStream binds the weights (region 0); kUnbound shows which
// streams read them (the device tests' unmapped-weights case).
enum class WeightsBinding { kBound, kUnbound };

class PayloadHarness {
 public:
  PayloadHarness() = default;
  PayloadHarness(const PayloadHarness&) = delete;
  PayloadHarness& operator=(const PayloadHarness&) = delete;

  // Allocates exactly-sized buffers for `payload` (scratch zeroed) and
  // binds them. `payload` must outlive every run.
  Status Bind(const backends::ethosu::VelaPayload& payload,
              const HarnessOptions& options = HarnessOptions());

  // Input `index` read from the caller's memory (a tensor file's record)
  // instead of the harness's own buffer.
  void UseInput(int index, const void* data, size_t size);

  AlignedBytes& input(int index) { return inputs_[size_t(index)]; }
  const AlignedBytes& output(int index) const { return outputs_[size_t(index)]; }
  AlignedBytes& scratch() { return scratch_; }
  AlignedBytes& fast_scratch() { return fast_scratch_; }
  // The call's buffers, for running it through another NPU (RunDelegate).
  const DelegateBuffers& buffers() const { return buffers_; }

  // The delegate call on the functional model: inputs copied into the
  // scratch arena, the stream run, outputs copied out.
  Status Run(npu::RunStats* stats = nullptr) const;

  // The command stream alone on the regions (0 the payload's weights,
  // read-only; 1 scratch; 2 fast scratch), as a device runs it: no input or
  // output copies.
  Status RunStream(npu::RunStats* stats, WeightsBinding weights = WeightsBinding::kBound);

 private:
  const backends::ethosu::VelaPayload* payload_ = nullptr;
  std::vector<AlignedBytes> inputs_, outputs_;
  std::vector<const void*> input_data_;
  std::vector<void*> output_data_;
  std::vector<size_t> input_sizes_, output_sizes_;
  std::vector<backends::ethosu::IoPlace> input_places_, output_places_;
  AlignedBytes scratch_, fast_scratch_, workspace_, weight_cache_memory_;
  std::unique_ptr<npu::WeightCache> weight_cache_;
  DelegateBuffers buffers_;
};

// Parses a copy of `size` bytes at `data` (exactly sized, so that
// AddressSanitizer sees any overread) and runs it once with fresh buffers:
// the robustness test's and the fuzzer's whole-payload run.
Status RunPayloadBytes(const uint8_t* data, size_t size, const HarnessOptions& options,
                       npu::RunStats* stats = nullptr);

// The pseudo-random bytes the device tests fill memory with (a 32-bit LCG,
// top byte); `state` carries the sequence across calls.
void FillPseudoRandom(uint8_t* data, size_t size, uint32_t* state);

}  // namespace ethosu_sdk::npu_harness
