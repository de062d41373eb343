// Method's instruction table: the plan's one chain checked and bound once
// at load (kernels found, arguments resolved, the memory-order view a
// kernel call needs, jump targets and freed values checked), and the views
// Execute puts around such a call.
#include <cstring>

#include "cc/core/format.h"
#include "cc/runtime/method.h"
#include "cc/runtime/method_load.h"

namespace ethosu_sdk::runtime {
namespace {

namespace fb = internal::fb;
using internal::OutOfMemory;

// Calls `visit` with each tensor of a kernel's arguments, list items
// included, until it returns an error.
template <typename Visit>
Status ForEachTensor(Span<Value* const> args, Visit visit) {
  for (const Value* arg : args) {
    if (arg->IsTensor()) {
      ESDK_RETURN_IF_ERROR(visit(*arg->tensor));
    } else if (arg->tag == Value::Tag::kTensorList || arg->tag == Value::Tag::kOptionalTensorList) {
      for (const Tensor* item : arg->tensor_list) {
        if (item != nullptr) ESDK_RETURN_IF_ERROR(visit(*item));
      }
    }
  }
  return Status::Ok();
}

// How a kernel call sees its tensors (Method::Load decides it once).
struct CallOrder {
  bool view = false;  // the kernel is shown its tensors in memory order
  int32_t rank = 0;
  uint8_t order[kMaxRank] = {};
  size_t tensors = 0;  // tensor arguments, list items included
};

// Whether `t`'s data lies as it would in dim order `order` (of t's rank):
// the same dim order up to where dimensions of size 1 go.
bool LaysOutAs(const Tensor& t, const uint8_t* order) {
  Tensor as_order = t;
  std::memcpy(as_order.dim_order, order, sizeof(as_order.dim_order));
  return t.SameShapeAndLayout(as_order);
}

// The load error of an `any_dim_order` call whose tensors lie in no one
// dim order: the first tensor that does not lie as `first_other`.
Status DimOrderMismatch(const KernelEntry& kernel, Span<Value* const> args,
                        const Tensor& first_other) {
  return ForEachTensor(args, [&](const Tensor& t) {
    if (t.rank == first_other.rank && LaysOutAs(t, first_other.dim_order)) return Status::Ok();
    if (t.numel == 1 && t.rank <= first_other.rank) return Status::Ok();
    char order[4 * kMaxRank + 3], other_order[4 * kMaxRank + 3];
    char sizes[12 * kMaxRank + 3], other_sizes[12 * kMaxRank + 3];
    FormatDimOrder(first_other, order, sizeof(order));
    FormatDimOrder(t, other_order, sizeof(other_order));
    FormatSizes(first_other, sizes, sizeof(sizes));
    FormatSizes(t, other_sizes, sizeof(other_sizes));
    return Status::Error(ErrorCode::kNotSupported,
                         "operator %s: tensors %s in dim order %s and %s in %s; this kernel takes "
                         "tensors of one rank and one dim order",
                         kernel.name, sizes, order, other_sizes, other_order);
  });
}

// Whether every tensor of a call lies as in dim order `order` of rank
// `rank`; a tensor of one element may have any rank up to it (a scalar as a
// tensor broadcasts alike in every layout).
bool AllLayOutAs(Span<Value* const> args, int32_t rank, const uint8_t* order) {
  return ForEachTensor(args,
                       [&](const Tensor& t) {
                         if (t.rank == rank && LaysOutAs(t, order)) return Status::Ok();
                         if (t.numel == 1 && t.rank <= rank) return Status::Ok();
                         return Status::Error(ErrorCode::kNotSupported, "layout");
                       })
      .ok();
}

// A kernel sees its tensors' data as laid out in the default dim order,
// unless it is marked `any_dim_order` (elementwise, broadcasting included)
// and all of them have one rank and their data lies in one dim order, as
// ExecuTorch's portable kernels ask (tensors_have_same_dim_order). That
// order is any tensor's of the call: where dimensions of size 1 go does not
// move data, so a broadcast operand (1,2,1,2) channels-last lies as the
// (2,2,2,2) output in dim order (0,3,2,1) does. Such a call is shown its
// tensors in memory order (`call->view`): sizes listed in that dim order,
// the default dim order, which gives the same elementwise result over the
// same bytes.
Status CheckDimOrders(const KernelEntry& kernel, Span<Value* const> args, CallOrder* call) {
  if (kernel.kernel_dim_order) return Status::Ok();
  const Tensor* first_other = nullptr;  // the first tensor laid out otherwise
  const Tensor* common = nullptr;       // the first whose dim order all tensors lie in
  ESDK_RETURN_IF_ERROR(ForEachTensor(args, [&](const Tensor& t) {
    if (t.HasDefaultLayout()) return Status::Ok();
    if (first_other == nullptr) first_other = &t;
    if (common == nullptr && AllLayOutAs(args, t.rank, t.dim_order)) common = &t;
    return Status::Ok();
  }));
  if (first_other == nullptr) return Status::Ok();
  char order[4 * kMaxRank + 3];
  FormatDimOrder(*first_other, order, sizeof(order));
  if (!kernel.any_dim_order) {
    return Status::Error(
        ErrorCode::kNotSupported,
        "operator %s: a tensor in dim order %s; this kernel takes tensors in the default "
        "dim order only",
        kernel.name, order);
  }
  if (common == nullptr) return DimOrderMismatch(kernel, args, *first_other);
  call->rank = common->rank;
  std::memcpy(call->order, common->dim_order, sizeof(call->order));
  ESDK_RETURN_IF_ERROR(ForEachTensor(args, [&](const Tensor&) {
    ++call->tensors;
    return Status::Ok();
  }));
  call->view = true;
  return Status::Ok();
}

// Calls visit(Tensor*) for each tensor argument, list items included.
template <typename Visit>
void ForEachTensorPointer(Span<Value* const> args, Visit visit) {
  for (Value* arg : args) {
    if (arg->IsTensor()) {
      visit(arg->tensor);
    } else if (arg->tag == Value::Tag::kTensorList || arg->tag == Value::Tag::kOptionalTensorList) {
      for (Tensor* item : arg->tensor_list) {
        if (item != nullptr) visit(item);
      }
    }
  }
}

// The registered kernel of a call's operator.
Result<const KernelEntry*> FindKernel(const fb::KernelCall* call, const fb::ExecutionPlan* plan,
                                      const OperatorRegistry& registry) {
  const auto* operators = plan->operators();
  const uint32_t operator_count = operators ? operators->size() : 0;
  if (call->op_index() < 0 || static_cast<uint32_t>(call->op_index()) >= operator_count) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "operator index %lld out of range: the method has %lld operators",
                         Lld(call->op_index()), Lld(operator_count));
  }
  const fb::Operator* op = operators->Get(static_cast<uint32_t>(call->op_index()));
  const auto* name = op->name();
  const auto* overload = op->overload();
  if (name == nullptr) return Status::Error(ErrorCode::kInvalidProgram, "operator without name");
  const KernelEntry* kernel =
      registry.Find(name->c_str(), name->size(), overload ? overload->c_str() : "",
                    overload ? overload->size() : 0);
  if (kernel == nullptr) {
    return Status::Error(ErrorCode::kNotFound, "operator not registered: %.*s",
                         static_cast<int>(name->size()), name->c_str());
  }
  return kernel;
}

}  // namespace

Status Method::LoadKernelCall(const void* call_ptr, const void* plan_ptr,
                              const Registries& registries, Arena* arena, Instruction* out) {
  const auto* call = static_cast<const fb::KernelCall*>(call_ptr);
  ESDK_ASSIGN_OR_RETURN(const KernelEntry* kernel,
                        FindKernel(call, internal::Plan(plan_ptr), registries.operators));
  out->kind = Instruction::Kind::kKernel;
  out->kernel = kernel->fn;
  out->name = kernel->name;
  ESDK_RETURN_IF_ERROR(ResolveArgs(call->args(), arena, &out->args));
  CallOrder call_order;
  ESDK_RETURN_IF_ERROR(CheckDimOrders(*kernel, out->args, &call_order));
  if (!call_order.view) return Status::Ok();
  out->view = arena->New<MemoryOrderView>(1);
  SavedLayout* saved = arena->New<SavedLayout>(call_order.tensors);
  if (out->view == nullptr || saved == nullptr) {
    return OutOfMemory("a memory-order view of tensors", call_order.tensors);
  }
  out->view->rank = call_order.rank;
  std::memcpy(out->view->order, call_order.order, sizeof(out->view->order));
  out->view->saved = Span<SavedLayout>(saved, call_order.tensors);
  return Status::Ok();
}

Status Method::LoadInstructions(const void* plan_ptr, const Registries& registries, Arena* arena) {
  const auto* chains = internal::Plan(plan_ptr)->chains();
  const size_t chain_count = chains ? chains->size() : 0;
  if (chain_count > 1) {
    return Status::Error(ErrorCode::kNotSupported,
                         "the method has %lld instruction chains; this runtime runs one",
                         Lld(chain_count));
  }
  const auto* list = chain_count == 1 ? chains->Get(0)->instructions() : nullptr;
  const size_t count = list ? list->size() : 0;
  Instruction* instructions = arena->New<Instruction>(count);
  if (instructions == nullptr && count > 0)
    return OutOfMemory("the instruction table of size", count);
  for (uint32_t pc = 0; pc < count; ++pc) {
    const fb::Instruction* instruction = list->Get(pc);
    Instruction& out = instructions[pc];
    if (instruction->instr_args() == nullptr) {
      return Status::Error(ErrorCode::kInvalidProgram, "instruction %lld has no arguments",
                           Lld(pc));
    }
    switch (instruction->instr_args_type()) {
      case fb::InstructionArguments::KernelCall:
        ESDK_RETURN_IF_ERROR(LoadKernelCall(instruction->instr_args_as_KernelCall(), plan_ptr,
                                            registries, arena, &out));
        break;
      case fb::InstructionArguments::DelegateCall: {
        const fb::DelegateCall* call = instruction->instr_args_as_DelegateCall();
        if (call->delegate_index() < 0 ||
            static_cast<size_t>(call->delegate_index()) >= delegates_.size()) {
          return Status::Error(ErrorCode::kOutOfRange,
                               "delegate index %lld out of range: the method has %lld delegates",
                               Lld(call->delegate_index()), Lld(delegates_.size()));
        }
        out.kind = Instruction::Kind::kDelegate;
        out.delegate = static_cast<uint32_t>(call->delegate_index());
        ESDK_RETURN_IF_ERROR(ResolveArgs(call->args(), arena, &out.args));
        break;
      }
      case fb::InstructionArguments::MoveCall: {
        const fb::MoveCall* call = instruction->instr_args_as_MoveCall();
        out.kind = Instruction::Kind::kMove;
        ESDK_RETURN_IF_ERROR(internal::ValueAt(values_, call->move_from(), &out.from));
        ESDK_RETURN_IF_ERROR(internal::ValueAt(values_, call->move_to(), &out.to));
        break;
      }
      case fb::InstructionArguments::JumpFalseCall: {
        const fb::JumpFalseCall* call = instruction->instr_args_as_JumpFalseCall();
        out.kind = Instruction::Kind::kJumpFalse;
        ESDK_RETURN_IF_ERROR(internal::ValueAt(values_, call->cond_value_index(), &out.from));
        if (call->destination_instruction() < 0 ||
            static_cast<size_t>(call->destination_instruction()) >= count) {
          return Status::Error(
              ErrorCode::kOutOfRange,
              "jump destination %lld out of range: the chain has %lld instructions",
              Lld(call->destination_instruction()), Lld(count));
        }
        out.destination = static_cast<uint32_t>(call->destination_instruction());
        break;
      }
      case fb::InstructionArguments::FreeCall: {
        const fb::FreeCall* call = instruction->instr_args_as_FreeCall();
        out.kind = Instruction::Kind::kFree;
        ESDK_RETURN_IF_ERROR(internal::ValueAt(values_, call->value_index(), &out.from));
        if (!out.from->IsTensor()) {
          return Status::Error(ErrorCode::kInvalidProgram,
                               "free of value %lld, which is not a tensor",
                               Lld(call->value_index()));
        }
        break;
      }
      default:
        return Status::Error(ErrorCode::kInvalidProgram,
                             "instruction %lld has type %lld, which this runtime does not support",
                             Lld(pc), Lld(instruction->instr_args_type()));
    }
  }
  instructions_ = {instructions, count};
  return Status::Ok();
}

const char* Method::InstructionName(size_t pc) const {
  if (pc >= instructions_.size()) return "?";
  switch (instructions_[pc].kind) {
    case Instruction::Kind::kKernel:
      return instructions_[pc].name;
    case Instruction::Kind::kDelegate:
      return "delegate";
    case Instruction::Kind::kMove:
      return "move";
    case Instruction::Kind::kJumpFalse:
      return "jump_false";
    case Instruction::Kind::kFree:
      return "free";
  }
  return "?";
}

void Method::ShowInMemoryOrder(Span<Value* const> args, MemoryOrderView* view) {
  size_t k = 0;
  ForEachTensorPointer(args, [&](Tensor* t) {
    SavedLayout& saved = view->saved[k++];
    std::memcpy(saved.sizes, t->sizes, sizeof(saved.sizes));
    std::memcpy(saved.dim_order, t->dim_order, sizeof(saved.dim_order));
    saved.tensor = t;
    for (size_t earlier = 0; earlier + 1 < k; ++earlier) {
      if (view->saved[earlier].tensor == t) {  // the same tensor twice: shown once
        saved.tensor = nullptr;
        return;
      }
    }
    if (t->rank != view->rank) return;  // one element of lower rank: as it is
    for (int32_t d = 0; d < view->rank; ++d) {
      t->sizes[d] = saved.sizes[view->order[d]];
      t->dim_order[d] = static_cast<uint8_t>(d);
    }
  });
}

void Method::RestoreLayouts(Span<Value* const> args, const MemoryOrderView& view) {
  (void)args;
  for (const SavedLayout& saved : view.saved) {
    if (saved.tensor == nullptr) continue;
    std::memcpy(saved.tensor->sizes, saved.sizes, sizeof(saved.sizes));
    std::memcpy(saved.tensor->dim_order, saved.dim_order, sizeof(saved.dim_order));
  }
}

}  // namespace ethosu_sdk::runtime
