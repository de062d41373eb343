#include "sim/npu/weights/packed_weights.h"

#include <cstring>

namespace ethosu_sdk::npu {

size_t PackedWeightCount(bool depthwise, int ofm_depth, int taps, int ifm_depth,
                         PackedWeights* packed) {
  if (depthwise) {
    packed->row = size_t(ofm_depth);
    packed->row_stride = PackedRowStride(packed->row);
    return packed->row_stride * size_t(taps);
  }
  packed->row = size_t(taps) * size_t(ifm_depth);
  packed->row_stride = PackedRowStride(packed->row);
  return packed->row_stride * size_t(ofm_depth);
}

void PackWeights(bool depthwise, int ofm_depth, int taps, const int16_t* canonical,
                 const PackedWeights& packed, int16_t* out) {
  if (depthwise) {
    memset(out, 0, packed.row_stride * size_t(taps) * sizeof(int16_t));
    for (int o = 0; o < ofm_depth; ++o) {
      for (int t = 0; t < taps; ++t) {
        out[size_t(t) * packed.row_stride + size_t(o)] =
            canonical[size_t(o) * size_t(taps) + size_t(t)];
      }
    }
    return;
  }
  // Last row first, so that packing in place never overwrites a row
  // before it has moved.
  for (int o = ofm_depth - 1; o >= 0; --o) {
    int16_t* row = out + size_t(o) * packed.row_stride;
    memmove(row, canonical + size_t(o) * packed.row, packed.row * sizeof(int16_t));
    memset(row + packed.row, 0, (packed.row_stride - packed.row) * sizeof(int16_t));
  }
}

}  // namespace ethosu_sdk::npu
