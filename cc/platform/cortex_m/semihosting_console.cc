// Console through Arm semihosting (newlib's rdimon), which QEMU and Arm's
// FVPs both implement: no UART set-up needed.
#include <unistd.h>

#include "cc/platform/platform.h"

namespace ethosu_sdk::platform {

void ConsoleWrite(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t written = write(1, data, size);
    if (written <= 0) return;
    data += written;
    size -= static_cast<size_t>(written);
  }
}

}  // namespace ethosu_sdk::platform
