// Checks TextBuilder against the C library's snprintf, which it replaces on
// the board.
#include "cc/support/text_builder.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace {

int failures = 0;

void Expect(bool ok, const char* what, const char* got, const char* want) {
  if (!ok) {
    std::printf("FAIL %s: got \"%s\", want \"%s\"\n", what, got, want);
    ++failures;
  }
}

void CheckInt(int64_t v) {
  char got[32], want[32];
  ethosu_sdk::TextBuilder b(got, sizeof(got));
  b.Int(v);
  std::snprintf(want, sizeof(want), "%" PRId64, v);
  Expect(std::strcmp(got, want) == 0, "Int", got, want);
}

void CheckUInt(uint64_t v) {
  char got[32], want[32];
  ethosu_sdk::TextBuilder b(got, sizeof(got));
  b.UInt(v);
  std::snprintf(want, sizeof(want), "%" PRIu64, v);
  Expect(std::strcmp(got, want) == 0, "UInt", got, want);
}

void CheckHex(uint64_t v, int digits) {
  char got[32], want[32];
  ethosu_sdk::TextBuilder b(got, sizeof(got));
  b.Hex(v, digits);
  std::snprintf(want, sizeof(want), "%0*" PRIx64, digits, v);
  Expect(std::strcmp(got, want) == 0, "Hex", got, want);
}

}  // namespace

int main() {
  const int64_t ints[] = {0, 1, -1, 9, 10, -10, 123456789, INT64_MAX, INT64_MIN, INT32_MIN};
  for (int64_t v : ints) CheckInt(v);
  const uint64_t uints[] = {0, 7, 10, 4294967295u, UINT64_MAX};
  for (uint64_t v : uints) CheckUInt(v);
  for (uint64_t v : uints) {
    for (int digits : {1, 2, 8, 16}) CheckHex(v, digits);
  }

  // Truncation: never past the buffer, always NUL-terminated, flagged.
  char small[6];
  ethosu_sdk::TextBuilder b(small, sizeof(small));
  b.Str("abc").Int(-12345);
  Expect(std::strcmp(small, "abc-1") == 0, "truncation", small, "abc-1");
  Expect(b.truncated(), "truncated flag", b.truncated() ? "true" : "false", "true");
  Expect(b.size() == 5, "size after truncation", small, "5 chars");

  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
