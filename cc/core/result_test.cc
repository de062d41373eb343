#include "cc/core/result.h"

#include <utility>

#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::Result;
using ethosu_sdk::Status;

// No default constructor, and counts live objects to catch a missed or a
// double destruction.
struct Counted {
  explicit Counted(int v) : value(v) { ++live; }
  Counted(const Counted& other) : value(other.value) { ++live; }
  Counted& operator=(const Counted&) = default;
  ~Counted() { --live; }
  int value;
  static int live;
};
int Counted::live = 0;

struct MoveOnly {
  explicit MoveOnly(int v) : value(v) {}
  MoveOnly(MoveOnly&& other) : value(other.value) { other.value = -1; }
  MoveOnly(const MoveOnly&) = delete;
  int value;
};

Status NotFound() { return Status::Error(ErrorCode::kNotFound, "no method: %s", "train"); }

TEST(Result, HoldsAValue) {
  const Result<int> r = 5;
  EXPECT_TRUE(r.ok() && r.value() == 5 && *r == 5);
  EXPECT_TRUE(r.status().ok());
}

TEST(Result, HoldsAnError) {
  const Result<int> r = NotFound();
  EXPECT_TRUE(!r.ok() && r.status().code() == ErrorCode::kNotFound);
  EXPECT_STREQ(r.status().message(), "no method: train");
}

TEST(Result, AnOkStatusIsNotAValue) {
  const Result<int> r = Status::Ok();
  EXPECT_TRUE(!r.ok() && r.status().code() == ErrorCode::kInternal);
}

TEST(Result, NoDefaultConstructorAndBalancedLifetimes) {
  {
    Result<Counted> a = Counted(3);
    EXPECT_TRUE(a.ok() && a->value == 3 && Counted::live == 1);
    Result<Counted> b = a;
    EXPECT_TRUE(b->value == 3 && Counted::live == 2);
    b = Result<Counted>(NotFound());  // the value in b goes
    EXPECT_TRUE(!b.ok() && Counted::live == 1);
    b = a;  // and comes back
    EXPECT_TRUE(b.ok() && b->value == 3 && Counted::live == 2);
    Result<Counted> c = NotFound();
    EXPECT_TRUE(Counted::live == 2);
  }
  EXPECT_TRUE(Counted::live == 0);
}

TEST(Result, MovesOutAMoveOnlyValue) {
  Result<MoveOnly> r = MoveOnly(4);
  MoveOnly taken = std::move(r).value();
  EXPECT_TRUE(taken.value == 4);
}

Result<int> Half(int v) {
  if (v % 2 != 0) return Status::Error(ErrorCode::kInvalidArgument, "%d is odd", v);
  return v / 2;
}

// Two uses in one function: each gets its own hidden variable.
Status Quarter(int v, int* out) {
  ESDK_ASSIGN_OR_RETURN(const int half, Half(v));
  ESDK_ASSIGN_OR_RETURN(*out, Half(half));
  return Status::Ok();
}

Result<MoveOnly> Wrap(int v) {
  ESDK_ASSIGN_OR_RETURN(const int half, Half(v));
  return MoveOnly(half);
}

TEST(Result, AssignOrReturn) {
  int quarter = 0;
  EXPECT_TRUE(Quarter(12, &quarter).ok() && quarter == 3);
  quarter = 0;
  const Status odd = Quarter(6, &quarter);  // 6 -> 3, odd
  EXPECT_TRUE(odd.code() == ErrorCode::kInvalidArgument && quarter == 0);
  EXPECT_STREQ(odd.message(), "3 is odd");
  EXPECT_TRUE(Wrap(8).ok() && Wrap(8)->value == 4);
  EXPECT_TRUE(!Wrap(7).ok());
}

}  // namespace
