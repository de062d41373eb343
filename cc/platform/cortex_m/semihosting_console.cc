// Console and exit through Arm semihosting (newlib's rdimon), which QEMU and
// Arm's FVPs both implement: no UART set-up, and the exit status reaches the
// host.
#include <unistd.h>

#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

namespace ethosu_sdk::platform {

void ConsoleWrite(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t written = write(1, data, size);
    if (written <= 0) return;
    data += written;
    size -= static_cast<size_t>(written);
  }
}

void Exit(int status) {
  // The exit record lets the host read the status where the simulator does
  // not pass it on (FVPs); under QEMU, rdimon's _exit uses
  // SYS_EXIT_EXTENDED, which carries it too.
  char line[32];
  TextBuilder text(line, sizeof(line));
  text.Str("ESDK exit ").Int(status).Char('\n');
  ConsoleWrite(text.c_str(), text.size());
  _exit(status);
}

}  // namespace ethosu_sdk::platform
