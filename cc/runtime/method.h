// One method of a loaded program, ready to run: values resolved, tensors
// placed in the caller's planned arenas, kernels and delegates bound. Load
// does all validation and all allocation; Execute only runs instructions.
//
//   ESDK_ASSIGN_OR_RETURN(Program program, Program::Load(pte, pte_size));
//   size_t sizes[4];   size_t count;
//   Method::PlannedBufferSizes(program, "forward", sizes, 4, &count);
//   ... provide `count` arenas of at least those sizes ...
//   ESDK_ASSIGN_OR_RETURN(Method method, Method::Load(program, "forward", registries, memory));
//   method.SetInput(0, data, nbytes);  method.Execute();  method.Output(0);
#ifndef ETHOSU_SDK_CC_RUNTIME_METHOD_H_
#define ETHOSU_SDK_CC_RUNTIME_METHOD_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/arena.h"
#include "cc/core/result.h"
#include "cc/core/status.h"
#include "cc/runtime/backend.h"
#include "cc/runtime/operator_registry.h"
#include "cc/runtime/program.h"
#include "cc/runtime/value.h"

namespace ethosu_sdk::runtime {

struct MethodMemory {
  // Values, tensors, resolved lists, instruction tables, delegate state.
  Arena* runtime = nullptr;
  // planned[i] backs the program's memory_id i + 1 (memory id 0 is reserved).
  Span<const Span<uint8_t>> planned;
};

struct Registries {
  OperatorRegistry operators;
  BackendRegistry backends;
};

class Method {
 public:
  // Sizes of the planned buffers `name` needs, in memory-id order from 1.
  static Status PlannedBufferSizes(const Program& program, const char* name, size_t* sizes,
                                   size_t capacity, size_t* count);

  static Result<Method> Load(const Program& program, const char* name, const Registries& registries,
                             const MethodMemory& memory);

  size_t InputCount() const { return inputs_.size(); }
  size_t OutputCount() const { return outputs_.size(); }
  const Value& Input(size_t i) const { return *inputs_[i]; }
  const Value& Output(size_t i) const { return *outputs_[i]; }

  // Copies `nbytes` into input tensor `i`; size must match the tensor's.
  // Set every input before every Execute: memory planning may reuse an
  // input's buffer for later values once the input has been consumed.
  Status SetInput(size_t i, const void* data, size_t nbytes);

  // Runs the instruction chain once. On an error, FailedInstruction() tells
  // which instruction reported it.
  Status Execute();
  int64_t FailedInstruction() const { return failed_instruction_; }

  // At most this many instructions per Execute (guards against jump loops).
  void SetInstructionBudget(uint64_t budget) { budget_ = budget; }

  // Profiling: Execute calls `after(context, pc)` once each instruction has
  // run (its cost counts in the run; none by default).
  struct InstructionHook {
    void (*after)(void* context, size_t pc) = nullptr;
    void* context = nullptr;
  };
  void SetInstructionHook(const InstructionHook& hook) { hook_ = hook; }

  // The instructions of the chain, and what instruction `pc` runs: its
  // kernel's operator name, or "delegate", "move", "jump_false", "free".
  size_t InstructionCount() const { return instructions_.size(); }
  const char* InstructionName(size_t pc) const;

 private:
  // A `dim_order: any` kernel's call whose tensors share a dim order other
  // than the default: the kernel sees every tensor in memory order (sizes
  // listed in `order`, default dim order) for the call, then the tensors
  // are restored from `saved` (one entry per tensor argument).
  struct SavedLayout {
    Tensor* tensor = nullptr;  // null for a tensor the call passes twice (saved once)
    int32_t sizes[kMaxRank] = {};
    uint8_t dim_order[kMaxRank] = {};
  };
  struct MemoryOrderView {
    int32_t rank = 0;
    uint8_t order[kMaxRank] = {};
    Span<SavedLayout> saved;
  };
  struct Instruction {
    enum class Kind : uint8_t { kKernel, kDelegate, kMove, kJumpFalse, kFree };
    Kind kind;
    KernelFn kernel;                  // kKernel
    MemoryOrderView* view = nullptr;  // kKernel: null unless the call needs one
    const char* name;                 // kKernel: the operator, which its errors name
    uint32_t delegate;                // kDelegate: index into delegates_
    Span<Value* const> args;          // kKernel, kDelegate
    Value* from;                      // kMove: source; kJumpFalse: condition; kFree: the tensor
    Value* to;                        // kMove
    uint32_t destination;             // kJumpFalse
  };
  struct Delegate {
    Backend* backend;
    void* handle;
  };

  static void ShowInMemoryOrder(Span<Value* const> args, MemoryOrderView* view);
  static void RestoreLayouts(Span<Value* const> args, const MemoryOrderView& view);
  Status LoadValues(const Program& program, const void* plan, const MethodMemory& memory);
  Status LoadInstructions(const void* plan, const Registries& registries, Arena* arena);
  Status LoadKernelCall(const void* call, const void* plan, const Registries& registries,
                        Arena* arena, Instruction* out);
  Status LoadDelegates(const Program& program, const void* plan, const Registries& registries,
                       Arena* arena);
  Status ResolveArgs(const void* flatbuffer_args, Arena* arena, Span<Value* const>* out);
  Status ResolveIndexList(const void* flatbuffer_list, Arena* arena, Span<Value*>* out);

  Span<Value> values_;
  Span<Value*> inputs_;
  Span<Value*> outputs_;
  Span<Instruction> instructions_;
  Span<Delegate> delegates_;
  uint64_t budget_ = 1u << 24;
  int64_t failed_instruction_ = -1;
  InstructionHook hook_;
};

}  // namespace ethosu_sdk::runtime

#endif  // ETHOSU_SDK_CC_RUNTIME_METHOD_H_
