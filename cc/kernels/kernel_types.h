// The types the CPU kernels receive (kernels.h): runtime tensors and
// non-owning views into the values of a KernelCall.
#ifndef ETHOSU_SDK_CC_KERNELS_KERNEL_TYPES_H_
#define ETHOSU_SDK_CC_KERNELS_KERNEL_TYPES_H_

#include <cstdint>

#include "cc/runtime/status.h"
#include "cc/runtime/tensor.h"
#include "cc/runtime/value.h"

namespace ethosu_sdk::kernels {

using runtime::ErrorCode;
using runtime::ScalarType;
using runtime::Status;
using runtime::Tensor;
using IntList = runtime::Span<const int64_t>;
using TensorList = runtime::Span<Tensor* const>;  // every item a tensor with memory
using String = runtime::Span<const char>;         // not NUL-terminated

}  // namespace ethosu_sdk::kernels

#endif  // ETHOSU_SDK_CC_KERNELS_KERNEL_TYPES_H_
