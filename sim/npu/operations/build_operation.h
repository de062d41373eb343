// From the register file to a validated Operation, one builder per
// operation family; each checks what its kernel will touch before the
// kernel runs.
#pragma once

#include <cstdint>

#include "sim/npu/operations/context.h"
#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

// NPU_OP_CONV (param bit 0: weights from IFM2) and NPU_OP_DEPTHWISE.
Status BuildConvolution(Context& ctx, bool depthwise, Operation* op);
Status BuildMatMul(Context& ctx, Operation* op);
// NPU_OP_POOL with its pooling mode.
Status BuildPooling(Context& ctx, int mode, Operation* op);
// NPU_OP_ELEMENTWISE with its mode.
Status BuildElementwise(Context& ctx, int mode, Operation* op);

// NPU_OP_RESIZE (U85) with its mode.
Status BuildResize(Context& ctx, int mode, Operation* op);

}  // namespace ethosu_sdk::npu
