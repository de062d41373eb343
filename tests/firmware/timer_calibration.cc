// Times loops of a known instruction count with the board timer. Under QEMU
// with -icount shift=0 each instruction takes 1 ns of board time, so the
// host test can check the timer's rate and that it counts instructions.
#include <cstdint>
#include <initializer_list>

#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

namespace {

// Exactly 2 instructions per iteration (subs, bne), whatever the compiler.
void CountDown(uint32_t iterations) {
  __asm volatile(
      "1: subs %0, %0, #1\n"
      "   bne 1b\n"
      : "+r"(iterations)
      :
      : "cc");
}

}  // namespace

int main() {
  char line[128];
  for (uint32_t iterations : {250000u, 500000u, 1000000u}) {
    ethosu_sdk::TextBuilder text(line, sizeof(line));
    const uint64_t start = ethosu_sdk::platform::TimerTicks();
    CountDown(iterations);
    const uint64_t ticks = ethosu_sdk::platform::TimerTicks() - start;
    text.Str("instructions=").UInt(2 * uint64_t{iterations}).Str(" ticks=").UInt(ticks);
    text.Str(" ticks_per_second=").UInt(ethosu_sdk::platform::TimerTicksPerSecond()).Char('\n');
    ethosu_sdk::platform::ConsoleWrite(text.c_str(), text.size());
  }
  return 0;
}
