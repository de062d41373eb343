// Name of QEMU's mps2-an505 (Cortex-M33, no NPU); timer (FPGAIO counter),
// console and exit come from cc/platform/cortex_m.
#include "cc/platform/platform.h"

namespace ethosu_sdk::platform {

const char* BoardName() { return "qemu_an505"; }

// No Ethos-U on this board.
NpuLocation BoardNpu() { return {0, -1}; }

}  // namespace ethosu_sdk::platform
