// Which opcodes the U85 command set defines (gaps in the numbering are
// reserved and rejected as the hardware's parser would).
#include "sim/npu/commands/u85_registers.h"

namespace ethosu_sdk::npu {
namespace u85 {
namespace {

// Reserved numbers inside the defined ranges.
constexpr uint16_t kReservedOp = 4;
bool ReservedCmd0(uint16_t op) {
  return op == 262 || op == 269 || op == 270 || op == 281 || op == 285 || op == 286 || op == 291;
}

}  // namespace

bool IsKnownCmd0(uint16_t op) {
  if (ReservedCmd0(op)) return false;
  return op <= kOpResize
             ? op != kReservedOp
             : (op >= kOpDmaStart && op <= kOpPmuMask) || (op >= kIfmPadTop && op <= kIfmRegion) ||
                   (op >= kOfmWidthM1 && op <= kOfmRegion) ||
                   (op >= kKernelWidthM1 && op <= kDma0IdxRegion) || op == kIfm2Broadcast ||
                   op == kIfm2Precision || op == kIfm2ZeroPoint ||
                   (op >= kIfm2Width0M1 && op <= kIfm2Height1M1) || op == kIfm2Region;
}

bool IsKnownCmd1(uint16_t op) {
  return op <= kIfmStrideC || (op >= kOfmBase0 && op <= kOfmStrideC) ||
         (op >= kWeightBase && op <= kOpScalar) || (op >= kDma0Src && op <= kDma0IdxSkip1) ||
         (op >= kIfm2Base0 && op <= kIfm2StrideC) || (op >= kWeight1Base && op <= kResizeY) ||
         op == kOpBranch;
}

}  // namespace u85
}  // namespace ethosu_sdk::npu
