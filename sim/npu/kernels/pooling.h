// Pooling kernels: max, min, average, sum, reduce-sum over a window, and
// pooling mode NONE (accumulators loaded from IFM2).
#pragma once

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

void RunPooling(const Operation& op);
void RunNullPool(const Operation& op);

}  // namespace ethosu_sdk::npu
