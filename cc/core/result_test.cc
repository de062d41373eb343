#include "cc/core/result.h"

#include <utility>

#include "cc/core/test_check.h"

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

void HoldsAValue() {
  const Result<int> r = 5;
  CORE_CHECK(r.ok() && r.value() == 5 && *r == 5);
  CORE_CHECK(r.status().ok());
}

void HoldsAnError() {
  const Result<int> r = NotFound();
  CORE_CHECK(!r.ok() && r.status().code() == ErrorCode::kNotFound);
  CORE_CHECK_TEXT(r.status().message(), "no method: train");
}

void AnOkStatusIsNotAValue() {
  const Result<int> r = Status::Ok();
  CORE_CHECK(!r.ok() && r.status().code() == ErrorCode::kInternal);
}

void NoDefaultConstructorAndBalancedLifetimes() {
  {
    Result<Counted> a = Counted(3);
    CORE_CHECK(a.ok() && a->value == 3 && Counted::live == 1);
    Result<Counted> b = a;
    CORE_CHECK(b->value == 3 && Counted::live == 2);
    b = Result<Counted>(NotFound());  // the value in b goes
    CORE_CHECK(!b.ok() && Counted::live == 1);
    b = a;  // and comes back
    CORE_CHECK(b.ok() && b->value == 3 && Counted::live == 2);
    Result<Counted> c = NotFound();
    CORE_CHECK(Counted::live == 2);
  }
  CORE_CHECK(Counted::live == 0);
}

void MovesOutAMoveOnlyValue() {
  Result<MoveOnly> r = MoveOnly(4);
  MoveOnly taken = std::move(r).value();
  CORE_CHECK(taken.value == 4);
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

void AssignOrReturn() {
  int quarter = 0;
  CORE_CHECK(Quarter(12, &quarter).ok() && quarter == 3);
  quarter = 0;
  const Status odd = Quarter(6, &quarter);  // 6 -> 3, odd
  CORE_CHECK(odd.code() == ErrorCode::kInvalidArgument && quarter == 0);
  CORE_CHECK_TEXT(odd.message(), "3 is odd");
  CORE_CHECK(Wrap(8).ok() && Wrap(8)->value == 4);
  CORE_CHECK(!Wrap(7).ok());
}

}  // namespace

int main() {
  HoldsAValue();
  HoldsAnError();
  AnOkStatusIsNotAValue();
  NoDefaultConstructorAndBalancedLifetimes();
  MovesOutAMoveOnlyValue();
  AssignOrReturn();
  return ethosu_sdk::core_test::Finish("result_test");
}
