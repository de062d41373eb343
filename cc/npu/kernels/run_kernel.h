// Runs a validated operation's kernel.
#pragma once

#include "cc/npu/operations/operation.h"

namespace npu {

void RunKernel(const Operation& op);

}  // namespace npu
