// The few lines every unit test here shares: count failed expectations,
// print them, and turn the count into the exit code.
#pragma once

#include <cstdio>

namespace ethosu_sdk::npu::testing {

inline int& Failures() {
  static int failures = 0;
  return failures;
}

inline void Expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL %s\n", what);
    ++Failures();
  }
}

// main's return value: 0 and "PASS" when nothing failed.
inline int Result() {
  if (Failures() == 0) std::printf("PASS\n");
  return Failures() == 0 ? 0 : 1;
}

}  // namespace ethosu_sdk::npu::testing
