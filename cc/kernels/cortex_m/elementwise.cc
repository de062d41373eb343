// cortex_m:: elementwise operators: quantized add, mul and div, the
// 256-entry activation table, minimum and maximum. Operands broadcast by
// numpy's rules (the passes emit equal shapes or a per-channel operand);
// each tensor is read through its own dim order.
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "cc/kernels/cortex_m/add_helium.h"
#include "cc/kernels/cortex_m/arith.h"
#include "cc/kernels/cortex_m/layout.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

using cortex_m::Clamp;
using cortex_m::Requantize;

// Element offsets of two operands for each element of `out`.
class Pairwise {
 public:
  Status Init(const Tensor& a, const Tensor& b, const Tensor& out) {
    flat_ = a.SameShapeAndLayout(out) && b.SameShapeAndLayout(out);
    if (flat_) return Status::Ok();
    rank_ = out.rank;
    if (a.rank > rank_ || b.rank > rank_)
      return ShapeError("an operand has more dimensions than out", a.rank, b.rank);
    int64_t sa[runtime::kMaxRank], sb[runtime::kMaxRank];
    cortex_m::ElementStrides(a, sa);
    cortex_m::ElementStrides(b, sb);
    cortex_m::ElementStrides(out, so_);
    for (int32_t d = 0; d < rank_; ++d) {
      sizes_[d] = out.sizes[d];
      ESDK_RETURN_IF_ERROR(Align(a, sa, d, &sa_[d]));
      ESDK_RETURN_IF_ERROR(Align(b, sb, d, &sb_[d]));
    }
    return Status::Ok();
  }

  // True when both operands and out lie alike: element i of each is at i.
  bool flat() const { return flat_; }

  // Calls f(a_offset, b_offset, out_offset) for every element of out.
  template <typename F>
  void ForEach(size_t numel, F f) const {
    if (flat_) {
      for (size_t i = 0; i < numel; ++i) f(i, i, i);
      return;
    }
    int32_t coord[runtime::kMaxRank] = {};
    for (size_t i = 0; i < numel; ++i) {
      int64_t oa = 0, ob = 0, oo = 0;
      for (int32_t d = 0; d < rank_; ++d) {
        oa += coord[d] * sa_[d];
        ob += coord[d] * sb_[d];
        oo += coord[d] * so_[d];
      }
      f(static_cast<size_t>(oa), static_cast<size_t>(ob), static_cast<size_t>(oo));
      NextCoord(coord, sizes_, rank_);
    }
  }

 private:
  // The stride of `t` along out's dimension d (right-aligned), 0 where it broadcasts.
  Status Align(const Tensor& t, const int64_t* strides, int32_t d, int64_t* stride) const {
    const int32_t td = d - (rank_ - t.rank);
    if (td < 0 || t.sizes[td] == 1) {
      *stride = 0;
      return Status::Ok();
    }
    if (t.sizes[td] != sizes_[d])
      return ShapeError("operands do not broadcast to out", t.sizes[td], sizes_[d]);
    *stride = strides[td];
    return Status::Ok();
  }

  bool flat_ = true;
  int32_t rank_ = 0;
  int32_t sizes_[runtime::kMaxRank] = {};
  int64_t sa_[runtime::kMaxRank] = {}, sb_[runtime::kMaxRank] = {}, so_[runtime::kMaxRank] = {};
};

Status Int8Operands(const Tensor& a, const Tensor& b, const Tensor& out) {
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(a, ScalarType::kChar, "self"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(b, ScalarType::kChar, "other"));
  return cortex_m::ExpectType(out, ScalarType::kChar, "out");
}

Status ExpectZeroPoint(int64_t zp, const char* what) {
  return cortex_m::ExpectRange(zp, -128, 127, what);
}
Status ExpectRequant(int64_t multiplier, int64_t shift, const char* what) {
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(multiplier, INT32_MIN, INT32_MAX, what));
  return cortex_m::ExpectRange(shift, cortex_m::kMinShift, cortex_m::kMaxShift, what);
}

// A product's operand offsets: ExecuTorch's passes fold a constant into an
// operand's zero point (hardswish's x * (x + 3) gives -221), and its
// reference multiplies (a - zp) * (b - zp) in int32. Offsets within int16
// keep that product inside int32: (128 + 2^15)^2 < 2^31.
Status ExpectMulOffsets(int64_t self_zero_point, int64_t other_zero_point) {
  ESDK_RETURN_IF_ERROR(
      cortex_m::ExpectRange(self_zero_point, INT16_MIN, INT16_MAX, "self_zero_point"));
  return cortex_m::ExpectRange(other_zero_point, INT16_MIN, INT16_MAX, "other_zero_point");
}

// The checks quantized add and mul share: int8 operands, the output's zero
// point and rescaling, operands that broadcast to out.
Status Int8Binary(const Tensor& self, const Tensor& other, int64_t output_zero_point,
                  int64_t output_multiplier, int64_t output_shift, const Tensor& out,
                  Pairwise* pairs) {
  ESDK_RETURN_IF_ERROR(Int8Operands(self, other, out));
  ESDK_RETURN_IF_ERROR(ExpectZeroPoint(output_zero_point, "output_zero_point"));
  ESDK_RETURN_IF_ERROR(ExpectRequant(output_multiplier, output_shift, "output multiplier/shift"));
  return pairs->Init(self, other, out);
}

template <typename T>
Status MinMax(const Tensor& self, const Tensor& other, Tensor& out, bool maximum) {
  Pairwise pairs;
  ESDK_RETURN_IF_ERROR(pairs.Init(self, other, out));
  const T* a = self.Data<const T>();
  const T* b = other.Data<const T>();
  T* o = out.Data<T>();
  pairs.ForEach(out.numel, [&](size_t ia, size_t ib, size_t io) {
    o[io] = maximum ? (a[ia] < b[ib] ? b[ib] : a[ia]) : (b[ib] < a[ia] ? b[ib] : a[ia]);
  });
  return Status::Ok();
}

Status MinMaxOut(const Tensor& self, const Tensor& other, Tensor& out, bool maximum,
                 const char* op) {
  if (self.dtype != other.dtype || self.dtype != out.dtype) {
    return Status::Error(ErrorCode::kInvalidArgument, "%s: self, other and out differ in dtype",
                         op);
  }
  switch (self.dtype) {
    case ScalarType::kChar:
      return MinMax<int8_t>(self, other, out, maximum);
    case ScalarType::kShort:
      return MinMax<int16_t>(self, other, out, maximum);
    case ScalarType::kInt:
      return MinMax<int32_t>(self, other, out, maximum);
    // NaN handling aside (the int8 graphs this serves hold none), torch's.
    case ScalarType::kFloat:
      return MinMax<float>(self, other, out, maximum);
    default:
      return DtypeError(op, self);
  }
}

template <typename T>
void Divide(const T* a, const T* b, T* o, const Pairwise& pairs, size_t numel, int32_t a_zp,
            int32_t b_zp, int32_t out_zp, float scale, float lo, float hi) {
  pairs.ForEach(numel, [&](size_t ia, size_t ib, size_t io) {
    const float x = static_cast<float>(static_cast<int32_t>(a[ia]) - a_zp);
    const float y = static_cast<float>(static_cast<int32_t>(b[ib]) - b_zp);
    const float q = y != 0.0f ? x / y : 0.0f;
    float r = std::nearbyint(q * scale) + static_cast<float>(out_zp);
    r = r < lo ? lo : (r > hi ? hi : r);
    o[io] = static_cast<T>(r);
  });
}

}  // namespace

// ((self - zp) << 20 and (other - zp) << 20, each rescaled; summed; rescaled
// to the output; + output zero point; clamped to the activation limits.
Status CortexMQuantizedAddOut(const Tensor& self, int64_t self_zero_point, int64_t self_multiplier,
                              int64_t self_shift, const Tensor& other, int64_t other_zero_point,
                              int64_t other_multiplier, int64_t other_shift,
                              int64_t output_zero_point, int64_t output_multiplier,
                              int64_t output_shift, int64_t activation_min, int64_t activation_max,
                              Tensor& out) {
  Pairwise pairs;
  ESDK_RETURN_IF_ERROR(
      Int8Binary(self, other, output_zero_point, output_multiplier, output_shift, out, &pairs));
  ESDK_RETURN_IF_ERROR(ExpectZeroPoint(self_zero_point, "self_zero_point"));
  ESDK_RETURN_IF_ERROR(ExpectZeroPoint(other_zero_point, "other_zero_point"));
  ESDK_RETURN_IF_ERROR(ExpectRequant(self_multiplier, self_shift, "self multiplier/shift"));
  ESDK_RETURN_IF_ERROR(ExpectRequant(other_multiplier, other_shift, "other multiplier/shift"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectActivation(activation_min, activation_max));
  const int8_t* a = self.Data<const int8_t>();
  const int8_t* b = other.Data<const int8_t>();
  int8_t* o = out.Data<int8_t>();
  cortex_m::AddParams p;
  p.a_zero_point = static_cast<int32_t>(self_zero_point);
  p.a_multiplier = static_cast<int32_t>(self_multiplier);
  p.a_shift = static_cast<int32_t>(self_shift);
  p.b_zero_point = static_cast<int32_t>(other_zero_point);
  p.b_multiplier = static_cast<int32_t>(other_multiplier);
  p.b_shift = static_cast<int32_t>(other_shift);
  p.out_zero_point = static_cast<int32_t>(output_zero_point);
  p.out_multiplier = static_cast<int32_t>(output_multiplier);
  p.out_shift = static_cast<int32_t>(output_shift);
  p.activation_min = static_cast<int32_t>(activation_min);
  p.activation_max = static_cast<int32_t>(activation_max);
  // Equal shapes and layouts (MobileNet's residuals): Helium or DSP where
  // there is.
  if (pairs.flat() &&
      (cortex_m::AddHelium(a, b, o, out.numel, p) || cortex_m::AddDsp(a, b, o, out.numel, p))) {
    return Status::Ok();
  }
  pairs.ForEach(out.numel, [&](size_t ia, size_t ib, size_t io) {
    o[io] = cortex_m::AddElement(a[ia], b[ib], p);
  });
  return Status::Ok();
}

// (self - zp) * (other - zp), rescaled, + output zero point, clamped to int8.
Status CortexMQuantizedMulOut(const Tensor& self, int64_t self_zero_point, const Tensor& other,
                              int64_t other_zero_point, int64_t output_zero_point,
                              int64_t output_multiplier, int64_t output_shift, Tensor& out) {
  Pairwise pairs;
  ESDK_RETURN_IF_ERROR(
      Int8Binary(self, other, output_zero_point, output_multiplier, output_shift, out, &pairs));
  ESDK_RETURN_IF_ERROR(ExpectMulOffsets(self_zero_point, other_zero_point));
  const int8_t* a = self.Data<const int8_t>();
  const int8_t* b = other.Data<const int8_t>();
  int8_t* o = out.Data<int8_t>();
  const int32_t azp = static_cast<int32_t>(self_zero_point),
                bzp = static_cast<int32_t>(other_zero_point);
  const int32_t om = static_cast<int32_t>(output_multiplier),
                os = static_cast<int32_t>(output_shift);
  const int32_t ozp = static_cast<int32_t>(output_zero_point);
  pairs.ForEach(out.numel, [&](size_t ia, size_t ib, size_t io) {
    const int32_t product = Requantize((a[ia] - azp) * (b[ib] - bzp), om, os);
    o[io] = static_cast<int8_t>(Clamp(cortex_m::WrappingAdd(product, ozp), -128, 127));
  });
  return Status::Ok();
}

// The reference divides in float: round((self - zp) / (other - zp) *
// output_scale) + zero point (0 where the divisor is 0), saturated to the
// dtype. Float arithmetic is the operator's definition here, not a shortcut.
Status CortexMQuantizedDivOut(const Tensor& self, int64_t self_zero_point, const Tensor& other,
                              int64_t other_zero_point, int64_t output_zero_point,
                              double output_scale, Tensor& out) {
  if (self.dtype != other.dtype || self.dtype != out.dtype) {
    return Status::Error(ErrorCode::kInvalidArgument, "%s: self, other and out differ in dtype",
                         kCortexMQuantizedDivOutName);
  }
  if (!self.SameShape(other))
    return ShapeError("quantized_div: self and other differ in shape (no broadcasting)");
  Pairwise pairs;
  ESDK_RETURN_IF_ERROR(pairs.Init(self, other, out));
  // The quotient's requantization scale; a NaN would reach the int cast.
  if (!(output_scale > 0.0 && output_scale <= static_cast<double>(FLT_MAX))) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "quantized_div: output scale %g is not a positive finite float",
                         output_scale);
  }
  const float scale = static_cast<float>(output_scale);
  const int32_t azp = static_cast<int32_t>(self_zero_point),
                bzp = static_cast<int32_t>(other_zero_point);
  const int32_t ozp = static_cast<int32_t>(output_zero_point);
  if (self.dtype == ScalarType::kChar) {
    for (int64_t zp : {self_zero_point, other_zero_point, output_zero_point}) {
      ESDK_RETURN_IF_ERROR(ExpectZeroPoint(zp, "zero point"));
    }
    Divide(self.Data<const int8_t>(), other.Data<const int8_t>(), out.Data<int8_t>(), pairs,
           out.numel, azp, bzp, ozp, scale, -128.0f, 127.0f);
  } else if (self.dtype == ScalarType::kShort) {
    for (int64_t zp : {self_zero_point, other_zero_point, output_zero_point}) {
      ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(zp, INT16_MIN, INT16_MAX, "zero point"));
    }
    Divide(self.Data<const int16_t>(), other.Data<const int16_t>(), out.Data<int16_t>(), pairs,
           out.numel, azp, bzp, ozp, scale, -32768.0f, 32767.0f);
  } else {
    return DtypeError(kCortexMQuantizedDivOutName, self);
  }
  return Status::Ok();
}

// out = lut[input + 128]: sigmoid, tanh, silu, ... tabulated ahead of time.
Status CortexMQuantizedActivationOut(const Tensor& input, const Tensor& lut, Tensor& out) {
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(input, ScalarType::kChar, "input"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(lut, ScalarType::kChar, "lut"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(out, ScalarType::kChar, "out"));
  constexpr size_t kLutSize = 256;  // one entry per int8 value
  if (lut.numel != kLutSize)
    return ShapeError("lut: 256 entries expected", static_cast<int64_t>(lut.numel));
  if (!input.SameShapeAndLayout(out))
    return ShapeError("quantized_activation: input and out differ in shape or dim order");
  const int8_t* in = input.Data<const int8_t>();
  const int8_t* table = lut.Data<const int8_t>();
  int8_t* o = out.Data<int8_t>();
  for (size_t i = 0; i < out.numel; ++i) o[i] = table[in[i] + 128];
  return Status::Ok();
}

Status CortexMMinimumOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return MinMaxOut(self, other, out, false, kCortexMMinimumOutName);
}

Status CortexMMaximumOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return MinMaxOut(self, other, out, true, kCortexMMaximumOutName);
}

}  // namespace ethosu_sdk::kernels
