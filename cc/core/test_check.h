// Superseded by cc/testing (TEST, EXPECT_*; cc/testing/README.md says how
// to move a test over). No test in the tree uses this any more; it stays only
// so that tests written against it on other branches still build, and goes
// once they have moved.
//
// Checks for tests that run both on the host and as firmware on QEMU
// (formatting and va_arg differ by target): no printf, no heap, output
// through the board's console.
#ifndef ETHOSU_SDK_CC_CORE_TEST_CHECK_H_
#define ETHOSU_SDK_CC_CORE_TEST_CHECK_H_

#include <cstring>

#include "cc/core/format.h"
#include "cc/platform/platform.h"

namespace ethosu_sdk::core_test {

inline int failures = 0;

inline void Say(const char* text) { platform::ConsoleWrite(text, strlen(text)); }

inline void Check(bool ok, const char* what, int line) {
  if (ok) return;
  char text[256];
  Format(text, sizeof(text), "FAIL line %d: %s\n", line, what);
  Say(text);
  ++failures;
}

inline void CheckText(const char* got, const char* want, int line) {
  if (strcmp(got, want) == 0) return;
  char text[512];
  Format(text, sizeof(text), "FAIL line %d: got \"%s\", want \"%s\"\n", line, got, want);
  Say(text);
  ++failures;
}

// The exit status: 0 when every check passed.
inline int Finish(const char* test) {
  char text[96];
  Format(text, sizeof(text), "%s: %s\n", test, failures == 0 ? "PASS" : "FAIL");
  Say(text);
  return failures == 0 ? 0 : 1;
}

}  // namespace ethosu_sdk::core_test

#define CORE_CHECK(condition) ::ethosu_sdk::core_test::Check((condition), #condition, __LINE__)
#define CORE_CHECK_TEXT(got, want) ::ethosu_sdk::core_test::CheckText((got), (want), __LINE__)

#endif  // ETHOSU_SDK_CC_CORE_TEST_CHECK_H_
