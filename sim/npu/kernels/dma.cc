#include "sim/npu/kernels/dma.h"

#include <cstdint>
#include <cstring>

#include "sim/npu/commands/u55_registers.h"
#include "sim/npu/operations/activation_setup.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

// DMA0_SRC_REGION.stride_mode (U85): 1-D, 2-D or 3-D.
constexpr uint32_t kStride1D = 0, kStride2D = 1, kStride3D = 2;
// Indices are int32 (Vela: "HW can only use int32 indices"; int64 ids are
// read as their low words, skipping 4 bytes per outer step, IDX_SKIP1).
constexpr uint64_t kIndexBytes = 4;
// DMA0_IDX_MAX.idx_max: the payload's low 31 bits.
constexpr uint32_t kIdxMaxMask = 0x7FFFFFFFu;

bool Inside(const Region& region, int64_t offset, uint64_t length) {
  return region.data != nullptr && offset >= 0 && uint64_t(offset) <= region.size &&
         length <= region.size - uint64_t(offset);
}

// The U85 DMA as Vela's generator writes it (GenerateDMA; gather/scatter
// from the high-level stream generator), one row of LEN bytes per step:
//   for j < SIZE1 (3-D), i < SIZE0 (2-D/3-D):
//     k    = the index element j * SIZE0 + i, at IDX + 4 k + j * IDX_SKIP1
//     src  = SRC + (src indexed ? index : i) * SRC_STRIDE0 + j * SRC_STRIDE1
//     dst  = DST + (dst indexed ? index : i) * DST_STRIDE0 + j * DST_STRIDE1
// 1-D is one row (an indexed 1-D DMA still moves it by index * stride 0).
// A gather (torch embedding, TOSA GATHER) is a source-indexed 2-D DMA,
// pinned bit-exact by //tests/kernels:text_classifier_u85_256_model's
// verification against the TOSA reference model; the forms are unit-tested
// in dma_test.cc.
// GUESS (not documented): an index below 0 or above IDX_MAX (Vela writes
// rows - 1) faults as a bus error rather than clamping; TOSA leaves it
// undefined.
struct Plan {
  uint32_t size0 = 1, size1 = 1;
  int64_t src_stride0 = 0, src_stride1 = 0, dst_stride0 = 0, dst_stride1 = 0;
  bool src_indexed = false, dst_indexed = false;
  const Region* index_region = nullptr;
  int64_t index_base = 0, index_skip1 = 0;
  uint32_t index_max = 0;
};

Status PlanStrided(const Context& ctx, uint32_t mode, Plan* p) {
  const RegisterFile& r = ctx.regs;
  if (mode != kStride1D && mode != kStride2D && mode != kStride3D) {
    return StreamError("DMA stride mode %u is reserved", unsigned(mode));
  }
  p->src_indexed = r.Get(kDmaSrcIndexed) != 0;
  p->dst_indexed = r.Get(kDmaDstIndexed) != 0;
  if (p->src_indexed && p->dst_indexed) return StreamError("DMA indexed on both sides");
  if (mode != kStride1D) p->size0 = r[kDma0Size0];
  if (mode == kStride3D) p->size1 = r[kDma0Size1];
  if (p->size0 == 0 || p->size1 == 0) return StreamError("DMA with a zero size");
  p->src_stride0 = r.Stride(kDma0SrcStride0);
  p->dst_stride0 = r.Stride(kDma0DstStride0);
  if (mode == kStride3D) {
    p->src_stride1 = r.Stride(kDma0SrcStride1);
    p->dst_stride1 = r.Stride(kDma0DstStride1);
  }
  if (!p->src_indexed && !p->dst_indexed) return Status::Ok();
  p->index_region = &ctx.regions[r.Get(kDmaIdxRegionIndex)];
  p->index_base = int64_t(r.Address(kDma0Idx));
  p->index_max = r.Payload(kDma0IdxMax) & kIdxMaxMask;
  if (mode == kStride3D) p->index_skip1 = r.Stride(kDma0IdxSkip1);
  return Status::Ok();
}

Status Index(const Plan& p, uint32_t i, uint32_t j, int64_t* index) {
  const int64_t at =
      p.index_base + int64_t(kIndexBytes) * (int64_t(j) * p.size0 + i) + int64_t(j) * p.index_skip1;
  if (!Inside(*p.index_region, at, kIndexBytes)) {
    return Status::Error(ErrorCode::kNpuBusError, "DMA index at 0x%llx outside its region",
                         (unsigned long long)at);
  }
  int32_t value = 0;
  memcpy(&value, p.index_region->data + at, kIndexBytes);
  if (value < 0 || uint32_t(value) > p.index_max) {
    return Status::Error(ErrorCode::kNpuBusError, "DMA index %ld outside 0..IDX_MAX %u",
                         long(value), unsigned(p.index_max));
  }
  *index = value;
  return Status::Ok();
}

}  // namespace

Status RunDma(Context& ctx, RunStats* stats) {
  const RegisterFile& r = ctx.regs;
  const uint32_t mode = r.Get(kDmaSrcStrideMode);
  if (ctx.u55() && (mode != 0 || r.Get(u55::kDmaDstStrideMode) != 0)) {
    return Status::Error(ErrorCode::kNpuUnsupported, "U55/U65 2-D/3-D DMA not supported");
  }
  if (ctx.u55() && (r.Get(kDmaSrcIndexed) || r.Get(kDmaDstIndexed))) {
    return Status::Error(ErrorCode::kNpuUnsupported, "U55/U65 indexed DMA not supported");
  }
  if (r.Get(kDmaSrcInternal)) {
    return Status::Error(ErrorCode::kNpuUnsupported, "DMA from internal memory not supported");
  }
  Plan plan;
  if (!ctx.u55()) ESDK_RETURN_IF_ERROR(PlanStrided(ctx, mode, &plan));
  const bool strided = mode != kStride1D || plan.src_indexed || plan.dst_indexed;
  const int src = int(r.Get(kDmaSrcRegionIndex)), dst = int(r.Get(kDmaDstRegionIndex));
  const Region& from = ctx.regions[src];
  const Region& to = ctx.regions[dst];
  const int64_t src_addr = int64_t(r.Address(kDma0Src)), dst_addr = int64_t(r.Address(kDma0Dst));
  const uint64_t length = r.Address(kDma0Len);
  const uint64_t rows = uint64_t(plan.size0) * plan.size1;
  // Lengths are 40-bit and rows 32-bit: saturate rather than wrap.
  const uint64_t bytes = length > UINT64_MAX / rows ? UINT64_MAX : length * rows;
  ESDK_RETURN_IF_ERROR(ctx.work.Charge(bytes));
  if (r.Get(kDmaDstInternal)) {
    if (strided) {
      return Status::Error(ErrorCode::kNpuUnsupported,
                           "strided or indexed DMA into internal memory not supported");
    }
    if (!Inside(from, src_addr, length)) {
      return Status::Error(ErrorCode::kNpuBusError, "DMA source outside region %d", src);
    }
    uint64_t offset = 0;
    ESDK_RETURN_IF_ERROR(LutDestination(ctx.config, uint64_t(dst_addr), length, &offset));
    memmove(ctx.lut + offset, from.data + src_addr, size_t(length));
  } else {
    for (uint32_t j = 0; j < plan.size1; ++j) {
      for (uint32_t i = 0; i < plan.size0; ++i) {
        int64_t index = 0;
        if (plan.src_indexed || plan.dst_indexed) ESDK_RETURN_IF_ERROR(Index(plan, i, j, &index));
        const int64_t s = src_addr + (plan.src_indexed ? index : i) * plan.src_stride0 +
                          int64_t(j) * plan.src_stride1;
        const int64_t d = dst_addr + (plan.dst_indexed ? index : i) * plan.dst_stride0 +
                          int64_t(j) * plan.dst_stride1;
        if (!Inside(from, s, length)) {
          return Status::Error(ErrorCode::kNpuBusError, "DMA source outside region %d", src);
        }
        if (!to.writable || !Inside(to, d, length)) {
          return Status::Error(ErrorCode::kNpuBusError,
                               "DMA destination outside writable region %d", dst);
        }
        memmove(to.data + d, from.data + s, size_t(length));
      }
    }
  }
  ++stats->dma_transfers;
  stats->dma_bytes += bytes;
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu
