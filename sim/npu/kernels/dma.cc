#include "sim/npu/kernels/dma.h"

#include <cstring>

#include "sim/npu/commands/u55_registers.h"
#include "sim/npu/operations/activation_setup.h"

namespace ethosu_sdk::npu {

using namespace u85;

Status RunDma(Context& ctx, RunStats* stats) {
  const RegisterFile& r = ctx.regs;
  if (r.Get(kDmaSrcStrideMode) != 0) {
    return Status::Error(ErrorCode::kNpuUnsupported, "strided DMA not supported");
  }
  if (ctx.u55() && r.Get(u55::kDmaDstStrideMode) != 0) {
    return Status::Error(ErrorCode::kNpuUnsupported, "2-D/3-D DMA not supported");
  }
  if (r.Get(kDmaSrcIndexed) || r.Get(kDmaDstIndexed)) {
    return Status::Error(ErrorCode::kNpuUnsupported, "indexed DMA not supported");
  }
  if (r.Get(kDmaSrcInternal)) {
    return Status::Error(ErrorCode::kNpuUnsupported, "DMA from internal memory not supported");
  }
  const int src = int(r.Get(kDmaSrcRegionIndex)), dst = int(r.Get(kDmaDstRegionIndex));
  const Region& from = ctx.regions[src];
  const Region& to = ctx.regions[dst];
  const uint64_t src_addr = r.Address(kDma0Src), dst_addr = r.Address(kDma0Dst);
  const uint64_t length = r.Address(kDma0Len);
  if (from.data == nullptr || src_addr > from.size || length > from.size - src_addr) {
    return Status::Error(ErrorCode::kNpuBusError, "DMA source outside region %d", src);
  }
  uint8_t* target = nullptr;
  if (r.Get(kDmaDstInternal)) {
    uint64_t offset = 0;
    ESDK_RETURN_IF_ERROR(LutDestination(ctx.config, dst_addr, length, &offset));
    target = ctx.lut + offset;
  } else {
    if (to.data == nullptr || !to.writable || dst_addr > to.size || length > to.size - dst_addr) {
      return Status::Error(ErrorCode::kNpuBusError, "DMA destination outside writable region %d",
                           dst);
    }
    target = to.data + dst_addr;
  }
  ESDK_RETURN_IF_ERROR(ctx.work.Charge(length));
  memmove(target, from.data + src_addr, size_t(length));
  ++stats->dma_transfers;
  stats->dma_bytes += length;
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu
