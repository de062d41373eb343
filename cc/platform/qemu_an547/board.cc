// Console, exit and timer of QEMU's mps3-an547.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "cc/platform/platform.h"

namespace ethosu_sdk::platform {
namespace {

// MPS3 FPGAIO "COUNTER": counts the board's 32 MHz reference clock. Under
// QEMU it follows the virtual clock, which with `-icount shift=0` advances
// 1 ns per executed instruction: deterministic, unlike host time.
constexpr uintptr_t kFpgaioCounter = 0x49302000 + 0x18;
constexpr uint64_t kCounterHz = 32'000'000;

}  // namespace

void ConsoleWrite(const char* data, size_t size) {
  // Semihosting stdout (newlib rdimon): reaches QEMU's stdout unbuffered.
  while (size > 0) {
    const ssize_t written = write(1, data, size);
    if (written <= 0) return;
    data += written;
    size -= static_cast<size_t>(written);
  }
}

void Exit(int status) {
  // rdimon's _exit uses SYS_EXIT_EXTENDED: QEMU exits with this status.
  _exit(status);
}

uint64_t TimerTicks() {
  // Extend the 32-bit counter; callers read it often enough (every < 134 s).
  static uint32_t last = 0;
  static uint64_t high = 0;
  const uint32_t now = *reinterpret_cast<volatile uint32_t*>(kFpgaioCounter);
  if (now < last) high += uint64_t{1} << 32;
  last = now;
  return high | now;
}

uint64_t TimerTicksPerSecond() { return kCounterHz; }

const char* BoardName() { return "qemu_an547"; }

}  // namespace ethosu_sdk::platform
