#include "sim/npu/operations/feature_map_registers.h"

#include "sim/npu/commands/u85_registers.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

int32_t ZeroPoint(uint16_t raw, bool is_signed) {
  return is_signed ? int32_t(int16_t(raw)) : int32_t(raw);
}

// Registers of the IFM and of the IFM2, which share one layout.
struct InputRegisters {
  Field is_signed, bits, format, storage, region, broadcast;
  uint16_t base0, width0, height0, height1, stride_x, stride_y, stride_c, zero_point;
};
constexpr InputRegisters kIfmRegs{kIfmSigned,      kIfmBits,          kIfmFormat,  kIfmStorage,
                                  kIfmRegionIndex, kIfmBroadcastMode, kIfmBase0,   kIfmWidth0M1,
                                  kIfmHeight0M1,   kIfmHeight1M1,     kIfmStrideX, kIfmStrideY,
                                  kIfmStrideC,     kIfmZeroPoint};
constexpr InputRegisters kIfm2Regs{
    kIfm2Signed,        kIfm2Bits,    kIfm2Format,   kIfm2Storage,   kIfm2RegionIndex,
    kIfm2BroadcastMode, kIfm2Base0,   kIfm2Width0M1, kIfm2Height0M1, kIfm2Height1M1,
    kIfm2StrideX,       kIfm2StrideY, kIfm2StrideC,  kIfm2ZeroPoint};

// 64-bit maps: signed, U85, and only where the operation takes them.
Status Check64(const Context& ctx, uint32_t bits, bool is_signed, Allow64 allow, const char* what) {
  if (bits != kBits64) return Status::Ok();
  if (allow == Allow64::kNo || ctx.u55() || !is_signed) {
    return Status::Error(ErrorCode::kNpuUnsupported, "64-bit %s not supported here", what);
  }
  return Status::Ok();
}

}  // namespace

Status DecodeIfm(const Context& ctx, bool second, FeatureMap* fm, Allow64 allow) {
  const RegisterFile& r = ctx.regs;
  const InputRegisters& g = second ? kIfm2Regs : kIfmRegs;
  *fm = FeatureMap();
  fm->region_index = int(r.Get(g.region));
  fm->region = &ctx.regions[fm->region_index];
  for (int t = 0; t < 4; ++t) fm->base[t] = r.Address(uint16_t(g.base0 + t));
  fm->width0 = r[g.width0] + 1;
  fm->height0 = r[g.height0] + 1;
  fm->height1 = r[g.height1] + 1;
  fm->stride_x = r.Stride(g.stride_x);
  fm->stride_y = r.Stride(g.stride_y);
  fm->stride_c = r.Stride(g.stride_c);
  fm->is_signed = r.Get(g.is_signed) != 0;
  ESDK_RETURN_IF_ERROR(Check64(ctx, r.Get(g.bits), fm->is_signed, allow, "IFM"));
  fm->element_bytes = 1 << r.Get(g.bits);
  fm->brick = r.Get(g.format) == kFormatNhcwb16;
  fm->broadcast = int(r.Get(g.broadcast));
  fm->zero_point = ZeroPoint(r[g.zero_point], fm->is_signed);
  fm->depth = r[kIfmDepthM1] + 1;
  // U55: these precision bits are the rounding mode, never chaining.
  if (!ctx.u55() && r.Get(g.storage) == kStorageChained) {
    const int* dims = ctx.chain.current_dims;
    fm->UseChainBuffer(&ctx.chain.current, dims[0], dims[1], dims[2]);
  }
  return Status::Ok();
}

Status DecodeOfm(Context& ctx, FeatureMap* fm, Allow64 allow) {
  const RegisterFile& r = ctx.regs;
  *fm = FeatureMap();
  fm->region_index = int(r.Get(kOfmRegionIndex));
  fm->region = &ctx.regions[fm->region_index];
  for (int t = 0; t < 4; ++t) fm->base[t] = r.Address(uint16_t(kOfmBase0 + t));
  fm->width0 = r[kOfmWidth0M1] + 1;
  fm->height0 = r[kOfmHeight0M1] + 1;
  fm->height1 = r[kOfmHeight1M1] + 1;
  fm->width = r[kOfmWidthM1] + 1;
  fm->height = r[kOfmHeightM1] + 1;
  fm->depth = r[kOfmDepthM1] + 1;
  fm->stride_x = r.Stride(kOfmStrideX);
  fm->stride_y = r.Stride(kOfmStrideY);
  fm->stride_c = r.Stride(kOfmStrideC);
  fm->is_signed = r.Get(kOfmSigned) != 0;
  ESDK_RETURN_IF_ERROR(Check64(ctx, r.Get(kOfmBits), fm->is_signed, allow, "OFM"));
  fm->element_bytes = 1 << r.Get(kOfmBits);
  fm->brick = r.Get(kOfmFormat) == kFormatNhcwb16;
  fm->zero_point = ZeroPoint(r[kOfmZeroPoint], fm->is_signed);
  if (ctx.u55()) return Status::Ok();  // no reverse, transpose or chaining
  fm->reverse = int(r.Get(kOfmReverse));
  fm->transpose = int(r.Get(kOfmTranspose));
  if (fm->transpose == 4 || fm->transpose == 5) return StreamError("bad OFM transpose");
  // GUESS (not documented): Vela never combines reverse with a transpose or
  // a chained OFM (it asserts so), so what the hardware does then is unknown.
  if (fm->reverse != 0 && fm->transpose != 0) {
    return Status::Error(ErrorCode::kNpuUnsupported, "OFM reverse with a transpose not supported");
  }
  if (r.Get(kOfmStorage) != kStorageChained) return Status::Ok();
  if (fm->mapped()) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "transposed or reversed chained OFM not supported");
  }
  Status status;
  const size_t bytes = size_t(fm->height) * fm->width * fm->depth * fm->element_bytes;
  uint8_t* buffer = ctx.arena.TakeTop(bytes, &status);
  if (buffer == nullptr) return status;
  ChainBuffers& chain = ctx.chain;
  chain.next.data = buffer;
  chain.next.writable = true;
  chain.next.size = bytes;
  chain.next_dims[0] = fm->height;
  chain.next_dims[1] = fm->width;
  chain.next_dims[2] = fm->depth;
  fm->UseChainBuffer(&chain.next, fm->height, fm->width, fm->depth);
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu
