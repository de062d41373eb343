// The kernel window of a convolution or pooling: taps, strides,
// dilation, padding, and the IFM extent they imply.
#pragma once

#include <cstdint>

#include "sim/npu/commands/register_file.h"
#include "sim/npu/memory/feature_map.h"

namespace ethosu_sdk::npu {

struct Window {
  int kernel_w = 1, kernel_h = 1, stride_x = 1, stride_y = 1, dilation_x = 1, dilation_y = 1;
  int pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  int ifm_w = 0, ifm_h = 0;
  // 64-bit: a guest's KERNEL_WIDTH/HEIGHT reach 65536 each.
  int64_t taps() const { return int64_t(kernel_w) * kernel_h; }
};

// Vela's kernels have at most 64x64 taps (it splits larger ones); the model
// keeps taps in int and refuses windows beyond 256x256 as over its limit.
constexpr int64_t kMaxKernelTaps = 256 * 256;

// KERNEL_STRIDE and KERNEL_WIDTH/HEIGHT: strides, dilation and taps (the
// registers hold the dilated extent).
struct KernelShape {
  int kernel_w = 1, kernel_h = 1, stride_x = 1, stride_y = 1, dilation_x = 1, dilation_y = 1;
};
KernelShape ReadKernelShape(const RegisterFile& regs);

// From KERNEL_STRIDE, KERNEL_WIDTH/HEIGHT and IFM_PAD_*. There is no IFM
// width/height register beyond the tiles: the IFM extent follows from the
// OFM, the kernel and the padding.
Window MakeWindow(const RegisterFile& regs, const FeatureMap& ofm);

// kNpuLimit when the window has more than kMaxKernelTaps taps.
Status CheckWindow(const Window& window);

}  // namespace ethosu_sdk::npu
