// Helium (MVE floating point) loops for the per-tensor 8-bit quantize and
// dequantize that surround a delegated program's input and output. Each
// returns how many leading elements it wrote; the caller's plain C loop does
// the rest, so without MVE (host, Cortex-M33) they return 0.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::kernels {

// True when the toolchain targets a CPU with MVE floating point
// (Cortex-M55/M85: __ARM_FEATURE_MVE bit 1).
bool HeliumQuantizeAvailable();

// out[i] = QuantizeValue(in[i], inv_scale, zero_point, quant_min, quant_max)
// for an 8-bit Q (int8 or uint8; quant_min/quant_max within it).
size_t QuantizeInt8Helium(const float* in, int8_t* out, size_t n, float inv_scale,
                          int32_t zero_point, int32_t quant_min, int32_t quant_max);
size_t QuantizeUint8Helium(const float* in, uint8_t* out, size_t n, float inv_scale,
                           int32_t zero_point, int32_t quant_min, int32_t quant_max);

// out[i] = float(in[i] - zero_point) * scale.
size_t DequantizeInt8Helium(const int8_t* in, float* out, size_t n, int32_t zero_point,
                            float scale);
size_t DequantizeUint8Helium(const uint8_t* in, float* out, size_t n, int32_t zero_point,
                             float scale);

}  // namespace ethosu_sdk::kernels
