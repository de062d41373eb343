// The driver interface: run a Vela command stream against base-pointer
// regions. The functional model behind it is bit-exact, not cycle-accurate.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"

namespace ethosu_sdk::npu {

// Ethos-U addresses are region index (0..7) plus offset; the region table
// plays the role of the BASEP registers.
constexpr int kNumRegions = 8;

struct Region {
  const uint8_t* read = nullptr;  // null: region not bound
  uint8_t* write = nullptr;       // null: read-only (weights, constants)
  size_t size = 0;
};

class WeightCache;  // weights/weight_cache.h

// Memory the model may use while running (register file, chain buffers,
// kernel scratch; decoded weights when there is no cache). Allocated once
// by the caller; the model never touches the heap. `weight_cache`, if
// given, keeps decoded weights and scale records across runs.
struct Workspace {
  uint8_t* data = nullptr;
  size_t size = 0;
  WeightCache* weight_cache = nullptr;
};

struct RunStats {
  uint32_t operations = 0;  // NPU_OP_* kernels executed
  uint32_t dma_transfers = 0;
  uint64_t macs = 0;
  uint64_t dma_bytes = 0;      // bytes moved by NPU_OP_DMA_START
  // Bytes of the stream consumed: through NPU_OP_STOP on success, through
  // the failing command on a failure (what the hardware's QREAD reports).
  uint64_t command_bytes = 0;
};

// Bounds on the work one command may ask for, so that a corrupt stream
// (say, zero strides and huge dimensions) fails fast instead of running for
// hours. The default is far above any real network layer.
struct RunLimits {
  uint64_t max_work_per_operation = uint64_t(1) << 34;  // multiply-accumulates
  // The whole stream: every operation's work plus every DMA's bytes. A
  // device executing guest streams bounds its time with it; the default
  // is no bound.
  uint64_t max_total_work = ~uint64_t(0);
};

struct FeatureMap;

// Diagnostics hook: called after each NPU operation with the byte offset of
// its NPU_OP_* command in the stream and the feature map it wrote (chained
// OFMs included, which never reach memory). Layer-by-layer comparisons and
// fault injection in tests use it; production code passes none.
struct OperationObserver {
  void (*after_operation)(void* context, uint32_t command_offset, uint16_t opcode,
                          const FeatureMap& ofm) = nullptr;
  void* context = nullptr;
};

// U65 runs U55 command streams (plus PARALLEL_MODE, a second scale and
// weight stream for its second core, and 2-D/3-D DMA).
enum class Architecture { kEthosU55, kEthosU85, kEthosU65 };

// Which NPU the stream was compiled for (from the driver payload header).
// `macs` counts as Vela's configurations do: the whole U85 (U85-1024 has
// four cores), one U55/U65 core (U65-512 is two cores of 256). `cores` is
// the number of weight streams an operation may split its weights into.
struct NpuConfig {
  Architecture arch = Architecture::kEthosU85;
  int macs = 256;
  int cores = 1;
};

// Executes `num_words` 32-bit command words (the register stream without the
// driver payload header). Every address is checked against its region.
Status RunCommandStream(const NpuConfig& config, const uint32_t* words, size_t num_words,
                        const Region (&regions)[kNumRegions], Workspace workspace,
                        RunStats* stats, const RunLimits& limits = RunLimits(),
                        const OperationObserver* observer = nullptr);

}  // namespace ethosu_sdk::npu
