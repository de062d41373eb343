// Elementwise kernels: MUL, ADD, SUB, MIN, MAX with broadcast and scalar
// operands, U85 (IFM/IFM2 scales) and U55/U65 (OPA/OPB scaling).
#pragma once

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

void RunElementwise(const Operation& op);
void RunElementwiseU55(const Operation& op);

}  // namespace ethosu_sdk::npu
