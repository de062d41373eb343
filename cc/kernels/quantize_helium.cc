// Four floats per Helium instruction. Bit-exact with QuantizeValue because
// each step is the same IEEE single operation: VMUL (value * inv_scale),
// VRINTN (round to nearest, ties to even: nearbyint's default mode), VADD of
// the zero point as a float, then VMAXNM/VMINNM clamp in float (maxNum
// returns the number when the other operand is a NaN, so NaN becomes
// quant_min as in the C path), and VCVT of an integral value. VSTRB keeps
// each lane's low byte; the clamp made it fit.
#include "cc/kernels/quantize_helium.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#include <arm_mve.h>
#define ESDK_HELIUM_FLOAT 1
#endif

namespace ethosu_sdk::kernels {

#if ESDK_HELIUM_FLOAT
namespace {

// Lanes of a float32x4_t.
constexpr size_t kLanes = 4;

// Quantizes whole groups of four lanes, handing each to store(i, lanes).
template <typename Store>
size_t QuantizeLanes(const float* in, size_t n, float inv_scale, int32_t zero_point,
                     int32_t quant_min, int32_t quant_max, Store store) {
  const size_t whole = n - n % kLanes;
  const float zp = static_cast<float>(zero_point);
  const float32x4_t lo = vdupq_n_f32(static_cast<float>(quant_min));
  const float32x4_t hi = vdupq_n_f32(static_cast<float>(quant_max));
  for (size_t i = 0; i < whole; i += kLanes) {
    const float32x4_t q = vaddq_n_f32(vrndnq_f32(vmulq_n_f32(vld1q_f32(in + i), inv_scale)), zp);
    store(i, vcvtq_s32_f32(vminnmq_f32(vmaxnmq_f32(q, lo), hi)));
  }
  return whole;
}

}  // namespace

bool HeliumQuantizeAvailable() { return true; }

size_t QuantizeInt8Helium(const float* in, int8_t* out, size_t n, float inv_scale,
                          int32_t zero_point, int32_t quant_min, int32_t quant_max) {
  return QuantizeLanes(in, n, inv_scale, zero_point, quant_min, quant_max,
                       [out](size_t i, int32x4_t q) { vstrbq_s32(out + i, q); });
}

size_t QuantizeUint8Helium(const float* in, uint8_t* out, size_t n, float inv_scale,
                           int32_t zero_point, int32_t quant_min, int32_t quant_max) {
  return QuantizeLanes(
      in, n, inv_scale, zero_point, quant_min, quant_max,
      [out](size_t i, int32x4_t q) { vstrbq_u32(out + i, vreinterpretq_u32_s32(q)); });
}

size_t DequantizeInt8Helium(const int8_t* in, float* out, size_t n, int32_t zero_point,
                            float scale) {
  const size_t whole = n - n % kLanes;
  for (size_t i = 0; i < whole; i += kLanes) {
    const int32x4_t centred = vsubq_n_s32(vldrbq_s32(in + i), zero_point);
    vst1q_f32(out + i, vmulq_n_f32(vcvtq_f32_s32(centred), scale));
  }
  return whole;
}

size_t DequantizeUint8Helium(const uint8_t* in, float* out, size_t n, int32_t zero_point,
                             float scale) {
  const size_t whole = n - n % kLanes;
  for (size_t i = 0; i < whole; i += kLanes) {
    const int32x4_t wide = vreinterpretq_s32_u32(vldrbq_u32(in + i));
    vst1q_f32(out + i, vmulq_n_f32(vcvtq_f32_s32(vsubq_n_s32(wide, zero_point)), scale));
  }
  return whole;
}

#else  // plain C targets: the caller's loop does every element

bool HeliumQuantizeAvailable() { return false; }
size_t QuantizeInt8Helium(const float*, int8_t*, size_t, float, int32_t, int32_t, int32_t) {
  return 0;
}
size_t QuantizeUint8Helium(const float*, uint8_t*, size_t, float, int32_t, int32_t, int32_t) {
  return 0;
}
size_t DequantizeInt8Helium(const int8_t*, float*, size_t, int32_t, float) { return 0; }
size_t DequantizeUint8Helium(const uint8_t*, float*, size_t, int32_t, float) { return 0; }

#endif

}  // namespace ethosu_sdk::kernels
