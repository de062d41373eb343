// The framework's comparisons and value printing, on the host and in
// firmware (the printing goes through format.h, which differs by target).
// That a failing check fails the run: unit_test_failures_test.
#include "cc/testing/unit_test.h"

#include <cstdint>

namespace {

using ethosu_sdk::testing::Equal;
using ethosu_sdk::testing::Less;
using ethosu_sdk::testing::Printed;
using ethosu_sdk::testing::TextEqual;

enum class Colour : uint8_t { kRed = 2 };

TEST(UnitTest, MixedSignsCompareByValue) {
  EXPECT_TRUE(Equal(3, 3u));
  EXPECT_FALSE(Equal(-1, 0xFFFFFFFFu));  // not equal once converted
  EXPECT_FALSE(Equal(0xFFFFFFFFFFFFFFFFull, -1ll));
  EXPECT_TRUE(Less(-1, 0u));
  EXPECT_FALSE(Less(0u, -1));
  EXPECT_TRUE(Less(2u, 3));
}

TEST(UnitTest, TextComparesContents) {
  const char a[] = "abc";
  const char b[] = "abc";
  EXPECT_TRUE(TextEqual(a, b));
  EXPECT_FALSE(TextEqual(a, "abd"));
  EXPECT_FALSE(TextEqual(a, nullptr));
  EXPECT_TRUE(TextEqual(nullptr, nullptr));
  EXPECT_STREQ(a, b);
  EXPECT_STRNE(a, "ab");
}

TEST(UnitTest, PrintsValuesAsTheyRead) {
  EXPECT_STREQ(Printed::Of(-42).text(), "-42");
  EXPECT_STREQ(Printed::Of(uint64_t{18446744073709551615u}).text(), "18446744073709551615");
  EXPECT_STREQ(Printed::Of(true).text(), "true");
  EXPECT_STREQ(Printed::Of(Colour::kRed).text(), "2");
  EXPECT_STREQ(Printed::Of("hi").text(), "\"hi\"");
  EXPECT_STREQ(Printed::Of(static_cast<const char*>(nullptr)).text(), "NULL");
  EXPECT_STREQ(Printed::Of(1.25f).text(), "1.250000");
  EXPECT_STREQ(Printed::Of(-0.5).text(), "-0.500000");
  EXPECT_STREQ(Printed::Of(reinterpret_cast<const int*>(0x1000)).text(), "0x1000");
}

int steps_after_assert = 0;

TEST(UnitTest, AssertPassesOn) {
  ASSERT_EQ(2 + 2, 4);
  ASSERT_TRUE(true) << "not printed";
  ++steps_after_assert;
  EXPECT_EQ(steps_after_assert, 1);
}

TEST(UnitTest, ComparisonMacros) {
  EXPECT_EQ(7, 7);
  EXPECT_NE(7, 8);
  EXPECT_LT(-3, 2u);
  EXPECT_LE(2, 2);
  EXPECT_GT(3.5, 3.25);
  EXPECT_GE(uint8_t{9}, 9);
  if (steps_after_assert == 1)
    EXPECT_TRUE(true);  // no dangling else
  else
    ADD_FAILURE() << "the else belongs to the if";
}

}  // namespace
