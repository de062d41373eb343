// Our printf subset against the texts the C standard prescribes, written
// out (not the host's snprintf): the same expectations hold in firmware.
#include "cc/core/format.h"

#include <climits>
#include <cstddef>
#include <cstdint>

#include "cc/core/test_check.h"

namespace {

using ethosu_sdk::Format;

char text[64];

void Conversions() {
  Format(text, sizeof(text), "%d %d %d", 0, -5, INT_MIN);
  CORE_CHECK_TEXT(text, "0 -5 -2147483648");
  Format(text, sizeof(text), "%lld", static_cast<long long>(INT64_MIN));
  CORE_CHECK_TEXT(text, "-9223372036854775808");
  Format(text, sizeof(text), "%llu", static_cast<unsigned long long>(UINT64_MAX));
  CORE_CHECK_TEXT(text, "18446744073709551615");
  Format(text, sizeof(text), "%u %zu %ld", 4000000000u, size_t{12345}, -70000L);
  CORE_CHECK_TEXT(text, "4000000000 12345 -70000");
  Format(text, sizeof(text), "%x %X %08x %llx", 0xdeadbeefu, 255u, 0x1234u, 0x123456789abcull);
  CORE_CHECK_TEXT(text, "deadbeef FF 00001234 123456789abc");
  Format(text, sizeof(text), "%hhu %hd", 0x1FF, 0x18000);
  CORE_CHECK_TEXT(text, "255 -32768");
  Format(text, sizeof(text), "%c%c %% %p", 'o', 'k', reinterpret_cast<void*>(0x1000));
  CORE_CHECK_TEXT(text, "ok % 0x1000");
}

void WidthsAndFlags() {
  Format(text, sizeof(text), "[%5d|%-5d|%05d|%+d|% d]", 42, 42, -42, 7, 7);
  CORE_CHECK_TEXT(text, "[   42|42   |-0042|+7| 7]");
  Format(text, sizeof(text), "[%.3d|%.0d|%8.3x]", 7, 0, 0xau);
  CORE_CHECK_TEXT(text, "[007||     00a]");
  Format(text, sizeof(text), "[%*d|%*d|%-*d]", 4, 7, -4, 7, 3, 1);
  CORE_CHECK_TEXT(text, "[   7|7   |1  ]");
}

void Strings() {
  Format(text, sizeof(text), "[%s|%.2s|%.*s|%5s|%-5s]", "abc", "abc", 3, "abcdef", "ab", "ab");
  CORE_CHECK_TEXT(text, "[abc|ab|abc|   ab|ab   ]");
  // %.16s reads no further than 16 bytes: Vela's block names need not end.
  const char name[16] = {'c', 'm', 'd', '_', 'd', 'a', 't', 'a', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'};
  Format(text, sizeof(text), "'%.16s'", name);
  CORE_CHECK_TEXT(text, "'cmd_dataxxxxxxxx'");
}

void FloatsAreSkippedNotMisread() {
  // The double is consumed, so the int after it still prints right.
  Format(text, sizeof(text), "%f %d %.2e %d", 1.5, 3, 2.0, 4);
  CORE_CHECK_TEXT(text, "? 3 ? 4");
}

void Truncation() {
  char small[8];
  CORE_CHECK(Format(small, sizeof(small), "%s", "abcdefghij") == 10);
  CORE_CHECK_TEXT(small, "abcdefg");
  CORE_CHECK(Format(small, sizeof(small), "%d", 1234567) == 7);
  CORE_CHECK_TEXT(small, "1234567");
  CORE_CHECK(Format(small, 1, "%d", 5) == 1);
  CORE_CHECK_TEXT(small, "");
  small[0] = 'x';
  CORE_CHECK(Format(small, 0, "abc") == 3);
  CORE_CHECK(small[0] == 'x');  // capacity 0: nothing written
}

}  // namespace

int main() {
  Conversions();
  WidthsAndFlags();
  Strings();
  FloatsAreSkippedNotMisread();
  Truncation();
  return ethosu_sdk::core_test::Finish("format_test");
}
