#include "cc/kernels/unboxing.h"

namespace ethosu_sdk::kernels {
namespace {

bool HasMemory(const Tensor* t) { return t != nullptr && !(t->data == nullptr && t->nbytes > 0); }

// Null when `v` is of `kind`; else what it is not.
const char* Mismatch(const Value& v, ArgKind kind) {
  using Tag = Value::Tag;
  const bool none = v.IsNone();
  switch (kind) {
    case ArgKind::kOptionalTensor:
      if (none) return nullptr;
      [[fallthrough]];
    case ArgKind::kTensor:
      if (v.tag != Tag::kTensor) return "argument is not a tensor";
      return HasMemory(v.tensor) ? nullptr : "tensor argument has no memory";
    case ArgKind::kTensorList:
      if (v.tag != Tag::kTensorList) return "argument is not a tensor list";
      for (const Tensor* t : v.tensor_list) {
        if (!HasMemory(t)) return "tensor list item has no memory";
      }
      return nullptr;
    case ArgKind::kOptionalTensorList:
      if (v.tag != Tag::kOptionalTensorList && v.tag != Tag::kTensorList)
        return "argument is not a tensor list";
      for (const Tensor* t : v.tensor_list) {
        if (t != nullptr && !HasMemory(t)) return "tensor list item has no memory";
      }
      return nullptr;
    case ArgKind::kOptionalScalar:
      if (none) return nullptr;
      [[fallthrough]];
    case ArgKind::kScalar:
      return v.tag == Tag::kInt || v.tag == Tag::kDouble || v.tag == Tag::kBool
                 ? nullptr
                 : "argument is not a scalar";
    case ArgKind::kOptionalInt:
      if (none) return nullptr;
      [[fallthrough]];
    case ArgKind::kInt:
      return v.tag == Tag::kInt ? nullptr : "argument is not an int";
    case ArgKind::kBool:
      return v.tag == Tag::kBool ? nullptr : "argument is not a bool";
    case ArgKind::kOptionalIntList:
      if (none) return nullptr;
      [[fallthrough]];
    case ArgKind::kIntList:
      return v.tag == Tag::kIntList ? nullptr : "argument is not an int list";
    case ArgKind::kOptionalDoubleList:
      if (none) return nullptr;
      return v.tag == Tag::kDoubleList ? nullptr : "argument is not a float list";
    case ArgKind::kOptionalString:
      if (none) return nullptr;
      [[fallthrough]];
    case ArgKind::kString:
      return v.tag == Tag::kString ? nullptr : "argument is not a string";
    case ArgKind::kReturned:
      return nullptr;
  }
  return "argument of an unknown kind";
}

}  // namespace

Status CheckArgs(KernelArgs args, const ArgKind* kinds, size_t count, const char* op) {
  if (args.size() != count) {
    return Status::Error(ErrorCode::kInvalidProgram, "wrong argument count for: %s", op);
  }
  for (size_t i = 0; i < count; ++i) {
    const char* mismatch = Mismatch(*args[i], kinds[i]);
    if (mismatch != nullptr) {
      return Status::Error(ErrorCode::kInvalidProgram, "%s (%lld)", mismatch,
                           static_cast<long long>(i));
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
