// Elementwise kernels: MUL, ADD, SUB, MIN, MAX, ABS, shifts and CLZ with
// broadcast and scalar operands, U85 (IFM/IFM2 scales; also comparisons and
// bit operations, elementwise_logic.h) and U55/U65 (OPA/OPB scaling).
#pragma once

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

void RunElementwise(const Operation& op);
void RunElementwiseU55(const Operation& op);

}  // namespace ethosu_sdk::npu
