// The functional model's entry point: decodes the command stream into the
// register file, builds and validates each NPU operation, runs its kernel.
//
//   stream -> registers (commands/) -> operation (operations/)
//          -> kernel (kernels/) -> output stage (output/output_writer.h)
#include <cstring>

#include "sim/npu/commands/command_stream.h"
#include "sim/npu/configs.h"
#include "sim/npu/kernels/dma.h"
#include "sim/npu/kernels/run_kernel.h"
#include "sim/npu/model.h"
#include "sim/npu/operations/build_operation.h"
#include "sim/npu/output/activation.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

// Register file and LUT memory: the NPU's state for one stream.
struct NpuState {
  RegisterFile regs;
  uint8_t lut[kLutMemoryBytes];
};

// COND_STATUS.result_flag, which NPU_OP_BRANCH's RF_TRUE condition reads.
// GUESS (undocumented): every NPU operation sets it from its OFM, set when
// the value is not zero; Vela branches only after an operation writing a
// one-element bool (WHILE_LOOP's condition, COND_IF's first input), so the
// model knows the flag after a one-element OFM only. DMA leaves it.
// Pinned by //tests/conformance:while_loop_additional_arg_u85_test.
struct CondStatus {
  uint64_t ofm_elements = 0;  // of the latest operation; 0 before any
  bool result_flag = false;
};

class Model {
 public:
  Model(Context ctx, RunStats* stats, const RunLimits& limits, const OperationObserver* observer)
      : ctx_(ctx), stats_(stats), limits_(limits), observer_(observer) {}

  Status Run(const uint32_t* words, size_t count) {
    size_t i = 0;
    Status status = DecodeCommands(
        ctx_.u55(), words, count, &ctx_.regs, &i,
        [this](uint16_t opcode, uint16_t param, uint32_t offset) {
          return opcode == kOpDmaStart ? RunDma(ctx_, stats_) : Execute(opcode, param, offset);
        },
        [this](BranchCond cond, bool* taken) { return Branch(cond, taken); });
    // QREAD: the stream was fetched through the command that stopped or failed.
    stats_->command_bytes = 4 * uint64_t(i < count ? i + 1 : count);
    if (!status.ok()) status = status.WithCommandOffset(uint32_t(4 * (i < count ? i : count)));
    return status;
  }

 private:
  Status Branch(BranchCond cond, bool* taken) {
    if (cond == kBranchAlways) {
      *taken = true;
    } else if (cond_.ofm_elements == 1) {
      *taken = cond_.result_flag;
    } else if (cond_.ofm_elements == 0) {
      return Status::Error(
          ErrorCode::kNpuUnsupported,
          "NPU_OP_BRANCH on COND_STATUS before any operation set it not supported");
    } else {
      return Status::Error(ErrorCode::kNpuUnsupported,
                           "NPU_OP_BRANCH on COND_STATUS after an operation with %llu OFM elements "
                           "not supported (the model knows the flag of a one-element OFM)",
                           (unsigned long long)cond_.ofm_elements);
    }
    if (*taken && ++stats_->branches_taken > limits_.max_branches_taken) {
      return Status::Error(ErrorCode::kNpuLimit,
                           "more than %llu branches taken: a loop that never ends",
                           (unsigned long long)limits_.max_branches_taken);
    }
    return Status::Ok();
  }

  Status Build(uint16_t opcode, uint16_t param, Operation* op) {
    switch (opcode) {
      case kOpConv:
        return (param & kConvWeightsFromIfm2) ? BuildMatMul(ctx_, op)
                                              : BuildConvolution(ctx_, false, op);
      case kOpDepthwise:
        return BuildConvolution(ctx_, true, op);
      case kOpPool:
        return BuildPooling(ctx_, param & kPoolModeMask, op);
      case kOpResize:
        return BuildResize(ctx_, param & kResizeModeMask, op);
      default:  // kOpElementwise (Execute passes nothing else)
        return BuildElementwise(ctx_, param & kElementwiseModeMask, op);
    }
  }

  Status TakeKernelScratch(Operation* op) {
    size_t bytes = 0;
    if (!KernelScratchBytes(*op, &bytes)) return Status::Ok();
    Status status;
    op->scratch = ctx_.arena.Take(bytes, "kernel scratch", &status);
    return op->scratch != nullptr ? Status::Ok() : status;
  }

  // U85 accumulator chaining keeps one accumulator per OFM element in the
  // NPU (KeptAccumulators): workspace memory the size of the
  // configuration's accumulator RAM, taken below every operation's
  // memory the first time a stream chains, kept until it ends.
  Status TakeAccumulatorMemory() {
    const RegisterFile& r = ctx_.regs;
    KeptAccumulators& kept = ctx_.kept;
    if (ctx_.u55() || kept.data != nullptr ||
        (r.Get(kAccInput) != kAccKeep && r.Get(kAccOutputDisable) == 0)) {
      return Status::Ok();
    }
    const size_t bytes = size_t(U85AccumulatorBytes(ctx_.config.macs));
    Status status;
    kept.data = ctx_.arena.TakeArray<uint32_t>(bytes / sizeof(uint32_t), "accumulators", &status);
    if (kept.data == nullptr) return status;
    kept.capacity = bytes;
    return Status::Ok();
  }

  Status Execute(uint16_t opcode, uint16_t param, uint32_t command_offset) {
    // IRQ, waits and PMU masks have nothing to do in a functional model.
    if (opcode != kOpConv && opcode != kOpDepthwise && opcode != kOpPool &&
        opcode != kOpElementwise && opcode != kOpResize) {
      return Status::Ok();
    }
    ESDK_RETURN_IF_ERROR(TakeAccumulatorMemory());
    const size_t mark = ctx_.arena.used();
    Operation op;
    Status status = Build(opcode, param, &op);
    // The kernel's scratch, taken last (after everything the builder took)
    // so the arena's layout is the builder's plus this block.
    if (status.ok()) status = TakeKernelScratch(&op);
    if (status.ok()) {
      op.output.Prepare(op.ofm);
      RunKernel(op);
      stats_->macs += op.macs;
      if (!op.keep_output) {  // an OFM written (not accumulators kept)
        cond_.ofm_elements = uint64_t(op.ofm.height) * op.ofm.width * op.ofm.depth;
        cond_.result_flag = cond_.ofm_elements == 1 && op.ofm.Load(0, 0, 0) != 0;
      }
    }
    ctx_.arena.Reset(mark);
    ChainBuffers& chain = ctx_.chain;
    if (uint8_t* moved = ctx_.arena.SettleTop()) {
      chain.current.data = moved;
      chain.current.writable = true;
      chain.current.size = chain.next.size;
      for (int k = 0; k < 3; ++k) chain.current_dims[k] = chain.next_dims[k];
      chain.next = chain.current;  // what op.ofm (the observer's view) points to
    }
    // Kept accumulators live until the next operation, which either
    // starts from them (ACC_INPUT KEEP) or overwrites them.
    KeptAccumulators& kept = ctx_.kept;
    kept.held = status.ok() && op.keep_output;
    if (kept.held) {
      kept.dims[0] = op.ofm.height;
      kept.dims[1] = op.ofm.width;
      kept.dims[2] = op.ofm.depth;
    }
    ++stats_->operations;
    // An operation with its output disabled wrote no feature map to observe.
    if (status.ok() && !op.keep_output && observer_ != nullptr &&
        observer_->after_operation != nullptr) {
      observer_->after_operation(observer_->context, command_offset, opcode, op.ofm);
    }
    return status;
  }

  Context ctx_;
  RunStats* stats_;
  const RunLimits& limits_;
  const OperationObserver* observer_;
  CondStatus cond_;
};

}  // namespace

Status RunCommandStream(const NpuConfig& config, const uint32_t* words, size_t num_words,
                        const Region (&regions)[kNumRegions], Workspace workspace, RunStats* stats,
                        const RunLimits& limits, const OperationObserver* observer) {
  if (ConfigCores(config) == 0 || ConfigCores(config) != config.cores) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "Ethos-U configuration with %d MACs on %d cores not supported",
                         config.macs, config.cores);
  }
  if (words == nullptr && num_words != 0) return StreamError("null command stream");
  RunStats local;
  if (stats == nullptr) stats = &local;
  WorkspaceArena arena(workspace.data, workspace.size);
  Status status;
  auto* state = static_cast<NpuState*>(arena.Take(sizeof(NpuState), "register file", &status));
  if (state == nullptr) return status;
  memset(state, 0, sizeof(*state));
  ChainBuffers chain;
  KeptAccumulators kept;
  WorkMeter work(limits);
  Context ctx{config, regions, state->regs, state->lut, arena, workspace.weight_cache,
              chain,  kept,    work};
  return Model(ctx, stats, limits, observer).Run(words, num_words);
}

}  // namespace ethosu_sdk::npu
