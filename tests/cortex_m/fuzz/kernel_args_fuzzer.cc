// The cortex_m:: kernels' argument handling under libFuzzer, ASan and UBSan:
// each input is a kernel case file (cc/kernels/cortex_m/gen_cases.py's
// format: an operator name and its argument values, tensors included), run
// through the registry's unboxing wrappers as a .pte's KernelCall reaches
// them. Mutated shapes, strides, paddings, dilations, zero points,
// multipliers, shifts, activation limits and lists must end in a Status
// error or an output; never a read or write outside the tensors. The case
// reader admits only tensors the runtime's loader would.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "cc/kernels/cortex_m/kernel_cases.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The runner prints a line per case: keep the fuzzer's own log readable.
  return std::freopen("/dev/null", "w", stdout) == nullptr ? 1 : 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ethosu_sdk::kernels::cortex_m::RunKernelCases(data, size);
  return 0;
}
