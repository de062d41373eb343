#include "sim/npu/memory/window.h"

#include "sim/npu/commands/u85_registers.h"

namespace ethosu_sdk::npu {

KernelShape ReadKernelShape(const RegisterFile& r) {
  using namespace u85;
  KernelShape k;
  k.stride_x = int(r.Get(kStrideXMsb) << 1 | r.Get(kStrideXLsb)) + 1;
  k.stride_y = int(r.Get(kStrideYMsb) << 1 | r.Get(kStrideYLsb)) + 1;
  k.dilation_x = int(r.Get(kDilationX)) + 1;
  k.dilation_y = int(r.Get(kDilationY)) + 1;
  k.kernel_w = r[kKernelWidthM1] / k.dilation_x + 1;
  k.kernel_h = r[kKernelHeightM1] / k.dilation_y + 1;
  return k;
}

Window MakeWindow(const RegisterFile& r, const FeatureMap& ofm) {
  using namespace u85;
  const KernelShape k = ReadKernelShape(r);
  Window w;
  w.stride_x = k.stride_x;
  w.stride_y = k.stride_y;
  w.dilation_x = k.dilation_x;
  w.dilation_y = k.dilation_y;
  w.kernel_w = k.kernel_w;
  w.kernel_h = k.kernel_h;
  w.pad_top = r[kIfmPadTop];
  w.pad_left = r[kIfmPadLeft];
  w.pad_bottom = r[kIfmPadBottom];
  w.pad_right = r[kIfmPadRight];
  w.ifm_w =
      (ofm.width - 1) * w.stride_x + (w.kernel_w - 1) * w.dilation_x + 1 - w.pad_left - w.pad_right;
  w.ifm_h = (ofm.height - 1) * w.stride_y + (w.kernel_h - 1) * w.dilation_y + 1 - w.pad_top -
            w.pad_bottom;
  return w;
}

Status CheckWindow(const Window& w) {
  if (w.taps() > kMaxKernelTaps) {
    return Status::Error(ErrorCode::kNpuLimit, "kernel of %dx%d taps, limit %lld", w.kernel_w,
                         w.kernel_h, static_cast<long long>(kMaxKernelTaps));
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu
