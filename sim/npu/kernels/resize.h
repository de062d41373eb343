// Resize kernel (U85 NPU_OP_RESIZE): nearest and bilinear, TOSA RESIZE's
// integer arithmetic.
#pragma once

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

// The fractional bits of the resize unit's accumulator: what it adds to
// the TOSA integer result before the OFM scale (see resize.cc).
constexpr int kResizeFractionBits = 16;

void RunResize(const Operation& op);

}  // namespace ethosu_sdk::npu
