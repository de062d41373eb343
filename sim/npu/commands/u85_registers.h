// Ethos-U85 command opcodes (facts from the public Vela register
// definitions). A command word has opcode bits 9:0, control bits 15:14
// (1: a 32-bit payload word follows) and parameter bits 31:16.
#pragma once

#include <cstdint>

#include "sim/npu/commands/register_file.h"

namespace ethosu_sdk::npu {
namespace u85 {

enum Cmd0 : uint16_t {
  kOpStop = 0,
  kOpIrq = 1,
  kOpConv = 2,
  kOpDepthwise = 3,
  kOpPool = 5,
  kOpElementwise = 6,
  kOpResize = 7,
  kOpDmaStart = 16,
  kOpDmaWait = 17,
  kOpKernelWait = 18,
  kOpPmuMask = 19,
  kIfmPadTop = 256,
  kIfmPadLeft = 257,
  kIfmPadRight = 258,
  kIfmPadBottom = 259,
  kIfmDepthM1 = 260,
  kIfmPrecision = 261,
  kIfmUpscale = 263,
  kIfmBroadcast = 264,
  kIfmZeroPoint = 265,
  kIfmWidth0M1 = 266,
  kIfmHeight0M1 = 267,
  kIfmHeight1M1 = 268,
  kIfmRegion = 271,
  kOfmWidthM1 = 273,
  kOfmHeightM1 = 274,
  kOfmDepthM1 = 275,
  kOfmPrecision = 276,
  kOfmBlkWidthM1 = 277,
  kOfmBlkHeightM1 = 278,
  kOfmBlkDepthM1 = 279,
  kOfmZeroPoint = 280,
  kOfmWidth0M1 = 282,
  kOfmHeight0M1 = 283,
  kOfmHeight1M1 = 284,
  kOfmRegion = 287,
  kKernelWidthM1 = 288,
  kKernelHeightM1 = 289,
  kKernelStride = 290,
  kAccFormat = 292,
  kActivation = 293,
  kActivationMin = 294,
  kActivationMax = 295,
  kWeightRegion = 296,
  kScaleRegion = 297,
  kResizeXScaleNM1 = 298,
  kResizeYScaleNM1 = 299,
  kResizeXOffset = 300,
  kResizeYOffset = 301,
  kWeightFormat = 302,
  kBlockDep = 303,
  kDma0SrcRegion = 304,
  kDma0DstRegion = 305,
  kDma0Size0 = 306,
  kDma0Size1 = 307,
  kDma0IdxRegion = 308,
  kIfm2Broadcast = 384,
  kIfm2Precision = 389,
  kIfm2ZeroPoint = 393,
  kIfm2Width0M1 = 394,
  kIfm2Height0M1 = 395,
  kIfm2Height1M1 = 396,
  kIfm2Region = 399,
};

enum Cmd1 : uint16_t {
  kIfmBase0 = 0,
  kIfmStrideX = 4,
  kIfmStrideY = 5,
  kIfmStrideC = 6,
  kOfmBase0 = 16,
  kOfmStrideX = 20,
  kOfmStrideY = 21,
  kOfmStrideC = 22,
  kWeightBase = 32,
  kWeightLength = 33,
  kScaleBase = 34,
  kScaleLength = 35,
  kOfmScale = 36,
  kIfmScale = 37,
  kIfm2Scale = 38,
  kOpScalar = 39,
  kDma0Src = 48,
  kDma0Dst = 49,
  kDma0Len = 50,
  kDma0SrcStride0 = 51,
  kDma0SrcStride1 = 52,
  kDma0DstStride0 = 53,
  kDma0DstStride1 = 54,
  kDma0Idx = 55,
  kDma0IdxMax = 56,
  kDma0IdxSkip1 = 57,
  kIfm2Base0 = 128,
  kIfm2StrideX = 132,
  kIfm2StrideY = 133,
  kIfm2StrideC = 134,
  kWeight1Base = 144,
  kWeight1Length = 145,
  kWeight2Base = 146,
  kWeight2Length = 147,
  kWeight3Base = 148,
  kWeight3Length = 149,
  kResizeX = 150,
  kResizeY = 151,
  kOpBranch = 256,
  // U65 only (same numbers as U85's WEIGHT2_BASE/LENGTH).
  kU65Scale1Base = 146,
  kU65Scale1Length = 147,
};

bool IsKnownCmd0(uint16_t opcode);
bool IsKnownCmd1(uint16_t opcode);

// Command word: opcode 9:0, control 15:14, parameter 31:16.
constexpr uint32_t kOpcodeMask = 0x3FF;
constexpr int kControlShift = 14;
constexpr uint32_t kControlMask = 3;
constexpr int kParamShift = 16;
enum Control : uint32_t { kCmd0Control = 0, kCmd1Control = 1 };

// Register fields (U85 layout; U55/U65 differences in u55_registers.h).
// Feature-map precision (IFM, IFM2, OFM).
constexpr Field kIfmSigned{kIfmPrecision, 0, 1};
constexpr Field kIfmBits{kIfmPrecision, 2, 2};  // log2 bytes: 0 int8 .. 3 int64
constexpr Field kIfmFormat{kIfmPrecision, 6, 2};
constexpr Field kIfmStorage{kIfmPrecision, 14, 2};
constexpr Field kIfm2Signed{kIfm2Precision, 0, 1};
constexpr Field kIfm2Bits{kIfm2Precision, 2, 2};
constexpr Field kIfm2Format{kIfm2Precision, 6, 2};
constexpr Field kIfm2Storage{kIfm2Precision, 14, 2};
constexpr Field kOfmSigned{kOfmPrecision, 0, 1};
constexpr Field kOfmBits{kOfmPrecision, 1, 2};
constexpr Field kOfmFormat{kOfmPrecision, 6, 2};
constexpr Field kOfmScaleMode{kOfmPrecision, 8, 1};  // 0: per-channel records, 1: OFM_SCALE
constexpr Field kOfmReverse{kOfmPrecision, 9, 2};
constexpr Field kOfmTranspose{kOfmPrecision, 11, 3};
constexpr Field kOfmStorage{kOfmPrecision, 14, 2};
constexpr uint32_t kFormatNhcwb16 = 1;
constexpr uint32_t kStorageChained = 2;
constexpr uint32_t kStorageNone = 3;  // no feature map (Vela: a scalar operand)
constexpr uint32_t kBits64 = 3;

constexpr Field kIfmRegionIndex{kIfmRegion, 0, 3};
constexpr Field kIfm2RegionIndex{kIfm2Region, 0, 3};
constexpr Field kOfmRegionIndex{kOfmRegion, 0, 3};
constexpr Field kWeightRegionIndex{kWeightRegion, 0, 3};
constexpr Field kScaleRegionIndex{kScaleRegion, 0, 3};
constexpr Field kIfmBroadcastMode{kIfmBroadcast, 0, 4};
constexpr Field kIfm2BroadcastMode{kIfm2Broadcast, 0, 4};
constexpr uint32_t kBroadcastScalar = 8;  // bits 0..2: H, W, C read index 0
constexpr Field kIfmUpscaleMode{kIfmUpscale, 0, 2};

// KERNEL_STRIDE: stride = (msb << 1 | lsb) + 1, dilation = bit + 1.
constexpr Field kStrideXLsb{kKernelStride, 0, 1};
constexpr Field kStrideYLsb{kKernelStride, 1, 1};
constexpr Field kWeightOrderPartKernel{kKernelStride, 2, 1};
constexpr Field kDilationX{kKernelStride, 3, 1};
constexpr Field kDilationY{kKernelStride, 4, 1};
constexpr Field kStrideXMsb{kKernelStride, 6, 1};
constexpr Field kStrideYMsb{kKernelStride, 9, 1};

constexpr Field kAccFormatType{kAccFormat, 0, 2};  // 0: 32-bit, 1: 48-bit
constexpr uint32_t kAccFormat48 = 1;
constexpr Field kAccInput{kAccFormat, 4, 2};  // 0 reset, 1 keep, 2 IFM2
constexpr Field kAccOutputDisable{kAccFormat, 6, 1};
constexpr Field kAccMicroblock{kAccFormat, 8, 3};
enum AccInput : uint32_t { kAccReset = 0, kAccKeep = 1, kAccFromIfm2 = 2 };

constexpr Field kActivationFunction{kActivation, 0, 5};
constexpr Field kActivationTable{kActivation, 5, 3};
constexpr Field kActivationNoClip{kActivation, 12, 1};

constexpr Field kWeightFormatFwd{kWeightFormat, 0, 1};
constexpr Field kWeightFormatSparse{kWeightFormat, 4, 1};

constexpr Field kDmaSrcRegionIndex{kDma0SrcRegion, 0, 3};
constexpr Field kDmaSrcInternal{kDma0SrcRegion, 8, 1};  // region_mode: NPU internal memory
constexpr Field kDmaSrcStrideMode{kDma0SrcRegion, 9, 2};
constexpr Field kDmaSrcIndexed{kDma0SrcRegion, 11, 1};
constexpr Field kDmaDstRegionIndex{kDma0DstRegion, 0, 3};
constexpr Field kDmaDstInternal{kDma0DstRegion, 8, 1};
constexpr Field kDmaDstIndexed{kDma0DstRegion, 11, 1};
constexpr Field kDmaIdxRegionIndex{kDma0IdxRegion, 0, 3};

// OFM_SCALE / IFM_SCALE / IFM2_SCALE parameters (payload: the multiplier).
constexpr ParamField kOfmScaleShift{kOfmScale, 0, 6};
constexpr ParamField kOfmScaleRound{kOfmScale, 13, 3};
constexpr ParamField kIfmScaleShift{kIfmScale, 0, 6};
constexpr ParamField kIfmScaleRound{kIfmScale, 13, 1};  // 1: natural, 0: double
constexpr ParamField kIfm2ScaleShift{kIfm2Scale, 0, 6};
constexpr ParamField kIfm2ScaleRound{kIfm2Scale, 13, 1};
constexpr uint32_t kScaleMultiplierMask = 0x7FFFFFFFu;  // 31-bit multipliers

// Resize (NPU_OP_RESIZE), per axis: the scale numerator n (minus one), the
// offset (12-bit two's complement) and the step between OFM elements, d,
// given as d / n (one_step_int) and d % n (one_step_mod); blk_step is the
// same for (OFM block size - 1) * d, how the NPU moves between blocks.
struct ResizeAxisFields {
  Field scale_n_m1, offset;
  ParamField one_step_int, blk_step_int;
  PayloadField one_step_mod, blk_step_mod;
};
constexpr ResizeAxisFields kResizeXFields{{kResizeXScaleNM1, 0, 11}, {kResizeXOffset, 0, 12},
                                          {kResizeX, 0, 4},          {kResizeX, 4, 11},
                                          {kResizeX, 0, 11},         {kResizeX, 16, 11}};
constexpr ResizeAxisFields kResizeYFields{{kResizeYScaleNM1, 0, 11}, {kResizeYOffset, 0, 12},
                                          {kResizeY, 0, 4},          {kResizeY, 4, 11},
                                          {kResizeY, 0, 11},         {kResizeY, 16, 11}};
constexpr int kResizeOffsetBits = 12;

// IFM_UPSCALE modes: the IFM is read 2x larger in H and W.
enum IfmUpscale : uint32_t { kUpscaleNone = 0, kUpscaleNearest = 1, kUpscaleZeros = 2 };

// Operation parameters (the NPU_OP_* word's parameter).
constexpr uint16_t kConvWeightsFromIfm2 = 1;  // NPU_OP_CONV: matmul
constexpr uint16_t kPoolModeMask = 7;
constexpr uint16_t kElementwiseModeMask = 0x3F;
constexpr uint16_t kResizeModeMask = 3;

}  // namespace u85
}  // namespace ethosu_sdk::npu
