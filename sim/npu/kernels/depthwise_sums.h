// Depthwise sums straight from an 8-bit IFM: each tap's channels are read
// where they are stored and multiplied by that tap's weights, without
// first copying the receptive field into an int16 buffer. Chooses AVX2 or
// portable C++ once; both give the same sums (modular addition does not
// depend on order).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::npu {

// Where an 8-bit IFM pixel's channels lie relative to channel 0: dense
// (NHWC), or bricks of 16 contiguous channels `brick_stride` bytes apart
// (NHCWB16).
struct Int8Channels {
  bool is_signed = true;
  int32_t zero_point = 0;
  bool brick = false;
  int64_t brick_stride = 0;
};

// One tap inside the IFM: its pixel's channel 0 and the tap's weight row.
struct DepthwiseTap {
  const uint8_t* pixel;
  const int16_t* weights;
};

// sums[c] = sum over taps of (value of channel c - zero point) * weights[c]
// (mod 2^32) for c < channels. Taps in the padding contribute 0 and are
// left out by the caller.
void DepthwiseSums(const DepthwiseTap* taps, int tap_count, int channels,
                   const Int8Channels& layout, uint32_t* sums);

}  // namespace ethosu_sdk::npu
