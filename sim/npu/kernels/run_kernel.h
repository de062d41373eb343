// Runs a validated operation's kernel.
#pragma once

#include <cstddef>

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

// Whether the operation's kernel needs scratch from the workspace (only
// convolutions and matmuls do), and how many bytes.
bool KernelScratchBytes(const Operation& op, size_t* bytes);

void RunKernel(const Operation& op);

}  // namespace ethosu_sdk::npu
