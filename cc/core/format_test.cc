// Our printf subset against the texts the C standard prescribes, written
// out (not the host's snprintf): the same expectations hold in firmware.
#include "cc/core/format.h"

#include <climits>
#include <cstddef>
#include <cstdint>

#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::Format;
using ethosu_sdk::Lld;

char text[64];

TEST(Format, LldTakesEveryIntegerAndEnum) {
  enum class Kind : uint8_t { kSeven = 7 };
  Format(text, sizeof(text), "%lld %lld %lld %lld", Lld(size_t{4000000000u}), Lld(int64_t{-3}),
         Lld(uint32_t{UINT32_MAX}), Lld(Kind::kSeven));
  EXPECT_STREQ(text, "4000000000 -3 4294967295 7");
}

TEST(Format, Conversions) {
  Format(text, sizeof(text), "%d %d %d", 0, -5, INT_MIN);
  EXPECT_STREQ(text, "0 -5 -2147483648");
  Format(text, sizeof(text), "%lld", static_cast<long long>(INT64_MIN));
  EXPECT_STREQ(text, "-9223372036854775808");
  Format(text, sizeof(text), "%llu", static_cast<unsigned long long>(UINT64_MAX));
  EXPECT_STREQ(text, "18446744073709551615");
  Format(text, sizeof(text), "%u %zu %ld", 4000000000u, size_t{12345}, -70000L);
  EXPECT_STREQ(text, "4000000000 12345 -70000");
  Format(text, sizeof(text), "%x %X %08x %llx", 0xdeadbeefu, 255u, 0x1234u, 0x123456789abcull);
  EXPECT_STREQ(text, "deadbeef FF 00001234 123456789abc");
  Format(text, sizeof(text), "%hhu %hd", 0x1FF, 0x18000);
  EXPECT_STREQ(text, "255 -32768");
  Format(text, sizeof(text), "%c%c %% %p", 'o', 'k', reinterpret_cast<void*>(0x1000));
  EXPECT_STREQ(text, "ok % 0x1000");
}

TEST(Format, WidthsAndFlags) {
  Format(text, sizeof(text), "[%5d|%-5d|%05d|%+d|% d]", 42, 42, -42, 7, 7);
  EXPECT_STREQ(text, "[   42|42   |-0042|+7| 7]");
  Format(text, sizeof(text), "[%.3d|%.0d|%8.3x]", 7, 0, 0xau);
  EXPECT_STREQ(text, "[007||     00a]");
  Format(text, sizeof(text), "[%*d|%*d|%-*d]", 4, 7, -4, 7, 3, 1);
  EXPECT_STREQ(text, "[   7|7   |1  ]");
}

TEST(Format, Strings) {
  Format(text, sizeof(text), "[%s|%.2s|%.*s|%5s|%-5s]", "abc", "abc", 3, "abcdef", "ab", "ab");
  EXPECT_STREQ(text, "[abc|ab|abc|   ab|ab   ]");
  // %.16s reads no further than 16 bytes: Vela's block names need not end.
  const char name[16] = {'c', 'm', 'd', '_', 'd', 'a', 't', 'a',
                         'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'};
  Format(text, sizeof(text), "'%.16s'", name);
  EXPECT_STREQ(text, "'cmd_dataxxxxxxxx'");
}

TEST(Format, FloatsAreSkippedNotMisread) {
  // The double is consumed, so the int after it still prints right.
  Format(text, sizeof(text), "%f %d %.2e %d", 1.5, 3, 2.0, 4);
  EXPECT_STREQ(text, "? 3 ? 4");
}

TEST(Format, Truncation) {
  char small[8];
  EXPECT_TRUE(Format(small, sizeof(small), "%s", "abcdefghij") == 10);
  EXPECT_STREQ(small, "abcdefg");
  EXPECT_TRUE(Format(small, sizeof(small), "%d", 1234567) == 7);
  EXPECT_STREQ(small, "1234567");
  EXPECT_TRUE(Format(small, 1, "%d", 5) == 1);
  EXPECT_STREQ(small, "");
  small[0] = 'x';
  EXPECT_TRUE(Format(small, 0, "abc") == 3);
  EXPECT_TRUE(small[0] == 'x');  // capacity 0: nothing written
}

}  // namespace
