// An operation's constants: per-channel scale records and packed
// convolution weights, decoded from their streams once and kept in the
// weight cache across runs (or decoded into the workspace when there is no
// cache or it cannot hold them).
#pragma once

#include "sim/npu/operations/context.h"
#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

struct ConstantsRequest {
  bool scales = false;   // per-channel records for op->ofm.depth channels
  bool weights = false;  // convolution weights
  bool depthwise = false;
  int ifm_depth = 0;
};

Status LoadConstants(Context& ctx, const ConstantsRequest& request, Operation* op);

}  // namespace ethosu_sdk::npu
