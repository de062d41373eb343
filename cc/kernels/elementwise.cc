// Elementwise arithmetic and activations: add, sub, mul (with broadcasting),
// relu, hardtanh, clamp, sigmoid, tanh, exp, reciprocal, rsqrt. Float math is done in float like
// ExecuTorch's portable kernels; integer math wraps like two's complement hardware.
#include <cmath>
#include <cstdint>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

enum class BinaryOp { kAdd, kSub, kMul };

template <typename T>
T Apply(BinaryOp op, T a, T b, T alpha) {
  switch (op) {
    case BinaryOp::kAdd:
      return a + alpha * b;
    case BinaryOp::kSub:
      return a - alpha * b;
    case BinaryOp::kMul:
      return a * b;
  }
  return a;
}

// Integers: computed modulo 2^64 (unsigned, so overflow is defined), then
// truncated to the element type, which equals wrapping in the narrow type.
template <typename T>
T ApplyInt(BinaryOp op, T a, T b, T alpha) {
  const uint64_t ua = static_cast<uint64_t>(static_cast<int64_t>(a));
  const uint64_t ub = static_cast<uint64_t>(static_cast<int64_t>(b));
  const uint64_t ualpha = static_cast<uint64_t>(static_cast<int64_t>(alpha));
  uint64_t r = 0;
  switch (op) {
    case BinaryOp::kAdd:
      r = ua + ualpha * ub;
      break;
    case BinaryOp::kSub:
      r = ua - ualpha * ub;
      break;
    case BinaryOp::kMul:
      r = ua * ub;
      break;
  }
  return static_cast<T>(r);
}

template <typename T, bool kIsFloat>
void RunBinary(BinaryOp op, const Tensor& a, const Tensor& b, Tensor& out, double alpha,
               const BroadcastIndex& ia, const BroadcastIndex& ib) {
  const T* pa = a.Data<const T>();
  const T* pb = b.Data<const T>();
  T* po = out.Data<T>();
  const T alpha_t = SaturateCast<T>(alpha);
  auto apply = [&](T x, T y) {
    if constexpr (kIsFloat) {
      return Apply<T>(op, x, y, alpha_t);
    } else {
      return ApplyInt<T>(op, x, y, alpha_t);
    }
  };
  if (ia.trivial() && ib.trivial()) {
    for (size_t i = 0; i < out.numel; ++i) po[i] = apply(pa[i], pb[i]);
    return;
  }
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    po[i] = apply(pa[ia.Map(coord)], pb[ib.Map(coord)]);
    NextCoord(coord, out.sizes, out.rank);
  }
}

Status Binary(const Tensor& a, const Tensor& b, double alpha, Tensor& out, BinaryOp op,
              const char* name) {
  if (a.dtype != out.dtype || b.dtype != out.dtype) {
    return Status::Error(ErrorCode::kNotSupported, "mixed dtypes in: %s", name);
  }
  // out must be exactly the broadcast of a and b.
  const int32_t rank = a.rank > b.rank ? a.rank : b.rank;
  int32_t sizes[runtime::kMaxRank];
  for (int32_t d = 0; d < rank; ++d) {
    const int32_t da = d - (rank - a.rank), db = d - (rank - b.rank);
    const int32_t sa = da >= 0 ? a.sizes[da] : 1, sb = db >= 0 ? b.sizes[db] : 1;
    if (sa != sb && sa != 1 && sb != 1) return ShapeError("operands do not broadcast", sa, sb);
    sizes[d] = sa == 1 ? sb : sa;
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, sizes, rank, name));
  BroadcastIndex ia, ib;
  ESDK_RETURN_IF_ERROR(ia.Init(a, out));
  ESDK_RETURN_IF_ERROR(ib.Init(b, out));
  switch (out.dtype) {
    case ScalarType::kFloat:
      RunBinary<float, true>(op, a, b, out, alpha, ia, ib);
      break;
    case ScalarType::kDouble:
      RunBinary<double, true>(op, a, b, out, alpha, ia, ib);
      break;
    case ScalarType::kChar:
      RunBinary<int8_t, false>(op, a, b, out, alpha, ia, ib);
      break;
    case ScalarType::kByte:
      RunBinary<uint8_t, false>(op, a, b, out, alpha, ia, ib);
      break;
    case ScalarType::kShort:
      RunBinary<int16_t, false>(op, a, b, out, alpha, ia, ib);
      break;
    case ScalarType::kInt:
      RunBinary<int32_t, false>(op, a, b, out, alpha, ia, ib);
      break;
    case ScalarType::kLong:
      RunBinary<int64_t, false>(op, a, b, out, alpha, ia, ib);
      break;
    // Bools: add is or, mul is and (the int64 result is nonzero or not); PyTorch refuses sub.
    case ScalarType::kBool:
      if (op == BinaryOp::kSub) return DtypeError(name, out);
      RunBinary<bool, false>(op, a, b, out, alpha, ia, ib);
      break;
    default:
      return DtypeError(name, out);
  }
  return Status::Ok();
}

// Clamps to [lo, hi]; either bound may be absent.
template <typename T>
void RunClamp(const Tensor& in, Tensor& out, std::optional<double> lo, std::optional<double> hi) {
  const T* pi = in.Data<const T>();
  T* po = out.Data<T>();
  const T lo_t = SaturateCast<T>(lo.value_or(0.0)), hi_t = SaturateCast<T>(hi.value_or(0.0));
  for (size_t i = 0; i < out.numel; ++i) {
    T v = pi[i];
    if (lo && v < lo_t) v = lo_t;
    if (hi && v > hi_t) v = hi_t;
    po[i] = v;
  }
}

Status Clamp(const Tensor& in, Tensor& out, std::optional<double> lo, std::optional<double> hi,
             const char* name) {
  if (in.dtype != out.dtype) return DtypeError(name, in);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  switch (out.dtype) {
    case ScalarType::kFloat:
      RunClamp<float>(in, out, lo, hi);
      break;
    case ScalarType::kDouble:
      RunClamp<double>(in, out, lo, hi);
      break;
    case ScalarType::kChar:
      RunClamp<int8_t>(in, out, lo, hi);
      break;
    case ScalarType::kByte:
      RunClamp<uint8_t>(in, out, lo, hi);
      break;
    case ScalarType::kShort:
      RunClamp<int16_t>(in, out, lo, hi);
      break;
    case ScalarType::kInt:
      RunClamp<int32_t>(in, out, lo, hi);
      break;
    case ScalarType::kLong:
      RunClamp<int64_t>(in, out, lo, hi);
      break;
    default:
      return DtypeError(name, in);
  }
  return Status::Ok();
}

// A float function applied to every element into a float32 out; integer
// and bool inputs are converted first (torch.exp of an int tensor is float).
template <typename Fn>
Status MapFloat(const Tensor& in, Tensor& out, const char* name, Fn fn) {
  if (!IsKnownDtype(in.dtype) || out.dtype != ScalarType::kFloat) return DtypeError(name, in);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  float* po = out.Data<float>();
  if (in.dtype == ScalarType::kFloat) {
    const float* pi = in.Data<const float>();
    for (size_t i = 0; i < out.numel; ++i) po[i] = fn(pi[i]);
  } else {
    for (size_t i = 0; i < out.numel; ++i) po[i] = fn(static_cast<float>(LoadDouble(in, i)));
  }
  return Status::Ok();
}

}  // namespace

Status SigmoidOut(const Tensor& self, Tensor& out) {
  return MapFloat(self, out, kSigmoidOutName, [](float x) { return 1.0f / (1.0f + std::exp(-x)); });
}

Status TanhOut(const Tensor& self, Tensor& out) {
  return MapFloat(self, out, kTanhOutName, [](float x) { return std::tanh(x); });
}

Status ExpOut(const Tensor& self, Tensor& out) {
  return MapFloat(self, out, kExpOutName, [](float x) { return std::exp(x); });
}

Status ReciprocalOut(const Tensor& self, Tensor& out) {
  return MapFloat(self, out, kReciprocalOutName, [](float x) { return 1.0f / x; });
}

Status RsqrtOut(const Tensor& self, Tensor& out) {
  return MapFloat(self, out, kRsqrtOutName, [](float x) { return 1.0f / std::sqrt(x); });
}

// The erf form, or the tanh approximation when asked.
Status GeluOut(const Tensor& self, String approximate, Tensor& out) {
  const bool use_tanh = Equals(approximate, "tanh");
  if (!use_tanh && !Equals(approximate, "none")) {
    return Status::Error(ErrorCode::kNotSupported, "gelu approximate must be none or tanh");
  }
  if (use_tanh) {
    return MapFloat(self, out, kGeluOutName, [](float x) {
      const float kBeta = 0.7978845608028654f;  // sqrt(2 / pi)
      return 0.5f * x * (1.0f + std::tanh(kBeta * (x + 0.044715f * x * x * x)));
    });
  }
  return MapFloat(self, out, kGeluOutName,
                  [](float x) { return 0.5f * x * (1.0f + std::erf(x * 0.7071067811865476f)); });
}

Status AddOut(const Tensor& self, const Tensor& other, double alpha, Tensor& out) {
  return Binary(self, other, alpha, out, BinaryOp::kAdd, kAddOutName);
}

Status SubOut(const Tensor& self, const Tensor& other, double alpha, Tensor& out) {
  return Binary(self, other, alpha, out, BinaryOp::kSub, kSubOutName);
}

Status MulOut(const Tensor& self, const Tensor& other, Tensor& out) {
  return Binary(self, other, 1.0, out, BinaryOp::kMul, kMulOutName);
}

Status ReluOut(const Tensor& self, Tensor& out) {
  return Clamp(self, out, 0.0, std::nullopt, kReluOutName);
}

Status HardtanhOut(const Tensor& self, double min_val, double max_val, Tensor& out) {
  return Clamp(self, out, min_val, max_val, kHardtanhOutName);
}

Status ClampOut(const Tensor& self, std::optional<double> min, std::optional<double> max,
                Tensor& out) {
  return Clamp(self, out, min, max, kClampOutName);
}

}  // namespace ethosu_sdk::kernels
