#include "cc/core/status.h"

#include <cstring>

#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::ErrorCodeName;
using ethosu_sdk::Status;

TEST(Status, OkByDefault) {
  const Status status;
  EXPECT_TRUE(status.ok() && status.code() == ErrorCode::kOk);
  EXPECT_STREQ(status.message(), "ok");
  EXPECT_TRUE(!status.has_command_offset());
  EXPECT_TRUE(Status::Ok().ok());
}

TEST(Status, FormatsItsReason) {
  const Status status =
      Status::Error(ErrorCode::kOutOfRange, "value index (%lld, %zu)", 12ll, size_t{9});
  EXPECT_TRUE(!status.ok() && status.code() == ErrorCode::kOutOfRange);
  EXPECT_STREQ(status.message(), "value index (12, 9)");
  EXPECT_STREQ(ErrorCodeName(status.code()), "OutOfRange");
}

TEST(Status, LongReasonsAreCutVisibly) {
  char word[Status::kMessageCapacity + 40];
  memset(word, 'a', sizeof(word) - 1);
  word[sizeof(word) - 1] = '\0';
  const Status cut = Status::Error(ErrorCode::kInvalidProgram, "%s", word);
  const char* message = cut.message();
  EXPECT_TRUE(strlen(message) == Status::kMessageCapacity - 1);
  EXPECT_TRUE(strcmp(message + strlen(message) - 4, "a...") == 0);

  // One character less than the buffer fits whole: no "...".
  word[Status::kMessageCapacity - 1] = '\0';
  const Status whole = Status::Error(ErrorCode::kInvalidProgram, "%s", word);
  EXPECT_TRUE(strlen(whole.message()) == Status::kMessageCapacity - 1);
  EXPECT_TRUE(strchr(whole.message(), '.') == nullptr);
}

TEST(Status, OkIsNotAnErrorCode) {
  const Status status = Status::Error(ErrorCode::kOk, "forgot the code");
  EXPECT_TRUE(!status.ok() && status.code() == ErrorCode::kInternal);
  EXPECT_STREQ(status.message(), "forgot the code");
}

TEST(Status, CommandOffsetTravelsWithTheFailure) {
  const Status bus =
      Status::Error(ErrorCode::kNpuBusError, "read past region %d", 1).WithCommandOffset(120);
  EXPECT_TRUE(bus.has_command_offset() && bus.command_offset() == 120);
  EXPECT_TRUE(bus.code() == ErrorCode::kNpuBusError);
  EXPECT_STREQ(bus.message(), "read past region 1");
  const Status copy = bus;
  EXPECT_TRUE(copy.command_offset() == 120);
  EXPECT_TRUE(!Status::Ok().WithCommandOffset(8).has_command_offset());
  EXPECT_TRUE(!bus.WithCommandOffset(Status::kNoCommandOffset).has_command_offset());
}

TEST(Status, EveryCodeHasItsOwnName) {
  const int last = static_cast<int>(ErrorCode::kInternal);
  for (int a = 0; a <= last; ++a) {
    const char* name = ErrorCodeName(static_cast<ErrorCode>(a));
    EXPECT_TRUE(strcmp(name, "Unknown") != 0);
    for (int b = 0; b < a; ++b)
      EXPECT_TRUE(strcmp(name, ErrorCodeName(static_cast<ErrorCode>(b))) != 0);
  }
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kNpuCommandStream), "NpuCommandStream");
  EXPECT_STREQ(ErrorCodeName(static_cast<ErrorCode>(last + 1)), "Unknown");
}

int steps = 0;

Status Step(bool fail) {
  ++steps;
  return fail ? Status::Error(ErrorCode::kNotFound, "step %d", steps) : Status::Ok();
}

Status ThreeSteps(bool fail_second) {
  ESDK_RETURN_IF_ERROR(Step(false));
  ESDK_RETURN_IF_ERROR(Step(fail_second));
  ESDK_RETURN_IF_ERROR(Step(false));
  return Status::Ok();
}

TEST(Status, ReturnIfErrorStopsAtTheFirstFailure) {
  steps = 0;
  EXPECT_TRUE(ThreeSteps(false).ok() && steps == 3);
  steps = 0;
  const Status failed = ThreeSteps(true);
  EXPECT_TRUE(steps == 2 && failed.code() == ErrorCode::kNotFound);
  EXPECT_STREQ(failed.message(), "step 2");
}

}  // namespace
