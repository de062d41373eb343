// How the cortex_m:: kernels read their tensors: through each tensor's dim
// order (the passes hand them NCHW-sized tensors whose memory is
// channels-last), as strided 4-D views, and the argument checks every glue
// function shares.
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_LAYOUT_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_LAYOUT_H_

#include <cstddef>
#include <cstdint>

#include "cc/kernels/kernel_types.h"

namespace ethosu_sdk::kernels::cortex_m {

// Element strides of each logical dimension, from the sizes and dim order.
void ElementStrides(const Tensor& t, int64_t* strides);

// A 4-D tensor seen as N, C, H, W whatever its logical order and memory.
struct View4 {
  int32_t n = 0, c = 0, h = 0, w = 0;
  int64_t sn = 0, sc = 0, sh = 0, sw = 0;  // element strides
  size_t Offset(int32_t in, int32_t ic, int32_t ih, int32_t iw) const {
    return static_cast<size_t>(in * sn + ic * sc + ih * sh + iw * sw);
  }
};

// The logical dimensions holding N, C, H, W: {0,1,2,3} for the NCHW-sized
// operators, {0,3,1,2} for the _nhwc ones.
inline constexpr int kNchw[4] = {0, 1, 2, 3};
inline constexpr int kNhwc[4] = {0, 3, 1, 2};

// Fails unless `t` is a 4-D tensor; fills `view`.
Status MakeView4(const Tensor& t, const int* dims, const char* what, View4* view);

// Fails unless the tensor has the dtype; `what` names it in the message.
Status ExpectType(const Tensor& t, ScalarType dtype, const char* what);
// Fails unless lo <= v <= hi.
Status ExpectRange(int64_t v, int64_t lo, int64_t hi, const char* what);
// A per-channel int32 tensor of `count` elements (requantization, bias).
Status ExpectChannels(const Tensor& t, int64_t count, const char* what);
// A two-element int list (stride, padding, dilation, kernel size); a
// one-element list stands for both, as the reference's _ensure_tuple2 reads it.
Status Pair(IntList list, int64_t lo, const char* what, int32_t* first, int32_t* second);
// Activation limits of an int8 output.
Status ExpectActivation(int64_t activation_min, int64_t activation_max);

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_LAYOUT_H_
