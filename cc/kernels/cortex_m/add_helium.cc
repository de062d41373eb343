// quantized_add with Helium (MVE). An operand's rescaling depends only on
// its int8 value, so each is tabulated once per call (256 entries, computed
// on four lanes); per four elements two byte loads, two gather loads from
// the tables, the sum's requantization on the lanes (requantize_helium.h)
// and a narrowing store. Bit-exact with AddElement: where a left shift
// would overflow int32 the entries or outputs are done in C.
#include "cc/kernels/cortex_m/add_helium.h"

#include "cc/kernels/cortex_m/requantize_helium.h"

namespace ethosu_sdk::kernels::cortex_m {

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

namespace {

// table[u] = Requantize((int8_t(u) - zero_point) << 20, multiplier, shift)
// for every byte u, four lanes at a time (lane by lane in C where the left
// shift would overflow).
void OperandTable(int32_t zero_point, int32_t multiplier, int32_t shift, int32_t* table) {
  const RequantLanes r =
      LoadRequantLanes(vdupq_n_s32(multiplier), vdupq_n_s32(shift), 0, INT32_MIN, INT32_MAX);
  for (int32_t u = 0; u < kAddTable; u += 4) {
    // The bytes u..u+3 as int8 values: u - 256 past 127.
    const int32x4_t value = vsubq_n_s32(
        vreinterpretq_s32_u32(vidupq_n_u32(static_cast<uint32_t>(u), 1)), u < 128 ? 0 : 256);
    const int32x4_t x = vshlq_n_s32(vsubq_n_s32(value, zero_point), kAddLeftShift);
    if (LeftShiftExact(x, r)) {
      vst1q_s32(table + u, RequantizeLanes(x, r));
      continue;
    }
    for (int32_t j = 0; j < 4; ++j) {
      const int32_t v = static_cast<int8_t>(static_cast<uint8_t>(u + j));
      table[u + j] = Requantize((v - zero_point) * (1 << kAddLeftShift), multiplier, shift);
    }
  }
}

}  // namespace

bool AddHelium(const int8_t* a, const int8_t* b, int8_t* out, size_t count, const AddParams& p) {
  if (p.a_multiplier == INT32_MIN || p.b_multiplier == INT32_MIN || p.out_multiplier == INT32_MIN)
    return false;
  // Each operand's rescaling through its table (gather loads by byte), then
  // the sum's requantization on four lanes.
  int32_t table_a[kAddTable], table_b[kAddTable];
  OperandTable(p.a_zero_point, p.a_multiplier, p.a_shift, table_a);
  OperandTable(p.b_zero_point, p.b_multiplier, p.b_shift, table_b);
  const RequantLanes ro = LoadRequantLanes(vdupq_n_s32(p.out_multiplier), vdupq_n_s32(p.out_shift),
                                           p.out_zero_point, p.activation_min, p.activation_max);
  const uint8_t* ua = reinterpret_cast<const uint8_t*>(a);
  const uint8_t* ub = reinterpret_cast<const uint8_t*>(b);
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const int32x4_t x = vldrwq_gather_shifted_offset_s32(table_a, vldrbq_u32(ua + i));
    const int32x4_t y = vldrwq_gather_shifted_offset_s32(table_b, vldrbq_u32(ub + i));
    const int32x4_t sum = vaddq_s32(x, y);
    if (LeftShiftExact(sum, ro)) {
      vstrbq_s32(out + i, RequantizeLanes(sum, ro));
      continue;
    }
    for (size_t j = i; j < i + 4; ++j) out[j] = AddElement(a[j], b[j], p);
  }
  for (; i < count; ++i) out[i] = AddElement(a[i], b[i], p);
  return true;
}

#else

bool AddHelium(const int8_t* /*a*/, const int8_t* /*b*/, int8_t* /*out*/, size_t /*count*/,
               const AddParams& /*p*/) {
  return false;
}

#endif

}  // namespace ethosu_sdk::kernels::cortex_m
