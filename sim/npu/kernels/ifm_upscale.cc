#include "sim/npu/kernels/ifm_upscale.h"

namespace ethosu_sdk::npu {

// NEAREST: upscaled (y, x) is stored (y / 2, x / 2). ZEROS: stored (y / 2,
// x / 2) at even y and x, zero elsewhere. GUESS (undocumented): the zeros
// are the IFM zero point, so they add nothing after it is subtracted, like
// padding, and sit at odd coordinates (what a stride-2 transpose
// convolution needs with Vela's padding of kernel - 1 before). Pinned by
// u55_upsample_nearest_* and u55_conv_transpose_s2.
void UpscaleIfm(const Operation& op) {
  const FeatureMap& source = op.upscale_source;
  const FeatureMap& ifm = op.ifm;
  const bool zeros = op.upscale_zeros;
  for (int y = 0; y < ifm.height; ++y) {
    for (int x = 0; x < ifm.width; ++x) {
      const bool gap = zeros && ((y | x) & 1) != 0;
      for (int c = 0; c < ifm.depth; ++c) {
        ifm.Store(y, x, c, gap ? source.zero_point : source.Load(y / 2, x / 2, c));
      }
    }
  }
}

}  // namespace ethosu_sdk::npu
