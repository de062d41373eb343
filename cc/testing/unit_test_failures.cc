// Failing checks on purpose, for unit_test_failures_test: each kind of check
// must print its file, line, values and message, an ASSERT must end its test,
// and the run must end "2 passed, 3 failed" with exit status 1.
#include "cc/testing/unit_test.h"

namespace {

int after_assert = 0;

TEST(Failing, ExpectGoesOn) {
  EXPECT_EQ(1 + 1, 3) << "sum of " << 1 << " and " << 1;
  EXPECT_STREQ("abc", "abd");
  EXPECT_TRUE(after_assert == 0);  // passes: the two above fail the test
}

TEST(Failing, AssertStops) {
  ASSERT_LT(5, 4u) << "five is not less than four";
  ++after_assert;
}

TEST(Passing, AfterAFailedAssert) { EXPECT_EQ(after_assert, 0); }

TEST(Failing, Explicit) { FAIL() << "why: " << -7; }

TEST(Passing, Last) { EXPECT_NE(1, 2); }

}  // namespace
