// Builders for pooling and pooling mode NONE.
#include "sim/npu/commands/u85_registers.h"
#include "sim/npu/operations/activation_setup.h"
#include "sim/npu/operations/build_ifm_upscale.h"
#include "sim/npu/operations/build_operation.h"
#include "sim/npu/operations/constants.h"
#include "sim/npu/operations/feature_map_registers.h"
#include "sim/npu/operations/scales.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

// Per-channel records if OFM_PRECISION asks for them, and the OFM scale.
Status LoadScales(Context& ctx, Operation* op) {
  if (PerChannelScales(ctx.regs)) {
    ConstantsRequest constants;
    constants.scales = true;
    ESDK_RETURN_IF_ERROR(LoadConstants(ctx, constants, op));
  }
  op->output.global = OfmScale(ctx.regs, ctx.u55());
  return Status::Ok();
}

// Every output's window must hold an IFM element for AVERAGE to divide by.
bool WindowsNonEmpty(const Window& w, const FeatureMap& ofm) {
  auto axis = [](int outputs, int stride, int pad, int kernel, int extent) {
    const int64_t last_start = int64_t(outputs - 1) * stride - pad;
    return extent > 0 && pad <= kernel - 1 && last_start <= extent - 1;
  };
  return axis(ofm.height, w.stride_y, w.pad_top, w.kernel_h, w.ifm_h) &&
         axis(ofm.width, w.stride_x, w.pad_left, w.kernel_w, w.ifm_w);
}

// POOL with pooling mode NONE and ACC_INPUT_IFM2: Vela's rescale (and copy,
// transpose) of 32-bit tensors. The IFM is a placeholder; the accumulators
// are loaded from IFM2 and go through the output stage.
Status BuildNullPool(Context& ctx, Operation* op) {
  const RegisterFile& r = ctx.regs;
  op->kind = OperationKind::kNullPool;
  ESDK_RETURN_IF_ERROR(RefuseIfmUpscale(r, "pooling mode NONE"));
  ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, true, &op->ifm2, Allow64::kYes));
  op->accumulator_bits = r.Get(kAccFormatType) == kAccFormat48 ? 48 : 32;
  ESDK_RETURN_IF_ERROR(DecodeOfm(ctx, &op->ofm));
  const FeatureMap& ofm = op->ofm;
  ESDK_RETURN_IF_ERROR(
      PrepareOutput(ctx.config, r, ctx.lut, ofm, Accumulators::kFromIfm2, &op->output.activation));
  if (r[kKernelWidthM1] != 0 || r[kKernelHeightM1] != 0) {
    return StreamError("pooling mode NONE with a kernel larger than 1x1");
  }
  op->macs = 0;
  ESDK_RETURN_IF_ERROR(ctx.work.ChargeOperation(uint64_t(ofm.height) * ofm.width * ofm.depth));
  ESDK_RETURN_IF_ERROR(LoadScales(ctx, op));
  ESDK_RETURN_IF_ERROR(op->ifm2.Validate({ofm.height, ofm.width, ofm.depth}, false));
  return ofm.Validate({ofm.height, ofm.width, ofm.depth}, true);
}

}  // namespace

Status BuildPooling(Context& ctx, int mode, Operation* op) {
  if (mode == kPoolNone && !ctx.u55()) return BuildNullPool(ctx, op);
  const RegisterFile& r = ctx.regs;
  op->kind = OperationKind::kPooling;
  op->mode = mode;
  op->u55 = ctx.u55();
  ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, false, &op->ifm));
  ESDK_RETURN_IF_ERROR(DecodeOfm(ctx, &op->ofm));
  const FeatureMap& ofm = op->ofm;
  ESDK_RETURN_IF_ERROR(PrepareOutput(ctx.config, r, ctx.lut, ofm, Accumulators::kFromOperation,
                                     &op->output.activation));
  if (mode != kPoolMax && mode != kPoolAverage && mode != kPoolSum && mode != kPoolMin &&
      mode != kPoolReduceSum) {
    return Status::Error(ErrorCode::kNpuUnsupported, "pooling mode %d not supported", mode);
  }
  op->window = MakeWindow(r, ofm);
  ESDK_RETURN_IF_ERROR(CheckWindow(op->window));
  const Window& w = op->window;
  const bool reduce = mode == kPoolReduceSum;
  ESDK_RETURN_IF_ERROR(
      ctx.work.ChargeOperation(uint64_t(ofm.height) * ofm.width * ofm.depth * uint64_t(w.taps()) *
                               (reduce ? uint64_t(op->ifm.depth) : 1)));
  ESDK_RETURN_IF_ERROR(LoadScales(ctx, op));
  if (mode == kPoolAverage && !WindowsNonEmpty(w, ofm)) {
    return StreamError("average pool window with no elements");
  }
  const int depth = reduce ? op->ifm.depth : ofm.depth;
  ESDK_RETURN_IF_ERROR(PrepareIfmUpscale(ctx, w, depth, op));
  ESDK_RETURN_IF_ERROR(op->ifm.Validate({w.ifm_h, w.ifm_w, depth}, false));
  return ofm.Validate({ofm.height, ofm.width, ofm.depth}, true);
}

}  // namespace ethosu_sdk::npu
