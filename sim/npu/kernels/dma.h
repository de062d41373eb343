// NPU_OP_DMA_START: a 1-D copy between regions, or into LUT memory.
#pragma once

#include "sim/npu/operations/context.h"

namespace ethosu_sdk::npu {

Status RunDma(Context& ctx, RunStats* stats);

}  // namespace ethosu_sdk::npu
