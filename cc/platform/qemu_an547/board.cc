// Name and NPU of QEMU's mps3-an547; timer (FPGAIO counter), console and exit
// come from cc/platform/cortex_m.
#include "cc/platform/platform.h"

namespace ethosu_sdk::platform {

const char* BoardName() { return "qemu_an547"; }

// Corstone-300's NPU slot (SSE-300), where the SDK's QEMU has its Ethos-U device: secure alias,
// IRQ 56.
NpuLocation BoardNpu() { return {0x58102000, 56}; }

}  // namespace ethosu_sdk::platform
