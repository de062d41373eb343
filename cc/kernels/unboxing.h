// Unboxing: the values of a KernelCall (as the .pte lists them: the
// schema's arguments, then the returned value) checked against an
// operator's argument kinds, then read as its kernel's typed arguments.
// The registration that gen_registration.py writes wraps each kernel so.
#ifndef ETHOSU_SDK_CC_KERNELS_UNBOXING_H_
#define ETHOSU_SDK_CC_KERNELS_UNBOXING_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "cc/kernels/kernel_types.h"
#include "cc/runtime/operator_registry.h"

namespace ethosu_sdk::kernels {

using runtime::KernelArgs;
using runtime::Value;

// What one value must be (operator_table.py maps schema types to these).
enum class ArgKind : uint8_t {
  kTensor,  // with its memory (or empty)
  kOptionalTensor,
  kTensorList,
  kOptionalTensorList,  // items may be null (None)
  kScalar,              // Int, Double or Bool, read as a double
  kOptionalScalar,
  kInt,
  kOptionalInt,
  kBool,
  kIntList,
  kOptionalIntList,
  kString,
  kOptionalString,
  kOptionalDoubleList,
  kReturned,  // the returned value(s): anything, not read
};

// Fails unless `args` has exactly `count` values of the given kinds,
// naming `op` or the index of the first value that is not.
Status CheckArgs(KernelArgs args, const ArgKind* kinds, size_t count, const char* op);

template <size_t N>
Status CheckArgs(KernelArgs args, const ArgKind (&kinds)[N], const char* op) {
  return CheckArgs(args, kinds, N, op);
}

// Readers of values CheckArgs accepted, one per ArgKind.
inline Tensor& TensorValue(const Value& v) { return *v.tensor; }
inline const Tensor* OptionalTensorValue(const Value& v) { return v.IsNone() ? nullptr : v.tensor; }
inline TensorList TensorListValue(const Value& v) { return v.tensor_list; }
inline OptionalTensorList OptionalTensorListValue(const Value& v) { return v.tensor_list; }
inline double ScalarValue(const Value& v) {
  if (v.tag == Value::Tag::kInt) return static_cast<double>(v.i);
  if (v.tag == Value::Tag::kDouble) return v.d;
  return v.b ? 1.0 : 0.0;
}
inline std::optional<double> OptionalScalarValue(const Value& v) {
  return v.IsNone() ? std::nullopt : std::optional<double>(ScalarValue(v));
}
inline int64_t IntValue(const Value& v) { return v.i; }
inline std::optional<int64_t> OptionalIntValue(const Value& v) {
  return v.IsNone() ? std::nullopt : std::optional<int64_t>(v.i);
}
inline bool BoolValue(const Value& v) { return v.b; }
inline IntList IntListValue(const Value& v) { return v.int_list; }
inline std::optional<IntList> OptionalIntListValue(const Value& v) {
  return v.IsNone() ? std::nullopt : std::optional<IntList>(v.int_list);
}
inline String StringValue(const Value& v) { return v.string; }
inline std::optional<String> OptionalStringValue(const Value& v) {
  return v.IsNone() ? std::nullopt : std::optional<String>(v.string);
}
inline std::optional<DoubleList> OptionalDoubleListValue(const Value& v) {
  return v.IsNone() ? std::nullopt : std::optional<DoubleList>(v.double_list);
}

}  // namespace ethosu_sdk::kernels

#endif  // ETHOSU_SDK_CC_KERNELS_UNBOXING_H_
