// The functional model's types: the memory the caller lends it, what a run
// counts and the bounds it keeps. Every layer of sim/npu builds on these;
// the entry point that takes them is model.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/ethosu/product.h"
#include "cc/ethosu/region.h"

namespace ethosu_sdk::npu {

// The Ethos-U facts the model shares with the payload parser, the driver
// and the device (cc/ethosu): a stream addresses memory as region index
// plus offset, the region table playing the role of the BASEP registers,
// and is compiled for one product and configuration.
using ethosu::kNumRegions;
using ethosu::NpuConfig;
using ethosu::Product;
using ethosu::Region;

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
  uint64_t dma_bytes = 0;       // bytes moved by NPU_OP_DMA_START
  uint64_t branches_taken = 0;  // U85 NPU_OP_BRANCH (loops, if/else)
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
  // Taken branches: a loop without operations charges no work, so this
  // alone ends a stream that branches forever. Vela's WHILE_LOOP takes two
  // per iteration: 32,768 iterations.
  uint64_t max_branches_taken = uint64_t(1) << 16;
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

}  // namespace ethosu_sdk::npu
