// The smallest firmware: prints a line on the board's console and exits 0.
// Proves the toolchain, startup code, linker script and simulator together.
#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

int main() {
  char line[96];
  ethosu_sdk::TextBuilder text(line, sizeof(line));
  text.Str("Hello from ").Str(ethosu_sdk::platform::BoardName()).Str("\n");
  ethosu_sdk::platform::ConsoleWrite(text.c_str(), text.size());
  return 0;
}
