#include "sim/npu/weights/weight_loader.h"

#include <cstring>

#include "sim/npu/commands/u55_registers.h"
#include "sim/npu/configs.h"
#include "sim/npu/memory/window.h"
#include "sim/npu/stream_error.h"
#include "sim/npu/weights/weight_codec.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

int IfmBits(const RegisterFile& r) { return 8 << r.Get(kIfmBits); }

U85Traversal Traversal(const RegisterFile& r, bool depthwise) {
  return depthwise                       ? U85Traversal::kDepthwise
         : r.Get(kWeightOrderPartKernel) ? U85Traversal::kPartKernelFirst
                                         : U85Traversal::kDepthFirst;
}

// WEIGHT_BASE/LENGTH, then WEIGHT1..3 (U65 has WEIGHT1 only; Vela leaves
// the base of an empty stream stale, so only non-empty ones are checked).
constexpr uint16_t kStreamRegisters[kMaxWeightStreams][2] = {{kWeightBase, kWeightLength},
                                                             {kWeight1Base, kWeight1Length},
                                                             {kWeight2Base, kWeight2Length},
                                                             {kWeight3Base, kWeight3Length}};

Status BindStreams(const RegisterFile& r, const Region& region, int region_index, int cores,
                   WeightStream (&streams)[kMaxWeightStreams]) {
  for (int s = 0; s < cores && s < kMaxWeightStreams; ++s) {
    const uint64_t base = r.Address(kStreamRegisters[s][0]);
    const uint64_t length = r.Address(kStreamRegisters[s][1]);
    if (length == 0 && cores > 1) continue;
    if (region.data == nullptr || base > region.size || length > region.size - base) {
      if (cores == 1) {
        return Status::Error(ErrorCode::kNpuBusError, "weight stream outside region %d",
                             region_index);
      }
      return Status::Error(ErrorCode::kNpuBusError, "weight stream %d outside region %d", s,
                           region_index);
    }
    streams[s].data = region.data + base;
    streams[s].size = size_t(length);
  }
  return Status::Ok();
}

// Places stream weights (in layout order) at their canonical position;
// padding (o < 0) must be zero.
class Placer {
 public:
  Placer(int16_t* out, int kernel_h, int kernel_w, int ifm_depth)
      : out_(out), kernel_h_(kernel_h), kernel_w_(kernel_w), ifm_depth_(ifm_depth) {}
  void operator()(int o, int ky, int kx, int i, int16_t w) {
    if (o < 0) {
      padding_nonzero_ |= w != 0;
      return;
    }
    out_[((size_t(o) * kernel_h_ + size_t(ky)) * kernel_w_ + size_t(kx)) * ifm_depth_ + size_t(i)] =
        w;
  }
  Status Done() const {
    return padding_nonzero_ ? StreamError("weight stream has non-zero padding weights")
                            : Status::Ok();
  }

 private:
  int16_t* out_;
  int kernel_h_, kernel_w_, ifm_depth_;
  bool padding_nonzero_ = false;
};

// One SWD stream decoded whole, then placed along the layout's walk.
template <typename Walk>
Status DecodeSwd(const WeightStream& stream, Walk walk, Placer* place, WorkspaceArena* arena,
                 const char* what) {
  const size_t count = walk([](int, int, int, int) { return true; });
  Status status;
  auto* decoded = arena->TakeArray<int16_t>(count, "weight stream", &status);
  if (decoded == nullptr) return status;
  void* scratch = arena->Take(SwdScratchBytes(), "SWD decoder", &status);
  if (scratch == nullptr) return status;
  size_t got = 0;
  ESDK_RETURN_IF_ERROR(DecodeSwdWeights(stream.data, stream.size, decoded, count, &got, scratch));
  if (got != count) {
    return StreamError("%s has %u weights, kernel needs %u", what, unsigned(got), unsigned(count));
  }
  size_t at = 0;
  walk([&](int o, int ky, int kx, int i) {
    (*place)(o, ky, kx, i, decoded[at++]);
    return true;
  });
  return place->Done();
}

// The fields U55 and U85 layouts share.
template <typename Layout>
void FillCommon(const RegisterFile& r, bool depthwise, int ofm_depth, int ifm_depth, Layout* layout,
                WeightSource* s) {
  const KernelShape k = ReadKernelShape(r);
  layout->ofm_depth = ofm_depth;
  layout->ifm_depth = depthwise ? 1 : ifm_depth;
  layout->dilation_x = k.dilation_x;
  layout->dilation_y = k.dilation_y;
  layout->kernel_w = k.kernel_w;  // weights cover the taps
  layout->kernel_h = k.kernel_h;
  layout->ofm_block_depth = r[kOfmBlkDepthM1] + 1;
  layout->ifm_bits = IfmBits(r);
  layout->traversal = Traversal(r, depthwise);
  s->taps = k.kernel_w * k.kernel_h;  // bounded: the operation ran CheckWindow first
  s->ifm_depth = layout->ifm_depth;
}

Status DescribeU55(const NpuConfig& config, const RegisterFile& r, bool depthwise, int ofm_depth,
                   int ifm_depth, WeightSource* s) {
  U55WeightLayout& layout = s->u55_layout;
  FillCommon(r, depthwise, ofm_depth, ifm_depth, &layout, s);
  // Microblock depths of the U55 MAC configurations (32 MACs: OFM 4).
  layout.ofm_ublock_depth = U55MicroblockDepth(config.macs);
  layout.ifm_ublock_depth = 8;
  if (config.cores > 1 && U55WeightStreamsScratchBytes(layout, config.cores) == 0) {
    return StreamError("weights cannot split over %d cores", config.cores);
  }
  return Status::Ok();
}

Status DescribeU85(const NpuConfig& config, const RegisterFile& r, bool depthwise, int ofm_depth,
                   int ifm_depth, WeightSource* s) {
  U85WeightLayout& layout = s->u85_layout;
  FillCommon(r, depthwise, ofm_depth, ifm_depth, &layout, s);
  const KernelShape k = ReadKernelShape(r);
  layout.stride_x = k.stride_x;
  layout.stride_y = k.stride_y;
  layout.macs = config.macs;
  layout.cores = config.cores;
  // The microblock gives the OFM microblock depth, from the configuration's table.
  const int microblock = int(r.Get(kAccMicroblock));
  layout.ofm_ublock_depth = U85MicroblockDepth(config.macs, microblock);
  if (layout.ofm_ublock_depth == 0) {
    return StreamError("microblock %d not valid for Ethos-U85-%d", microblock, config.macs);
  }
  s->fwd = r.Get(kWeightFormatFwd) != 0;
  layout.sparse = r.Get(kWeightFormatSparse) != 0;
  if (config.cores > 1) {
    if (layout.sparse) {
      return Status::Error(ErrorCode::kNpuUnsupported, "sparse weights not supported");
    }
    if (U85WeightStreamsScratchBytes(layout, s->fwd) == 0) {
      return StreamError("weights cannot split over %d cores", config.cores);
    }
    return Status::Ok();
  }
  if (r.Address(kWeight1Length) != 0 || r.Address(kWeight2Length) != 0 ||
      r.Address(kWeight3Length) != 0) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "multiple weight streams not supported on one core");
  }
  // Sparse weights only change the stream's order (weight_layout_u85.h),
  // for 8-bit and 16-bit IFMs alike; Vela never makes depthwise ones sparse.
  if (layout.sparse && (depthwise || (layout.ifm_bits != 8 && layout.ifm_bits != 16))) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "sparse weights for depthwise or 32-bit IFMs not supported");
  }
  return Status::Ok();
}

}  // namespace

Status DescribeWeights(const NpuConfig& config, const RegisterFile& regs,
                       const Region (&regions)[kNumRegions], bool depthwise, int ofm_depth,
                       int ifm_depth, WeightSource* source) {
  *source = WeightSource();
  source->u55 = config.product != Product::kEthosU85;
  source->cores = config.cores;
  source->ofm_depth = ofm_depth;
  ESDK_RETURN_IF_ERROR(source->u55
                           ? DescribeU55(config, regs, depthwise, ofm_depth, ifm_depth, source)
                           : DescribeU85(config, regs, depthwise, ofm_depth, ifm_depth, source));
  const int region_index = int(regs.Get(kWeightRegionIndex));
  return BindStreams(regs, regions[region_index], region_index, config.cores, source->streams);
}

Status DecodeWeights(const WeightSource& s, int16_t* out, WorkspaceArena* arena) {
  memset(out, 0, s.count() * sizeof(int16_t));
  Status status;
  if (s.cores > 1) {
    const size_t scratch_size = s.u55 ? U55WeightStreamsScratchBytes(s.u55_layout, s.cores)
                                      : U85WeightStreamsScratchBytes(s.u85_layout, s.fwd);
    void* scratch = arena->Take(scratch_size, "weight streams", &status);
    if (scratch == nullptr) return status;
    return s.u55
               ? DecodeU55WeightStreams(s.u55_layout, s.cores, s.streams, out, scratch,
                                        scratch_size)
               : DecodeU85WeightStreams(s.u85_layout, s.fwd, s.streams, out, scratch, scratch_size);
  }
  const int kernel_h = s.u55 ? s.u55_layout.kernel_h : s.u85_layout.kernel_h;
  const int kernel_w = s.u55 ? s.u55_layout.kernel_w : s.u85_layout.kernel_w;
  Placer place(out, kernel_h, kernel_w, s.ifm_depth);
  if (s.u55) {
    auto walk = [&](auto visit) { return ForEachU55Weight(s.u55_layout, visit); };
    return DecodeSwd(s.streams[0], walk, &place, arena, "weight stream");
  }
  auto walk = [&](auto visit) { return ForEachU85Weight(s.u85_layout, visit); };
  if (!s.fwd) return DecodeSwd(s.streams[0], walk, &place, arena, "SWD stream");
  // FWD: decode while walking the layout.
  FwdDecoder decoder(s.streams[0].data, s.streams[0].size);
  walk([&](int o, int ky, int kx, int i) {
    place(o, ky, kx, i, decoder.Next());
    return !decoder.overrun();
  });
  if (decoder.overrun()) return StreamError("FWD weight stream shorter than the kernel");
  return place.Done();
}

}  // namespace ethosu_sdk::npu
