// A downstream firmware: prints a greeting through the SDK's board API.
#include "cc/platform/platform.h"

int main() {
  static const char kGreeting[] = "downstream firmware ready\n";
  ethosu_sdk::platform::ConsoleWrite(kGreeting, sizeof(kGreeting) - 1);
  return 0;
}
