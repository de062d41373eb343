// IFM, IFM2 and OFM descriptions from their registers. Bounds are checked
// later, by the operation, on the box it actually reads or writes.
#pragma once

#include "sim/npu/memory/feature_map.h"
#include "sim/npu/operations/context.h"

namespace ethosu_sdk::npu {

// 64-bit (signed) maps only where the operation says it takes them (U85:
// a resize's OFM, the accumulators pooling mode NONE loads from IFM2).
enum class Allow64 { kNo, kYes };
Status DecodeIfm(const Context& ctx, bool second, FeatureMap* fm, Allow64 allow = Allow64::kNo);
// A chained OFM (U85) takes a new chain buffer from the workspace.
Status DecodeOfm(Context& ctx, FeatureMap* fm, Allow64 allow = Allow64::kNo);

}  // namespace ethosu_sdk::npu
