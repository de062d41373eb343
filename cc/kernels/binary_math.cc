// Binary arithmetic with PyTorch's type promotion and Scalar overloads:
// div (true, trunc, floor), remainder, fmod, floor_divide, pow, atan2 and
// the Scalar forms of add, sub, mul and rsub. The out tensor's dtype is the
// result type the program planned: float outs compute in doubles from
// operands rounded to out's precision (exact for + - * /, within an ulp for
// pow and atan2), integer outs in int64 with wrapping; integer division by
// zero is an error (PyTorch raises too).
#include <cmath>
#include <cstdint>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

enum class Op {
  kAdd,
  kSub,
  kRsub,
  kMul,
  kDiv,
  kDivTrunc,
  kDivFloor,
  kRemainder,
  kFmod,
  kPow,
  kAtan2
};

// Python's floor division of floats, as PyTorch computes it (the quotient
// rounded from the exact remainder, so 7.0 // 0.7 is 9, not 10).
double FloorDivide(double a, double b) {
  if (b == 0.0) return a / b;
  const double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) div -= 1.0;
  if (div == 0.0) return std::copysign(0.0, a / b);
  double floored = std::floor(div);
  if (div - floored > 0.5) floored += 1.0;
  return floored;
}

double ApplyFloat(Op op, double a, double b, double alpha) {
  switch (op) {
    case Op::kAdd:
      return a + alpha * b;
    case Op::kSub:
      return a - alpha * b;
    case Op::kRsub:
      return b - alpha * a;
    case Op::kMul:
      return a * b;
    case Op::kDiv:
      return a / b;
    case Op::kDivTrunc:
      return std::trunc(a / b);
    case Op::kDivFloor:
      return FloorDivide(a, b);
    case Op::kRemainder: {
      double mod = std::fmod(a, b);
      if (mod != 0.0 && (b < 0.0) != (mod < 0.0)) mod += b;
      return mod;
    }
    case Op::kFmod:
      return std::fmod(a, b);
    case Op::kPow:
      return std::pow(a, b);
    case Op::kAtan2:
      return std::atan2(a, b);
  }
  return 0.0;
}

// Integer power by squaring modulo 2^64; negative exponents give what
// PyTorch's integer pow gives (1 for base 1, +-1 for base -1, else 0).
int64_t IntPow(int64_t base, int64_t exponent) {
  if (exponent < 0) {
    if (base == 1) return 1;
    if (base == -1) return (exponent & 1) ? -1 : 1;
    return 0;
  }
  uint64_t result = 1, b = static_cast<uint64_t>(base);
  for (uint64_t e = static_cast<uint64_t>(exponent); e != 0; e >>= 1) {
    if (e & 1) result *= b;
    b *= b;
  }
  return static_cast<int64_t>(result);
}

// Integer ops modulo 2^64; false on division by zero.
bool ApplyInt(Op op, int64_t a, int64_t b, int64_t alpha, int64_t* r) {
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b),
                 ualpha = static_cast<uint64_t>(alpha);
  switch (op) {
    case Op::kAdd:
      *r = static_cast<int64_t>(ua + ualpha * ub);
      return true;
    case Op::kSub:
      *r = static_cast<int64_t>(ua - ualpha * ub);
      return true;
    case Op::kRsub:
      *r = static_cast<int64_t>(ub - ualpha * ua);
      return true;
    case Op::kMul:
      *r = static_cast<int64_t>(ua * ub);
      return true;
    case Op::kPow:
      *r = IntPow(a, b);
      return true;
    default:
      break;
  }
  if (b == 0) return false;
  if (b == -1) {  // INT64_MIN / -1 overflows: the wrapped quotient, remainder 0
    *r = (op == Op::kRemainder || op == Op::kFmod) ? 0 : static_cast<int64_t>(0 - ua);
    return true;
  }
  const int64_t q = a / b, m = a % b;
  const bool adjust = m != 0 && ((m < 0) != (b < 0));
  switch (op) {
    case Op::kDivTrunc:
      *r = q;
      return true;
    case Op::kDivFloor:
      *r = adjust ? q - 1 : q;
      return true;
    case Op::kRemainder:
      *r = adjust ? m + b : m;
      return true;
    case Op::kFmod:
      *r = m;
      return true;
    default:
      *r = q;
      return true;  // kDiv never reaches here with an integer out
  }
}

Status Binary(const Tensor& a, const Tensor& b, Tensor& out, Op op, double alpha,
              const char* name) {
  if (!IsKnownDtype(a.dtype) || !IsKnownDtype(b.dtype) || !IsKnownDtype(out.dtype))
    return DtypeError(name, out);
  const ScalarType common = PromoteTypes(a.dtype, b.dtype);
  const bool float_math =
      IsFloating(out.dtype) || IsFloating(common) || op == Op::kDiv || op == Op::kAtan2;
  if (float_math) {
    if (!IsFloating(out.dtype)) return DtypeError(name, out);  // a float result into an integer out
    const ScalarType precision = out.dtype;
    const double alpha_r = RoundTo(precision, alpha);
    return ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
      StoreDouble(out, o,
                  ApplyFloat(op, RoundTo(precision, LoadDouble(a, i)),
                             RoundTo(precision, LoadDouble(b, j)), alpha_r));
    });
  }
  if (!ScalarIsIntegral(alpha))
    return Status::Error(ErrorCode::kInvalidArgument,
                         "alpha must be integral for integer inputs: %s", name);
  const int64_t alpha_i = static_cast<int64_t>(alpha);
  bool division_by_zero = false;
  ESDK_RETURN_IF_ERROR(ForEachBroadcast(a, b, out, name, [&](size_t o, size_t i, size_t j) {
    int64_t r = 0;
    if (!ApplyInt(op, LoadInt(a, i), LoadInt(b, j), alpha_i, &r)) division_by_zero = true;
    StoreInt(out, o, r);
  }));
  if (division_by_zero)
    return Status::Error(ErrorCode::kInvalidArgument, "integer division by zero in: %s", name);
  return Status::Ok();
}

Status BinaryScalar(const Tensor& a, double b, Tensor& out, Op op, double alpha, const char* name) {
  int64_t i_storage = 0;
  double d_storage = 0;
  const Tensor scalar = ScalarTensor(b, !IsFloating(out.dtype), &i_storage, &d_storage);
  return Binary(a, scalar, out, op, alpha, name);
}

// rounding_mode: None (true division), "trunc" or "floor".
Status DivMode(std::optional<String> mode, Op* op) {
  if (!mode) {
    *op = Op::kDiv;
  } else if (Equals(*mode, "trunc")) {
    *op = Op::kDivTrunc;
  } else if (Equals(*mode, "floor")) {
    *op = Op::kDivFloor;
  } else {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "div rounding_mode must be None, trunc or floor");
  }
  return Status::Ok();
}

}  // namespace

Status DivOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return Binary(self, other, out, Op::kDiv, 1.0, kDivOutName);
}
Status DivOutMode(const Tensor& self, const Tensor& other, std::optional<String> rounding_mode,
                  Tensor& out) {
  Op op = Op::kDiv;
  ESDK_RETURN_IF_ERROR(DivMode(rounding_mode, &op));
  return Binary(self, other, out, op, 1.0, kDivOutModeName);
}
Status DivScalarOut(const Tensor& self, double other, Tensor& out) {
  return BinaryScalar(self, other, out, Op::kDiv, 1.0, kDivScalarOutName);
}
Status DivScalarModeOut(const Tensor& self, double other, std::optional<String> rounding_mode,
                        Tensor& out) {
  Op op = Op::kDiv;
  ESDK_RETURN_IF_ERROR(DivMode(rounding_mode, &op));
  return BinaryScalar(self, other, out, op, 1.0, kDivScalarModeOutName);
}
Status FloorDivideOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return Binary(self, other, out, Op::kDivFloor, 1.0, kFloorDivideOutName);
}
Status RemainderTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return Binary(self, other, out, Op::kRemainder, 1.0, kRemainderTensorOutName);
}
Status RemainderScalarOut(const Tensor& self, double other, Tensor& out) {
  return BinaryScalar(self, other, out, Op::kRemainder, 1.0, kRemainderScalarOutName);
}
Status FmodTensorOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return Binary(self, other, out, Op::kFmod, 1.0, kFmodTensorOutName);
}
Status FmodScalarOut(const Tensor& self, double other, Tensor& out) {
  return BinaryScalar(self, other, out, Op::kFmod, 1.0, kFmodScalarOutName);
}
Status PowTensorTensorOut(const Tensor& self, const Tensor& exponent, Tensor& out) {
  return Binary(self, exponent, out, Op::kPow, 1.0, kPowTensorTensorOutName);
}
Status PowTensorScalarOut(const Tensor& self, double exponent, Tensor& out) {
  return BinaryScalar(self, exponent, out, Op::kPow, 1.0, kPowTensorScalarOutName);
}
// pow.Scalar_out(Scalar self, Tensor exponent): the base is the Scalar.
Status PowScalarOut(double self, const Tensor& exponent, Tensor& out) {
  int64_t i_storage = 0;
  double d_storage = 0;
  const Tensor base = ScalarTensor(self, !IsFloating(out.dtype), &i_storage, &d_storage);
  return Binary(base, exponent, out, Op::kPow, 1.0, kPowScalarOutName);
}
Status Atan2Out(const Tensor& self, const Tensor& other, Tensor& out) {
  return Binary(self, other, out, Op::kAtan2, 1.0, kAtan2OutName);
}
Status AddScalarOut(const Tensor& self, double other, double alpha, Tensor& out) {
  return BinaryScalar(self, other, out, Op::kAdd, alpha, kAddScalarOutName);
}
Status SubScalarOut(const Tensor& self, double other, double alpha, Tensor& out) {
  return BinaryScalar(self, other, out, Op::kSub, alpha, kSubScalarOutName);
}
Status MulScalarOut(const Tensor& self, double other, Tensor& out) {
  return BinaryScalar(self, other, out, Op::kMul, 1.0, kMulScalarOutName);
}
// rsub: other - alpha * self.
Status RsubScalarOut(const Tensor& self, double other, double alpha, Tensor& out) {
  return BinaryScalar(self, other, out, Op::kRsub, alpha, kRsubScalarOutName);
}

}  // namespace ethosu_sdk::kernels
