// Runs a validated operation's kernel.
#pragma once

#include "cc/npu/operations/operation.h"

namespace ethosu_sdk::npu {

void RunKernel(const Operation& op);

}  // namespace ethosu_sdk::npu
