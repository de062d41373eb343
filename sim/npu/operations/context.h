// What building an operation reads: the configuration, the bound regions,
// the register file, LUT memory, the workspace, the weight cache and the
// U85 chain buffers that carry a chained OFM to the next operation, and the
// accumulators one operation keeps for the next.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "sim/npu/commands/register_file.h"
#include "sim/npu/memory/workspace_arena.h"
#include "sim/npu/types.h"

namespace ethosu_sdk::npu {

class WeightCache;

struct ChainBuffers {
  Region current;  // what the last chained OFM was written to
  int current_dims[3] = {0, 0, 0};
  Region next;  // what the current operation writes, if its OFM is chained
  int next_dims[3] = {0, 0, 0};
};

// U85 accumulator chaining: the 32-bit accumulators (one per OFM element,
// HWC) an operation with ACC_OUTPUT disabled left inside the NPU, which the
// next one with ACC_INPUT KEEP starts from. `data` is workspace memory of
// `capacity` bytes (the configuration's accumulator RAM), taken once, when
// a stream first chains.
struct KeptAccumulators {
  uint32_t* data = nullptr;
  size_t capacity = 0;
  bool held = false;  // the last operation kept its accumulators
  int dims[3] = {0, 0, 0};
};

// Work charged against RunLimits: per operation and for the whole stream.
class WorkMeter {
 public:
  explicit WorkMeter(const RunLimits& limits) : limits_(limits) {}
  Status ChargeOperation(uint64_t work) {
    if (work > limits_.max_work_per_operation) {
      return Status::Error(ErrorCode::kNpuLimit, "operation needs %llu MACs, limit %llu",
                           (unsigned long long)work,
                           (unsigned long long)limits_.max_work_per_operation);
    }
    return Charge(work);
  }
  Status Charge(uint64_t work) {
    if (work > limits_.max_total_work - done_) {
      return Status::Error(ErrorCode::kNpuLimit, "stream needs more than %llu units of work",
                           (unsigned long long)limits_.max_total_work);
    }
    done_ += work;
    return Status::Ok();
  }

 private:
  const RunLimits& limits_;
  uint64_t done_ = 0;
};

struct Context {
  NpuConfig config;
  const Region (&regions)[kNumRegions];
  RegisterFile& regs;
  uint8_t* lut;  // LUT memory, filled by DMAs to internal memory
  WorkspaceArena& arena;
  WeightCache* cache;  // may be null
  ChainBuffers& chain;
  KeptAccumulators& kept;
  WorkMeter& work;
  // U65 runs the U55 command set (its extras: scale and weight streams).
  bool u55() const { return config.product != Product::kEthosU85; }
};

}  // namespace ethosu_sdk::npu
