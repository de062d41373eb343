// Builder for NPU_OP_RESIZE (U85): the resize registers per axis, checked
// against what the kernel's closed form assumes.
#include "sim/npu/commands/u85_registers.h"
#include "sim/npu/operations/activation_setup.h"
#include "sim/npu/operations/build_ifm_upscale.h"
#include "sim/npu/operations/build_operation.h"
#include "sim/npu/operations/feature_map_registers.h"
#include "sim/npu/operations/scales.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

// One axis's registers: the resize fields, the kernel size (the IFM
// extent) and the OFM block size.
struct AxisRegisters {
  ResizeAxisFields fields;
  uint16_t kernel_m1, block_m1;
  const char* name;
};
constexpr AxisRegisters kAxisX{kResizeXFields, kKernelWidthM1, kOfmBlkWidthM1, "X"};
constexpr AxisRegisters kAxisY{kResizeYFields, kKernelHeightM1, kOfmBlkHeightM1, "Y"};

int32_t SignExtend(uint32_t v, int bits) {
  const uint32_t sign = 1u << (bits - 1);
  return int32_t(v ^ sign) - int32_t(sign);
}

// The step d comes as d / n and d % n; the NPU walks an OFM block one
// step at a time and moves to the next block by blk_step = (block - 1) * d
// (plus one step). The model uses the closed form o * d + offset, so it
// takes streams whose block step agrees with it (Vela's always do) and
// refuses others. KERNEL_WIDTH/HEIGHT hold the IFM extent the positions
// clamp to (Vela: the IFM stripe, or fewer columns when fewer are read).
Status ReadAxis(const RegisterFile& r, const AxisRegisters& g, ResizeAxis* a) {
  const ResizeAxisFields& f = g.fields;
  a->scale_n = int(r.Get(f.scale_n_m1)) + 1;
  a->offset = SignExtend(r.Get(f.offset), kResizeOffsetBits);
  a->extent = r[g.kernel_m1] + 1;
  const int n = a->scale_n;
  const int one_mod = int(r.Get(f.one_step_mod)), blk_mod = int(r.Get(f.blk_step_mod));
  if (one_mod >= n || blk_mod >= n) {
    return StreamError("resize %s step remainder %d or %d not below the scale %d", g.name, one_mod,
                       blk_mod, n);
  }
  a->step = int(r.Get(f.one_step_int)) * n + one_mod;
  const int64_t block_span = int64_t(r[g.block_m1]) * a->step;
  if (int64_t(r.Get(f.blk_step_int)) * n + blk_mod != block_span) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "resize %s block step is not (OFM block - 1) steps", g.name);
  }
  // Vela keeps -n <= offset < n (it moves whole IFM elements into the IFM
  // base); what the NPU does beyond is not known.
  if (a->offset < -n || a->offset >= n) {
    return Status::Error(ErrorCode::kNpuUnsupported, "resize %s offset %d outside [-%d, %d)",
                         g.name, a->offset, n, n);
  }
  return Status::Ok();
}

// Registers Vela always writes the same way for a resize; other values
// have no documented meaning here.
Status CheckFixedRegisters(const RegisterFile& r) {
  ESDK_RETURN_IF_ERROR(RefuseIfmUpscale(r, "resize"));
  if (r[kIfm2ZeroPoint] != 0) {
    return Status::Error(ErrorCode::kNpuUnsupported, "resize with IFM2 zero point %d not supported",
                         int(int16_t(r[kIfm2ZeroPoint])));
  }
  if (r[kIfmPadTop] != 0 || r[kIfmPadLeft] != 0 || r[kIfmPadBottom] != 0 || r[kIfmPadRight] != 0) {
    return Status::Error(ErrorCode::kNpuUnsupported, "resize with IFM padding not supported");
  }
  if (PerChannelScales(r)) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "resize with per-channel scales not supported");
  }
  return Status::Ok();
}

}  // namespace

Status BuildResize(Context& ctx, int mode, Operation* op) {
  if (ctx.u55()) return StreamError("NPU_OP_RESIZE on an Ethos-U55/U65");
  const RegisterFile& r = ctx.regs;
  op->kind = OperationKind::kResize;
  op->mode = mode;
  if (mode == kResizeReplicate) {
    return Status::Error(ErrorCode::kNpuUnsupported, "resize mode REPLICATE not supported");
  }
  if (mode != kResizeBilinear && mode != kResizeNearest) {
    return StreamError("bad resize mode %d", mode);
  }
  ESDK_RETURN_IF_ERROR(CheckFixedRegisters(r));
  ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, false, &op->ifm));
  ESDK_RETURN_IF_ERROR(DecodeOfm(ctx, &op->ofm, Allow64::kYes));
  const FeatureMap& ofm = op->ofm;
  if (op->ifm.element_bytes > 2) {
    return Status::Error(ErrorCode::kNpuUnsupported, "resize of a 32-bit IFM not supported");
  }
  ESDK_RETURN_IF_ERROR(PrepareOutput(ctx.config, r, ctx.lut, ofm, Accumulators::kFromOperation,
                                     &op->output.activation));
  ESDK_RETURN_IF_ERROR(ReadAxis(r, kAxisY, &op->resize_y));
  ESDK_RETURN_IF_ERROR(ReadAxis(r, kAxisX, &op->resize_x));
  constexpr uint64_t kBilinearTaps = 4;
  ESDK_RETURN_IF_ERROR(ctx.work.ChargeOperation(uint64_t(ofm.height) * ofm.width * ofm.depth *
                                                (mode == kResizeBilinear ? kBilinearTaps : 1)));
  op->output.global = OfmScale(r, false);
  ESDK_RETURN_IF_ERROR(
      op->ifm.Validate({op->resize_y.extent, op->resize_x.extent, ofm.depth}, false));
  return ofm.Validate({ofm.height, ofm.width, ofm.depth}, true);
}

}  // namespace ethosu_sdk::npu
