// Method's value table: every value of the plan resolved once at load,
// in two passes (scalars, strings and tensors first, then the lists that
// refer to them by index). Tensors are checked and placed in the caller's
// planned arenas or the program's constant data.
#include <cstdint>

#include "cc/core/format.h"
#include "cc/runtime/flatbuffer_util.h"
#include "cc/runtime/method.h"
#include "cc/runtime/method_load.h"
#include "cc/runtime/mutable_state.h"

namespace ethosu_sdk::runtime {
namespace internal {

Status OutOfMemory(const char* what, size_t count) {
  return Status::Error(
      ErrorCode::kOutOfMemory,
      "runtime arena too small: no room for %s %lld; give Method::Load a larger one", what,
      Lld(count));
}

Status ValueAt(Span<Value> values, int32_t index, Value** out) {
  if (index < 0 || static_cast<size_t>(index) >= values.size()) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "value index %lld out of range: the method has %lld values", Lld(index),
                         Lld(values.size()));
  }
  *out = &values[static_cast<size_t>(index)];
  return Status::Ok();
}

}  // namespace internal
namespace {

using internal::IndexVector;
using internal::OutOfMemory;
using internal::fb::EValue;
using internal::fb::KernelTypes;
namespace fb = internal::fb;

// Largest tensor the runtime accepts, in bytes: keeps every later product of
// sizes far from overflow on 32-bit targets.
constexpr size_t kMaxTensorBytes = size_t{1} << 30;

// Shape, dtype and layout of a serialized tensor; data placement is separate.
Status LoadTensorShape(const fb::Tensor* t, Tensor* out) {
  const size_t element_size = ScalarTypeSize(static_cast<int32_t>(t->scalar_type()));
  if (element_size == 0) {
    return Status::Error(ErrorCode::kNotSupported,
                         "tensor dtype %lld is not one this runtime supports",
                         Lld(t->scalar_type()));
  }
  out->dtype = static_cast<ScalarType>(t->scalar_type());
  const auto* sizes = t->sizes();
  const uint32_t rank = sizes ? sizes->size() : 0;
  if (rank > static_cast<uint32_t>(kMaxRank)) {
    return Status::Error(ErrorCode::kNotSupported,
                         "tensor rank %lld above the runtime's limit of %lld", Lld(rank),
                         Lld(kMaxRank));
  }
  out->rank = static_cast<int32_t>(rank);
  size_t numel = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    const int32_t size = sizes->Get(d);
    if (size < 0) {
      return Status::Error(ErrorCode::kInvalidProgram, "tensor size %lld is negative", Lld(size));
    }
    out->sizes[d] = size;
    if (size != 0 && numel > kMaxTensorBytes / static_cast<size_t>(size)) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "tensor too large: dimension %lld of size %lld takes it past %lld bytes",
                           Lld(d), Lld(size), Lld(kMaxTensorBytes));
    }
    numel *= static_cast<size_t>(size);
  }
  if (numel > kMaxTensorBytes / element_size) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "tensor too large: %lld elements take more than %lld bytes", Lld(numel),
                         Lld(kMaxTensorBytes));
  }
  out->numel = numel;
  out->nbytes = numel * element_size;
  if (const auto* dim_order = t->dim_order()) {
    if (dim_order->size() != rank) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "dim order of length %lld for a tensor of rank %lld",
                           Lld(dim_order->size()), Lld(rank));
    }
    // Any permutation of 0..rank-1: each dimension exactly once.
    uint32_t seen = 0;
    for (uint32_t d = 0; d < rank; ++d) {
      const uint32_t dim = dim_order->Get(d);
      if (dim >= rank || (seen & (1u << dim)) != 0) {
        return Status::Error(ErrorCode::kInvalidProgram,
                             "dim order is not a permutation of the dimensions: entry %lld is "
                             "%lld, out of range or repeated",
                             Lld(d), Lld(dim));
      }
      seen |= 1u << dim;
      out->dim_order[d] = static_cast<uint8_t>(dim);
    }
  }
  if (t->storage_offset() != 0) {
    return Status::Error(ErrorCode::kNotSupported,
                         "tensor storage offset %lld: only offset 0 is supported",
                         Lld(t->storage_offset()));
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
                           Lld(id), Lld(buffer_count == 0 ? 0 : buffer_count - 1));
    }
    if (id - 1 >= memory.planned.size()) {
      return Status::Error(ErrorCode::kOutOfMemory,
                           "no arena for memory id %lld: the caller gave %lld planned arenas",
                           Lld(id), Lld(memory.planned.size()));
    }
    const uint64_t offset = static_cast<uint64_t>(allocation->memory_offset_high()) << 32 |
                            allocation->memory_offset_low();
    const int64_t planned_size = internal::VectorElement(buffer_sizes, id);
    if (planned_size < 0 || offset > static_cast<uint64_t>(planned_size) ||
        out->nbytes > static_cast<uint64_t>(planned_size) - offset) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "tensor past its planned buffer: %lld bytes at offset %lld of memory id "
                           "%lld, which has %lld",
                           Lld(out->nbytes), Lld(offset), Lld(id), Lld(planned_size));
    }
    const Span<uint8_t>& arena = memory.planned[id - 1];
    if (offset + out->nbytes > arena.size()) {
      return Status::Error(
          ErrorCode::kOutOfMemory,
          "planned arena %lld too small for a tensor: it needs %lld bytes, the arena has %lld",
          Lld(id), Lld(offset + out->nbytes), Lld(arena.size()));
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
        Lld(reinterpret_cast<uintptr_t>(out->data) % 16), Lld(out->ElementSize()));
  }
  return Status::Ok();
}

// Pass 1 for value `i`: a scalar, a string or a tensor (lists wait for pass 2).
Status LoadScalarOrTensor(const EValue* value, uint32_t i, const Program& program,
                          const fb::ExecutionPlan* plan, const MethodMemory& memory, Value& v) {
  // The Verifier accepts a union whose type is set but whose table is
  // absent; every val_as_*() below relies on this check.
  if (value->val_type() != KernelTypes::NONE && value->val() == nullptr) {
    return Status::Error(ErrorCode::kInvalidProgram, "value %lld has no contents in the .pte",
                         Lld(i));
  }
  switch (value->val_type()) {
    case KernelTypes::NONE:
    case KernelTypes::Null:
      v.tag = Value::Tag::kNone;
      break;
    case KernelTypes::Int:
      v.tag = Value::Tag::kInt;
      v.i = value->val_as_Int()->int_val();
      break;
    case KernelTypes::Bool:
      v.tag = Value::Tag::kBool;
      v.b = value->val_as_Bool()->bool_val();
      break;
    case KernelTypes::Double:
      v.tag = Value::Tag::kDouble;
      v.d = value->val_as_Double()->double_val();
      break;
    case KernelTypes::String: {
      const auto* s = value->val_as_String()->string_val();
      v.tag = Value::Tag::kString;
      v.string = {s ? s->c_str() : "", s ? s->size() : 0};
      break;
    }
    case KernelTypes::Tensor: {
      Tensor* tensor = memory.runtime->New<Tensor>(1);
      if (tensor == nullptr) return OutOfMemory("the tensor of value", i);
      const fb::Tensor* t = value->val_as_Tensor();
      Status status = LoadTensorShape(t, tensor);
      if (status.ok()) status = PlaceTensor(t, program, plan, memory, tensor);
      if (!status.ok()) return status;
      v.tag = Value::Tag::kTensor;
      v.tensor = tensor;
      break;
    }
    case KernelTypes::IntList:
    case KernelTypes::DoubleList:
    case KernelTypes::BoolList:
    case KernelTypes::TensorList:
    case KernelTypes::OptionalTensorList:
      break;  // pass 2
    default:
      return Status::Error(ErrorCode::kNotSupported,
                           "value %lld has type %lld, which this runtime does not support", Lld(i),
                           Lld(value->val_type()));
  }
  return Status::Ok();
}

Status LoadIntList(const EValue* value, Span<Value> values, Arena* arena, Value& v) {
  const auto* items = value->val_as_IntList()->items();
  const size_t n = items ? items->size() : 0;
  int64_t* ints = arena->New<int64_t>(n);
  if (ints == nullptr && n > 0) return OutOfMemory("an int list of length", n);
  for (uint32_t k = 0; k < n; ++k) {
    // Items are indices of Int values (ExecuTorch's symbolic-int layout).
    const int64_t index = internal::VectorElement(items, k);
    if (index < 0 || static_cast<uint64_t>(index) >= values.size()) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "int list item is value %lld, out of range: the method has %lld values",
                           Lld(index), Lld(values.size()));
    }
    if (values[index].tag != Value::Tag::kInt) {
      return Status::Error(ErrorCode::kInvalidProgram, "int list item value %lld is not an Int",
                           Lld(index));
    }
    ints[k] = values[index].i;
  }
  v.tag = Value::Tag::kIntList;
  v.int_list = {ints, n};
  return Status::Ok();
}

Status LoadTensorList(const EValue* value, Span<Value> values, Arena* arena, Value& v) {
  const bool optional = value->val_type() == KernelTypes::OptionalTensorList;
  const IndexVector* items =
      optional ? value->val_as_OptionalTensorList()->items() : value->val_as_TensorList()->items();
  const size_t n = internal::VectorSize(items);
  Tensor** tensors = arena->New<Tensor*>(n);
  if (tensors == nullptr && n > 0) return OutOfMemory("a tensor list of length", n);
  for (uint32_t k = 0; k < n; ++k) {
    const int32_t index = items->Get(k);
    if (optional && index == -1) continue;  // None
    if (index < 0 || static_cast<size_t>(index) >= values.size()) {
      return Status::Error(
          ErrorCode::kOutOfRange,
          "tensor list item is value %lld, out of range: the method has %lld values", Lld(index),
          Lld(values.size()));
    }
    if (values[index].tag == Value::Tag::kTensor) {
      tensors[k] = values[index].tensor;
    } else if (!(optional && values[index].tag == Value::Tag::kNone)) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "tensor list item value %lld is not a Tensor", Lld(index));
    }
  }
  v.tag = optional ? Value::Tag::kOptionalTensorList : Value::Tag::kTensorList;
  v.tensor_list = {tensors, n};
  return Status::Ok();
}

// Pass 2 for one value: a list, resolved into an array in the arena.
Status LoadList(const EValue* value, Span<Value> values, Arena* arena, Value& v) {
  switch (value->val_type()) {
    case KernelTypes::IntList:
      return LoadIntList(value, values, arena, v);
    case KernelTypes::DoubleList: {
      const auto* items = value->val_as_DoubleList()->items();
      const size_t n = items ? items->size() : 0;
      double* doubles = arena->New<double>(n);
      if (doubles == nullptr && n > 0) return OutOfMemory("a double list of length", n);
      for (uint32_t k = 0; k < n; ++k) doubles[k] = internal::VectorElement(items, k);
      v.tag = Value::Tag::kDoubleList;
      v.double_list = {doubles, n};
      return Status::Ok();
    }
    case KernelTypes::BoolList: {
      const auto* items = value->val_as_BoolList()->items();
      const size_t n = items ? items->size() : 0;
      bool* bools = arena->New<bool>(n);
      if (bools == nullptr && n > 0) return OutOfMemory("a bool list of length", n);
      for (uint32_t k = 0; k < n; ++k) bools[k] = items->Get(k) != 0;
      v.tag = Value::Tag::kBoolList;
      v.bool_list = {bools, n};
      return Status::Ok();
    }
    case KernelTypes::TensorList:
    case KernelTypes::OptionalTensorList:
      return LoadTensorList(value, values, arena, v);
    default:
      return Status::Ok();
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

Status Method::LoadValues(const Program& program, const void* plan_ptr,
                          const MethodMemory& memory) {
  const fb::ExecutionPlan* plan = internal::Plan(plan_ptr);
  const auto* values = plan->values();
  const size_t count = values ? values->size() : 0;
  Value* resolved = memory.runtime->New<Value>(count);
  if (resolved == nullptr && count > 0) return OutOfMemory("the value table of size", count);
  values_ = {resolved, count};
  // Pass 1: scalars, strings and tensors, which lists refer to by index.
  for (uint32_t i = 0; i < count; ++i) {
    ESDK_RETURN_IF_ERROR(LoadScalarOrTensor(values->Get(i), i, program, plan, memory, resolved[i]));
  }
  // Pass 2: lists.
  for (uint32_t i = 0; i < count; ++i) {
    ESDK_RETURN_IF_ERROR(LoadList(values->Get(i), values_, memory.runtime, resolved[i]));
  }
  return Status::Ok();
}

Status Method::ResolveIndexList(const void* list_ptr, Arena* arena, Span<Value*>* out) {
  const auto* list = static_cast<const IndexVector*>(list_ptr);
  const size_t n = internal::VectorSize(list);
  Value** resolved = arena->New<Value*>(n);
  if (resolved == nullptr && n > 0) return OutOfMemory("a value index list of length", n);
  for (uint32_t k = 0; k < n; ++k) {
    ESDK_RETURN_IF_ERROR(internal::ValueAt(values_, list->Get(k), &resolved[k]));
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

}  // namespace ethosu_sdk::runtime
