// Convolution, depthwise convolution and matmul kernels, and the packing
// of decoded weights into the order they read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

// Scratch bytes the kernel needs for this operation.
size_t ConvolutionScratchBytes(const Operation& op);
void RunConvolution(const Operation& op);
size_t MatMulScratchBytes(const Operation& op);
void RunMatMul(const Operation& op);

}  // namespace ethosu_sdk::npu
