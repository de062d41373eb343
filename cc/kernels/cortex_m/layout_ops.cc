// cortex_m::transpose (a permutation of the dimensions, the result dense)
// and cortex_m::pad (constant padding; for a channels-last 4-D input the
// pads come in memory order N, H, W, C, as the passes emit them).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cc/kernels/cortex_m/layout.h"
#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

constexpr int kPadRank = 4;  // the pads are given for four dimensions
// Logical dimension N, C, H, W -> its position in memory order N, H, W, C
// (ops/operators.py _NHWC_INV_ORDER).
constexpr int kNhwcPosition[kPadRank] = {0, 3, 1, 2};

// ops/operators.py is_channels_last: 4-D with one channel, a 1x1 image, or
// the dim order starting 0, 2.
bool ChannelsLast(const Tensor& t) {
  if (t.rank != 4) return false;
  if (t.sizes[1] == 1 || (t.sizes[2] == 1 && t.sizes[3] == 1)) return true;
  return t.dim_order[0] == 0 && t.dim_order[1] == 2;
}

}  // namespace

Status CortexMTransposeOut(const Tensor& input, IntList perm, Tensor& out) {
  if (input.dtype != out.dtype) return DtypeError(kCortexMTransposeOutName, out);
  if (static_cast<int64_t>(perm.size()) != input.rank || out.rank != input.rank) {
    return ShapeError("transpose: perm, input and out must have one rank",
                      static_cast<int64_t>(perm.size()), input.rank);
  }
  bool seen[runtime::kMaxRank] = {};
  for (int32_t d = 0; d < input.rank; ++d) {
    int32_t p;
    ESDK_RETURN_IF_ERROR(NormalizeDim(perm[d], input.rank, &p));
    if (seen[p]) return ShapeError("transpose: perm is not a permutation", perm[d]);
    seen[p] = true;
    if (out.sizes[d] != input.sizes[p])
      return ShapeError("transpose: out's sizes are not the permuted input's", d);
  }
  int64_t in_strides[runtime::kMaxRank], out_strides[runtime::kMaxRank], from[runtime::kMaxRank];
  cortex_m::ElementStrides(input, in_strides);
  cortex_m::ElementStrides(out, out_strides);
  for (int32_t d = 0; d < input.rank; ++d) {
    int32_t p;
    ESDK_RETURN_IF_ERROR(NormalizeDim(perm[d], input.rank, &p));
    from[d] = in_strides[p];
  }
  const size_t size = out.ElementSize();
  const char* src = input.Data<const char>();
  char* dst = out.Data<char>();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    int64_t s = 0, o = 0;
    for (int32_t d = 0; d < out.rank; ++d) {
      s += coord[d] * from[d];
      o += coord[d] * out_strides[d];
    }
    std::memcpy(dst + o * size, src + s * size, size);
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

Status CortexMPadOut(const Tensor& input, IntList pre_pad, IntList post_pad, int64_t pad_value,
                     Tensor& out) {
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(input, ScalarType::kChar, "input"));
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectType(out, ScalarType::kChar, "out"));
  if (input.rank < 1 || input.rank > kPadRank || out.rank != input.rank)
    return ShapeError("pad: a 1-D to 4-D input", input.rank);
  if (pre_pad.size() != kPadRank || post_pad.size() != kPadRank) {
    return ShapeError("pad: four pre and four post pads", static_cast<int64_t>(pre_pad.size()),
                      static_cast<int64_t>(post_pad.size()));
  }
  ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(pad_value, -128, 127, "pad_value"));
  const bool nhwc = ChannelsLast(input);
  const int32_t offset = kPadRank - input.rank;
  int32_t before[runtime::kMaxRank];
  for (int32_t d = 0; d < input.rank; ++d) {
    const int32_t slot = nhwc ? kNhwcPosition[offset + d] : offset + d;
    ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(pre_pad[slot], 0, 1 << 16, "pre_pad"));
    ESDK_RETURN_IF_ERROR(cortex_m::ExpectRange(post_pad[slot], 0, 1 << 16, "post_pad"));
    before[d] = static_cast<int32_t>(pre_pad[slot]);
    if (out.sizes[d] != input.sizes[d] + pre_pad[slot] + post_pad[slot])
      return ShapeError("pad: out's size", d, out.sizes[d]);
  }
  int64_t in_strides[runtime::kMaxRank], out_strides[runtime::kMaxRank];
  cortex_m::ElementStrides(input, in_strides);
  cortex_m::ElementStrides(out, out_strides);
  const int8_t* src = input.Data<const int8_t>();
  int8_t* dst = out.Data<int8_t>();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    int64_t s = 0, o = 0;
    bool inside = true;
    for (int32_t d = 0; d < out.rank; ++d) {
      const int32_t c = coord[d] - before[d];
      inside = inside && c >= 0 && c < input.sizes[d];
      s += c * in_strides[d];
      o += coord[d] * out_strides[d];
    }
    dst[o] = inside ? src[s] : static_cast<int8_t>(pad_value);
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::kernels
