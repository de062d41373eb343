#include "cc/runtime/method.h"

#include <cstring>

#include "cc/core/format.h"
#include "cc/runtime/flatbuffer_util.h"
#include "cc/runtime/method_load.h"

namespace ethosu_sdk::runtime {
namespace {

namespace fb = internal::fb;
using internal::OutOfMemory;

// The caller's planned arenas must cover what the plan asks for.
Status CheckPlannedArenas(const fb::ExecutionPlan* plan, const MethodMemory& memory) {
  const auto* buffer_sizes = plan->non_const_buffer_sizes();
  const uint32_t buffer_count = buffer_sizes ? buffer_sizes->size() : 0;
  for (uint32_t id = 1; id < buffer_count; ++id) {
    const int64_t needed = internal::VectorElement(buffer_sizes, id);
    if (needed < 0) {
      return Status::Error(ErrorCode::kInvalidProgram, "planned buffer %lld has negative size %lld",
                           Lld(id), Lld(needed));
    }
    if (id - 1 >= memory.planned.size()) {
      return Status::Error(
          ErrorCode::kOutOfMemory,
          "planned arena missing for memory id %lld: the caller gave %lld planned arenas", Lld(id),
          Lld(memory.planned.size()));
    }
    if (static_cast<uint64_t>(needed) > memory.planned[id - 1].size()) {
      return Status::Error(ErrorCode::kOutOfMemory,
                           "planned arena too small for memory id %lld: the method needs %lld "
                           "bytes, the caller gave %lld",
                           Lld(id), Lld(needed), Lld(memory.planned[id - 1].size()));
    }
  }
  return Status::Ok();
}

}  // namespace

Status Method::PlannedBufferSizes(const Program& program, const char* name, size_t* sizes,
                                  size_t capacity, size_t* count) {
  ESDK_ASSIGN_OR_RETURN(const fb::ExecutionPlan* plan, program.FindMethod(name));
  const auto* buffer_sizes = plan->non_const_buffer_sizes();
  const size_t n =
      buffer_sizes == nullptr || buffer_sizes->size() == 0 ? 0 : buffer_sizes->size() - 1;
  if (n > capacity) {
    return Status::Error(
        ErrorCode::kOutOfMemory,
        "the method plans %lld buffers, more than the %lld the caller has room for", Lld(n),
        Lld(capacity));
  }
  for (size_t i = 0; i < n; ++i) {
    const int64_t size = internal::VectorElement(buffer_sizes, static_cast<uint32_t>(i + 1));
    if (size < 0 || static_cast<uint64_t>(size) > SIZE_MAX) {
      return Status::Error(
          ErrorCode::kOutOfRange,
          "planned buffer %lld has size %lld: negative or too large for this target", Lld(i + 1),
          Lld(size));
    }
    sizes[i] = static_cast<size_t>(size);
  }
  *count = n;
  return Status::Ok();
}

Result<Method> Method::Load(const Program& program, const char* name, const Registries& registries,
                            const MethodMemory& memory) {
  if (memory.runtime == nullptr) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "Method::Load without a runtime arena (MethodMemory.runtime is null)");
  }
  ESDK_ASSIGN_OR_RETURN(const fb::ExecutionPlan* plan, program.FindMethod(name));
  ESDK_RETURN_IF_ERROR(CheckPlannedArenas(plan, memory));

  Method method;
  ESDK_RETURN_IF_ERROR(method.LoadValues(program, plan, memory));
  ESDK_RETURN_IF_ERROR(method.LoadDelegates(program, plan, registries, memory.runtime));
  ESDK_RETURN_IF_ERROR(method.LoadInstructions(plan, registries, memory.runtime));
  Span<Value*> inputs;
  ESDK_RETURN_IF_ERROR(method.ResolveIndexList(plan->inputs(), memory.runtime, &inputs));
  Span<Value*> outputs;
  ESDK_RETURN_IF_ERROR(method.ResolveIndexList(plan->outputs(), memory.runtime, &outputs));
  method.inputs_ = inputs;
  method.outputs_ = outputs;
  return method;
}

Status Method::LoadDelegates(const Program& program, const void* plan_ptr,
                             const Registries& registries, Arena* arena) {
  const auto* delegates = internal::Plan(plan_ptr)->delegates();
  const size_t count = delegates ? delegates->size() : 0;
  Delegate* resolved = arena->New<Delegate>(count);
  if (resolved == nullptr && count > 0) return OutOfMemory("the delegate table of size", count);
  for (uint32_t i = 0; i < count; ++i) {
    const fb::BackendDelegate* delegate = delegates->Get(i);
    const auto* id = delegate->id();
    if (id == nullptr) {
      return Status::Error(ErrorCode::kInvalidProgram, "delegate %lld has no backend id", Lld(i));
    }
    Backend* backend = registries.backends.Find(id->c_str(), id->size());
    if (backend == nullptr) {
      return Status::Error(ErrorCode::kNotFound, "backend not registered: %.*s",
                           static_cast<int>(id->size()), id->c_str());
    }
    DelegateInit init{};
    ESDK_ASSIGN_OR_RETURN(init.processed, program.DelegateData(delegate->processed()));
    const auto* specs = delegate->compile_specs();
    const size_t spec_count = specs ? specs->size() : 0;
    CompileSpec* compile_specs = arena->New<CompileSpec>(spec_count);
    if (compile_specs == nullptr && spec_count > 0) {
      return OutOfMemory("a compile spec list of length", spec_count);
    }
    for (uint32_t k = 0; k < spec_count; ++k) {
      const auto* key = specs->Get(k)->key();
      const auto* value = specs->Get(k)->value();
      compile_specs[k].key = {key ? key->c_str() : "", key ? key->size() : 0};
      compile_specs[k].value = {value ? value->data() : nullptr, value ? value->size() : 0};
    }
    init.compile_specs = {compile_specs, spec_count};
    init.arena = arena;
    resolved[i].backend = backend;
    resolved[i].handle = nullptr;
    ESDK_RETURN_IF_ERROR(backend->Init(init, &resolved[i].handle));
  }
  delegates_ = {resolved, count};
  return Status::Ok();
}

Status Method::SetInput(size_t i, const void* data, size_t nbytes) {
  if (i >= inputs_.size()) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "input index %lld out of range: the method has %lld inputs", Lld(i),
                         Lld(inputs_.size()));
  }
  const Value& value = *inputs_[i];
  if (!value.IsTensor()) {
    return Status::Error(ErrorCode::kNotSupported, "input %lld is not a tensor", Lld(i));
  }
  Tensor& tensor = *value.tensor;
  if (nbytes != tensor.nbytes) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "input size %lld bytes given, the tensor has %lld", Lld(nbytes),
                         Lld(tensor.nbytes));
  }
  if (tensor.data == nullptr) {
    return Status::Error(ErrorCode::kNotSupported,
                         "input %lld is not memory-planned: nothing to copy it into", Lld(i));
  }
  if (nbytes > 0) std::memmove(tensor.data, data, nbytes);
  return Status::Ok();
}

Status Method::Execute() {
  failed_instruction_ = -1;
  uint64_t steps = 0;
  size_t pc = 0;
  while (pc < instructions_.size()) {
    if (++steps > budget_) {
      failed_instruction_ = static_cast<int64_t>(pc);
      return Status::Error(ErrorCode::kInvalidProgram,
                           "instruction budget of %lld exhausted: a jump loop?", Lld(budget_));
    }
    const Instruction& instruction = instructions_[pc];
    Status status;
    size_t next = pc + 1;
    switch (instruction.kind) {
      case Instruction::Kind::kKernel:
        if (instruction.view != nullptr) {
          ShowInMemoryOrder(instruction.args, instruction.view);
          status = instruction.kernel(instruction.args);
          RestoreLayouts(instruction.args, *instruction.view);
        } else {
          status = instruction.kernel(instruction.args);
        }
        break;
      case Instruction::Kind::kDelegate: {
        const Delegate& delegate = delegates_[instruction.delegate];
        status = delegate.backend->Execute(delegate.handle, instruction.args);
        break;
      }
      case Instruction::Kind::kMove:
        *instruction.to = *instruction.from;
        break;
      case Instruction::Kind::kJumpFalse: {
        const Value& cond = *instruction.from;
        bool value = false;
        if (cond.tag == Value::Tag::kBool) {
          value = cond.b;
        } else if (cond.IsTensor() && cond.tensor->dtype == ScalarType::kBool &&
                   cond.tensor->numel == 1 && cond.tensor->data != nullptr) {
          value = *cond.tensor->Data<const uint8_t>() != 0;
        } else {
          status = Status::Error(ErrorCode::kInvalidProgram, "jump condition is not a bool");
        }
        if (status.ok() && !value) next = instruction.destination;
        break;
      }
      case Instruction::Kind::kFree:
        // Planned memory belongs to the caller's arenas: nothing to release.
        break;
    }
    if (hook_.after != nullptr) hook_.after(hook_.context, pc);
    if (!status.ok()) {
      failed_instruction_ = static_cast<int64_t>(pc);
      // A kernel's message says what it checked; the line names the
      // operator too, as the dim-order refusals at load do.
      if (instruction.kind == Instruction::Kind::kKernel) {
        return Status::Error(status.code(), "operator %s: %s", instruction.name, status.message());
      }
      return status;
    }
    pc = next;
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::runtime
