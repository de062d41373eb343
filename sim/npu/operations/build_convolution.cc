// Builders for convolution, depthwise convolution and matmul.
#include "sim/npu/commands/u85_registers.h"
#include "sim/npu/operations/activation_setup.h"
#include "sim/npu/operations/build_ifm_upscale.h"
#include "sim/npu/operations/build_operation.h"
#include "sim/npu/operations/constants.h"
#include "sim/npu/operations/feature_map_registers.h"
#include "sim/npu/operations/scales.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {

using namespace u85;

namespace {

// ACC_INPUT IFM2 on a U85 convolution: Vela's CONV3D runs one convolution
// per kernel depth slice, each after the first starting from the previous
// one's raw 32-bit accumulators (an int32 OFM, read back as IFM2 of the
// OFM's shape). GUESS (undocumented): IFM2's values, minus its zero point,
// replace the reset value 0 of the 32-bit accumulators, so the bias and the
// output stage follow as for any convolution. Pinned by
// //tests/conformance:conv3d_u85_test (every slice's int32 OFM compared with
// the TOSA reference model's CONV3D result) and u85_conv3d (sim/tests/npu).
Status DecodeAccumulatorsFromIfm2(Context& ctx, Operation* op) {
  const RegisterFile& r = ctx.regs;
  if (ctx.u55() || r.Get(kAccInput) != kAccFromIfm2) return Status::Ok();
  if (r.Get(kAccFormatType) != 0) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "convolution accumulating 48-bit accumulators from IFM2 not supported");
  }
  ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, true, &op->ifm2));
  if (op->ifm2.element_bytes != 4) {
    return StreamError("accumulators from an IFM2 of %d-byte elements", op->ifm2.element_bytes);
  }
  const FeatureMap& ofm = op->ofm;
  op->ifm2.depth = ofm.depth;
  op->accumulate_ifm2 = true;
  return op->ifm2.Validate({ofm.height, ofm.width, ofm.depth}, false);
}

// Accumulator chaining on a U85 convolution: Vela 5.x decomposes a stride
// beyond 3 into one 1x1 convolution per kernel tap (DecomposeForStrides),
// all on the same OFM block: the first starts from 0 (or IFM2), the others
// with ACC_INPUT KEEP, and only the last has ACC_OUTPUT enabled (the
// others' OFM storage is NONE). GUESS (undocumented): a KEEP operation
// starts from the previous one's 32-bit accumulators element by element;
// an operation with its output disabled writes nothing and applies no bias
// or scale (every tap carries the same scale record: applied once, by the
// operation that writes the OFM). Pinned by
// //tests/conformance:conv3d_a8w4_st5_chained_u85_test (TOSA CONV3D,
// stride 5: 25 taps per depth slice, 5 slices), u85_conv3d_stride4 and
// u85_conv3d_stride5_wide (sim/tests/npu).
Status DecodeAccumulatorChain(Context& ctx, Operation* op) {
  const RegisterFile& r = ctx.regs;
  if (ctx.u55()) return Status::Ok();
  op->keep_input = r.Get(kAccInput) == kAccKeep;
  op->keep_output = r.Get(kAccOutputDisable) != 0;
  if (!op->keep_input && !op->keep_output) return Status::Ok();
  const FeatureMap& ofm = op->ofm;
  const KeptAccumulators& kept = ctx.kept;
  if (op->keep_output && r.Get(kOfmStorage) == kStorageChained) {
    return StreamError("chained OFM with ACC_OUTPUT disabled");
  }
  const size_t bytes = size_t(ofm.height) * ofm.width * ofm.depth * sizeof(uint32_t);
  if (kept.data == nullptr || bytes > kept.capacity) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "accumulator chaining over an OFM of %dx%dx%d: needs %u bytes of "
                         "accumulators, the Ethos-U85-%d has %u",
                         ofm.height, ofm.width, ofm.depth, unsigned(bytes), ctx.config.macs,
                         unsigned(kept.capacity));
  }
  if (op->keep_input) {
    if (!kept.held) {
      return StreamError("ACC_INPUT_KEEP, but the previous operation kept no accumulators");
    }
    if (kept.dims[0] != ofm.height || kept.dims[1] != ofm.width || kept.dims[2] != ofm.depth) {
      return Status::Error(ErrorCode::kNpuUnsupported,
                           "ACC_INPUT_KEEP on an OFM of %dx%dx%d after accumulators of %dx%dx%d "
                           "not supported",
                           ofm.height, ofm.width, ofm.depth, kept.dims[0], kept.dims[1],
                           kept.dims[2]);
    }
  }
  op->kept = kept.data;
  return Status::Ok();
}

}  // namespace

Status BuildConvolution(Context& ctx, bool depthwise, Operation* op) {
  const RegisterFile& r = ctx.regs;
  op->kind = depthwise ? OperationKind::kDepthwise : OperationKind::kConvolution;
  op->u55 = ctx.u55();
  ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, false, &op->ifm));
  // A 64-bit OFM (U85) holds the scaled accumulators unclamped: Vela writes
  // a convolution's raw 48-bit sums so when it cannot fuse the RESCALE that
  // follows (MobileNetV2's projections at A16W8, read back by a pooling
  // mode NONE). GUESS (undocumented): the per-channel record applies as for
  // any OFM and the result is stored sign-extended to 64 bits, unclamped.
  // Pinned by u85_a16w8_mobilenet_v2. Depthwise 64-bit OFMs are not pinned.
  ESDK_RETURN_IF_ERROR(DecodeOfm(ctx, &op->ofm, depthwise ? Allow64::kNo : Allow64::kYes));
  const FeatureMap& ifm = op->ifm;
  const FeatureMap& ofm = op->ofm;
  ESDK_RETURN_IF_ERROR(
      PrepareOutput(ctx.config, r, ctx.lut, ofm,
                    depthwise ? Accumulators::kFromOperation : Accumulators::kFromOperationOrIfm2,
                    &op->output.activation));
  if (depthwise && ifm.depth < ofm.depth) return StreamError("depthwise IFM depth too small");
  ESDK_RETURN_IF_ERROR(DecodeAccumulatorsFromIfm2(ctx, op));
  if (!depthwise) ESDK_RETURN_IF_ERROR(DecodeAccumulatorChain(ctx, op));
  op->window = MakeWindow(r, ofm);
  ESDK_RETURN_IF_ERROR(CheckWindow(op->window));
  const Window& w = op->window;
  const uint64_t cin = depthwise ? 1 : uint64_t(ifm.depth);
  op->macs = uint64_t(ofm.height) * ofm.width * ofm.depth * uint64_t(w.taps()) * cin;
  ESDK_RETURN_IF_ERROR(ctx.work.ChargeOperation(op->macs));
  ConstantsRequest constants;
  constants.scales = true;
  constants.weights = true;
  constants.depthwise = depthwise;
  constants.ifm_depth = ifm.depth;
  ESDK_RETURN_IF_ERROR(LoadConstants(ctx, constants, op));
  if (!PerChannelScales(r)) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "global OFM scale on convolution not supported");
  }
  op->output.global = OfmScale(r, ctx.u55());  // rounding for every channel
  const int depth = depthwise ? ofm.depth : ifm.depth;
  ESDK_RETURN_IF_ERROR(PrepareIfmUpscale(ctx, w, depth, op));
  ESDK_RETURN_IF_ERROR(ifm.Validate({w.ifm_h, w.ifm_w, depth}, false));
  if (op->keep_output) return Status::Ok();  // no OFM: its registers are not read
  ESDK_RETURN_IF_ERROR(ofm.Validate({ofm.height, ofm.width, ofm.depth}, true));
  return Status::Ok();  // the model then takes the kernel's scratch
}

// CONV with weights_ifm2: a matrix multiply whose right-hand side comes
// from IFM2 (Vela's MatMul). Vela reshapes the operands to IFM [H, M, K],
// IFM2 [H, N, K] (it transposes the right-hand matrix first) and OFM
// [H, M, N], and uses the global OFM scale with no bias. GUESS
// (undocumented): IFM2 row h pairs with OFM row h. The sum wraps at the
// ACC_FORMAT width: 32 bits, or 48 for 16-bit operands (TOSA's int48
// MATMUL accumulator: ExecuTorch's addmm A16W8 [large_values] sums 3 x
// 32767^2, beyond 32 bits). Pinned by u85_matmul, u85_bmm and
// u85_transformer_block.
Status BuildMatMul(Context& ctx, Operation* op) {
  const RegisterFile& r = ctx.regs;
  op->kind = OperationKind::kMatMul;
  ESDK_RETURN_IF_ERROR(RefuseIfmUpscale(r, "matmul"));
  ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, false, &op->ifm));
  ESDK_RETURN_IF_ERROR(DecodeIfm(ctx, true, &op->ifm2));
  ESDK_RETURN_IF_ERROR(DecodeOfm(ctx, &op->ofm));
  const FeatureMap& ofm = op->ofm;
  ESDK_RETURN_IF_ERROR(PrepareOutput(ctx.config, r, ctx.lut, ofm, Accumulators::kFromOperation,
                                     &op->output.activation));
  if (ctx.u55()) return StreamError("U55 has no matmul with weights from IFM2");
  const bool strided = r.Get(kStrideXLsb) || r.Get(kStrideYLsb) || r.Get(kStrideXMsb) ||
                       r.Get(kStrideYMsb) || r.Get(kDilationX) || r.Get(kDilationY);
  if (r[kKernelWidthM1] != 0 || r[kKernelHeightM1] != 0 || strided) {
    return StreamError("matmul with a kernel larger than 1x1 or strided");
  }
  if (PerChannelScales(r)) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "matmul with per-channel scales not supported");
  }
  op->accumulator_bits = r.Get(kAccFormatType) == kAccFormat48 ? 48 : 32;
  const int depth = op->ifm.depth;
  op->macs = uint64_t(ofm.height) * ofm.width * ofm.depth * uint64_t(depth);
  ESDK_RETURN_IF_ERROR(ctx.work.ChargeOperation(op->macs));
  op->output.global = OfmScale(r, false);
  ESDK_RETURN_IF_ERROR(op->ifm.Validate({ofm.height, ofm.width, depth}, false));
  ESDK_RETURN_IF_ERROR(op->ifm2.Validate({ofm.height, ofm.depth, depth}, false));
  ESDK_RETURN_IF_ERROR(ofm.Validate({ofm.height, ofm.width, ofm.depth}, true));
  return Status::Ok();  // the model then takes the kernel's scratch
}

}  // namespace ethosu_sdk::npu
