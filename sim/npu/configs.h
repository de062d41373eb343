// Ethos-U hardware configurations the model runs: MAC count, cores (one
// weight decoder and weight stream per core) and, for U85, the OFM
// microblocks each configuration supports. Facts from Vela's architecture
// tables (ethos_u85.cpp AcceleratorConfig, ethos_u55.cpp/ethos_u65.cpp).
#pragma once

#include "sim/npu/types.h"

namespace ethosu_sdk::npu {

// Most weight streams any configuration uses (WEIGHT_BASE, WEIGHT1..3_BASE).
constexpr int kMaxWeightStreams = 4;

// Cores of a configuration, or 0 if the model does not know it.
int ConfigCores(const NpuConfig& config);

// U85 OFM microblock depth for ACC_FORMAT's microblock field (0: 1x1,
// 1: 1x2, 2: 1x4, 3: 2x2, 4: 2x4, 5: 4x4) on a U85 with `macs` MACs;
// 0 if that microblock does not exist on that configuration.
int U85MicroblockDepth(int macs, int microblock);

// U85 accumulator RAM in bytes (Vela's accRamSizeBytes: 8 KiB for 128
// MACs up to 128 KiB for 2048); 0 for an unknown configuration. Bounds the
// accumulators an operation may leave for the next (accumulator chaining).
int U85AccumulatorBytes(int macs);

// SHRAM of a U55/U65 core with `macs` MACs (per core), in 1 KiB banks:
// Vela's shram size (16 KiB for 32 and 64 MACs, 24 for 128, 48 for 256).
constexpr int kShramBankBytes = 1024;
int U55ShramBanks(int macs);

// U55/U65 OFM microblock depth per core (the weight encoder's OFM
// microblock; IFM microblock is 8 on every configuration).
int U55MicroblockDepth(int macs);

}  // namespace ethosu_sdk::npu
