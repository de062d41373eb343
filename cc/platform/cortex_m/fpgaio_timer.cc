// Timer of the MPS2/MPS3 boards (QEMU's mps3-an547, mps2-an505, mps2-an386
// and mps2-an500): the FPGAIO block's free-running 32-bit COUNTER (offset
// 0x18), clocked at the board's ESDK_FPGAIO_HZ (20 MHz on the mps2-tz boards,
// 25 MHz, the SYSCLK, on the plain mps2 ones). QEMU's virtual clock drives
// it, which with `-icount shift=0` advances 1 ns per executed instruction:
// deterministic, unlike host time, one tick per 50 (or 40) instructions
// (pinned by //tests/firmware:timer_test). The board library compiles this
// file with ESDK_FPGAIO_BASE (the FPGAIO block, its secure alias on the
// TrustZone boards) and ESDK_FPGAIO_HZ set.
#include <cstdint>

#include "cc/platform/platform.h"

#if !defined(ESDK_FPGAIO_BASE) || !defined(ESDK_FPGAIO_HZ)
#error "the board library defines ESDK_FPGAIO_BASE and ESDK_FPGAIO_HZ"
#endif

namespace ethosu_sdk::platform {
namespace {

constexpr uintptr_t kCounter = ESDK_FPGAIO_BASE + 0x18;
constexpr uint64_t kCounterHz = ESDK_FPGAIO_HZ;

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
