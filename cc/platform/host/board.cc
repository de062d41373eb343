// The platform interface on the build host (Linux): host runner and tests.
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "cc/platform/platform.h"
#include "cc/platform/stack.h"

namespace ethosu_sdk::platform {

void ConsoleWrite(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t written = write(STDOUT_FILENO, data, size);
    if (written <= 0) return;
    data += written;
    size -= static_cast<size_t>(written);
  }
}

void Exit(int status) { std::exit(status); }

uint64_t TimerTicks() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(now.tv_nsec);
}

uint64_t TimerTicksPerSecond() { return 1'000'000'000u; }

const char* BoardName() { return "host"; }

// The host runs NPU jobs on the functional model, not through registers.
NpuLocation BoardNpu() { return {0, -1}; }

// The host's stack is the OS's: not measured.
void PaintStack() {}
size_t StackHighWater() { return 0; }
size_t StackSize() { return 0; }

}  // namespace ethosu_sdk::platform
