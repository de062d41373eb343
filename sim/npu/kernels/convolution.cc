#include "sim/npu/kernels/convolution.h"

#include <cstring>

#include "sim/npu/kernels/depthwise_sums.h"
#include "sim/npu/kernels/dot_product.h"
#include "sim/npu/output/requantize.h"

namespace ethosu_sdk::npu {
namespace {

// 8-bit IFMs with a real zero point take the int16 SIMD path (values minus
// the zero point within dot_product.h's bound); others keep int32 values.
constexpr int32_t kNarrowZeroPointLimit = 256;
bool NarrowIfm(const Operation& op) {
  return op.ifm.element_bytes == 1 && op.ifm.zero_point >= -kNarrowZeroPointLimit &&
         op.ifm.zero_point <= kNarrowZeroPointLimit;
}

struct Shape {
  int taps, cin, channels;  // channels: IFM channels read per tap
};

Shape ShapeOf(const Operation& op) {
  const bool depthwise = op.kind == OperationKind::kDepthwise;
  const int cin = depthwise ? 1 : op.ifm.depth;
  return {int(op.window.taps()), cin, depthwise ? op.ofm.depth : cin};  // bounded by CheckWindow
}

// The accumulator with its bias, as the output stage takes it: U85 adds the
// bias into the 32-bit accumulator, U55/U65 add their 40-bit bias after.
int64_t WithBias(bool u55, uint32_t sum, int64_t bias) {
  return u55 ? int64_t(int32_t(sum)) + bias : int64_t(int32_t(sum + uint32_t(bias)));
}

// ACC_INPUT IFM2 or KEEP (build_convolution.cc): the 32-bit sums start
// from IFM2's accumulators or from those the previous operation kept,
// wrapping as the sums do.
void AddInitialAccumulators(const Operation& op, int y, int x, uint32_t* sums) {
  const int depth = op.ofm.depth;
  if (op.accumulate_ifm2) {
    const FeatureMap& ifm2 = op.ifm2;
    for (int c = 0; c < depth; ++c) {
      sums[c] += uint32_t(int64_t(ifm2.Load(y, x, c)) - ifm2.zero_point);
    }
  }
  if (op.keep_input) {
    const uint32_t* kept = op.kept + (size_t(y) * size_t(op.ofm.width) + size_t(x)) * size_t(depth);
    for (int c = 0; c < depth; ++c) sums[c] += kept[c];
  }
}

// ACC_OUTPUT disabled: the raw sums stay in the NPU for the next operation.
void KeepAccumulators(const Operation& op, int y, int x, const uint32_t* sums) {
  const size_t depth = size_t(op.ofm.depth);
  memcpy(op.kept + (size_t(y) * size_t(op.ofm.width) + size_t(x)) * depth, sums,
         depth * sizeof(uint32_t));
}

// The output stage worked out once per operation: every channel's scale,
// and the same rearranged for the vector path when it applies.
struct Requant {
  const ChannelScale* scales = nullptr;
  RequantTable table;
  bool vector = false;
  uint8_t* row = nullptr;  // a row of output bytes, for NHCWB16 OFMs
};

// Row bytes rounded up to the packed block keep what follows aligned.
size_t RequantBytes(const Operation& op) {
  const size_t row = PackedRowStride(size_t(op.ofm.depth));
  return sizeof(ChannelScale) * size_t(op.ofm.depth) + RequantTableBytes(op.ofm.depth) + row;
}

// Fills a Requant at the start of `scratch`; returns the rest of it.
uint8_t* PrepareRequant(const Operation& op, void* scratch, Requant* r) {
  auto* scales = static_cast<ChannelScale*>(scratch);
  for (int c = 0; c < op.ofm.depth; ++c) scales[c] = op.output.ChannelScaleOf(c);
  r->scales = scales;
  uint8_t* table = static_cast<uint8_t*>(scratch) + sizeof(ChannelScale) * size_t(op.ofm.depth);
  const FeatureMap& ofm = op.ofm;
  r->vector = op.output.single_clamp() && ofm.element_bytes == 1 && !ofm.mapped() &&
              RequantTableFor(scales, ofm.depth, op.u55, table, &r->table);
  r->row = table + RequantTableBytes(ofm.depth);
  return static_cast<uint8_t*>(scratch) + RequantBytes(op);
}

// Channels [first, last) of the row at `out` (contiguous bytes), eight at a
// time, the rest (and any group the vector path leaves) scalar.
void StoreVector(const Operation& op, const Requant& r, const uint32_t* sums, int first, int last,
                 uint8_t* out) {
  const OutputStage& o = op.output;
  auto scalar = [&](int c) {
    out[c - first] =
        uint8_t(o.Finish(r.scales[c].Apply(WithBias(op.u55, sums[c], r.scales[c].bias))));
  };
  constexpr int kGroup = 8;
  int c = first;
  while (last - c >= kGroup) {
    c += RequantizeGroups(r.table, sums, c, (last - c) / kGroup, o.zero_point(), int32_t(o.lo()),
                          int32_t(o.hi()), out + (c - first));
    if (last - c >= kGroup) {  // a U55 group whose sum plus bias left 32 bits
      for (int k = c; k < c + kGroup; ++k) scalar(k);
      c += kGroup;
    }
  }
  for (; c < last; ++c) scalar(c);
}

void StoreChannels(const Operation& op, const Requant& r, int y, int x, const uint32_t* sums) {
  const FeatureMap& ofm = op.ofm;
  const OutputStage& out = op.output;
  const ChannelScale* scales = r.scales;
  auto value = [&](int c) {
    return out.Finish(scales[c].Apply(WithBias(op.u55, sums[c], scales[c].bias)));
  };
  if (ofm.mapped()) {
    for (int c = 0; c < ofm.depth; ++c) ofm.Store(y, x, c, value(c));
    return;
  }
  uint8_t* row = ofm.region->data + ofm.StoredAt(y, x, 0);
  if (r.vector) {  // 8-bit: dense, or bricks of 16 contiguous channels
    if (!ofm.brick) return StoreVector(op, r, sums, 0, ofm.depth, row);
    // The whole row at once, then brick by brick: one vector call per row.
    constexpr int kBrick = 16;
    StoreVector(op, r, sums, 0, ofm.depth, r.row);
    int c = 0;
    for (; c + kBrick <= ofm.depth; c += kBrick)
      memcpy(row + ofm.ChannelOffset(c), r.row + c, kBrick);
    if (c < ofm.depth) memcpy(row + ofm.ChannelOffset(c), r.row + c, size_t(ofm.depth - c));
    return;
  }
  if (ofm.element_bytes == 1 && !ofm.brick) {
    for (int c = 0; c < ofm.depth; ++c) row[c] = uint8_t(value(c));
    return;
  }
  for (int c = 0; c < ofm.depth; ++c) ofm.Encode(row + ofm.ChannelOffset(c), value(c));
}

// The sums of output (y, x), complete: from their initial accumulators to
// the OFM, or kept for the next operation.
void Complete(const Operation& op, const Requant& r, int y, int x, uint32_t* sums) {
  AddInitialAccumulators(op, y, x, sums);
  if (op.keep_output) return KeepAccumulators(op, y, x, sums);
  StoreChannels(op, r, y, x, sums);
}

// Gathers the receptive field of output (y, x): per tap, `channels` IFM
// values minus the zero point, padding as 0, taps `tap_stride` apart.
template <typename T>
void Gather(const Operation& op, const Shape& s, int y, int x, size_t tap_stride, T* field) {
  const Window& w = op.window;
  for (int ky = 0; ky < w.kernel_h; ++ky) {
    const int iy = y * w.stride_y - w.pad_top + ky * w.dilation_y;
    for (int kx = 0; kx < w.kernel_w; ++kx) {
      const int ix = x * w.stride_x - w.pad_left + kx * w.dilation_x;
      T* tap = field + size_t(ky * w.kernel_w + kx) * tap_stride;
      if (iy < 0 || iy >= w.ifm_h || ix < 0 || ix >= w.ifm_w) {
        memset(tap, 0, sizeof(T) * size_t(s.channels));
      } else {
        op.ifm.LoadChannels(iy, ix, s.channels, tap);
      }
    }
  }
}

void ConvNarrow(const Operation& op, const Shape& s, void* scratch) {
  Requant requant;
  const size_t n = op.weights.row_stride;
  auto* field = reinterpret_cast<int16_t*>(PrepareRequant(op, scratch, &requant));
  auto* sums = reinterpret_cast<uint32_t*>(field + n);
  memset(field, 0, n * sizeof(int16_t));  // the padding stays zero
  for (int y = 0; y < op.ofm.height; ++y) {
    for (int x = 0; x < op.ofm.width; ++x) {
      Gather(op, s, y, x, size_t(s.cin), field);
      DotRows(field, op.weights.data, n, n, op.ofm.depth, sums);
      Complete(op, requant, y, x, sums);
    }
  }
}

// The taps of output (y, x) inside the IFM, each with its weight row;
// returns how many. Taps in the padding would add (0 - 0) * w: left out.
int InsideTaps(const Operation& op, int y, int x, DepthwiseTap* taps) {
  const Window& w = op.window;
  const FeatureMap& ifm = op.ifm;
  int count = 0;
  for (int ky = 0; ky < w.kernel_h; ++ky) {
    const int iy = y * w.stride_y - w.pad_top + ky * w.dilation_y;
    if (iy < 0 || iy >= w.ifm_h) continue;
    for (int kx = 0; kx < w.kernel_w; ++kx) {
      const int ix = x * w.stride_x - w.pad_left + kx * w.dilation_x;
      if (ix < 0 || ix >= w.ifm_w) continue;
      const size_t tap = size_t(ky * w.kernel_w + kx);
      taps[count++] = {ifm.region->data + ifm.StoredAt(iy, ix, 0),
                       op.weights.data + tap * op.weights.row_stride};
    }
  }
  return count;
}

// Reads each tap's channels where the IFM stores them (depthwise_sums.h):
// no int16 copy of the receptive field.
void DepthwiseNarrow(const Operation& op, const Shape& s, void* scratch) {
  Requant requant;
  auto* taps = reinterpret_cast<DepthwiseTap*>(PrepareRequant(op, scratch, &requant));
  auto* sums = reinterpret_cast<uint32_t*>(taps + s.taps);
  const FeatureMap& ifm = op.ifm;
  const Int8Channels layout{ifm.is_signed, ifm.zero_point, ifm.brick, ifm.stride_c};
  for (int y = 0; y < op.ofm.height; ++y) {
    for (int x = 0; x < op.ofm.width; ++x) {
      DepthwiseSums(taps, InsideTaps(op, y, x, taps), s.channels, layout, sums);
      Complete(op, requant, y, x, sums);
    }
  }
}

// 16-bit IFMs: values minus the zero point need 17 bits; products wrap.
void ConvWide(const Operation& op, const Shape& s, void* scratch) {
  const bool depthwise = op.kind == OperationKind::kDepthwise;
  Requant requant;
  auto* field = reinterpret_cast<int32_t*>(PrepareRequant(op, scratch, &requant));
  auto* sums = reinterpret_cast<uint32_t*>(field + size_t(s.taps) * size_t(s.channels));
  const PackedWeights& w = op.weights;
  for (int y = 0; y < op.ofm.height; ++y) {
    for (int x = 0; x < op.ofm.width; ++x) {
      Gather(op, s, y, x, size_t(s.channels), field);
      for (int o = 0; o < op.ofm.depth; ++o) {
        uint32_t sum = 0;
        if (depthwise) {
          for (int t = 0; t < s.taps; ++t) {
            sum += uint32_t(field[size_t(t) * size_t(s.channels) + size_t(o)]) *
                   uint32_t(int32_t(w.data[size_t(t) * w.row_stride + size_t(o)]));
          }
        } else {
          const int16_t* k = w.data + size_t(o) * w.row_stride;
          for (size_t j = 0; j < w.row; ++j) sum += uint32_t(field[j]) * uint32_t(int32_t(k[j]));
        }
        sums[o] = sum;
      }
      Complete(op, requant, y, x, sums);
    }
  }
}

}  // namespace

size_t ConvolutionScratchBytes(const Operation& op) {
  const Shape s = ShapeOf(op);
  const size_t sums = PackedRowStride(size_t(op.ofm.depth)) * sizeof(uint32_t) + RequantBytes(op);
  if (!NarrowIfm(op)) return size_t(s.taps) * size_t(s.channels) * sizeof(int32_t) + sums;
  if (op.kind == OperationKind::kDepthwise) return sizeof(DepthwiseTap) * size_t(s.taps) + sums;
  return op.weights.row_stride * sizeof(int16_t) + sums;
}

void RunConvolution(const Operation& op) {
  const Shape s = ShapeOf(op);
  if (!NarrowIfm(op)) return ConvWide(op, s, op.scratch);
  if (op.kind == OperationKind::kDepthwise) return DepthwiseNarrow(op, s, op.scratch);
  ConvNarrow(op, s, op.scratch);
}

size_t MatMulScratchBytes(const Operation& op) {
  return 2 * size_t(op.ifm.depth) * sizeof(int32_t);
}

// OFM[h, m, n] = scale(sum_k (IFM[h, m, k] - zp) * (IFM2[h, n, k] - zp2)),
// summed with wrap at the accumulator width (32 or 48 bits, ACC_FORMAT).
void RunMatMul(const Operation& op) {
  const int depth = op.ifm.depth;
  auto* row = static_cast<int32_t*>(op.scratch);
  int32_t* column = row + depth;
  const FeatureMap& ofm = op.ofm;
  const int unused_bits = 64 - op.accumulator_bits;
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      op.ifm.LoadChannels(y, x, depth, row);
      for (int n = 0; n < ofm.depth; ++n) {
        op.ifm2.LoadChannels(y, n, depth, column);
        uint64_t sum = 0;  // unsigned: wraps, never overflows
        for (int k = 0; k < depth; ++k) sum += uint64_t(int64_t(row[k]) * int64_t(column[k]));
        const int64_t acc = int64_t(sum << unused_bits) >> unused_bits;
        ofm.Store(y, x, n, op.output.Value(acc, op.output.global));
      }
    }
  }
}

}  // namespace ethosu_sdk::npu
