// The cortex_m:: kernel cases (kernel_cases.h) as firmware on QEMU's
// Cortex-M55, where the Helium kernels run: the case file is linked in.
#include "cc/kernels/cortex_m/cases_blob.h"
#include "cc/kernels/cortex_m/kernel_cases.h"

int main() { return ethosu_sdk::kernels::cortex_m::RunKernelCases(cases_blob, cases_blob_size()); }
