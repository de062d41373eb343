// Timer of the MPS2/MPS3 boards (QEMU's mps3-an547 and mps2-an505): the
// FPGAIO block's free-running 32-bit COUNTER (offset 0x18), clocked by the
// board's 20 MHz SYSCLK. QEMU's virtual clock drives it, which with
// `-icount shift=0` advances 1 ns per executed instruction: deterministic,
// unlike host time, one tick per 50 instructions (pinned by
// //tests/firmware:timer_test). The board library compiles this file with
// ESDK_FPGAIO_BASE set (the secure alias of the board's FPGAIO block).
#include <cstdint>

#include "cc/platform/platform.h"

#ifndef ESDK_FPGAIO_BASE
#error "the board library defines ESDK_FPGAIO_BASE"
#endif

namespace ethosu_sdk::platform {
namespace {

constexpr uintptr_t kCounter = ESDK_FPGAIO_BASE + 0x18;
constexpr uint64_t kCounterHz = 20'000'000;

}  // namespace

uint64_t TimerTicks() {
  // Extend the 32-bit counter; callers read it more often than it wraps.
  static uint32_t last = 0;
  static uint64_t high = 0;
  const uint32_t now = *reinterpret_cast<volatile uint32_t*>(kCounter);
  if (now < last) high += uint64_t{1} << 32;
  last = now;
  return high | now;
}

uint64_t TimerTicksPerSecond() { return kCounterHz; }

}  // namespace ethosu_sdk::platform
