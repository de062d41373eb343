// The types the CPU kernels receive (kernels.h): runtime tensors and
// non-owning views into the values of a KernelCall.
#ifndef ETHOSU_SDK_CC_KERNELS_KERNEL_TYPES_H_
#define ETHOSU_SDK_CC_KERNELS_KERNEL_TYPES_H_

#include <cstdint>

#include "cc/core/span.h"
#include "cc/core/status.h"
#include "cc/runtime/tensor.h"
#include "cc/runtime/value.h"

namespace ethosu_sdk::kernels {

using runtime::ScalarType;
using runtime::Tensor;
using IntList = Span<const int64_t>;
using DoubleList = Span<const double>;
using TensorList = Span<Tensor* const>;          // every item a tensor with memory
using OptionalTensorList = Span<Tensor* const>;  // items null for None
using String = Span<const char>;                 // not NUL-terminated

}  // namespace ethosu_sdk::kernels

#endif  // ETHOSU_SDK_CC_KERNELS_KERNEL_TYPES_H_
