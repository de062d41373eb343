// Timer and name of QEMU's mps3-an547; console and exit are semihosting
// (cc/platform/cortex_m).
#include <cstdint>

#include "cc/platform/platform.h"

namespace ethosu_sdk::platform {
namespace {

// MPS3 FPGAIO "COUNTER" follows QEMU's virtual clock, which with
// `-icount shift=0` advances 1 ns per executed instruction: deterministic,
// unlike host time. Measured rate: one tick per 50 instructions, i.e. 20 MHz
// of board time (pinned by //tests/firmware:timer_test).
constexpr uintptr_t kFpgaioCounter = 0x59302000 + 0x18;
constexpr uint64_t kCounterHz = 20'000'000;

}  // namespace

uint64_t TimerTicks() {
  // Extend the 32-bit counter; callers read it more often than it wraps
  // (every 134 s of board time).
  static uint32_t last = 0;
  static uint64_t high = 0;
  const uint32_t now = *reinterpret_cast<volatile uint32_t*>(kFpgaioCounter);
  if (now < last) high += uint64_t{1} << 32;
  last = now;
  return high | now;
}

uint64_t TimerTicksPerSecond() { return kCounterHz; }

const char* BoardName() { return "qemu_an547"; }

// Corstone-300's NPU slot (SSE-300), where the SDK's QEMU has its Ethos-U device: secure alias,
// IRQ 56.
NpuLocation BoardNpu() { return {0x58102000, 56}; }

}  // namespace ethosu_sdk::platform
