// Elementwise unary math: abs, neg, sign, rounding (floor, ceil, round,
// trunc), the float functions (sqrt, logs, trigonometric and hyperbolic
// functions, erf, expm1) and the activations leaky_relu, elu and logit.
// Float functions are evaluated in the output's precision (float32 math for
// a float32 out, as PyTorch does); integer inputs to them are converted
// first (torch.sin of an int tensor is float32). abs, neg, sign and the
// rounding functions keep integer dtypes, wrapping like PyTorch.
#include <cmath>
#include <cstdint>
#include <optional>

#include "cc/kernels/element.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

// out = fn(in) in out's float type; `fn` takes and returns float or double.
template <typename Fn>
Status MapFloatFn(const Tensor& in, Tensor& out, const char* name, Fn fn) {
  if (!IsKnownDtype(in.dtype) || !IsFloating(out.dtype)) return DtypeError(name, out);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  if (out.dtype == ScalarType::kFloat) {
    float* po = out.Data<float>();
    for (size_t i = 0; i < out.numel; ++i) po[i] = fn(static_cast<float>(LoadDouble(in, i)));
  } else {
    double* po = out.Data<double>();
    for (size_t i = 0; i < out.numel; ++i) po[i] = fn(LoadDouble(in, i));
  }
  return Status::Ok();
}

// out = float_fn(in) for floats, int_fn(in) for integer and bool dtypes
// (in and out of one dtype).
template <typename FloatFn, typename IntFn>
Status MapSameDtype(const Tensor& in, Tensor& out, const char* name, FloatFn float_fn,
                    IntFn int_fn) {
  if (!IsKnownDtype(in.dtype) || in.dtype != out.dtype) return DtypeError(name, out);
  if (IsFloating(out.dtype)) return MapFloatFn(in, out, name, float_fn);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  for (size_t i = 0; i < out.numel; ++i) StoreInt(out, i, int_fn(LoadInt(in, i)));
  return Status::Ok();
}

// Negation modulo 2^64 (INT64_MIN stays itself, as on the hardware).
int64_t WrapNeg(int64_t v) { return static_cast<int64_t>(0 - static_cast<uint64_t>(v)); }
int64_t Identity(int64_t v) { return v; }

}  // namespace

Status AbsOut(const Tensor& self, Tensor& out) {
  return MapSameDtype(
      self, out, kAbsOutName, [](auto x) { return std::fabs(x); },
      [](int64_t v) { return v < 0 ? WrapNeg(v) : v; });
}

Status NegOut(const Tensor& self, Tensor& out) {
  if (self.dtype == ScalarType::kBool)
    return DtypeError(kNegOutName, self);  // PyTorch refuses it too
  return MapSameDtype(self, out, kNegOutName, [](auto x) { return -x; }, WrapNeg);
}

Status SignOut(const Tensor& self, Tensor& out) {
  return MapSameDtype(
      self, out, kSignOutName,
      [](auto x) { return std::isnan(x) ? x : static_cast<decltype(x)>((x > 0) - (x < 0)); },
      [](int64_t v) { return int64_t{(v > 0) - (v < 0)}; });
}

Status FloorOut(const Tensor& self, Tensor& out) {
  return MapSameDtype(self, out, kFloorOutName, [](auto x) { return std::floor(x); }, Identity);
}
Status CeilOut(const Tensor& self, Tensor& out) {
  return MapSameDtype(self, out, kCeilOutName, [](auto x) { return std::ceil(x); }, Identity);
}
Status TruncOut(const Tensor& self, Tensor& out) {
  return MapSameDtype(self, out, kTruncOutName, [](auto x) { return std::trunc(x); }, Identity);
}
// Halves to even, as torch.round (the default rounding mode of nearbyint).
Status RoundOut(const Tensor& self, Tensor& out) {
  return MapSameDtype(self, out, kRoundOutName, [](auto x) { return std::nearbyint(x); }, Identity);
}

Status SqrtOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kSqrtOutName, [](auto x) { return std::sqrt(x); });
}
Status LogOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kLogOutName, [](auto x) { return std::log(x); });
}
Status Log2Out(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kLog2OutName, [](auto x) { return std::log2(x); });
}
Status Log10Out(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kLog10OutName, [](auto x) { return std::log10(x); });
}
Status Log1pOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kLog1pOutName, [](auto x) { return std::log1p(x); });
}
Status Expm1Out(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kExpm1OutName, [](auto x) { return std::expm1(x); });
}
Status SinOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kSinOutName, [](auto x) { return std::sin(x); });
}
Status CosOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kCosOutName, [](auto x) { return std::cos(x); });
}
Status TanOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kTanOutName, [](auto x) { return std::tan(x); });
}
Status AsinOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kAsinOutName, [](auto x) { return std::asin(x); });
}
Status AcosOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kAcosOutName, [](auto x) { return std::acos(x); });
}
Status AtanOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kAtanOutName, [](auto x) { return std::atan(x); });
}
Status SinhOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kSinhOutName, [](auto x) { return std::sinh(x); });
}
Status CoshOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kCoshOutName, [](auto x) { return std::cosh(x); });
}
Status AsinhOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kAsinhOutName, [](auto x) { return std::asinh(x); });
}
Status AcoshOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kAcoshOutName, [](auto x) { return std::acosh(x); });
}
Status AtanhOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kAtanhOutName, [](auto x) { return std::atanh(x); });
}
Status ErfOut(const Tensor& self, Tensor& out) {
  return MapFloatFn(self, out, kErfOutName, [](auto x) { return std::erf(x); });
}

Status LeakyReluOut(const Tensor& self, double negative_slope, Tensor& out) {
  if (!IsFloating(self.dtype) || self.dtype != out.dtype)
    return DtypeError(kLeakyReluOutName, self);
  return MapFloatFn(self, out, kLeakyReluOutName, [negative_slope](auto x) {
    using T = decltype(x);
    return x > T(0) ? x : x * static_cast<T>(negative_slope);
  });
}

// elu: scale * x for x > 0, else scale * alpha * (exp(x * input_scale) - 1).
Status EluOut(const Tensor& self, double alpha, double scale, double input_scale, Tensor& out) {
  if (!IsFloating(self.dtype) || self.dtype != out.dtype) return DtypeError(kEluOutName, self);
  return MapFloatFn(self, out, kEluOutName, [=](auto x) {
    using T = decltype(x);
    return x > T(0) ? x * static_cast<T>(scale)
                    : static_cast<T>(alpha) * static_cast<T>(scale) *
                          std::expm1(x * static_cast<T>(input_scale));
  });
}

// logit: log(z / (1 - z)), z clamped to [eps, 1 - eps] when eps is given.
Status LogitOut(const Tensor& self, std::optional<double> eps, Tensor& out) {
  return MapFloatFn(self, out, kLogitOutName, [eps](auto x) {
    using T = decltype(x);
    if (eps) {
      const T lo = static_cast<T>(*eps), hi = T(1) - static_cast<T>(*eps);
      x = x < lo ? lo : x > hi ? hi : x;
    }
    return std::log(x / (T(1) - x));
  });
}

// glu(self, dim): the first half along dim times the sigmoid of the second.
Status GluOut(const Tensor& self, int64_t dim, Tensor& out) {
  if (!IsFloating(self.dtype) || self.dtype != out.dtype) return DtypeError(kGluOutName, self);
  int32_t d = 0;
  ESDK_RETURN_IF_ERROR(NormalizeDim(dim, self.rank, &d));
  if (self.rank == 0 || self.sizes[d] % 2 != 0)
    return ShapeError("glu needs an even size along dim", self.rank == 0 ? 1 : self.sizes[d]);
  int32_t shape[runtime::kMaxRank];
  for (int32_t k = 0; k < self.rank; ++k) shape[k] = k == d ? self.sizes[k] / 2 : self.sizes[k];
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, self.rank, kGluOutName));
  size_t outer, inner;
  OuterInner(self, d, &outer, &inner);
  const size_t half = static_cast<size_t>(shape[d]);
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < half * inner; ++i) {
      const size_t a = o * 2 * half * inner + i, b = a + half * inner;
      if (out.dtype == ScalarType::kFloat) {
        const float x = self.Data<const float>()[a], g = self.Data<const float>()[b];
        out.Data<float>()[o * half * inner + i] = x * (1.0f / (1.0f + std::exp(-g)));
      } else {
        const double x = self.Data<const double>()[a], g = self.Data<const double>()[b];
        out.Data<double>()[o * half * inner + i] = x * (1.0 / (1.0 + std::exp(-g)));
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
