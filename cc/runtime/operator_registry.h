// Operators: a kernel is one function per operator name ("aten::add.out"),
// dtype-agnostic at the registry level; the kernel dispatches on the dtypes
// of its arguments and returns an error for ones it does not handle.
//
// Arguments arrive exactly as the .pte's KernelCall lists them: the
// operator's schema arguments in order, then its out tensor(s), then the
// returned value(s) (aliases of the outs).
#ifndef ETHOSU_SDK_CC_RUNTIME_OPERATOR_REGISTRY_H_
#define ETHOSU_SDK_CC_RUNTIME_OPERATOR_REGISTRY_H_

#include <cstddef>

#include "cc/core/status.h"
#include "cc/runtime/value.h"

namespace ethosu_sdk::runtime {

using KernelArgs = Span<Value* const>;
using KernelFn = Status (*)(KernelArgs args);

struct KernelEntry {
  const char* name;  // "<namespace>::<op>.<overload>"
  KernelFn fn;
  // Whether the kernel takes tensors in any dim order, provided that all
  // of a call's tensors have one rank and one dim order (elementwise,
  // broadcasting included: operators.yaml's `dim_order: any`). Method
  // shows such a call its tensors in memory order; Method::Load refuses
  // calls that break this, and calls of other kernels with a tensor in
  // other than the default dim order (dimensions of size 1 aside: see
  // Tensor::HasDefaultLayout).
  bool any_dim_order = false;
  // Whether the kernel reads every tensor's dim order itself (the
  // cortex_m:: int8 kernels: NCHW-sized tensors in channels-last memory;
  // operators.yaml's `dim_order: kernel`): Method::Load leaves them to it.
  bool kernel_dim_order = false;
};

class OperatorRegistry {
 public:
  constexpr OperatorRegistry() = default;
  constexpr OperatorRegistry(const KernelEntry* entries, size_t count)
      : entries_(entries), count_(count) {}

  // The entry of `name` + "." + `overload` (no dot when overload is empty),
  // null when there is none.
  const KernelEntry* Find(const char* name, size_t name_size, const char* overload,
                          size_t overload_size) const;
  size_t size() const { return count_; }
  const KernelEntry& entry(size_t i) const { return entries_[i]; }

 private:
  const KernelEntry* entries_ = nullptr;
  size_t count_ = 0;
};

}  // namespace ethosu_sdk::runtime

#endif  // ETHOSU_SDK_CC_RUNTIME_OPERATOR_REGISTRY_H_
