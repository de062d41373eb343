// The board's Ethos-U as an Npu (firmware only): the driver on volatile MMIO
// at the board's NPU address (platform::BoardNpu), completion by the NPU's
// interrupt with WFI, time from the board timer.
#pragma once

#include "cc/backends/ethosu/driver_npu.h"

namespace ethosu_sdk::backends::ethosu {

// Job timeout in board time; override with -DESDK_NPU_TIMEOUT_MS=<ms>.
#ifndef ESDK_NPU_TIMEOUT_MS
#define ESDK_NPU_TIMEOUT_MS 5000
#endif

// The one instance, created on first use (its interrupt attached then).
DriverNpu& BoardDriverNpu();

}  // namespace ethosu_sdk::backends::ethosu
