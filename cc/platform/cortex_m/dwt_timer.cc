// TimerTicks from the core's DWT cycle counter: real cycles on an FVP or
// silicon. (QEMU does not model the DWT; its board uses another timer.) The
// board library compiles this file with ESDK_DWT_HZ set, the board's core
// clock (its descriptor's dwt_hz).
#include <cstdint>

#include "cc/platform/platform.h"

#ifndef ESDK_DWT_HZ
#error "the board library defines ESDK_DWT_HZ"
#endif

namespace ethosu_sdk::platform {
namespace {

volatile uint32_t& Reg(uintptr_t address) { return *reinterpret_cast<volatile uint32_t*>(address); }

constexpr uintptr_t kDemcr = 0xE000EDFC;    // TRCENA: bit 24
constexpr uintptr_t kDwtCtrl = 0xE0001000;  // CYCCNTENA: bit 0
constexpr uintptr_t kDwtCyccnt = 0xE0001004;

}  // namespace

uint64_t TimerTicks() {
  static bool started = false;
  static uint32_t last = 0;
  static uint64_t high = 0;
  if (!started) {
    Reg(kDemcr) |= 1u << 24;
    Reg(kDwtCyccnt) = 0;
    Reg(kDwtCtrl) |= 1u;
    started = true;
  }
  // Extend the 32-bit counter; callers read it more often than it wraps.
  const uint32_t now = Reg(kDwtCyccnt);
  if (now < last) high += uint64_t{1} << 32;
  last = now;
  return high | now;
}

uint64_t TimerTicksPerSecond() { return ESDK_DWT_HZ; }

}  // namespace ethosu_sdk::platform
