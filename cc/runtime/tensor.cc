#include "cc/runtime/tensor.h"

namespace ethosu_sdk::runtime {

size_t ScalarTypeSize(int32_t type) {
  switch (static_cast<ScalarType>(type)) {
    case ScalarType::kByte:
    case ScalarType::kChar:
    case ScalarType::kBool: return 1;
    case ScalarType::kShort: return 2;
    case ScalarType::kInt:
    case ScalarType::kFloat: return 4;
    case ScalarType::kLong:
    case ScalarType::kDouble: return 8;
  }
  return 0;
}

const char* ScalarTypeName(ScalarType type) {
  switch (type) {
    case ScalarType::kByte: return "uint8";
    case ScalarType::kChar: return "int8";
    case ScalarType::kShort: return "int16";
    case ScalarType::kInt: return "int32";
    case ScalarType::kLong: return "int64";
    case ScalarType::kFloat: return "float32";
    case ScalarType::kDouble: return "float64";
    case ScalarType::kBool: return "bool";
  }
  return "unknown";
}

bool Tensor::SameShape(const Tensor& other) const {
  if (rank != other.rank) return false;
  for (int i = 0; i < rank; ++i) {
    if (sizes[i] != other.sizes[i]) return false;
  }
  return true;
}

}  // namespace ethosu_sdk::runtime
