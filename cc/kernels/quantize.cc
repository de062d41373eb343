// quantized_decomposed quantize/dequantize, per tensor and per channel.
// Rounding follows ExecuTorch's quantized kernels exactly: the inverse scale
// is computed in float, value * inv_scale is rounded half-to-even
// (nearbyint in the default rounding mode), the zero point is added, then
// the result is clamped to [quant_min, quant_max]. Dequantize computes
// (q - zero_point) * scale with the scale as a float (double per-channel
// scales multiply in double). On CPUs with MVE floating point the 8-bit
// per-tensor loops run four elements per instruction (quantize_helium.cc,
// bit-exact with the element function here); the rest stays plain C.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"
#include "cc/kernels/quantize_helium.h"
#include "cc/kernels/quantize_value.h"

namespace ethosu_sdk::kernels {
namespace {

// The Helium loops for 8-bit per-tensor tensors: the leading elements they
// wrote (0 on CPUs without MVE floating point and for other types).
size_t VectorQuantize(const float* in, int8_t* out, size_t n, float inv_scale, int32_t zp,
                      int64_t quant_min, int64_t quant_max) {
  return QuantizeInt8Helium(in, out, n, inv_scale, zp, static_cast<int32_t>(quant_min),
                            static_cast<int32_t>(quant_max));
}
size_t VectorQuantize(const float* in, uint8_t* out, size_t n, float inv_scale, int32_t zp,
                      int64_t quant_min, int64_t quant_max) {
  return QuantizeUint8Helium(in, out, n, inv_scale, zp, static_cast<int32_t>(quant_min),
                             static_cast<int32_t>(quant_max));
}
template <typename Q>
size_t VectorQuantize(const float*, Q*, size_t, float, int32_t, int64_t, int64_t) {
  return 0;
}

size_t VectorDequantize(const int8_t* in, float* out, size_t n, int32_t zp, float scale) {
  return DequantizeInt8Helium(in, out, n, zp, scale);
}
size_t VectorDequantize(const uint8_t* in, float* out, size_t n, int32_t zp, float scale) {
  return DequantizeUint8Helium(in, out, n, zp, scale);
}
template <typename Q>
size_t VectorDequantize(const Q*, float*, size_t, int32_t, float) {
  return 0;
}

Status CheckQuantRange(ScalarType dtype, int64_t quant_min, int64_t quant_max) {
  int64_t lo, hi;
  switch (dtype) {
    case ScalarType::kByte:
      lo = 0;
      hi = 255;
      break;
    case ScalarType::kChar:
      lo = -128;
      hi = 127;
      break;
    case ScalarType::kShort:
      lo = INT16_MIN;
      hi = INT16_MAX;
      break;
    case ScalarType::kInt:
      lo = INT32_MIN;
      hi = INT32_MAX;
      break;
    default:
      return Status::Error(ErrorCode::kNotSupported, "quantized dtype (%lld)",
                           static_cast<long long>(dtype));
  }
  if (quant_min < lo || quant_max > hi || quant_min > quant_max) {
    return ShapeError("quant_min/quant_max outside the dtype", quant_min, quant_max);
  }
  return Status::Ok();
}

// Scale of each element: a per-tensor value, or per channel along an axis.
struct QuantParams {
  const Tensor* scales = nullptr;       // per channel: float or double
  const Tensor* zero_points = nullptr;  // per channel: int64 or int32, may be null
  double scale = 1.0;
  int64_t zero_point = 0;
  size_t inner = 1;  // elements after the axis
  size_t channels = 1;

  size_t Channel(size_t i) const { return scales == nullptr ? 0 : (i / inner) % channels; }
  double Scale(size_t c) const {
    if (scales == nullptr) return scale;
    return scales->dtype == ScalarType::kDouble
               ? scales->Data<const double>()[c]
               : static_cast<double>(scales->Data<const float>()[c]);
  }
  int64_t ZeroPoint(size_t c) const {
    if (scales == nullptr) return zero_point;
    if (zero_points == nullptr) return 0;
    return zero_points->dtype == ScalarType::kInt ? zero_points->Data<const int32_t>()[c]
                                                  : zero_points->Data<const int64_t>()[c];
  }
};

Status PerChannelParams(const Tensor& in, const Tensor& scales, const Tensor* zero_points,
                        int64_t axis, QuantParams* p) {
  int32_t d;
  ESDK_RETURN_IF_ERROR(NormalizeDim(axis, in.rank, &d));
  if (in.rank == 0) return ShapeError("per-channel quantization of a scalar");
  if (scales.dtype != ScalarType::kFloat && scales.dtype != ScalarType::kDouble) {
    return DtypeError("per-channel scales", scales);
  }
  p->channels = static_cast<size_t>(in.sizes[d]);
  if (scales.numel != p->channels) {
    return ShapeError("scales count differs from channels", static_cast<int64_t>(scales.numel),
                      static_cast<int64_t>(p->channels));
  }
  if (zero_points != nullptr) {
    // int64, or int32 as PT2E writes for int32 biases.
    if (zero_points->dtype != ScalarType::kLong && zero_points->dtype != ScalarType::kInt) {
      return DtypeError("per-channel zero points", *zero_points);
    }
    if (zero_points->numel != p->channels) {
      return ShapeError("zero point count differs from channels",
                        static_cast<int64_t>(zero_points->numel),
                        static_cast<int64_t>(p->channels));
    }
  }
  for (int32_t k = d + 1; k < in.rank; ++k) p->inner *= static_cast<size_t>(in.sizes[k]);
  p->scales = &scales;
  p->zero_points = zero_points;
  return Status::Ok();
}

template <typename Q>
void RunQuantize(const Tensor& in, Tensor& out, const QuantParams& p, int64_t quant_min,
                 int64_t quant_max) {
  const float* pi = in.Data<const float>();
  Q* po = out.Data<Q>();
  size_t start = 0;
  if (p.scales == nullptr) {
    // Same inverse scale and zero point as the loop below computes.
    start = VectorQuantize(pi, po, out.numel, 1.0f / static_cast<float>(p.scale),
                           static_cast<int32_t>(p.zero_point), quant_min, quant_max);
  }
  for (size_t i = start; i < out.numel; ++i) {
    const size_t c = p.Channel(i);
    const float inv_scale = 1.0f / static_cast<float>(p.Scale(c));
    // The zero point is an int32 in ExecuTorch's arithmetic; it is checked
    // to lie in [quant_min, quant_max] before this point.
    po[i] = QuantizeValue<Q>(pi[i], inv_scale, static_cast<int32_t>(p.ZeroPoint(c)), quant_min,
                             quant_max);
  }
}

template <typename Q>
void RunDequantize(const Tensor& in, Tensor& out, const QuantParams& p) {
  const Q* pi = in.Data<const Q>();
  float* po = out.Data<float>();
  size_t start = 0;
  if (p.scales == nullptr) {
    start = VectorDequantize(pi, po, out.numel, static_cast<int32_t>(p.zero_point),
                             static_cast<float>(p.scale));
  }
  for (size_t i = start; i < out.numel; ++i) {
    const size_t c = p.Channel(i);
    const int64_t centred = static_cast<int64_t>(pi[i]) - p.ZeroPoint(c);
    if (p.scales != nullptr && p.scales->dtype == ScalarType::kDouble) {
      // Double per-channel scales multiply in double, then round once.
      po[i] = static_cast<float>(static_cast<double>(centred) * p.Scale(c));
    } else {
      po[i] = static_cast<float>(centred) * static_cast<float>(p.Scale(c));
    }
  }
}

Status CheckZeroPoints(const QuantParams& p, int64_t quant_min, int64_t quant_max) {
  const size_t n = p.scales == nullptr ? 1 : p.channels;
  for (size_t c = 0; c < n; ++c) {
    const int64_t zp = p.ZeroPoint(c);
    if (zp < quant_min || zp > quant_max)
      return ShapeError("zero point outside [quant_min, quant_max]", zp);
  }
  return Status::Ok();
}

Status Quantize(const Tensor& in, Tensor& out, const QuantParams& p, int64_t quant_min,
                int64_t quant_max, int64_t dtype, const char* name) {
  if (in.dtype != ScalarType::kFloat) return DtypeError(name, in);
  if (static_cast<int64_t>(out.dtype) != dtype)
    return ShapeError("out dtype differs from dtype argument", static_cast<int64_t>(out.dtype),
                      dtype);
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  ESDK_RETURN_IF_ERROR(CheckQuantRange(out.dtype, quant_min, quant_max));
  ESDK_RETURN_IF_ERROR(CheckZeroPoints(p, quant_min, quant_max));
  switch (out.dtype) {
    case ScalarType::kByte:
      RunQuantize<uint8_t>(in, out, p, quant_min, quant_max);
      break;
    case ScalarType::kChar:
      RunQuantize<int8_t>(in, out, p, quant_min, quant_max);
      break;
    case ScalarType::kShort:
      RunQuantize<int16_t>(in, out, p, quant_min, quant_max);
      break;
    case ScalarType::kInt:
      RunQuantize<int32_t>(in, out, p, quant_min, quant_max);
      break;
    default:
      return DtypeError(name, out);
  }
  return Status::Ok();
}

Status Dequantize(const Tensor& in, Tensor& out, const QuantParams& p, int64_t quant_min,
                  int64_t quant_max, int64_t dtype, std::optional<int64_t> out_dtype,
                  const char* name) {
  if (static_cast<int64_t>(in.dtype) != dtype)
    return ShapeError("input dtype differs from dtype argument", static_cast<int64_t>(in.dtype),
                      dtype);
  if (out.dtype != ScalarType::kFloat) return DtypeError(name, out);
  if (out_dtype && *out_dtype != static_cast<int64_t>(ScalarType::kFloat)) {
    return Status::Error(ErrorCode::kNotSupported, "dequantize out_dtype other than float");
  }
  ESDK_RETURN_IF_ERROR(ExpectSameShape(in, out, name));
  ESDK_RETURN_IF_ERROR(CheckQuantRange(in.dtype, quant_min, quant_max));
  // Also keeps (q - zero_point) far from int64 overflow.
  ESDK_RETURN_IF_ERROR(CheckZeroPoints(p, quant_min, quant_max));
  switch (in.dtype) {
    case ScalarType::kByte:
      RunDequantize<uint8_t>(in, out, p);
      break;
    case ScalarType::kChar:
      RunDequantize<int8_t>(in, out, p);
      break;
    case ScalarType::kShort:
      RunDequantize<int16_t>(in, out, p);
      break;
    case ScalarType::kInt:
      RunDequantize<int32_t>(in, out, p);
      break;
    default:
      return DtypeError(name, in);
  }
  return Status::Ok();
}

}  // namespace

// quantize_per_tensor(input, float scale, int zero_point, int quant_min,
//                     int quant_max, ScalarType dtype, *, out)
Status QuantizePerTensorOut(const Tensor& in, double scale, int64_t zero_point, int64_t quant_min,
                            int64_t quant_max, int64_t dtype, Tensor& out) {
  QuantParams p;
  p.scale = scale;
  p.zero_point = zero_point;
  return Quantize(in, out, p, quant_min, quant_max, dtype, kQuantizePerTensorOutName);
}

// dequantize_per_tensor(input, float scale, int zero_point, int quant_min,
//                       int quant_max, ScalarType dtype, *, ScalarType? out_dtype, out)
Status DequantizePerTensorOut(const Tensor& in, double scale, int64_t zero_point, int64_t quant_min,
                              int64_t quant_max, int64_t dtype, std::optional<int64_t> out_dtype,
                              Tensor& out) {
  QuantParams p;
  p.scale = scale;
  p.zero_point = zero_point;
  return Dequantize(in, out, p, quant_min, quant_max, dtype, out_dtype,
                    kDequantizePerTensorOutName);
}

// quantize_per_channel(input, Tensor scales, Tensor zero_points, int axis,
//                      int quant_min, int quant_max, ScalarType dtype, *, out)
Status QuantizePerChannelOut(const Tensor& in, const Tensor& scales, const Tensor& zero_points,
                             int64_t axis, int64_t quant_min, int64_t quant_max, int64_t dtype,
                             Tensor& out) {
  QuantParams p;
  ESDK_RETURN_IF_ERROR(PerChannelParams(in, scales, &zero_points, axis, &p));
  return Quantize(in, out, p, quant_min, quant_max, dtype, kQuantizePerChannelOutName);
}

// dequantize_per_channel(input, Tensor scales, Tensor? zero_points, int axis,
//                        int quant_min, int quant_max, ScalarType dtype, *,
//                        ScalarType? out_dtype, out)
Status DequantizePerChannelOut(const Tensor& in, const Tensor& scales, const Tensor* zero_points,
                               int64_t axis, int64_t quant_min, int64_t quant_max, int64_t dtype,
                               std::optional<int64_t> out_dtype, Tensor& out) {
  QuantParams p;
  ESDK_RETURN_IF_ERROR(PerChannelParams(in, scales, zero_points, axis, &p));
  return Dequantize(in, out, p, quant_min, quant_max, dtype, out_dtype,
                    kDequantizePerChannelOutName);
}

}  // namespace ethosu_sdk::kernels
