// Convolution weights in the order the convolution kernel reads them, and
// the packing into it: the weights layer decodes Vela's streams into the
// canonical order, and the operation builders (operations/constants.cc)
// pack them once per operation (or once per cached block).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::npu {

// Rows are zero-padded to a multiple of this many int16 weights, the
// dot-product kernels' vector block (kernels/dot_product.h).
constexpr size_t kPackedRowBlock = 16;

constexpr size_t PackedRowStride(size_t row) {
  return (row + kPackedRowBlock - 1) / kPackedRowBlock * kPackedRowBlock;
}

// One row of taps x IFM channels per output channel ([ofm][ky][kx][ifm]),
// rows `row_stride` apart and zero-padded to it; depthwise: one row of
// channels per tap, [tap][ofm].
struct PackedWeights {
  const int16_t* data = nullptr;
  size_t row = 0, row_stride = 0;
};

// Weights the packed form holds (zero padding included); sets the row
// sizes of `packed`.
size_t PackedWeightCount(bool depthwise, int ofm_depth, int taps, int ifm_depth,
                         PackedWeights* packed);
// From canonical [ofm][ky][kx][ifm] to packed (see PackedWeights); for
// convolutions `canonical` may be `out` itself (packed in place).
void PackWeights(bool depthwise, int ofm_depth, int taps, const int16_t* canonical,
                 const PackedWeights& packed, int16_t* out);

}  // namespace ethosu_sdk::npu
