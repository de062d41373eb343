// Tensors as the runtime and kernels see them: a dtype, a static shape and a
// pointer into planned memory or constant data. Always contiguous (the loader
// rejects any other dim order), so strides follow from the sizes.
#ifndef ETHOSU_SDK_CC_RUNTIME_TENSOR_H_
#define ETHOSU_SDK_CC_RUNTIME_TENSOR_H_

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::runtime {

// ExecuTorch's ScalarType numbering (scalar_type.fbs); only the types this
// runtime can hold in memory are named.
enum class ScalarType : int8_t {
  kByte = 0,    // uint8
  kChar = 1,    // int8
  kShort = 2,   // int16
  kInt = 3,     // int32
  kLong = 4,    // int64
  kFloat = 6,   // float32
  kDouble = 7,  // float64
  kBool = 11,
};

// Size in bytes of one element, 0 for a type the runtime does not support.
size_t ScalarTypeSize(int32_t type);
const char* ScalarTypeName(ScalarType type);

constexpr int kMaxRank = 8;

struct Tensor {
  ScalarType dtype = ScalarType::kFloat;
  int32_t rank = 0;
  int32_t sizes[kMaxRank] = {};
  void* data = nullptr;  // null until memory is assigned (never for loaded tensors)
  size_t numel = 1;      // product of sizes; validated not to overflow
  size_t nbytes = 0;     // numel * element size

  size_t ElementSize() const { return ScalarTypeSize(static_cast<int32_t>(dtype)); }
  int32_t Size(int dim) const { return sizes[dim]; }
  template <typename T>
  T* Data() const { return static_cast<T*>(data); }
  bool SameShape(const Tensor& other) const;
};

}  // namespace ethosu_sdk::runtime

#endif  // ETHOSU_SDK_CC_RUNTIME_TENSOR_H_
