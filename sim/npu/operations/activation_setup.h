// ACC_FORMAT and ACTIVATION for an operation: which accumulator input and
// format it uses, and the activation stage (clip, LUT) its output takes;
// where a DMA to the NPU's internal memory lands in LUT memory.
#pragma once

#include <cstdint>

#include "cc/core/status.h"
#include "sim/npu/commands/register_file.h"
#include "sim/npu/memory/feature_map.h"
#include "sim/npu/output/activation.h"
#include "sim/npu/types.h"

namespace ethosu_sdk::npu {

// Where an operation's accumulators come from: its own arithmetic, loaded
// from IFM2 (pooling mode NONE), or either (a convolution may start from
// IFM2's accumulators: Vela's CONV3D; a convolution alone may also chain
// them, ACC_INPUT KEEP and ACC_OUTPUT disabled); U85 elementwise operations
// do not use ACC_FORMAT's input (kUnchecked), but refuse chaining too.
enum class Accumulators { kFromOperation, kFromIfm2, kFromOperationOrIfm2, kUnchecked };

// Checks ACC_FORMAT and sets up the activation stage; `lut`: LUT memory.
Status PrepareOutput(const NpuConfig& config, const RegisterFile& regs, const uint8_t* lut,
                     const FeatureMap& ofm, Accumulators accumulators, ActivationStage* stage);

// The LUT memory bytes a DMA to internal memory at `address` fills.
Status LutDestination(const NpuConfig& config, uint64_t address, uint64_t length, uint64_t* offset);

}  // namespace ethosu_sdk::npu
