#include "sim/npu/kernels/elementwise.h"

#include "sim/npu/kernels/elementwise_logic.h"

namespace ethosu_sdk::npu {
namespace {

// Broadcast modes (bit set: that axis reads index 0).
constexpr int kBroadcastH = 1, kBroadcastW = 2, kBroadcastC = 4;

int32_t LoadBroadcast(const FeatureMap& fm, int y, int x, int c) {
  if (fm.broadcast & kBroadcastH) y = 0;
  if (fm.broadcast & kBroadcastW) x = 0;
  if (fm.broadcast & kBroadcastC) c = 0;
  return fm.Load(y, x, c);
}

// The two operands at (y, x, c) minus their zero points; a scalar operand
// (IFM or IFM2) is OP_SCALAR's value.
void Operands(const Operation& op, int y, int x, int c, int64_t* a, int64_t* b) {
  const int32_t va = op.ifm_scalar ? op.scalar_value : LoadBroadcast(op.ifm, y, x, c);
  *a = int64_t(va) - op.ifm.zero_point;
  if (op.unary) {
    *b = 0;
    return;
  }
  const int32_t vb = op.scalar ? op.scalar_value : LoadBroadcast(op.ifm2, y, x, c);
  *b = int64_t(vb) - op.ifm2.zero_point;
}

int64_t Wrap32(int64_t v) { return int64_t(int32_t(uint32_t(v))); }

// Modes on the operands' integer values: no pre-scale (GUESS: Vela writes
// unit IFM scales for them, so a pre-scale would change nothing).
int64_t Integer(const Operation& op, int64_t a, int64_t b) {
  if (BitwiseElementwise(op.mode)) return Bitwise(op.mode, a, b);
  if (op.mode == kEwClz) return CountLeadingZeros(a);
  return Shift(op.mode, a, b, op.output.global.round);
}

int64_t U85(const Operation& op, int64_t a, int64_t b) {
  if (op.mode == kEwMul) return Wrap32(a * b);
  if (op.mode == kEwDiv) return Divide(a, b);
  if (BitwiseElementwise(op.mode) || ShiftElementwise(op.mode) || op.mode == kEwClz) {
    return Integer(op, a, b);
  }
  a = ScaleAndRound(a, op.ifm_scale.scale, op.ifm_scale.shift, op.ifm_scale.round);
  // GUESS (undocumented): ABS takes the IFM after its pre-scale, as ADD
  // does (Vela writes a unit IFM scale). Pinned by the verification of
  // //sim/tests/firmware:operators_u85 (verified_test).
  if (op.mode == kEwAbs) return Wrap32(a < 0 ? -a : a);
  b = ScaleAndRound(b, op.ifm2_scale.scale, op.ifm2_scale.shift, op.ifm2_scale.round);
  if (ComparisonElementwise(op.mode)) return Compare(op.mode, a, b);
  switch (op.mode) {
    case kEwAdd:
      return Wrap32(a + b);
    case kEwSub:
      return Wrap32(a - b);
    case kEwMin:
      return Wrap32(a < b ? a : b);
    default:
      return Wrap32(a > b ? a : b);
  }
}

// U85's ADD alone (U85's path for it): the mode checks of U85 out of the
// per-element loop, for the residual adds that dominate elementwise work.
int64_t U85Add(const Operation& op, int64_t a, int64_t b) {
  a = ScaleAndRound(a, op.ifm_scale.scale, op.ifm_scale.shift, op.ifm_scale.round);
  b = ScaleAndRound(b, op.ifm2_scale.scale, op.ifm2_scale.shift, op.ifm2_scale.round);
  return Wrap32(a + b);
}

// Operand A is the IFM and B the IFM2 unless IFM2_BROADCAST.operand_order
// swaps them. ADD/SUB pre-scaling follows IFM_PRECISION.scale_mode:
//   OPA_OPB_16: A * OPA_SCALE, B * OPB_SCALE (integer scales, no shift);
//   OPA_32 / OPB_32: that operand * scale >> shift (OPA_SCALE register,
//   IFM round mode); GUESS (undocumented): the other operand is multiplied
//   by 2^19 for 8-bit inputs, the fixed pre-shift of Vela's 8-bit ADD
//   scaling (its 16-bit OPB_SCALE field cannot hold it). Pinned by u55_add.
// MUL multiplies (x - zp) operands; MIN/MAX compare them unscaled.
int64_t U55(const Operation& op, int64_t a, int64_t b) {
  // GUESS (undocumented): ABS of the unscaled (x - zp), like MIN/MAX; the
  // OFM scale follows. Pinned by the verification of
  // //sim/tests/firmware:operators_u55 (verified_test).
  if (op.mode == kEwAbs) return Wrap32(a < 0 ? -a : a);
  if (op.mode == kEwClz) return CountLeadingZeros(a);
  if (ShiftElementwise(op.mode)) {
    return Integer(op, op.u55_scaling.swapped ? b : a, op.u55_scaling.swapped ? a : b);
  }
  const U55Scaling& s = op.u55_scaling;
  if (s.swapped) {
    const int64_t t = a;
    a = b;
    b = t;
  }
  constexpr int64_t kImplicitScale = int64_t(1) << 19;
  switch (op.mode) {
    case kEwAdd:
    case kEwSub:
      if (s.scale_mode == 0) {
        a *= s.opa_scale;
        b *= s.opb_scale;
      } else if (s.scale_mode == 1) {
        a = ScaleAndRound(a, s.opa_scale, s.opa_shift, s.round);
        b *= kImplicitScale;
      } else {
        b = ScaleAndRound(b, s.opa_scale, s.opa_shift, s.round);
        a *= kImplicitScale;
      }
      return Wrap32(op.mode == kEwAdd ? a + b : a - b);
    case kEwMul:
      // MUL keeps the full product: Vela implements 32-bit RESCALE as MUL
      // by the multiplier with OFM shift (pinned by u55_maximum, whose
      // TOSA graph rescales int32 values this way).
      return a * b;
    case kEwMin:
      return Wrap32(a < b ? a : b);
    default:
      return Wrap32(a > b ? a : b);
  }
}

template <typename Combine>
void Run(const Operation& op, Combine combine) {
  const FeatureMap& ofm = op.ofm;
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      for (int c = 0; c < ofm.depth; ++c) {
        int64_t a = 0, b = 0;
        Operands(op, y, x, c, &a, &b);
        ofm.Store(y, x, c, op.output.Value(combine(op, a, b), op.output.global));
      }
    }
  }
}

// U85 ADD of two 8-bit feature maps, neither a scalar nor broadcast, into
// an 8-bit OFM stored as is, with scales Int32Scale takes: the residual
// adds of MobileNet-like networks. Zero points within +-2^30 keep every
// operand minus its zero point inside int32.
bool PlainInt8Add(const Operation& op) {
  constexpr int32_t kMaxZeroPoint = int32_t(1) << 30;
  const auto plain = [&](const FeatureMap& fm) {
    return fm.element_bytes == 1 && fm.broadcast == 0 && !fm.mapped() &&
           fm.zero_point >= -kMaxZeroPoint && fm.zero_point <= kMaxZeroPoint;
  };
  return op.mode == kEwAdd && !op.scalar && !op.ifm_scalar && !op.unary && plain(op.ifm) &&
         plain(op.ifm2) && plain(op.ofm) && Int32Scale::Fits(op.ifm_scale) &&
         Int32Scale::Fits(op.ifm2_scale) && Int32Scale::Fits(op.output.global);
}

int32_t Int8Operand(const FeatureMap& fm, uint8_t stored) {
  return (fm.is_signed ? int32_t(int8_t(stored)) : int32_t(stored)) - fm.zero_point;
}

// U85Add and OutputStage::Value as Run computes them, with each pixel's
// addresses worked out once, a run of up to 16 channels (a brick, or part
// of a dense row) contiguous in all three maps.
void RunPlainInt8Add(const Operation& op) {
  constexpr int kRun = 16;
  const FeatureMap &ifm = op.ifm, &ifm2 = op.ifm2, &ofm = op.ofm;
  const Int32Scale a_scale(op.ifm_scale), b_scale(op.ifm2_scale), out_scale(op.output.global);
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      const uint8_t* a = ifm.region->data + ifm.StoredAt(y, x, 0);
      const uint8_t* b = ifm2.region->data + ifm2.StoredAt(y, x, 0);
      uint8_t* out = ofm.region->data + ofm.StoredAt(y, x, 0);
      for (int first = 0; first < ofm.depth; first += kRun) {
        const uint8_t* ra = a + ifm.ChannelOffset(first);
        const uint8_t* rb = b + ifm2.ChannelOffset(first);
        uint8_t* ro = out + ofm.ChannelOffset(first);
        const int run = ofm.depth - first < kRun ? ofm.depth - first : kRun;
        for (int k = 0; k < run; ++k) {
          const int64_t sum = Wrap32(a_scale.Apply(Int8Operand(ifm, ra[k])) +
                                     b_scale.Apply(Int8Operand(ifm2, rb[k])));
          ro[k] = uint8_t(op.output.Finish(out_scale.Apply(int32_t(sum))));
        }
      }
    }
  }
}

}  // namespace

void RunElementwise(const Operation& op) {
  if (PlainInt8Add(op)) return RunPlainInt8Add(op);
  if (op.mode == kEwAdd) return Run(op, U85Add);
  Run(op, U85);
}
void RunElementwiseU55(const Operation& op) { Run(op, U55); }

}  // namespace ethosu_sdk::npu
