// The error detail record: where Status::Error formats each error's message,
// so that the Status itself stays two words. A short ring of records, each
// tagged with a ticket that the Status carries; a message is readable until
// kErrorDetailRecords later errors have replaced it.
//
// Firmware: one static ring of two records (a message formatted from the
// latest one, as the Ethos-U delegate prefixes "Ethos-U: " to the driver's,
// is written into the other); the runner prints the latest with its
// ESDK ERROR line. Host: a thread_local ring of more, since tests hold several
// errors at once and tests run threads.
#ifndef ETHOSU_SDK_CC_CORE_ERROR_DETAIL_H_
#define ETHOSU_SDK_CC_CORE_ERROR_DETAIL_H_

#include <cstdarg>
#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::error_detail {

// Bare-metal Arm (arm-none-eabi) is the firmware; every other target a host.
#if defined(__arm__) && !defined(__linux__)
inline constexpr size_t kErrorDetailRecords = 2;
#else
inline constexpr size_t kErrorDetailRecords = 16;
#endif

// Longest message kept, with its NUL; a longer one ends in "...". The
// longest driver message fits.
inline constexpr size_t kMessageCapacity = 224;

// What message() gives for a ticket whose record was reused.
inline constexpr const char kReplacedMessage[] = "(message replaced by later errors)";

// Formats the message into the oldest record and returns its ticket (never 0).
uint16_t Record(const char* format, va_list args);

// The message of `ticket`, or kReplacedMessage once the record was reused.
const char* Find(uint16_t ticket);

}  // namespace ethosu_sdk::error_detail

#endif  // ETHOSU_SDK_CC_CORE_ERROR_DETAIL_H_
