#include "cc/core/span.h"

#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::Span;

constexpr int kFour[] = {1, 2, 3, 4};
static_assert(Span<const int>(kFour).subspan(1, 2).size() == 2, "usable in constant expressions");

TEST(Span, ViewsAnArray) {
  int values[] = {1, 2, 3, 4};
  const Span<int> span(values);
  EXPECT_TRUE(span.size() == 4 && span.data() == values && !span.empty());
  int sum = 0;
  for (int v : span) sum += v;
  EXPECT_TRUE(sum == 10);
  span[2] = 30;  // a view: writes reach the array
  EXPECT_TRUE(values[2] == 30);
  const Span<const int> read_only = span;
  EXPECT_TRUE(read_only.data() == values && read_only.size() == 4);
  EXPECT_TRUE(Span<int>().empty() && Span<int>().data() == nullptr);
}

TEST(Span, SubspansStayInside) {
  const Span<const int> span(kFour);
  const Span<const int> middle = span.subspan(1, 2);
  EXPECT_TRUE(middle.size() == 2 && middle[0] == 2 && middle[1] == 3);
  const Span<const int> tail = span.subspan(3);
  EXPECT_TRUE(tail.size() == 1 && tail[0] == 4);
  const Span<const int> clamped = span.subspan(2, 100);
  EXPECT_TRUE(clamped.size() == 2 && clamped.end() == span.end());
  const Span<const int> at_end = span.subspan(4);
  EXPECT_TRUE(at_end.empty() && at_end.data() == span.end());
  const Span<const int> past_end = span.subspan(9, 1);
  EXPECT_TRUE(past_end.empty() && past_end.data() == span.end());
  EXPECT_TRUE(span.subspan(1, 0).empty());
}

TEST(Span, EqualsComparesWholeText) {
  const char key[] = {'f', 'l', 'a', 'g', 's', 'X'};  // not NUL-terminated
  const Span<const char> flags(key, 5);
  EXPECT_TRUE(Equals(flags, "flags"));
  EXPECT_TRUE(!Equals(flags, "flag"));
  EXPECT_TRUE(!Equals(flags, "flagsX"));
  EXPECT_TRUE(!Equals(flags, "Flags"));
  EXPECT_TRUE(Equals(Span<const char>(), ""));
}

}  // namespace
