// Prints kLines numbered lines of kLineBytes each (a few MiB) on the board's
// console and exits 0: the runner must deliver every byte in order, however
// slowly its reader drains the simulator (console_flood_test.py).
#include <cstdint>

#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

namespace {

#ifndef CONSOLE_FLOOD_LINES
#error "BUILD.bazel sets CONSOLE_FLOOD_LINES"
#endif
constexpr uint32_t kLines = CONSOLE_FLOOD_LINES;
// "flood <8 hex digits> " + 47 payload characters + "\n": 64 bytes a line,
// the same layout the test rebuilds.
constexpr char kPayload[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU";

}  // namespace

int main() {
  char line[96];
  for (uint32_t i = 0; i < kLines; ++i) {
    ethosu_sdk::TextBuilder text(line, sizeof(line));
    text.Str("flood ").Hex(i, 8).Str(" ").Str(kPayload).Str("\n");
    ethosu_sdk::platform::ConsoleWrite(text.c_str(), text.size());
  }
  char last[32];
  ethosu_sdk::TextBuilder done(last, sizeof(last));
  done.Str("flood done\n");
  ethosu_sdk::platform::ConsoleWrite(done.c_str(), done.size());
  return 0;
}
