// Convolution, depthwise convolution and matmul kernels, and the packing
// of decoded weights into the order they read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

// Weights the packed form holds (zero padding included); sets the row
// sizes of `packed`.
size_t PackedWeightCount(bool depthwise, int ofm_depth, int taps, int ifm_depth,
                         PackedWeights* packed);
// From canonical [ofm][ky][kx][ifm] to packed (see PackedWeights); for
// convolutions `canonical` may be `out` itself (packed in place).
void PackWeights(bool depthwise, int ofm_depth, int taps, const int16_t* canonical,
                 const PackedWeights& packed, int16_t* out);

// Scratch bytes the kernel needs for this operation.
size_t ConvolutionScratchBytes(const Operation& op);
void RunConvolution(const Operation& op);
size_t MatMulScratchBytes(const Operation& op);
void RunMatMul(const Operation& op);

}  // namespace ethosu_sdk::npu
