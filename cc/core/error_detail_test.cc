#include "cc/core/error_detail.h"

#include <cstring>

#include "cc/core/status.h"
#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::Status;
namespace error_detail = ethosu_sdk::error_detail;

TEST(ErrorDetail, StatusIsTwoWords) {
  // The limit for the firmware's error type, checked on each target
  // this test is built for (host and Cortex-M55).
  EXPECT_LE(sizeof(Status), 8u);
}

TEST(ErrorDetail, EachErrorKeepsItsOwnMessage) {
  const Status first = Status::Error(ErrorCode::kOutOfRange, "first %d", 1);
  const Status second = Status::Error(ErrorCode::kNotFound, "second %d", 2);
  EXPECT_STREQ(first.message(), "first 1");
  EXPECT_STREQ(second.message(), "second 2");
  const Status copy = second;
  EXPECT_STREQ(copy.message(), "second 2");
}

TEST(ErrorDetail, AMessageMayQuoteTheLatestOne) {
  // As the Ethos-U delegate does with the driver's: the new message is
  // written while the old one is read, so they must not share a record.
  const Status inner = Status::Error(ErrorCode::kNpuBusError, "read past region %d", 2);
  const Status outer = Status::Error(inner.code(), "Ethos-U: %s", inner.message());
  EXPECT_STREQ(outer.message(), "Ethos-U: read past region 2");
}

TEST(ErrorDetail, AReplacedMessageSaysSo) {
  const Status old = Status::Error(ErrorCode::kInternal, "old");
  for (size_t i = 0; i < error_detail::kErrorDetailRecords; ++i) {
    (void)Status::Error(ErrorCode::kInternal, "newer %d", static_cast<int>(i));
  }
  EXPECT_STREQ(old.message(), error_detail::kReplacedMessage);
  EXPECT_EQ(old.code(), ErrorCode::kInternal);  // the code is the Status's own
}

TEST(ErrorDetail, TicketsSkipZero) {
  // 0 means "no message": after 65535 tickets the count wraps past it.
  for (int i = 0; i < 70000; ++i) (void)Status::Error(ErrorCode::kInternal, "n");
  const Status last = Status::Error(ErrorCode::kOutOfMemory, "still %s", "found");
  EXPECT_STREQ(last.message(), "still found");
  EXPECT_STREQ(error_detail::Find(0), error_detail::kReplacedMessage);
}

}  // namespace
