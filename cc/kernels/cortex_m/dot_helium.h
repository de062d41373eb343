// Four int8 dot products sharing one input run, with Helium (MVE): the
// inner loop of the convolutions' and the linear layer's GEMMs
// (conv_helium.cc, linear.cc). Each 16-byte chunk of the input is loaded
// once and multiplied into four weight rows by VMLADAVA (16 MACs each);
// the sums wrap as int32 tensors do.
#ifndef ETHOSU_SDK_CC_KERNELS_CORTEX_M_DOT_HELIUM_H_
#define ETHOSU_SDK_CC_KERNELS_CORTEX_M_DOT_HELIUM_H_

#include <cstdint>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

namespace ethosu_sdk::kernels::cortex_m {

// int8 values per Q register.
inline constexpr int32_t kBytes = 16;

// Four dot products of one input run with four weight rows.
struct Dot4 {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  void Run(const int8_t* x, const int8_t* w0, const int8_t* w1, const int8_t* w2, const int8_t* w3,
           int32_t len) {
    if (len % kBytes == 0) {  // whole vectors: no predication (VPST) needed
      for (int32_t i = 0; i < len; i += kBytes) {
        const int8x16_t xv = vldrbq_s8(x + i);
        a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w0 + i));
        a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w1 + i));
        a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w2 + i));
        a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w3 + i));
      }
      return;
    }
    for (int32_t i = 0; i < len; i += kBytes) {
      const mve_pred16_t lanes = vctp8q(static_cast<uint32_t>(len - i));
      const int8x16_t xv = vldrbq_z_s8(x + i, lanes);
      a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w0 + i, lanes));
      a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1 + i, lanes));
      a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2 + i, lanes));
      a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3 + i, lanes));
    }
  }
  void Save(int32_t* tile) const {
    tile[0] = a0;
    tile[1] = a1;
    tile[2] = a2;
    tile[3] = a3;
  }
};

}  // namespace ethosu_sdk::kernels::cortex_m

#endif  // __ARM_FEATURE_MVE
#endif  // ETHOSU_SDK_CC_KERNELS_CORTEX_M_DOT_HELIUM_H_
