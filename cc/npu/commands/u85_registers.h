// Ethos-U85 command opcodes (facts from the public Vela register
// definitions). A command word has opcode bits 9:0, control bits 15:14
// (1: a 32-bit payload word follows) and parameter bits 31:16.
#pragma once

#include <cstdint>

namespace npu {
namespace u85 {

enum Cmd0 : uint16_t {
  kOpStop = 0, kOpIrq = 1, kOpConv = 2, kOpDepthwise = 3, kOpPool = 5,
  kOpElementwise = 6, kOpResize = 7, kOpDmaStart = 16, kOpDmaWait = 17,
  kOpKernelWait = 18, kOpPmuMask = 19,
  kIfmPadTop = 256, kIfmPadLeft = 257, kIfmPadRight = 258, kIfmPadBottom = 259,
  kIfmDepthM1 = 260, kIfmPrecision = 261, kIfmUpscale = 263, kIfmBroadcast = 264,
  kIfmZeroPoint = 265, kIfmWidth0M1 = 266, kIfmHeight0M1 = 267, kIfmHeight1M1 = 268,
  kIfmRegion = 271,
  kOfmWidthM1 = 273, kOfmHeightM1 = 274, kOfmDepthM1 = 275, kOfmPrecision = 276,
  kOfmBlkWidthM1 = 277, kOfmBlkHeightM1 = 278, kOfmBlkDepthM1 = 279, kOfmZeroPoint = 280,
  kOfmWidth0M1 = 282, kOfmHeight0M1 = 283, kOfmHeight1M1 = 284, kOfmRegion = 287,
  kKernelWidthM1 = 288, kKernelHeightM1 = 289, kKernelStride = 290, kAccFormat = 292,
  kActivation = 293, kActivationMin = 294, kActivationMax = 295, kWeightRegion = 296,
  kScaleRegion = 297, kResizeXScaleNM1 = 298, kResizeYScaleNM1 = 299, kResizeXOffset = 300,
  kResizeYOffset = 301, kWeightFormat = 302, kBlockDep = 303,
  kDma0SrcRegion = 304, kDma0DstRegion = 305, kDma0Size0 = 306, kDma0Size1 = 307,
  kDma0IdxRegion = 308,
  kIfm2Broadcast = 384, kIfm2Precision = 389, kIfm2ZeroPoint = 393, kIfm2Width0M1 = 394,
  kIfm2Height0M1 = 395, kIfm2Height1M1 = 396, kIfm2Region = 399,
};

enum Cmd1 : uint16_t {
  kIfmBase0 = 0, kIfmStrideX = 4, kIfmStrideY = 5, kIfmStrideC = 6,
  kOfmBase0 = 16, kOfmStrideX = 20, kOfmStrideY = 21, kOfmStrideC = 22,
  kWeightBase = 32, kWeightLength = 33, kScaleBase = 34, kScaleLength = 35,
  kOfmScale = 36, kIfmScale = 37, kIfm2Scale = 38, kOpScalar = 39,
  kDma0Src = 48, kDma0Dst = 49, kDma0Len = 50, kDma0SrcStride0 = 51, kDma0SrcStride1 = 52,
  kDma0DstStride0 = 53, kDma0DstStride1 = 54, kDma0Idx = 55, kDma0IdxMax = 56,
  kDma0IdxSkip1 = 57,
  kIfm2Base0 = 128, kIfm2StrideX = 132, kIfm2StrideY = 133, kIfm2StrideC = 134,
  kWeight1Base = 144, kWeight1Length = 145, kWeight2Base = 146, kWeight2Length = 147,
  kWeight3Base = 148, kWeight3Length = 149, kResizeX = 150, kResizeY = 151,
  kOpBranch = 256,
  // U65 only (same numbers as U85's WEIGHT2_BASE/LENGTH).
  kU65Scale1Base = 146, kU65Scale1Length = 147,
};

bool IsKnownCmd0(uint16_t opcode);
bool IsKnownCmd1(uint16_t opcode);

}  // namespace u85
}  // namespace npu
