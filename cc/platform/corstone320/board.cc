// Name of Arm's Corstone320 FVP; console, exit (semihosting) and timer (DWT
// cycle counter) come from cc/platform/cortex_m.
#include <cstdint>

#include "cc/platform/platform.h"

namespace ethosu_sdk::platform {

// Nominal core clock of the FVP (32 MHz); cycles are what it models.
uint64_t TimerTicksPerSecond() { return 32'000'000; }

const char* BoardName() { return "corstone320"; }

}  // namespace ethosu_sdk::platform
