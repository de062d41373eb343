// Exit through Arm semihosting: whatever the console, the simulator stops and
// (QEMU) reports the status.
#include <unistd.h>

#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

namespace ethosu_sdk::platform {

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
