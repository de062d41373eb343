// A method's values (ExecuTorch's EValue): what instructions read and write.
// Lists are resolved at load time into arrays owned by the method's arena.
#ifndef ETHOSU_SDK_CC_RUNTIME_VALUE_H_
#define ETHOSU_SDK_CC_RUNTIME_VALUE_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/span.h"
#include "cc/runtime/tensor.h"

namespace ethosu_sdk::runtime {

struct Value {
  enum class Tag : uint8_t {
    kNone,
    kInt,
    kDouble,
    kBool,
    kTensor,
    kString,
    kIntList,
    kDoubleList,
    kBoolList,
    kTensorList,          // every element is a tensor
    kOptionalTensorList,  // elements may be null (None)
  };

  Tag tag = Tag::kNone;
  union {
    int64_t i;
    double d;
    bool b;
    Tensor* tensor;
    Span<const char> string;
    Span<const int64_t> int_list;
    Span<const double> double_list;
    Span<const bool> bool_list;
    Span<Tensor* const> tensor_list;
  };

  Value() : i(0) {}
  bool IsNone() const { return tag == Tag::kNone; }
  bool IsTensor() const { return tag == Tag::kTensor; }
};

const char* ValueTagName(Value::Tag tag);

}  // namespace ethosu_sdk::runtime

#endif  // ETHOSU_SDK_CC_RUNTIME_VALUE_H_
