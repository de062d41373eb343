// Comparisons, logical and bitwise operators, where, isnan/isinf and
// maximum/minimum, for every dtype with PyTorch's type promotion: operands
// are compared in their common type (integers exactly as int64, floats as
// doubles rounded to the common float type) and the result is written in
// out's dtype (bool for comparisons in exported programs).
#include <cmath>
#include <cstdint>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

enum class Cmp { kEq, kNe, kLt, kLe, kGt, kGe };

template <typename T>
bool Compare(Cmp op, T a, T b) {
  switch (op) {
    case Cmp::kEq:
      return a == b;
    case Cmp::kNe:
      return a != b;
    case Cmp::kLt:
      return a < b;
    case Cmp::kLe:
      return a <= b;
    case Cmp::kGt:
      return a > b;
    case Cmp::kGe:
      return a >= b;
  }
  return false;
}

Status CheckDtypes(const Tensor& a, const Tensor& b, const Tensor& out, const char* name) {
  if (!IsKnownDtype(a.dtype) || !IsKnownDtype(b.dtype) || !IsKnownDtype(out.dtype))
    return DtypeError(name, out);
  return Status::Ok();
}

Status CompareTensors(const Tensor& a, const Tensor& b, Tensor& out, Cmp op, const char* name) {
  ESDK_RETURN_IF_ERROR(CheckDtypes(a, b, out, name));
  const ScalarType common = PromoteTypes(a.dtype, b.dtype);
  if (IsFloating(common)) {
    return ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
      StoreInt(out, o,
               Compare(op, RoundTo(common, LoadDouble(a, i)), RoundTo(common, LoadDouble(b, j))));
    });
  }
  return ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
    StoreInt(out, o, Compare(op, LoadInt(a, i), LoadInt(b, j)));
  });
}

Status CompareScalar(const Tensor& a, double b, Tensor& out, Cmp op, const char* name) {
  int64_t i_storage = 0;
  double d_storage = 0;
  // An integral Scalar against an integer tensor compares exactly as int64.
  const Tensor scalar = ScalarTensor(b, !IsFloating(a.dtype), &i_storage, &d_storage);
  if (scalar.dtype == ScalarType::kDouble && !IsFloating(a.dtype)) {
    // A fractional Scalar against integers: compared as doubles (float32
    // would round the integers first; PyTorch promotes to float32, so use it).
    ESDK_RETURN_IF_ERROR(CheckDtypes(a, a, out, name));
    return ForEachBroadcast(a, scalar, out, name, [&](size_t o, size_t i, size_t) {
      StoreInt(out, o,
               Compare(op, RoundTo(ScalarType::kFloat, LoadDouble(a, i)),
                       RoundTo(ScalarType::kFloat, b)));
    });
  }
  if (IsFloating(a.dtype)) {
    ESDK_RETURN_IF_ERROR(CheckDtypes(a, a, out, name));
    const double rb = RoundTo(a.dtype, b);
    return ForEachBroadcast(a, scalar, out, name, [&](size_t o, size_t i, size_t) {
      StoreInt(out, o, Compare(op, LoadDouble(a, i), rb));
    });
  }
  return CompareTensors(a, scalar, out, op, name);
}

enum class Logic { kAnd, kOr, kXor };

bool ApplyLogic(Logic op, bool a, bool b) {
  switch (op) {
    case Logic::kAnd:
      return a && b;
    case Logic::kOr:
      return a || b;
    case Logic::kXor:
      return a != b;
  }
  return false;
}

// Truth of an element: nonzero (NaN is true, as in PyTorch).
bool Truth(const Tensor& t, size_t i) {
  return IsFloating(t.dtype) ? LoadDouble(t, i) != 0.0 : LoadInt(t, i) != 0;
}

Status LogicalTensors(const Tensor& a, const Tensor& b, Tensor& out, Logic op, const char* name) {
  ESDK_RETURN_IF_ERROR(CheckDtypes(a, b, out, name));
  return ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
    StoreInt(out, o, ApplyLogic(op, Truth(a, i), Truth(b, j)));
  });
}

// Bitwise operators: integer and bool operands only, in the common type.
Status BitwiseTensors(const Tensor& a, const Tensor& b, Tensor& out, Logic op, const char* name) {
  ESDK_RETURN_IF_ERROR(CheckDtypes(a, b, out, name));
  if (IsFloating(a.dtype) || IsFloating(b.dtype) || IsFloating(out.dtype))
    return DtypeError(name, out);
  return ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
    const int64_t x = LoadInt(a, i), y = LoadInt(b, j);
    StoreInt(out, o, op == Logic::kAnd ? (x & y) : op == Logic::kOr ? (x | y) : (x ^ y));
  });
}

Status BitwiseScalar(const Tensor& a, double b, Tensor& out, Logic op, const char* name) {
  if (!ScalarIsIntegral(b)) return DtypeError(name, a);
  int64_t i_storage = 0;
  double d_storage = 0;
  const Tensor scalar = ScalarTensor(b, true, &i_storage, &d_storage);
  return BitwiseTensors(a, scalar, out, op, name);
}

// Elementwise unary predicate or transform written as int (bool outputs).
template <typename Fn>
Status MapToInt(const Tensor& in, Tensor& out, const char* name, Fn fn) {
  if (!IsKnownDtype(in.dtype) || !IsKnownDtype(out.dtype)) return DtypeError(name, in);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  for (size_t i = 0; i < out.numel; ++i) StoreInt(out, i, fn(i));
  return Status::Ok();
}

// maximum/minimum: NaN propagates, as in torch.maximum.
Status Extremum(const Tensor& a, const Tensor& b, Tensor& out, bool max, const char* name) {
  ESDK_RETURN_IF_ERROR(CheckDtypes(a, b, out, name));
  const ScalarType common = PromoteTypes(a.dtype, b.dtype);
  if (IsFloating(common)) {
    return ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
      const double x = RoundTo(common, LoadDouble(a, i)), y = RoundTo(common, LoadDouble(b, j));
      StoreDouble(out, o,
                  std::isnan(x) || std::isnan(y) ? NAN
                  : max                          ? (x > y ? x : y)
                                                 : (x < y ? x : y));
    });
  }
  return ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
    const int64_t x = LoadInt(a, i), y = LoadInt(b, j);
    StoreInt(out, o, max ? (x > y ? x : y) : (x < y ? x : y));
  });
}

// Shifts as torch computes them in the common integer type: a left shift
// by the type's width or more (or a negative amount) gives 0, a right shift
// so far gives the sign fill. Computed in int64; StoreInt wraps to width.
int64_t Shift(int64_t a, int64_t b, bool left, int bits) {
  if (left) return (b < 0 || b >= bits) ? 0 : static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  if (b < 0 || b >= bits) return a < 0 ? -1 : 0;
  return a >> b;
}

Status ShiftTensors(const Tensor& a, const Tensor& b, Tensor& out, bool left, const char* name) {
  ESDK_RETURN_IF_ERROR(CheckDtypes(a, b, out, name));
  const ScalarType common = PromoteTypes(a.dtype, b.dtype);
  if (!IsIntegral(common) || !IsIntegral(out.dtype)) return DtypeError(name, out);
  const int bits = IntBits(common);
  return ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
    StoreInt(out, o, Shift(LoadInt(a, i), LoadInt(b, j), left, bits));
  });
}

Status ShiftScalar(const Tensor& a, double b, Tensor& out, bool left, const char* name) {
  if (!ScalarIsIntegral(b)) return DtypeError(name, a);
  int64_t i_storage = 0;
  double d_storage = 0;
  const Tensor scalar = ScalarTensor(b, true, &i_storage, &d_storage);
  if (!IsIntegral(a.dtype) || !IsIntegral(out.dtype)) return DtypeError(name, out);
  const int bits = IntBits(a.dtype);  // a Scalar does not widen the tensor's type
  return ForEachBroadcast(a, scalar, out, name, [&](size_t o, size_t i, size_t) {
    StoreInt(out, o, Shift(LoadInt(a, i), i_storage, left, bits));
  });
}

}  // namespace

Status BitwiseLeftShiftTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return ShiftTensors(self, other, out, true, kBitwiseLeftShiftTensorOutName);
}
Status BitwiseRightShiftTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return ShiftTensors(self, other, out, false, kBitwiseRightShiftTensorOutName);
}
Status BitwiseLeftShiftTensorScalarOut(const Tensor& self, double other, Tensor& out) {
  return ShiftScalar(self, other, out, true, kBitwiseLeftShiftTensorScalarOutName);
}
Status BitwiseRightShiftTensorScalarOut(const Tensor& self, double other, Tensor& out) {
  return ShiftScalar(self, other, out, false, kBitwiseRightShiftTensorScalarOutName);
}

// clamp.Tensor_out: self limited by the (broadcast) min and max tensors, in
// out's dtype; NaN in self or a bound propagates for floats.
Status ClampTensorOut(const Tensor& self, const Tensor* min, const Tensor* max, Tensor& out) {
  if (min == nullptr && max == nullptr)
    return Status::Error(ErrorCode::kInvalidArgument, "clamp needs min or max");
  const Tensor* operands[] = {&self, min != nullptr ? min : &self, max != nullptr ? max : &self};
  for (const Tensor* t : operands) {
    if (!IsKnownDtype(t->dtype)) return DtypeError(kClampTensorOutName, *t);
  }
  if (!IsKnownDtype(out.dtype)) return DtypeError(kClampTensorOutName, out);
  ESDK_RETURN_IF_ERROR(ExpectBroadcastOf(operands, 3, out, kClampTensorOutName));
  BroadcastIndex is, ilo, ihi;
  ESDK_RETURN_IF_ERROR(is.Init(self, out));
  ESDK_RETURN_IF_ERROR(ilo.Init(*operands[1], out));
  ESDK_RETURN_IF_ERROR(ihi.Init(*operands[2], out));
  const bool floating = IsFloating(out.dtype);
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t o = 0; o < out.numel; ++o) {
    if (floating) {
      double v = RoundTo(out.dtype, LoadDouble(self, is.Map(coord)));
      if (min != nullptr) {
        const double lo = RoundTo(out.dtype, LoadDouble(*min, ilo.Map(coord)));
        v = std::isnan(lo) ? lo : (v < lo ? lo : v);
      }
      if (max != nullptr) {
        const double hi = RoundTo(out.dtype, LoadDouble(*max, ihi.Map(coord)));
        v = std::isnan(hi) ? hi : (v > hi ? hi : v);
      }
      StoreDouble(out, o, v);
    } else {
      int64_t v = LoadInt(self, is.Map(coord));
      if (min != nullptr) v = v < LoadInt(*min, ilo.Map(coord)) ? LoadInt(*min, ilo.Map(coord)) : v;
      if (max != nullptr) v = v > LoadInt(*max, ihi.Map(coord)) ? LoadInt(*max, ihi.Map(coord)) : v;
      StoreInt(out, o, v);
    }
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

Status EqTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return CompareTensors(self, other, out, Cmp::kEq, kEqTensorOutName);
}
Status NeTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return CompareTensors(self, other, out, Cmp::kNe, kNeTensorOutName);
}
Status LtTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return CompareTensors(self, other, out, Cmp::kLt, kLtTensorOutName);
}
Status LeTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return CompareTensors(self, other, out, Cmp::kLe, kLeTensorOutName);
}
Status GtTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return CompareTensors(self, other, out, Cmp::kGt, kGtTensorOutName);
}
Status GeTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return CompareTensors(self, other, out, Cmp::kGe, kGeTensorOutName);
}
Status EqScalarOut(const Tensor& self, double other, Tensor& out) {
  return CompareScalar(self, other, out, Cmp::kEq, kEqScalarOutName);
}
Status NeScalarOut(const Tensor& self, double other, Tensor& out) {
  return CompareScalar(self, other, out, Cmp::kNe, kNeScalarOutName);
}
Status LtScalarOut(const Tensor& self, double other, Tensor& out) {
  return CompareScalar(self, other, out, Cmp::kLt, kLtScalarOutName);
}
Status LeScalarOut(const Tensor& self, double other, Tensor& out) {
  return CompareScalar(self, other, out, Cmp::kLe, kLeScalarOutName);
}
Status GtScalarOut(const Tensor& self, double other, Tensor& out) {
  return CompareScalar(self, other, out, Cmp::kGt, kGtScalarOutName);
}
Status GeScalarOut(const Tensor& self, double other, Tensor& out) {
  return CompareScalar(self, other, out, Cmp::kGe, kGeScalarOutName);
}

Status LogicalAndOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return LogicalTensors(self, other, out, Logic::kAnd, kLogicalAndOutName);
}
Status LogicalOrOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return LogicalTensors(self, other, out, Logic::kOr, kLogicalOrOutName);
}
Status LogicalXorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return LogicalTensors(self, other, out, Logic::kXor, kLogicalXorOutName);
}
Status LogicalNotOut(const Tensor& self, Tensor& out) {
  return MapToInt(self, out, kLogicalNotOutName, [&](size_t i) { return !Truth(self, i); });
}

Status BitwiseAndTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return BitwiseTensors(self, other, out, Logic::kAnd, kBitwiseAndTensorOutName);
}
Status BitwiseOrTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return BitwiseTensors(self, other, out, Logic::kOr, kBitwiseOrTensorOutName);
}
Status BitwiseXorTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return BitwiseTensors(self, other, out, Logic::kXor, kBitwiseXorTensorOutName);
}
Status BitwiseAndScalarOut(const Tensor& self, double other, Tensor& out) {
  return BitwiseScalar(self, other, out, Logic::kAnd, kBitwiseAndScalarOutName);
}
Status BitwiseOrScalarOut(const Tensor& self, double other, Tensor& out) {
  return BitwiseScalar(self, other, out, Logic::kOr, kBitwiseOrScalarOutName);
}
Status BitwiseXorScalarOut(const Tensor& self, double other, Tensor& out) {
  return BitwiseScalar(self, other, out, Logic::kXor, kBitwiseXorScalarOutName);
}
// Bool: logical not; integers: ones' complement.
Status BitwiseNotOut(const Tensor& self, Tensor& out) {
  if (IsFloating(self.dtype)) return DtypeError(kBitwiseNotOutName, self);
  const bool is_bool = self.dtype == ScalarType::kBool;
  return MapToInt(self, out, kBitwiseNotOutName, [&](size_t i) {
    return is_bool ? int64_t{LoadInt(self, i) == 0} : ~LoadInt(self, i);
  });
}

Status IsnanOut(const Tensor& self, Tensor& out) {
  return MapToInt(self, out, kIsnanOutName,
                  [&](size_t i) { return std::isnan(LoadDouble(self, i)); });
}

Status IsinfOut(const Tensor& self, Tensor& out) {
  return MapToInt(self, out, kIsinfOutName,
                  [&](size_t i) { return std::isinf(LoadDouble(self, i)); });
}

Status MaximumOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return Extremum(self, other, out, true, kMaximumOutName);
}
Status MinimumOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return Extremum(self, other, out, false, kMinimumOutName);
}

// where.self_out(condition, self, other, *, out): broadcasts all three.
Status WhereSelfOut(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out) {
  ESDK_RETURN_IF_ERROR(CheckDtypes(self, other, out, kWhereSelfOutName));
  if (condition.dtype != ScalarType::kBool && condition.dtype != ScalarType::kByte) {
    return DtypeError(kWhereSelfOutName, condition);
  }
  const Tensor* operands[] = {&condition, &self, &other};
  ESDK_RETURN_IF_ERROR(ExpectBroadcastOf(operands, 3, out, kWhereSelfOutName));
  BroadcastIndex ic;
  ESDK_RETURN_IF_ERROR(ic.Init(condition, out));
  const bool as_float = IsFloating(out.dtype);
  BroadcastIndex ia, ib;
  ESDK_RETURN_IF_ERROR(ia.Init(self, out));
  ESDK_RETURN_IF_ERROR(ib.Init(other, out));
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t o = 0; o < out.numel; ++o) {
    const bool pick = LoadInt(condition, ic.Map(coord)) != 0;
    const Tensor& from = pick ? self : other;
    const size_t at = pick ? ia.Map(coord) : ib.Map(coord);
    if (as_float) {
      StoreDouble(out, o, LoadDouble(from, at));
    } else {
      StoreInt(out, o, LoadInt(from, at));
    }
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
