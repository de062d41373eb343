#include "sim/npu/weights/weight_codec.h"

#include "sim/npu/stream_error.h"
#include "sim/npu/weights/bit_reader.h"

namespace ethosu_sdk::npu {
namespace {

int Unfold(uint32_t folded) {
  int magnitude = int(folded >> 1);
  return (folded & 1u) ? -magnitude : magnitude;
}

// SWD constants: slice length field width and reserved divisor codes.
constexpr int kSliceLenBits = 15;
constexpr int kMaxSliceWeights = 1 << kSliceLenBits;
constexpr uint32_t kZdivDisable = 6;
constexpr uint32_t kZdivEndOfStream = 7;
constexpr uint32_t kWdivUncompressed = 7;

struct SwdScratch {
  int16_t weight_symbols[kMaxSliceWeights];
  int32_t zero_runs[kMaxSliceWeights + 1];
};

struct Palette {
  int16_t entries[32] = {0};
  int size = 0;
  int bits = 0;
  int direct_offset = 0;
};

}  // namespace

FwdDecoder::FwdDecoder(const uint8_t* data, size_t size) : bits_(data, size) {
  raw_ = bits_.Get(1) != 0;
  small_lut_ = bits_.Get(1) != 0;
  bits_.Skip(102);
  zero_adjust_ = int(int8_t(uint8_t(bits_.Get(8))));
  for (int& entry : lut_) entry = Unfold(bits_.Get(9));
}

int16_t FwdDecoder::Next() {
  if (raw_) return int16_t(int(int8_t(uint8_t(bits_.Get(8)))) - zero_adjust_);
  return int16_t(lut_[bits_.Get(small_lut_ ? 2 : 4)]);
}

size_t SwdScratchBytes() { return sizeof(SwdScratch); }

Status DecodeSwdWeights(const uint8_t* data, size_t size, int16_t* out, size_t capacity,
                        size_t* count, void* scratch_memory) {
  SwdScratch& scratch = *static_cast<SwdScratch*>(scratch_memory);
  BitReader bits(data, size);
  Palette palette;
  size_t written = 0;
  int previous_zdiv = -1;
  for (;;) {
    uint32_t zdiv;
    if (bits.remaining() >= 3) {
      zdiv = bits.Get(3);
    } else {
      zdiv = kZdivEndOfStream;  // too short for a terminator: end of stream
      bits.Skip(bits.remaining());
    }
    bool done = false;
    while (zdiv == kZdivEndOfStream) {
      bits.AlignTo(8);
      if (bits.remaining() == 0) {
        done = true;
        break;
      }
      zdiv = bits.Get(3);
    }
    if (done) break;
    if (zdiv > 3 && zdiv != kZdivDisable)
      return StreamError("SWD: bad zero divisor %u", unsigned(zdiv));
    const bool zero_runs = zdiv != kZdivDisable;
    const int weight_count = int(bits.Get(kSliceLenBits)) + 1;
    uint32_t wdiv = bits.Get(3);
    const bool truncated = bits.Get(1) != 0;
    const bool new_palette = bits.Get(1) != 0;
    if (!new_palette && previous_zdiv >= 0 && (previous_zdiv != int(kZdivDisable)) != zero_runs) {
      return StreamError("SWD: zero-run mode changed without a new palette");
    }
    previous_zdiv = int(zdiv);
    if (new_palette) {
      palette.direct_offset = int(bits.Get(5));
      palette.size = int(bits.Get(5));
      if (palette.size > 0) ++palette.size;
      palette.bits = int(bits.Get(3)) + 2;
      for (int i = 0; i < palette.size; ++i) palette.entries[i] = int16_t(bits.Get(palette.bits));
    }
    const bool uncompressed = wdiv == kWdivUncompressed;
    if (uncompressed) {
      int needed = 0;
      if (palette.size > 0) {
        while ((1 << needed) < palette.size) ++needed;
      } else {
        needed = palette.bits;
      }
      wdiv = uint32_t(needed);
    } else if (wdiv > 5) {
      return StreamError("SWD: bad weight divisor %u", unsigned(wdiv));
    }
    const int zero_count = weight_count + (new_palette ? 1 : 0);
    for (int i = 0; i < zero_count; ++i) scratch.zero_runs[i] = 0;

    // Weight and zero-run symbols are Golomb-Rice coded in interleaved
    // chunks: unary quotients of this chunk, then the remainders of the
    // previous one.
    int w_pos = 0, z_pos = 0, w_prev_pos = 0, z_prev_pos = 0;
    int wq = 0, zq = 0;
    int w_q[12] = {0}, z_q[12] = {0}, w_prev_q[12] = {0}, z_prev_q[12] = {0};
    int w_symbols = 0, z_symbols = 0, w_prev_symbols = 0, z_prev_symbols = 0;
    bool w_prev_enable = false, z_prev_enable = false;
    const int z_unary_len = zdiv < 3 ? 12 : 8;
    do {
      const int balance = zero_runs ? w_pos - z_pos : 0;
      const bool w_enable = (balance < 8 || !zero_runs) && w_pos < weight_count;
      const bool z_enable = (balance >= 0 && zero_runs) && z_pos < zero_count;
      uint32_t w_unary0 = 0;
      if (w_enable && !uncompressed) w_unary0 = bits.Get(12);
      if (z_enable) {
        const uint32_t z_unary = bits.Get(z_unary_len);
        z_symbols = 0;
        for (int i = 0; i < z_unary_len; ++i) {
          if (z_unary & (1u << i)) {
            ++zq;
          } else {
            z_q[z_symbols++] = zq;
            zq = 0;
          }
        }
        z_pos += z_symbols;
      }
      if (w_enable) {
        const int max_symbols = (uncompressed && wdiv > 5) ? 8 : 12;
        int unary1_len = 0;
        for (int i = 0; i < max_symbols; ++i) unary1_len += (w_unary0 >> i) & 1u;
        uint32_t w_unary1 = unary1_len > 0 ? bits.Get(unary1_len) : 0;
        w_symbols = 0;
        for (int i = 0; i < max_symbols && w_symbols < weight_count - w_pos; ++i) {
          int code = 0;
          if (w_unary0 & (1u << i)) {
            code = 1 + int(w_unary1 & 1u);
            w_unary1 >>= 1;
          }
          wq += code;
          if (code < 2 || truncated) {
            w_q[w_symbols++] = wq;
            wq = 0;
          }
        }
        w_pos += w_symbols;
      }
      if (w_prev_enable) {
        for (int i = 0; i < w_prev_symbols && w_prev_pos < weight_count; ++i, ++w_prev_pos) {
          const int value = (w_prev_q[i] << wdiv) + int(bits.Get(int(wdiv)));
          if (value >= 512) return StreamError("SWD: weight symbol out of range");
          scratch.weight_symbols[w_prev_pos] = int16_t(value);
        }
      }
      if (z_prev_enable) {
        for (int i = 0; i < z_prev_symbols && z_prev_pos < zero_count; ++i, ++z_prev_pos) {
          const int remainder = zdiv != 0 ? int(bits.Get(int(zdiv))) : 0;
          scratch.zero_runs[z_prev_pos] = (z_prev_q[i] << zdiv) + remainder;
        }
      }
      w_prev_enable = w_enable;
      w_prev_symbols = w_symbols;
      z_prev_enable = z_enable;
      z_prev_symbols = z_symbols;
      for (int i = 0; i < 12; ++i) {
        w_prev_q[i] = w_q[i];
        z_prev_q[i] = z_q[i];
      }
      if (bits.overrun()) return StreamError("SWD: stream truncated");
    } while (w_prev_enable || z_prev_enable);

    auto emit_zeros = [&](int32_t n) -> bool {
      if (n < 0 || size_t(n) > capacity - written) return false;
      for (int32_t j = 0; j < n; ++j) out[written++] = 0;
      return true;
    };
    if (new_palette && zero_runs && !emit_zeros(scratch.zero_runs[0])) {
      return StreamError("SWD: more weights than the kernel holds");
    }
    for (int i = 0; i < weight_count; ++i) {
      const int symbol = scratch.weight_symbols[i];
      const int value = symbol < palette.size ? palette.entries[symbol]
                                              : symbol - palette.size + palette.direct_offset;
      if (written >= capacity) return StreamError("SWD: more weights than the kernel holds");
      out[written++] = int16_t((value & 1) ? -(value >> 1) : (value >> 1));
      if (zero_runs && !emit_zeros(scratch.zero_runs[i + (new_palette ? 1 : 0)])) {
        return StreamError("SWD: more weights than the kernel holds");
      }
    }
  }
  *count = written;
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu
