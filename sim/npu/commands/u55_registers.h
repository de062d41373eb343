// Ethos-U55/U65 register differences from the U85 layout (u85_registers.h):
// opcodes only the U55 command set has, and fields that sit at other bits
// or mean other things. Facts from the public Vela register definitions.
#pragma once

#include <cstdint>

#include "sim/npu/commands/u85_registers.h"

namespace ethosu_sdk::npu {
namespace u55 {

using namespace u85;  // shared opcode numbers and fields

enum Cmd0U55 : uint16_t {
  kIbEnd = 269,
  kParallelMode = 291,
  kAbStart = 301,
  kIfm2Scalar = 385,
  kIbStart = 397,
};

// Opcodes the U55/U65 command set has and U85's has not.
inline bool IsU55OnlyCmd0(uint16_t op) {
  return op == kIbEnd || op == kParallelMode || op == kAbStart || op == kIfm2Scalar ||
         op == kIbStart;
}

// Precision bits 15:14 are the rounding mode (U85: storage).
constexpr Field kIfmRound{kIfmPrecision, 14, 2};
constexpr Field kIfmScaleMode{kIfmPrecision, 8, 2};
constexpr Field kOfmRound{kOfmPrecision, 14, 2};
enum ScaleMode : uint32_t { kScaleOpaOpb16 = 0, kScaleOpa32 = 1, kScaleOpb32 = 2 };
enum Round : uint32_t { kRoundDouble = 0, kRoundTruncate = 1, kRoundNatural = 2 };

// IFM2_BROADCAST: H/W/C broadcast bits 2:0, operand order and scalar.
constexpr Field kIfm2BroadcastAxes{kIfm2Broadcast, 0, 3};
constexpr Field kIfm2OperandOrder{kIfm2Broadcast, 6, 1};  // 1: IFM2 is operand A
constexpr Field kIfm2IsScalar{kIfm2Broadcast, 7, 1};

// ACTIVATION clip range bits 14:12 (U85: bit 12, no clip).
constexpr Field kActivationClipRange{kActivation, 12, 3};
enum ClipRange : uint32_t {
  kClipOfm = 0,
  kClipForceUint8 = 2,
  kClipForceInt8 = 3,
  kClipForceInt16 = 5
};
constexpr uint32_t kActivationTanh = 3, kActivationSigmoid = 4, kActivationTable0 = 16,
                   kActivationTable7 = 23;

constexpr Field kAccFormatType{kAccFormat, 0, 2};  // 0 32-bit, 1 40-bit, 2 FP16

// U65 2-D/3-D DMA mode sits in the destination region's bits 10:9.
constexpr Field kDmaDstStrideMode{kDma0DstRegion, 9, 2};

// IFM_SCALE payload: OPA scale (32-bit); IFM2_SCALE payload: OPB scale (16-bit).
constexpr uint32_t kOpbScaleMask = 0xFFFF;

}  // namespace u55
}  // namespace ethosu_sdk::npu
