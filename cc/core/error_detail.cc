#include "cc/core/error_detail.h"

#include "cc/core/format.h"

namespace ethosu_sdk::error_detail {
namespace {

struct DetailRecord {
  uint16_t ticket = 0;  // 0: never written
  char text[kMessageCapacity] = {};
};

struct DetailRing {
  uint16_t last_ticket = 0;
  DetailRecord records[kErrorDetailRecords];
};

// thread_local needs the C library's TLS support, which bare-metal newlib
// does not set up: the firmware runs one thread anyway.
#if defined(__arm__) && !defined(__linux__)
DetailRing ring;
#else
thread_local DetailRing ring;
#endif

DetailRecord& RecordOf(uint16_t ticket) { return ring.records[ticket % kErrorDetailRecords]; }

}  // namespace

uint16_t Record(const char* format, va_list args) {
  uint16_t ticket = static_cast<uint16_t>(ring.last_ticket + 1);
  if (ticket == 0) ticket = 1;  // 0 means "no message"
  DetailRecord& record = RecordOf(ticket);
  const size_t length = FormatV(record.text, kMessageCapacity, format, args);
  if (length >= kMessageCapacity) {
    // Cut: say so, so that nobody reads a clipped number as the value.
    char* end = record.text + kMessageCapacity - 1;
    end[-3] = end[-2] = end[-1] = '.';
  }
  record.ticket = ticket;
  ring.last_ticket = ticket;
  return ticket;
}

const char* Find(uint16_t ticket) {
  const DetailRecord& record = RecordOf(ticket);
  return ticket != 0 && record.ticket == ticket ? record.text : kReplacedMessage;
}

}  // namespace ethosu_sdk::error_detail
