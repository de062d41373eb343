#include "cc/core/status.h"

#include <cstring>

#include "cc/core/test_check.h"

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::ErrorCodeName;
using ethosu_sdk::Status;

void OkByDefault() {
  const Status status;
  CORE_CHECK(status.ok() && status.code() == ErrorCode::kOk);
  CORE_CHECK_TEXT(status.message(), "ok");
  CORE_CHECK(!status.has_command_offset());
  CORE_CHECK(Status::Ok().ok());
}

void FormatsItsReason() {
  const Status status = Status::Error(ErrorCode::kOutOfRange, "value index (%lld, %zu)", 12ll, size_t{9});
  CORE_CHECK(!status.ok() && status.code() == ErrorCode::kOutOfRange);
  CORE_CHECK_TEXT(status.message(), "value index (12, 9)");
  CORE_CHECK_TEXT(ErrorCodeName(status.code()), "OutOfRange");
}

void LongReasonsAreCutVisibly() {
  char word[Status::kMessageCapacity + 40];
  memset(word, 'a', sizeof(word) - 1);
  word[sizeof(word) - 1] = '\0';
  const Status cut = Status::Error(ErrorCode::kInvalidProgram, "%s", word);
  const char* message = cut.message();
  CORE_CHECK(strlen(message) == Status::kMessageCapacity - 1);
  CORE_CHECK(strcmp(message + strlen(message) - 4, "a...") == 0);

  // One character less than the buffer fits whole: no "...".
  word[Status::kMessageCapacity - 1] = '\0';
  const Status whole = Status::Error(ErrorCode::kInvalidProgram, "%s", word);
  CORE_CHECK(strlen(whole.message()) == Status::kMessageCapacity - 1);
  CORE_CHECK(strchr(whole.message(), '.') == nullptr);
}

void OkIsNotAnErrorCode() {
  const Status status = Status::Error(ErrorCode::kOk, "forgot the code");
  CORE_CHECK(!status.ok() && status.code() == ErrorCode::kInternal);
  CORE_CHECK_TEXT(status.message(), "forgot the code");
}

void CommandOffsetTravelsWithTheFailure() {
  const Status bus = Status::Error(ErrorCode::kNpuBusError, "read past region %d", 1).WithCommandOffset(120);
  CORE_CHECK(bus.has_command_offset() && bus.command_offset() == 120);
  CORE_CHECK(bus.code() == ErrorCode::kNpuBusError);
  CORE_CHECK_TEXT(bus.message(), "read past region 1");
  const Status copy = bus;
  CORE_CHECK(copy.command_offset() == 120);
  CORE_CHECK(!Status::Ok().WithCommandOffset(8).has_command_offset());
  CORE_CHECK(!bus.WithCommandOffset(Status::kNoCommandOffset).has_command_offset());
}

void EveryCodeHasItsOwnName() {
  const int last = static_cast<int>(ErrorCode::kInternal);
  for (int a = 0; a <= last; ++a) {
    const char* name = ErrorCodeName(static_cast<ErrorCode>(a));
    CORE_CHECK(strcmp(name, "Unknown") != 0);
    for (int b = 0; b < a; ++b) CORE_CHECK(strcmp(name, ErrorCodeName(static_cast<ErrorCode>(b))) != 0);
  }
  CORE_CHECK_TEXT(ErrorCodeName(ErrorCode::kNpuCommandStream), "NpuCommandStream");
  CORE_CHECK_TEXT(ErrorCodeName(static_cast<ErrorCode>(last + 1)), "Unknown");
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

void ReturnIfErrorStopsAtTheFirstFailure() {
  steps = 0;
  CORE_CHECK(ThreeSteps(false).ok() && steps == 3);
  steps = 0;
  const Status failed = ThreeSteps(true);
  CORE_CHECK(steps == 2 && failed.code() == ErrorCode::kNotFound);
  CORE_CHECK_TEXT(failed.message(), "step 2");
}

}  // namespace

int main() {
  OkByDefault();
  FormatsItsReason();
  LongReasonsAreCutVisibly();
  OkIsNotAnErrorCode();
  CommandOffsetTravelsWithTheFailure();
  EveryCodeHasItsOwnName();
  ReturnIfErrorStopsAtTheFirstFailure();
  return ethosu_sdk::core_test::Finish("status_test");
}
