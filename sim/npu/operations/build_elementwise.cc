// Builders for elementwise operations, U85 and U55/U65.
#include "sim/npu/commands/u55_registers.h"
#include "sim/npu/operations/activation_setup.h"
#include "sim/npu/operations/build_ifm_upscale.h"
#include "sim/npu/operations/build_operation.h"
#include "sim/npu/operations/feature_map_registers.h"
#include "sim/npu/operations/scales.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

// The modes the model runs: every mode Vela 5.1.0 emits for the TOSA
// operators in COVERAGE.md. Not LRELU (Vela lowers leaky ReLU otherwise)
// or LSR (no ExecuTorch lowering reaches it; its operand widths are
// unpinned).
bool ElementwiseModeModelled(int mode, bool u55) {
  switch (mode) {
    case kEwMul:
    case kEwAdd:
    case kEwSub:
    case kEwMin:
    case kEwMax:
    case kEwAbs:
    case kEwClz:
    case kEwShr:
    case kEwShl:
      return true;
    default:
      return !u55 && (ComparisonElementwise(mode) || BitwiseElementwise(mode) || mode == kEwDiv);
  }
}

// The box of an operand read at OFM coordinates under its broadcast mode.
Extent OperandBox(const FeatureMap& operand, const FeatureMap& ofm) {
  constexpr int kH = 1, kW = 2, kC = 4;
  return {operand.broadcast & kH ? 1 : ofm.height, operand.broadcast & kW ? 1 : ofm.width,
          operand.broadcast & kC ? 1 : ofm.depth};
}

// A scalar operand is never read from memory: its feature map registers are
// stale (Vela does not write them), so only the others are checked.
Status ValidateOperands(const Operation& op) {
  if (!op.ifm_scalar) ESDK_RETURN_IF_ERROR(op.ifm.Validate(OperandBox(op.ifm, op.ofm), false));
  if (!op.scalar && !op.unary)
    ESDK_RETURN_IF_ERROR(op.ifm2.Validate(OperandBox(op.ifm2, op.ofm), false));
  return op.ofm.Validate({op.ofm.height, op.ofm.width, op.ofm.depth}, true);
}

// BROADCAST_MODE: any of H, W, C (bits 0..2), or SCALAR alone; the other
// values are reserved.
Status CheckBroadcastMode(int mode, const char* operand) {
  if (mode > int(kBroadcastScalar)) {
    return StreamError("%s broadcast mode %d is reserved", operand, mode);
  }
  return Status::Ok();
}

Status BuildU55(Context& ctx, Operation* op) {
  const RegisterFile& r = ctx.regs;
  op->kind = OperationKind::kElementwiseU55;
  const FeatureMap& ofm = op->ofm;
  ESDK_RETURN_IF_ERROR(PrepareOutput(ctx.config, r, ctx.lut, ofm, Accumulators::kFromOperation,
                                     &op->output.activation));
  ESDK_RETURN_IF_ERROR(ctx.work.ChargeOperation(uint64_t(ofm.height) * ofm.width * ofm.depth));
  op->ifm2.broadcast = int(r.Get(u55::kIfm2BroadcastAxes));
  op->scalar = !op->unary && r.Get(u55::kIfm2IsScalar) != 0;
  U55Scaling& s = op->u55_scaling;
  s.swapped = r.Get(u55::kIfm2OperandOrder) != 0;
  const uint16_t scalar = r[u55::kIfm2Scalar];
  op->scalar_value = op->ifm2.is_signed ? int32_t(int16_t(scalar)) : int32_t(scalar);
  s.scale_mode = int(r.Get(u55::kIfmScaleMode));
  if (s.scale_mode > int(u55::kScaleOpb32)) return StreamError("bad U55 IFM scale mode");
  s.round = U55RoundMode(r.Get(u55::kIfmRound));
  s.opa_scale = r.Payload(kIfmScale);
  s.opa_shift = int(r.Get(kIfmScaleShift));
  s.opb_scale = r.Payload(kIfm2Scale) & u55::kOpbScaleMask;
  const bool add_or_sub = op->mode == kEwAdd || op->mode == kEwSub;
  if (s.scale_mode != int(u55::kScaleOpaOpb16) && op->ifm.element_bytes != 1 && add_or_sub) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "U55 16/32-bit ADD/SUB with a 32-bit operand scale not supported");
  }
  op->output.global = OfmScale(r, true);
  return ValidateOperands(*op);
}

}  // namespace

Status BuildElementwise(Context& ctx, int mode, Operation* op) {
  if (!ElementwiseModeModelled(mode, ctx.u55())) {
    return Status::Error(ErrorCode::kNpuUnsupported, "unsupported elementwise mode %d (%s)", mode,
                         ElementwiseModeName(mode));
  }
  const RegisterFile& r = ctx.regs;
  op->mode = mode;
  op->unary = UnaryElementwise(mode);
  ESDK_RETURN_IF_ERROR(RefuseIfmUpscale(r, "an elementwise operation"));
  ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, false, &op->ifm));
  if (!op->unary) ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, true, &op->ifm2));
  ESDK_RETURN_IF_ERROR(DecodeOfm(ctx, &op->ofm));
  if (ctx.u55()) return BuildU55(ctx, op);
  op->kind = OperationKind::kElementwise;
  const FeatureMap& ofm = op->ofm;
  ESDK_RETURN_IF_ERROR(
      PrepareOutput(ctx.config, r, ctx.lut, ofm, Accumulators::kUnchecked, &op->output.activation));
  ESDK_RETURN_IF_ERROR(ctx.work.ChargeOperation(uint64_t(ofm.height) * ofm.width * ofm.depth));
  // A one-element constant operand (Vela's U85 generator, IsScalar) is
  // either the IFM or the IFM2, never both: BROADCAST_MODE_SCALAR on its
  // broadcast register, its value in OP_SCALAR, its zero point and scale as
  // for a feature map. Neg (0 - x) and `scalar_tensor(c) + x` put it in the
  // IFM (u85_neg_rank1, u85_add_scalar_tensor), `x + c` in the IFM2
  // (u85_add_scalar).
  ESDK_RETURN_IF_ERROR(CheckBroadcastMode(op->ifm.broadcast, "IFM"));
  if (!op->unary) ESDK_RETURN_IF_ERROR(CheckBroadcastMode(op->ifm2.broadcast, "IFM2"));
  op->ifm_scalar = op->ifm.broadcast == int(kBroadcastScalar);
  op->scalar = !op->unary && op->ifm2.broadcast == int(kBroadcastScalar);
  if (op->ifm_scalar && op->scalar) return StreamError("both elementwise operands are scalars");
  // Vela marks a scalar operand's storage NONE. Reading an operand so
  // marked as a feature map would take stale registers (what the model did
  // before it knew scalar IFMs): refused, on the host and on the device.
  if (!op->ifm_scalar && r.Get(kIfmStorage) == kStorageNone) {
    return StreamError("IFM storage NONE but not a scalar: no feature map to read");
  }
  if (!op->unary && !op->scalar && r.Get(kIfm2Storage) == kStorageNone) {
    return StreamError("IFM2 storage NONE but not a scalar: no feature map to read");
  }
  op->scalar_value = int32_t(r.Payload(kOpScalar));
  op->ifm_scale = IfmScale(r, false);
  op->ifm2_scale = IfmScale(r, true);
  op->output.global = OfmScale(r, false);
  return ValidateOperands(*op);
}

}  // namespace ethosu_sdk::npu
