// Errors as values: a Status carries a short formatted message, no heap.
#pragma once

#include "cc/support/formatted_status.h"

namespace npu {

using Status = ::ethosu_sdk::FormattedStatus;

}  // namespace npu

// Propagates a failed Status to the caller.
#define NPU_RETURN_IF_ERROR(expr)        \
  do {                                   \
    ::npu::Status npu_status_ = (expr);  \
    if (!npu_status_.ok()) return npu_status_; \
  } while (0)
