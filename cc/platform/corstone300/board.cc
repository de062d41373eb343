// Name of Arm's Corstone300 FVP; console, exit (semihosting) and timer (DWT
// cycle counter) come from cc/platform/cortex_m.
#include <cstdint>

#include "cc/platform/platform.h"

namespace ethosu_sdk::platform {

// Nominal core clock of the FVP (25 MHz); cycles are what it models.
uint64_t TimerTicksPerSecond() { return 25'000'000; }

const char* BoardName() { return "corstone300"; }

// the Ethos-U55/U65 of the SSE-300 subsystem: secure alias, IRQ 56.
NpuLocation BoardNpu() { return {0x58102000, 56}; }

}  // namespace ethosu_sdk::platform
