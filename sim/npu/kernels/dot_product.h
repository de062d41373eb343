// Dot products of int16 vectors with 32-bit wrap-around sums, the inner
// loop of convolutions on 8-bit IFMs. Chooses SIMD code for the host CPU
// once (AVX2, SSE2 or portable C++); every version gives the same sums,
// since modular addition does not depend on order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/npu/weights/packed_weights.h"

namespace ethosu_sdk::npu {

// Vectors are padded with zeros to a multiple of this many elements: the
// packed weight rows' block.
constexpr size_t kDotBlock = kPackedRowBlock;

// out[r] = sum_j a[j] * rows[r * stride + j] (mod 2^32) for r < count;
// n is a multiple of kDotBlock. |a[j]| <= 2^14 keeps the sum of a pair of
// products inside 32 bits for any int16 weight (8-bit IFM values minus
// their zero point: |a| <= 510).
void DotRows(const int16_t* a, const int16_t* rows, size_t stride, size_t n, int count,
             uint32_t* out);

}  // namespace ethosu_sdk::npu
