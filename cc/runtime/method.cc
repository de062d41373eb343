#include "cc/runtime/method.h"

#include <cstring>

#include "cc/runtime/flatbuffer_util.h"
#include "cc/runtime/mutable_state.h"
#include "schema/program_generated.h"

namespace ethosu_sdk::runtime {
namespace {

namespace fb = ::executorch_flatbuffer;
using IndexVector = flatbuffers::Vector<int32_t>;

// Largest tensor the runtime accepts, in bytes: keeps every later product of
// sizes far from overflow on 32-bit targets.
constexpr size_t kMaxTensorBytes = size_t{1} << 30;

const fb::ExecutionPlan* Plan(const void* plan) {
  return static_cast<const fb::ExecutionPlan*>(plan);
}

Status OutOfMemory(const char* what, size_t count) {
  return Status::Error(
      ErrorCode::kOutOfMemory,
      "runtime arena too small: no room for %s %lld; give Method::Load a larger one", what,
      static_cast<long long>(count));
}

size_t VectorSize(const IndexVector* v) { return v == nullptr ? 0 : v->size(); }

// Shape, dtype and layout of a serialized tensor; data placement is separate.
Status LoadTensorShape(const fb::Tensor* t, Tensor* out) {
  const size_t element_size = ScalarTypeSize(static_cast<int32_t>(t->scalar_type()));
  if (element_size == 0) {
    return Status::Error(ErrorCode::kNotSupported,
                         "tensor dtype %lld is not one this runtime supports",
                         static_cast<long long>(t->scalar_type()));
  }
  out->dtype = static_cast<ScalarType>(t->scalar_type());
  const auto* sizes = t->sizes();
  const uint32_t rank = sizes ? sizes->size() : 0;
  if (rank > static_cast<uint32_t>(kMaxRank)) {
    return Status::Error(ErrorCode::kNotSupported,
                         "tensor rank %lld above the runtime's limit of %lld",
                         static_cast<long long>(rank), static_cast<long long>(kMaxRank));
  }
  out->rank = static_cast<int32_t>(rank);
  size_t numel = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    const int32_t size = sizes->Get(d);
    if (size < 0) {
      return Status::Error(ErrorCode::kInvalidProgram, "tensor size %lld is negative",
                           static_cast<long long>(size));
    }
    out->sizes[d] = size;
    if (size != 0 && numel > kMaxTensorBytes / static_cast<size_t>(size)) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "tensor too large: dimension %lld of size %lld takes it past %lld bytes",
                           static_cast<long long>(d), static_cast<long long>(size),
                           static_cast<long long>(kMaxTensorBytes));
    }
    numel *= static_cast<size_t>(size);
  }
  if (numel > kMaxTensorBytes / element_size) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "tensor too large: %lld elements take more than %lld bytes",
                         static_cast<long long>(numel), static_cast<long long>(kMaxTensorBytes));
  }
  out->numel = numel;
  out->nbytes = numel * element_size;
  if (const auto* dim_order = t->dim_order()) {
    if (dim_order->size() != rank) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "dim order of length %lld for a tensor of rank %lld",
                           static_cast<long long>(dim_order->size()), static_cast<long long>(rank));
    }
    // Any permutation of 0..rank-1: each dimension exactly once.
    uint32_t seen = 0;
    for (uint32_t d = 0; d < rank; ++d) {
      const uint32_t dim = dim_order->Get(d);
      if (dim >= rank || (seen & (1u << dim)) != 0) {
        return Status::Error(ErrorCode::kInvalidProgram,
                             "dim order is not a permutation of the dimensions: entry %lld is "
                             "%lld, out of range or repeated",
                             static_cast<long long>(d), static_cast<long long>(dim));
      }
      seen |= 1u << dim;
      out->dim_order[d] = static_cast<uint8_t>(dim);
    }
  }
  if (t->storage_offset() != 0) {
    return Status::Error(ErrorCode::kNotSupported,
                         "tensor storage offset %lld: only offset 0 is supported",
                         static_cast<long long>(t->storage_offset()));
  }
  if (t->shape_dynamism() == fb::TensorShapeDynamism::DYNAMIC_UNBOUND) {
    return Status::Error(ErrorCode::kNotSupported, "tensor with unbounded dynamic shape");
  }
  if (t->extra_tensor_info() != nullptr &&
      t->extra_tensor_info()->location() == fb::TensorDataLocation::EXTERNAL) {
    return Status::Error(ErrorCode::kNotSupported, "tensor data outside the .pte");
  }
  return Status::Ok();
}

// Points the tensor at planned memory, constant data, or nothing (inputs
// that the caller provides are planned too; anything else stays null).
Status PlaceTensor(const fb::Tensor* t, const Program& program, const fb::ExecutionPlan* plan,
                   const MethodMemory& memory, Tensor* out) {
  const fb::AllocationDetails* allocation = t->allocation_info();
  if (allocation != nullptr) {
    const auto* buffer_sizes = plan->non_const_buffer_sizes();
    const uint32_t id = allocation->memory_id();
    const uint32_t buffer_count = buffer_sizes ? buffer_sizes->size() : 0;
    if (id == 0 || id >= buffer_count) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "memory id %lld out of range: the method plans memory ids 1 to %lld",
                           static_cast<long long>(id),
                           static_cast<long long>(buffer_count == 0 ? 0 : buffer_count - 1));
    }
    if (id - 1 >= memory.planned.size()) {
      return Status::Error(ErrorCode::kOutOfMemory,
                           "no arena for memory id %lld: the caller gave %lld planned arenas",
                           static_cast<long long>(id),
                           static_cast<long long>(memory.planned.size()));
    }
    const uint64_t offset = static_cast<uint64_t>(allocation->memory_offset_high()) << 32 |
                            allocation->memory_offset_low();
    const int64_t planned_size = internal::VectorElement(buffer_sizes, id);
    if (planned_size < 0 || offset > static_cast<uint64_t>(planned_size) ||
        out->nbytes > static_cast<uint64_t>(planned_size) - offset) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "tensor past its planned buffer: %lld bytes at offset %lld of memory id "
                           "%lld, which has %lld",
                           static_cast<long long>(out->nbytes), static_cast<long long>(offset),
                           static_cast<long long>(id), static_cast<long long>(planned_size));
    }
    const Span<uint8_t>& arena = memory.planned[id - 1];
    if (offset + out->nbytes > arena.size()) {
      return Status::Error(
          ErrorCode::kOutOfMemory,
          "planned arena %lld too small for a tensor: it needs %lld bytes, the arena has %lld",
          static_cast<long long>(id), static_cast<long long>(offset + out->nbytes),
          static_cast<long long>(arena.size()));
    }
    out->data = arena.data() + offset;
    // A mutable buffer with an initial state: copied in once, at load.
    if (t->data_buffer_idx() != 0) ESDK_RETURN_IF_ERROR(LoadInitialState(program, t, *out));
  } else if (t->data_buffer_idx() != 0) {
    ESDK_ASSIGN_OR_RETURN(const void* data,
                          program.ConstantData(t->data_buffer_idx(), out->nbytes));
    // Kernels only read constants; the const is restored by their signatures.
    out->data = const_cast<void*>(data);
  }
  if (out->data != nullptr && reinterpret_cast<uintptr_t>(out->data) % out->ElementSize() != 0) {
    return Status::Error(
        ErrorCode::kInvalidProgram,
        "tensor data misaligned: address %% 16 is %lld, elements need %lld-byte alignment",
        static_cast<long long>(reinterpret_cast<uintptr_t>(out->data) % 16),
        static_cast<long long>(out->ElementSize()));
  }
  return Status::Ok();
}

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

// A kernel sees its tensors' data as laid out in the default dim order,
// unless it is marked `any_dim_order` (elementwise, broadcasting included)
// and all of them have one rank and their data lies in one dim order, as
// ExecuTorch's portable kernels ask (tensors_have_same_dim_order); a tensor
// of one element may have any rank up to theirs. Such a
// call is shown its tensors in memory order (`call->view`): sizes listed in
// that dim order, the default dim order, which gives the same elementwise
// result over the same bytes.
Status CheckDimOrders(const KernelEntry& kernel, Span<Value* const> args, CallOrder* call) {
  if (kernel.kernel_dim_order) return Status::Ok();
  const Tensor* first_other = nullptr;  // the first tensor laid out otherwise
  ESDK_RETURN_IF_ERROR(ForEachTensor(args, [&](const Tensor& t) {
    if (first_other == nullptr && !t.HasDefaultLayout()) first_other = &t;
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
  call->rank = first_other->rank;
  std::memcpy(call->order, first_other->dim_order, sizeof(call->order));
  ESDK_RETURN_IF_ERROR(ForEachTensor(args, [&](const Tensor& t) {
    ++call->tensors;
    if (t.rank == call->rank && LaysOutAs(t, call->order)) return Status::Ok();
    // One element (a scalar as a tensor) broadcasts alike in every layout.
    if (t.numel == 1 && t.rank <= call->rank) return Status::Ok();
    char other_order[4 * kMaxRank + 3], sizes[12 * kMaxRank + 3], other_sizes[12 * kMaxRank + 3];
    FormatDimOrder(t, other_order, sizeof(other_order));
    FormatSizes(*first_other, sizes, sizeof(sizes));
    FormatSizes(t, other_sizes, sizeof(other_sizes));
    return Status::Error(ErrorCode::kNotSupported,
                         "operator %s: tensors %s in dim order %s and %s in %s; this kernel takes "
                         "tensors of one rank and one dim order",
                         kernel.name, sizes, order, other_sizes, other_order);
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

}  // namespace

const char* ValueTagName(Value::Tag tag) {
  switch (tag) {
    case Value::Tag::kNone:
      return "None";
    case Value::Tag::kInt:
      return "Int";
    case Value::Tag::kDouble:
      return "Double";
    case Value::Tag::kBool:
      return "Bool";
    case Value::Tag::kTensor:
      return "Tensor";
    case Value::Tag::kString:
      return "String";
    case Value::Tag::kIntList:
      return "IntList";
    case Value::Tag::kDoubleList:
      return "DoubleList";
    case Value::Tag::kBoolList:
      return "BoolList";
    case Value::Tag::kTensorList:
      return "TensorList";
    case Value::Tag::kOptionalTensorList:
      return "OptionalTensorList";
  }
  return "?";
}

Status Method::PlannedBufferSizes(const Program& program, const char* name, size_t* sizes,
                                  size_t capacity, size_t* count) {
  ESDK_ASSIGN_OR_RETURN(const fb::ExecutionPlan* plan, program.FindMethod(name));
  const auto* buffer_sizes = plan->non_const_buffer_sizes();
  const size_t n =
      buffer_sizes == nullptr || buffer_sizes->size() == 0 ? 0 : buffer_sizes->size() - 1;
  if (n > capacity) {
    return Status::Error(
        ErrorCode::kOutOfMemory,
        "the method plans %lld buffers, more than the %lld the caller has room for",
        static_cast<long long>(n), static_cast<long long>(capacity));
  }
  for (size_t i = 0; i < n; ++i) {
    const int64_t size = internal::VectorElement(buffer_sizes, static_cast<uint32_t>(i + 1));
    if (size < 0 || static_cast<uint64_t>(size) > SIZE_MAX) {
      return Status::Error(
          ErrorCode::kOutOfRange,
          "planned buffer %lld has size %lld: negative or too large for this target",
          static_cast<long long>(i + 1), static_cast<long long>(size));
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

  // The caller's planned arenas must cover what the plan asks for.
  const auto* buffer_sizes = plan->non_const_buffer_sizes();
  const uint32_t buffer_count = buffer_sizes ? buffer_sizes->size() : 0;
  for (uint32_t id = 1; id < buffer_count; ++id) {
    const int64_t needed = internal::VectorElement(buffer_sizes, id);
    if (needed < 0) {
      return Status::Error(ErrorCode::kInvalidProgram, "planned buffer %lld has negative size %lld",
                           static_cast<long long>(id), static_cast<long long>(needed));
    }
    if (id - 1 >= memory.planned.size()) {
      return Status::Error(
          ErrorCode::kOutOfMemory,
          "planned arena missing for memory id %lld: the caller gave %lld planned arenas",
          static_cast<long long>(id), static_cast<long long>(memory.planned.size()));
    }
    if (static_cast<uint64_t>(needed) > memory.planned[id - 1].size()) {
      return Status::Error(ErrorCode::kOutOfMemory,
                           "planned arena too small for memory id %lld: the method needs %lld "
                           "bytes, the caller gave %lld",
                           static_cast<long long>(id), static_cast<long long>(needed),
                           static_cast<long long>(memory.planned[id - 1].size()));
    }
  }

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

Status Method::LoadValues(const Program& program, const void* plan_ptr,
                          const MethodMemory& memory) {
  const fb::ExecutionPlan* plan = Plan(plan_ptr);
  Arena* arena = memory.runtime;
  const auto* values = plan->values();
  const size_t count = values ? values->size() : 0;
  Value* resolved = arena->New<Value>(count);
  if (resolved == nullptr && count > 0) return OutOfMemory("the value table of size", count);
  values_ = {resolved, count};

  // Pass 1: scalars, strings and tensors, which lists refer to by index.
  for (uint32_t i = 0; i < count; ++i) {
    const fb::EValue* value = values->Get(i);
    Value& v = resolved[i];
    // The Verifier accepts a union whose type is set but whose table is
    // absent; every val_as_*() below relies on this check.
    if (value->val_type() != fb::KernelTypes::NONE && value->val() == nullptr) {
      return Status::Error(ErrorCode::kInvalidProgram, "value %lld has no contents in the .pte",
                           static_cast<long long>(i));
    }
    switch (value->val_type()) {
      case fb::KernelTypes::NONE:
      case fb::KernelTypes::Null:
        v.tag = Value::Tag::kNone;
        break;
      case fb::KernelTypes::Int:
        v.tag = Value::Tag::kInt;
        v.i = value->val_as_Int()->int_val();
        break;
      case fb::KernelTypes::Bool:
        v.tag = Value::Tag::kBool;
        v.b = value->val_as_Bool()->bool_val();
        break;
      case fb::KernelTypes::Double:
        v.tag = Value::Tag::kDouble;
        v.d = value->val_as_Double()->double_val();
        break;
      case fb::KernelTypes::String: {
        const auto* s = value->val_as_String()->string_val();
        v.tag = Value::Tag::kString;
        v.string = {s ? s->c_str() : "", s ? s->size() : 0};
        break;
      }
      case fb::KernelTypes::Tensor: {
        Tensor* tensor = arena->New<Tensor>(1);
        if (tensor == nullptr) return OutOfMemory("the tensor of value", i);
        const fb::Tensor* t = value->val_as_Tensor();
        Status status = LoadTensorShape(t, tensor);
        if (status.ok()) status = PlaceTensor(t, program, plan, memory, tensor);
        if (!status.ok()) return status;
        v.tag = Value::Tag::kTensor;
        v.tensor = tensor;
        break;
      }
      case fb::KernelTypes::IntList:
      case fb::KernelTypes::DoubleList:
      case fb::KernelTypes::BoolList:
      case fb::KernelTypes::TensorList:
      case fb::KernelTypes::OptionalTensorList:
        break;  // pass 2
      default:
        return Status::Error(ErrorCode::kNotSupported,
                             "value %lld has type %lld, which this runtime does not support",
                             static_cast<long long>(i), static_cast<long long>(value->val_type()));
    }
  }

  // Pass 2: lists, resolved into arrays in the arena.
  for (uint32_t i = 0; i < count; ++i) {
    const fb::EValue* value = values->Get(i);
    Value& v = resolved[i];
    switch (value->val_type()) {
      case fb::KernelTypes::IntList: {
        const auto* items = value->val_as_IntList()->items();
        const size_t n = items ? items->size() : 0;
        int64_t* ints = arena->New<int64_t>(n);
        if (ints == nullptr && n > 0) return OutOfMemory("an int list of length", n);
        for (uint32_t k = 0; k < n; ++k) {
          // Items are indices of Int values (ExecuTorch's symbolic-int layout).
          const int64_t index = internal::VectorElement(items, k);
          if (index < 0 || static_cast<uint64_t>(index) >= count) {
            return Status::Error(
                ErrorCode::kOutOfRange,
                "int list item is value %lld, out of range: the method has %lld values",
                static_cast<long long>(index), static_cast<long long>(count));
          }
          if (resolved[index].tag != Value::Tag::kInt) {
            return Status::Error(ErrorCode::kInvalidProgram,
                                 "int list item value %lld is not an Int",
                                 static_cast<long long>(index));
          }
          ints[k] = resolved[index].i;
        }
        v.tag = Value::Tag::kIntList;
        v.int_list = {ints, n};
        break;
      }
      case fb::KernelTypes::DoubleList: {
        const auto* items = value->val_as_DoubleList()->items();
        const size_t n = items ? items->size() : 0;
        double* doubles = arena->New<double>(n);
        if (doubles == nullptr && n > 0) return OutOfMemory("a double list of length", n);
        for (uint32_t k = 0; k < n; ++k) doubles[k] = internal::VectorElement(items, k);
        v.tag = Value::Tag::kDoubleList;
        v.double_list = {doubles, n};
        break;
      }
      case fb::KernelTypes::BoolList: {
        const auto* items = value->val_as_BoolList()->items();
        const size_t n = items ? items->size() : 0;
        bool* bools = arena->New<bool>(n);
        if (bools == nullptr && n > 0) return OutOfMemory("a bool list of length", n);
        for (uint32_t k = 0; k < n; ++k) bools[k] = items->Get(k) != 0;
        v.tag = Value::Tag::kBoolList;
        v.bool_list = {bools, n};
        break;
      }
      case fb::KernelTypes::TensorList:
      case fb::KernelTypes::OptionalTensorList: {
        const bool optional = value->val_type() == fb::KernelTypes::OptionalTensorList;
        const IndexVector* items = optional ? value->val_as_OptionalTensorList()->items()
                                            : value->val_as_TensorList()->items();
        const size_t n = VectorSize(items);
        Tensor** tensors = arena->New<Tensor*>(n);
        if (tensors == nullptr && n > 0) return OutOfMemory("a tensor list of length", n);
        for (uint32_t k = 0; k < n; ++k) {
          const int32_t index = items->Get(k);
          if (optional && index == -1) continue;  // None
          if (index < 0 || static_cast<size_t>(index) >= count) {
            return Status::Error(
                ErrorCode::kOutOfRange,
                "tensor list item is value %lld, out of range: the method has %lld values",
                static_cast<long long>(index), static_cast<long long>(count));
          }
          if (resolved[index].tag == Value::Tag::kTensor) {
            tensors[k] = resolved[index].tensor;
          } else if (!(optional && resolved[index].tag == Value::Tag::kNone)) {
            return Status::Error(ErrorCode::kInvalidProgram,
                                 "tensor list item value %lld is not a Tensor",
                                 static_cast<long long>(index));
          }
        }
        v.tag = optional ? Value::Tag::kOptionalTensorList : Value::Tag::kTensorList;
        v.tensor_list = {tensors, n};
        break;
      }
      default:
        break;
    }
  }
  return Status::Ok();
}

Status Method::ResolveIndexList(const void* list_ptr, Arena* arena, Span<Value*>* out) {
  const IndexVector* list = static_cast<const IndexVector*>(list_ptr);
  const size_t n = VectorSize(list);
  Value** resolved = arena->New<Value*>(n);
  if (resolved == nullptr && n > 0) return OutOfMemory("a value index list of length", n);
  for (uint32_t k = 0; k < n; ++k) {
    const int32_t index = list->Get(k);
    if (index < 0 || static_cast<size_t>(index) >= values_.size()) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "value index %lld out of range: the method has %lld values",
                           static_cast<long long>(index), static_cast<long long>(values_.size()));
    }
    resolved[k] = &values_[static_cast<size_t>(index)];
  }
  *out = {resolved, n};
  return Status::Ok();
}

Status Method::ResolveArgs(const void* list_ptr, Arena* arena, Span<Value* const>* out) {
  Span<Value*> resolved;
  ESDK_RETURN_IF_ERROR(ResolveIndexList(list_ptr, arena, &resolved));
  *out = {resolved.data(), resolved.size()};
  return Status::Ok();
}

Status Method::LoadDelegates(const Program& program, const void* plan_ptr,
                             const Registries& registries, Arena* arena) {
  const auto* delegates = Plan(plan_ptr)->delegates();
  const size_t count = delegates ? delegates->size() : 0;
  Delegate* resolved = arena->New<Delegate>(count);
  if (resolved == nullptr && count > 0) return OutOfMemory("the delegate table of size", count);
  for (uint32_t i = 0; i < count; ++i) {
    const fb::BackendDelegate* delegate = delegates->Get(i);
    const auto* id = delegate->id();
    if (id == nullptr) {
      return Status::Error(ErrorCode::kInvalidProgram, "delegate %lld has no backend id",
                           static_cast<long long>(i));
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

Status Method::LoadInstructions(const void* plan_ptr, const Registries& registries, Arena* arena) {
  const fb::ExecutionPlan* plan = Plan(plan_ptr);
  const auto* chains = plan->chains();
  const size_t chain_count = chains ? chains->size() : 0;
  if (chain_count > 1) {
    return Status::Error(ErrorCode::kNotSupported,
                         "the method has %lld instruction chains; this runtime runs one",
                         static_cast<long long>(chain_count));
  }
  const auto* list = chain_count == 1 ? chains->Get(0)->instructions() : nullptr;
  const size_t count = list ? list->size() : 0;
  Instruction* instructions = arena->New<Instruction>(count);
  if (instructions == nullptr && count > 0)
    return OutOfMemory("the instruction table of size", count);
  const auto* operators = plan->operators();
  const uint32_t operator_count = operators ? operators->size() : 0;

  auto value_at = [this](int32_t index, Value** out) -> Status {
    if (index < 0 || static_cast<size_t>(index) >= values_.size()) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "value index %lld out of range: the method has %lld values",
                           static_cast<long long>(index), static_cast<long long>(values_.size()));
    }
    *out = &values_[static_cast<size_t>(index)];
    return Status::Ok();
  };

  for (uint32_t pc = 0; pc < count; ++pc) {
    const fb::Instruction* instruction = list->Get(pc);
    Instruction& out = instructions[pc];
    if (instruction->instr_args() == nullptr) {
      return Status::Error(ErrorCode::kInvalidProgram, "instruction %lld has no arguments",
                           static_cast<long long>(pc));
    }
    switch (instruction->instr_args_type()) {
      case fb::InstructionArguments::KernelCall: {
        const fb::KernelCall* call = instruction->instr_args_as_KernelCall();
        if (call->op_index() < 0 || static_cast<uint32_t>(call->op_index()) >= operator_count) {
          return Status::Error(ErrorCode::kOutOfRange,
                               "operator index %lld out of range: the method has %lld operators",
                               static_cast<long long>(call->op_index()),
                               static_cast<long long>(operator_count));
        }
        const fb::Operator* op = operators->Get(static_cast<uint32_t>(call->op_index()));
        const auto* name = op->name();
        const auto* overload = op->overload();
        if (name == nullptr)
          return Status::Error(ErrorCode::kInvalidProgram, "operator without name");
        out.kind = Instruction::Kind::kKernel;
        const KernelEntry* kernel = registries.operators.Find(name->c_str(), name->size(),
                                                              overload ? overload->c_str() : "",
                                                              overload ? overload->size() : 0);
        if (kernel == nullptr) {
          return Status::Error(ErrorCode::kNotFound, "operator not registered: %.*s",
                               static_cast<int>(name->size()), name->c_str());
        }
        out.kernel = kernel->fn;
        out.name = kernel->name;
        ESDK_RETURN_IF_ERROR(ResolveArgs(call->args(), arena, &out.args));
        CallOrder call_order;
        ESDK_RETURN_IF_ERROR(CheckDimOrders(*kernel, out.args, &call_order));
        if (call_order.view) {
          out.view = arena->New<MemoryOrderView>(1);
          SavedLayout* saved = arena->New<SavedLayout>(call_order.tensors);
          if (out.view == nullptr || saved == nullptr) {
            return OutOfMemory("a memory-order view of tensors", call_order.tensors);
          }
          out.view->rank = call_order.rank;
          std::memcpy(out.view->order, call_order.order, sizeof(out.view->order));
          out.view->saved = Span<SavedLayout>(saved, call_order.tensors);
        }
        break;
      }
      case fb::InstructionArguments::DelegateCall: {
        const fb::DelegateCall* call = instruction->instr_args_as_DelegateCall();
        if (call->delegate_index() < 0 ||
            static_cast<size_t>(call->delegate_index()) >= delegates_.size()) {
          return Status::Error(ErrorCode::kOutOfRange,
                               "delegate index %lld out of range: the method has %lld delegates",
                               static_cast<long long>(call->delegate_index()),
                               static_cast<long long>(delegates_.size()));
        }
        out.kind = Instruction::Kind::kDelegate;
        out.delegate = static_cast<uint32_t>(call->delegate_index());
        ESDK_RETURN_IF_ERROR(ResolveArgs(call->args(), arena, &out.args));
        break;
      }
      case fb::InstructionArguments::MoveCall: {
        const fb::MoveCall* call = instruction->instr_args_as_MoveCall();
        out.kind = Instruction::Kind::kMove;
        ESDK_RETURN_IF_ERROR(value_at(call->move_from(), &out.from));
        ESDK_RETURN_IF_ERROR(value_at(call->move_to(), &out.to));
        break;
      }
      case fb::InstructionArguments::JumpFalseCall: {
        const fb::JumpFalseCall* call = instruction->instr_args_as_JumpFalseCall();
        out.kind = Instruction::Kind::kJumpFalse;
        ESDK_RETURN_IF_ERROR(value_at(call->cond_value_index(), &out.from));
        if (call->destination_instruction() < 0 ||
            static_cast<size_t>(call->destination_instruction()) >= count) {
          return Status::Error(
              ErrorCode::kOutOfRange,
              "jump destination %lld out of range: the chain has %lld instructions",
              static_cast<long long>(call->destination_instruction()),
              static_cast<long long>(count));
        }
        out.destination = static_cast<uint32_t>(call->destination_instruction());
        break;
      }
      case fb::InstructionArguments::FreeCall: {
        const fb::FreeCall* call = instruction->instr_args_as_FreeCall();
        out.kind = Instruction::Kind::kFree;
        ESDK_RETURN_IF_ERROR(value_at(call->value_index(), &out.from));
        if (!out.from->IsTensor()) {
          return Status::Error(ErrorCode::kInvalidProgram,
                               "free of value %lld, which is not a tensor",
                               static_cast<long long>(call->value_index()));
        }
        break;
      }
      default:
        return Status::Error(ErrorCode::kInvalidProgram,
                             "instruction %lld has type %lld, which this runtime does not support",
                             static_cast<long long>(pc),
                             static_cast<long long>(instruction->instr_args_type()));
    }
  }
  instructions_ = {instructions, count};
  return Status::Ok();
}

Status Method::SetInput(size_t i, const void* data, size_t nbytes) {
  if (i >= inputs_.size()) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "input index %lld out of range: the method has %lld inputs",
                         static_cast<long long>(i), static_cast<long long>(inputs_.size()));
  }
  const Value& value = *inputs_[i];
  if (!value.IsTensor()) {
    return Status::Error(ErrorCode::kNotSupported, "input %lld is not a tensor",
                         static_cast<long long>(i));
  }
  Tensor& tensor = *value.tensor;
  if (nbytes != tensor.nbytes) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "input size %lld bytes given, the tensor has %lld",
                         static_cast<long long>(nbytes), static_cast<long long>(tensor.nbytes));
  }
  if (tensor.data == nullptr) {
    return Status::Error(ErrorCode::kNotSupported,
                         "input %lld is not memory-planned: nothing to copy it into",
                         static_cast<long long>(i));
  }
  if (nbytes > 0) std::memmove(tensor.data, data, nbytes);
  return Status::Ok();
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

Status Method::Execute() {
  failed_instruction_ = -1;
  uint64_t steps = 0;
  size_t pc = 0;
  while (pc < instructions_.size()) {
    if (++steps > budget_) {
      failed_instruction_ = static_cast<int64_t>(pc);
      return Status::Error(ErrorCode::kInvalidProgram,
                           "instruction budget of %lld exhausted: a jump loop?",
                           static_cast<long long>(budget_));
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
