#include "cc/core/span.h"

#include "cc/core/test_check.h"

namespace {

using ethosu_sdk::Span;

constexpr int kFour[] = {1, 2, 3, 4};
static_assert(Span<const int>(kFour).subspan(1, 2).size() == 2, "usable in constant expressions");

void ViewsAnArray() {
  int values[] = {1, 2, 3, 4};
  const Span<int> span(values);
  CORE_CHECK(span.size() == 4 && span.data() == values && !span.empty());
  int sum = 0;
  for (int v : span) sum += v;
  CORE_CHECK(sum == 10);
  span[2] = 30;  // a view: writes reach the array
  CORE_CHECK(values[2] == 30);
  const Span<const int> read_only = span;
  CORE_CHECK(read_only.data() == values && read_only.size() == 4);
  CORE_CHECK(Span<int>().empty() && Span<int>().data() == nullptr);
}

void SubspansStayInside() {
  const Span<const int> span(kFour);
  const Span<const int> middle = span.subspan(1, 2);
  CORE_CHECK(middle.size() == 2 && middle[0] == 2 && middle[1] == 3);
  const Span<const int> tail = span.subspan(3);
  CORE_CHECK(tail.size() == 1 && tail[0] == 4);
  const Span<const int> clamped = span.subspan(2, 100);
  CORE_CHECK(clamped.size() == 2 && clamped.end() == span.end());
  const Span<const int> at_end = span.subspan(4);
  CORE_CHECK(at_end.empty() && at_end.data() == span.end());
  const Span<const int> past_end = span.subspan(9, 1);
  CORE_CHECK(past_end.empty() && past_end.data() == span.end());
  CORE_CHECK(span.subspan(1, 0).empty());
}

void EqualsComparesWholeText() {
  const char key[] = {'f', 'l', 'a', 'g', 's', 'X'};  // not NUL-terminated
  const Span<const char> flags(key, 5);
  CORE_CHECK(Equals(flags, "flags"));
  CORE_CHECK(!Equals(flags, "flag"));
  CORE_CHECK(!Equals(flags, "flagsX"));
  CORE_CHECK(!Equals(flags, "Flags"));
  CORE_CHECK(Equals(Span<const char>(), ""));
}

}  // namespace

int main() {
  ViewsAnArray();
  SubspansStayInside();
  EqualsComparesWholeText();
  return ethosu_sdk::core_test::Finish("span_test");
}
