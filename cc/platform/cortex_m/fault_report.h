// Prints the fault status registers and the faulting PC, then exits non-zero.
#ifndef ETHOSU_SDK_CC_PLATFORM_CORTEX_M_FAULT_REPORT_H_
#define ETHOSU_SDK_CC_PLATFORM_CORTEX_M_FAULT_REPORT_H_

namespace ethosu_sdk::platform {

// Exit status of a firmware that faulted; distinct from test failures (1).
inline constexpr int kFaultExitStatus = 3;

[[noreturn]] void ReportFaultAndExit();

}  // namespace ethosu_sdk::platform

#endif  // ETHOSU_SDK_CC_PLATFORM_CORTEX_M_FAULT_REPORT_H_
