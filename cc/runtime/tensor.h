// Tensors as the runtime and kernels see them: a dtype, a static shape, a
// dim order and a pointer into planned memory or constant data. The data is
// dense and lies in dim order: dim_order[0] is the outermost dimension in
// memory and dim_order[rank - 1] the innermost, so a channels-last [N,C,H,W]
// tensor (dim order 0,2,3,1) holds its bytes as N,H,W,C row-major. Strides
// follow from the sizes and the dim order. Most kernels take only the
// default dim order 0..rank-1 (Method::Load refuses the others for them).
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
  // The dimensions from outermost to innermost in memory; a permutation of
  // 0..rank-1 (the loader checks), 0..rank-1 itself by default.
  uint8_t dim_order[kMaxRank] = {0, 1, 2, 3, 4, 5, 6, 7};
  void* data = nullptr;  // null until memory is assigned (never for loaded tensors)
  size_t numel = 1;      // product of sizes; validated not to overflow
  size_t nbytes = 0;     // numel * element size

  size_t ElementSize() const { return ScalarTypeSize(static_cast<int32_t>(dtype)); }
  int32_t Size(int dim) const { return sizes[dim]; }
  template <typename T>
  T* Data() const {
    return static_cast<T*>(data);
  }
  bool SameShape(const Tensor& other) const;
  // Whether the dim order is 0..rank-1 (the data is row-major over sizes).
  bool HasDefaultDimOrder() const;
  // Whether the data lies as in the default dim order: the dim order may
  // differ from 0..rank-1 only in where dimensions of size 1 go (a
  // channels-last [1,8,1,1] tensor does).
  bool HasDefaultLayout() const;
  // Same sizes, and the data lies the same way: the dim orders are equal up
  // to where dimensions of size 1 go.
  bool SameShapeAndLayout(const Tensor& other) const;
  // The same tensor as its data lies in memory: sizes listed in dim order,
  // default dim order (a channels-last [1,3,224,224] gives [1,224,224,3]).
  // What tensor files hold and what the runner prints.
  Tensor InMemoryOrder() const;
};

// "(1,3,224,224)", "(0,2,3,1)": a tensor's sizes or dim order for messages,
// cut to `capacity` (which includes the NUL).
void FormatSizes(const Tensor& tensor, char* buffer, size_t capacity);
void FormatDimOrder(const Tensor& tensor, char* buffer, size_t capacity);

}  // namespace ethosu_sdk::runtime

#endif  // ETHOSU_SDK_CC_RUNTIME_TENSOR_H_
