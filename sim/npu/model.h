// The functional model's API: run a Vela command stream against base-pointer
// regions. Bit-exact, not cycle-accurate; implemented in model.cc, on top of
// every layer (README.md). Its types are in types.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "sim/npu/types.h"

namespace ethosu_sdk::npu {

// Executes `num_words` 32-bit command words (the register stream without the
// driver payload header). Every address is checked against its region.
Status RunCommandStream(const NpuConfig& config, const uint32_t* words, size_t num_words,
                        const Region (&regions)[kNumRegions], Workspace workspace, RunStats* stats,
                        const RunLimits& limits = RunLimits(),
                        const OperationObserver* observer = nullptr);

}  // namespace ethosu_sdk::npu
