// IFM_UPSCALE's copy: the stored IFM upscaled 2x in H and W into the
// dense map the operation's kernel reads (operations/build_ifm_upscale.h).
#pragma once

#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

void UpscaleIfm(const Operation& op);

}  // namespace ethosu_sdk::npu
