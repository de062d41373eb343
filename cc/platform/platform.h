// The board interface every firmware links against: one implementation per
// board under cc/platform/<board>/, chosen by the Bazel platform.
#ifndef ETHOSU_SDK_CC_PLATFORM_PLATFORM_H_
#define ETHOSU_SDK_CC_PLATFORM_PLATFORM_H_

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::platform {

// Writes bytes to the board's console (semihosting or UART). Never fails
// visibly: a console that is not connected drops the bytes.
void ConsoleWrite(const char* data, size_t size);

// Ends the program with an exit status the simulator reports to the host.
[[noreturn]] void Exit(int status);

// A monotonically increasing count of time as the simulated board sees it,
// and its rate in ticks per second.
uint64_t TimerTicks();
uint64_t TimerTicksPerSecond();

// The name of the board, for logs.
const char* BoardName();

// Where the board's Ethos-U answers (the address the firmware uses: the
// secure alias on our boards) and its interrupt line (external IRQ number).
// base 0: the board has no NPU (the host).
struct NpuLocation {
  uintptr_t base;
  int irq;
};
NpuLocation BoardNpu();

}  // namespace ethosu_sdk::platform

#endif  // ETHOSU_SDK_CC_PLATFORM_PLATFORM_H_
