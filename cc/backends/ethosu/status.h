// The backend's errors (payload parser, NPU interface).
#pragma once

#include "cc/support/formatted_status.h"

namespace ethosu {

using Status = ::ethosu_sdk::FormattedStatus;

}  // namespace ethosu

// Propagates a failed ethosu::Status to the caller.
#define ETHOSU_RETURN_IF_ERROR(expr)                 \
  do {                                               \
    ::ethosu::Status ethosu_status_ = (expr);        \
    if (!ethosu_status_.ok()) return ethosu_status_; \
  } while (0)
