// Runs a validated operation's kernel.
#pragma once

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

void RunKernel(const Operation& op);

}  // namespace ethosu_sdk::npu
