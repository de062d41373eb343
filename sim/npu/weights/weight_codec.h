// Bitstream decoders for Ethos-U encoded weights. Both produce the weights
// in stream order (zero point already subtracted by the compiler); placing
// them into a kernel is weight_layout's job.
//
// Formats (facts from the public Vela encoder, decoders written here):
//  - SWD, "standard weight decode": the mlw format shared with U55. Slices
//    of Golomb-Rice coded weight and zero-run symbols with optional palette.
//  - FWD, "fast weight decode" (U85 only, no decoder shipped with Vela):
//    one 256-bit header (raw flag, small-LUT flag, zero adjust, 16-entry
//    folded LUT) then 2-bit or 4-bit LUT indices or 8-bit raw values.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "sim/npu/weights/bit_reader.h"

namespace ethosu_sdk::npu {

// Streaming FWD decoder: one header, then one weight per Next().
class FwdDecoder {
 public:
  FwdDecoder(const uint8_t* data, size_t size);
  int16_t Next();
  // True if any Next() read past the end of the stream.
  bool overrun() const { return bits_.overrun(); }

 private:
  BitReader bits_;
  bool raw_ = false;
  bool small_lut_ = false;
  int zero_adjust_ = 0;
  int lut_[16] = {0};
};

// Decodes an SWD stream into `out` (capacity `capacity`), sets *count.
// `scratch` holds one slice's symbols: at least SwdScratchBytes() bytes.
size_t SwdScratchBytes();
Status DecodeSwdWeights(const uint8_t* data, size_t size, int16_t* out, size_t capacity,
                        size_t* count, void* scratch);

}  // namespace ethosu_sdk::npu
