// The cortex_m:: kernel cases (gen_cases.py: arguments and the output
// ExecuTorch's Python reference computes for them), run through the
// registry's unboxing wrappers as a .pte's KernelCall would reach them,
// output bytes compared exactly; cases marked as refused must fail. No heap:
// the same runner serves the host test (the file read from disk) and the
// firmware test on QEMU's Cortex-M55 (the file linked in), where the Helium
// kernels run.
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_KERNEL_CASES_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_KERNEL_CASES_H_

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::kernels::cortex_m {

// Runs every case of a version-1 case file; prints a line per failure, a
// tally per operator and a last line "<N> cases, <F> failed: PASS|FAIL".
// Returns 0 when every case passed.
int RunKernelCases(const uint8_t* file, size_t size);

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_KERNEL_CASES_H_
