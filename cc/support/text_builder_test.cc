// Checks TextBuilder against the C library's snprintf, which it replaces on
// the board.
#include "cc/support/text_builder.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "cc/testing/unit_test.h"

namespace {

void CheckInt(int64_t v) {
  char got[32], want[32];
  ethosu_sdk::TextBuilder b(got, sizeof(got));
  b.Int(v);
  std::snprintf(want, sizeof(want), "%" PRId64, v);
  EXPECT_STREQ(got, want) << "Int";
}

void CheckUInt(uint64_t v) {
  char got[32], want[32];
  ethosu_sdk::TextBuilder b(got, sizeof(got));
  b.UInt(v);
  std::snprintf(want, sizeof(want), "%" PRIu64, v);
  EXPECT_STREQ(got, want) << "UInt";
}

void CheckHex(uint64_t v, int digits) {
  char got[32], want[32];
  ethosu_sdk::TextBuilder b(got, sizeof(got));
  b.Hex(v, digits);
  std::snprintf(want, sizeof(want), "%0*" PRIx64, digits, v);
  EXPECT_STREQ(got, want) << "Hex, " << digits << " digits";
}

TEST(TextBuilder, MatchesSnprintf) {
  const int64_t ints[] = {0, 1, -1, 9, 10, -10, 123456789, INT64_MAX, INT64_MIN, INT32_MIN};
  for (int64_t v : ints) CheckInt(v);
  const uint64_t uints[] = {0, 7, 10, 4294967295u, UINT64_MAX};
  for (uint64_t v : uints) CheckUInt(v);
  for (uint64_t v : uints) {
    for (int digits : {1, 2, 8, 16}) CheckHex(v, digits);
  }
}

TEST(TextBuilder, Truncation) {
  // Truncation: never past the buffer, always NUL-terminated, flagged.
  char small[6];
  ethosu_sdk::TextBuilder b(small, sizeof(small));
  b.Str("abc").Int(-12345);
  EXPECT_STREQ(small, "abc-1");
  EXPECT_TRUE(b.truncated());
  EXPECT_EQ(b.size(), 5u);
}

}  // namespace
