#include "cc/runtime/tensor.h"

#include "cc/core/format.h"

namespace ethosu_sdk::runtime {
namespace {

// The next dimension of size other than 1 in `t`'s dim order from
// position `*at` on (advancing `*at` past it), or -1 at the end.
int NextLaidOutDim(const Tensor& t, int* at) {
  while (*at < t.rank) {
    const int dim = t.dim_order[(*at)++];
    if (t.sizes[dim] != 1) return dim;
  }
  return -1;
}

template <typename T>
void FormatList(const T* items, int32_t count, char* buffer, size_t capacity) {
  size_t used = Format(buffer, capacity, "(");
  for (int32_t i = 0; i < count && used < capacity; ++i) {
    used += Format(buffer + used, capacity - used, i == 0 ? "%ld" : ",%ld",
                   static_cast<long>(items[i]));
  }
  if (used < capacity) Format(buffer + used, capacity - used, ")");
}

}  // namespace

size_t ScalarTypeSize(int32_t type) {
  switch (static_cast<ScalarType>(type)) {
    case ScalarType::kByte:
    case ScalarType::kChar:
    case ScalarType::kBool:
      return 1;
    case ScalarType::kShort:
      return 2;
    case ScalarType::kInt:
    case ScalarType::kFloat:
      return 4;
    case ScalarType::kLong:
    case ScalarType::kDouble:
      return 8;
  }
  return 0;
}

const char* ScalarTypeName(ScalarType type) {
  switch (type) {
    case ScalarType::kByte:
      return "uint8";
    case ScalarType::kChar:
      return "int8";
    case ScalarType::kShort:
      return "int16";
    case ScalarType::kInt:
      return "int32";
    case ScalarType::kLong:
      return "int64";
    case ScalarType::kFloat:
      return "float32";
    case ScalarType::kDouble:
      return "float64";
    case ScalarType::kBool:
      return "bool";
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

bool Tensor::HasDefaultDimOrder() const {
  for (int i = 0; i < rank; ++i) {
    if (dim_order[i] != i) return false;
  }
  return true;
}

bool Tensor::HasDefaultLayout() const {
  int at = 0, previous = -1;
  for (int dim = NextLaidOutDim(*this, &at); dim >= 0; dim = NextLaidOutDim(*this, &at)) {
    if (dim < previous) return false;
    previous = dim;
  }
  return true;
}

bool Tensor::SameShapeAndLayout(const Tensor& other) const {
  if (!SameShape(other)) return false;
  int at = 0, other_at = 0;
  for (;;) {
    const int dim = NextLaidOutDim(*this, &at);
    if (dim != NextLaidOutDim(other, &other_at)) return false;
    if (dim < 0) return true;
  }
}

Tensor Tensor::InMemoryOrder() const {
  Tensor out = *this;
  for (int i = 0; i < rank; ++i) {
    out.sizes[i] = sizes[dim_order[i]];
    out.dim_order[i] = static_cast<uint8_t>(i);
  }
  return out;
}

void FormatSizes(const Tensor& tensor, char* buffer, size_t capacity) {
  FormatList(tensor.sizes, tensor.rank, buffer, capacity);
}

void FormatDimOrder(const Tensor& tensor, char* buffer, size_t capacity) {
  FormatList(tensor.dim_order, tensor.rank, buffer, capacity);
}

}  // namespace ethosu_sdk::runtime
