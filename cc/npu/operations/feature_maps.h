// IFM, IFM2 and OFM descriptions from their registers. Bounds are checked
// later, by the operation, on the box it actually reads or writes.
#pragma once

#include "cc/npu/operations/context.h"
#include "cc/npu/operations/feature_map.h"

namespace ethosu_sdk::npu {

Status DecodeIfm(const Context& ctx, bool second, FeatureMap* fm);
// A chained OFM (U85) takes a new chain buffer from the workspace.
Status DecodeOfm(Context& ctx, FeatureMap* fm);

}  // namespace ethosu_sdk::npu
