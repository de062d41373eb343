// Name of the Corstone-320 board (Arm's FVP, or the SDK's QEMU corstone-320);
// console, exit (semihosting) and timer (DWT cycle counter) come from
// cc/platform/cortex_m.
#include <cstdint>

#include "cc/platform/platform.h"

namespace ethosu_sdk::platform {

// Nominal core clock of the FVP (32 MHz); cycles are what it models. The
// SDK's QEMU counts this clock on its virtual clock (one count per 31.25
// instructions under -icount shift=0), never cycles.
uint64_t TimerTicksPerSecond() { return 32'000'000; }

const char* BoardName() { return "corstone320"; }

// the Ethos-U85 of the SSE-320 subsystem: secure alias, IRQ 16.
NpuLocation BoardNpu() { return {0x50004000, 16}; }

}  // namespace ethosu_sdk::platform
