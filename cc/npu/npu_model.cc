// Functional model of the Ethos-U55 and Ethos-U85: decodes the register command stream,
// keeps register state across operations (Vela omits unchanged writes) and
// executes each NPU_OP_* kernel on the bound regions.
#include <cstring>

#include "cc/npu/kernels/activation.h"
#include "cc/npu/configs.h"
#include "cc/npu/driver.h"
#include "cc/npu/operations/feature_map.h"
#include "cc/npu/kernels/output_stage.h"
#include "cc/npu/commands/u85_registers.h"
#include "cc/npu/weights/weight_codec.h"
#include "cc/npu/weights/weight_layout_u55.h"
#include "cc/npu/weights/weight_layout_u85.h"
#include "cc/npu/weights/weight_streams.h"

namespace npu {
namespace u85 {

bool IsKnownCmd0(uint16_t op) {
  return op <= kOpResize ? op != 4 : (op >= kOpDmaStart && op <= kOpPmuMask) ||
         (op >= kIfmPadTop && op <= kIfmRegion && op != 262 && op != 269 && op != 270) ||
         (op >= kOfmWidthM1 && op <= kOfmRegion && op != 281 && op != 285 && op != 286) ||
         (op >= kKernelWidthM1 && op <= kDma0IdxRegion && op != 291) ||
         op == kIfm2Broadcast || op == kIfm2Precision || op == kIfm2ZeroPoint ||
         (op >= kIfm2Width0M1 && op <= kIfm2Height1M1) || op == kIfm2Region;
}

bool IsKnownCmd1(uint16_t op) {
  return op <= kIfmStrideC || (op >= kOfmBase0 && op <= kOfmStrideC) ||
         (op >= kWeightBase && op <= kOpScalar) || (op >= kDma0Src && op <= kDma0IdxSkip1) ||
         (op >= kIfm2Base0 && op <= kIfm2StrideC) || (op >= kWeight1Base && op <= kResizeY) ||
         op == kOpBranch;
}

namespace {

struct Registers {
  uint16_t cmd0[1024];
  uint16_t cmd1_param[512];
  uint32_t cmd1_payload[512];
  uint8_t lut[kLutMemoryBytes];  // LUT memory, filled by DMAs to internal memory
};

struct Scale {
  int64_t scale = 1;
  int shift = 0;
  RoundMode round = RoundMode::kNatural;
};

struct ScaleRecord {
  int64_t bias;  // U85: 32-bit, U55: 40-bit
  uint32_t scale;
  int shift;
};

// Bump allocator over the caller's workspace, reset for every operation.
class Arena {
 public:
  Arena(uint8_t* data, size_t size) : data_(data), size_(size), top_(size) {}
  void* Take(size_t bytes, const char* what, Status* status) {
    const size_t aligned = (used_ + 15) & ~size_t(15);
    const size_t top = pending_bytes_ != 0 ? pending_ : top_;  // below both chain buffers
    if (aligned > top || bytes > top - aligned) {
      *status = Status::Failure(FaultKind::kLimit, "workspace too small for %s (%u bytes more)", what,
                              unsigned(bytes - (top > aligned ? top - aligned : 0)));
      return nullptr;
    }
    used_ = aligned + bytes;
    return data_ + aligned;
  }
  void Reset(size_t to) { used_ = to; }
  // Chain buffers live at the top of the workspace, across operations. An
  // operation may read one chain buffer while it writes the next (Vela
  // chains reduce-sum -> sub -> mul -> add), so the new one goes below the
  // current one and moves up to the top once the operation is done.
  uint8_t* TakeTop(size_t bytes, Status* status) {
    const size_t limit = (used_ + 15) & ~size_t(15);
    if (bytes > top_ || ((top_ - bytes) & ~size_t(15)) < limit) {
      *status = Status::Failure(FaultKind::kLimit, "workspace too small for a chain buffer of %u bytes", unsigned(bytes));
      return nullptr;
    }
    pending_ = (top_ - bytes) & ~size_t(15);
    pending_bytes_ = bytes;
    return data_ + pending_;
  }
  // Moves the chain buffer the last operation wrote (if any) to the top,
  // replacing the one it read; returns its new place or null.
  uint8_t* SettleTop() {
    if (pending_bytes_ == 0) return nullptr;
    const size_t to = (size_ - pending_bytes_) & ~size_t(15);
    memmove(data_ + to, data_ + pending_, pending_bytes_);
    top_ = to;
    pending_bytes_ = 0;
    return data_ + to;
  }
  size_t used() const { return used_; }

 private:
  uint8_t* data_;
  size_t size_;
  size_t top_;
  size_t pending_ = 0, pending_bytes_ = 0;
  size_t used_ = 0;
};

class Machine {
 public:
  Machine(const NpuConfig& config, const Region (&regions)[kNumRegions], Registers* regs,
          Arena arena, RunStats* stats, const RunLimits& limits,
          const OperationObserver* observer)
      : config_(config), regions_(regions), r_(*regs), arena_(arena), stats_(stats),
        limits_(limits), observer_(observer) {}

  Status Run(const uint32_t* words, size_t count);
  // Runs from word *at until NPU_OP_STOP or a failure; *at is left on that command.
  Status Step(const uint32_t* words, size_t count, size_t* at);

 private:
  uint16_t C0(uint16_t op) const { return r_.cmd0[op]; }
  uint64_t Address(uint16_t op) const {
    return (uint64_t(r_.cmd1_param[op] & 0xFF) << 32) | r_.cmd1_payload[op];
  }
  int64_t Stride(uint16_t op) const { return int64_t(Address(op)); }

  Status Ifm(bool second, FeatureMap* fm) const;
  Status Ofm(FeatureMap* fm);
  Status Execute(uint16_t opcode, uint16_t param, uint32_t command_offset);
  Status Convolution(bool depthwise);
  Status Pooling(int mode);
  Status NullPool();
  Status MatMul();
  Status Elementwise(int mode);
  Status ElementwiseU55(int mode);
  Status Dma();
  Status CheckWork(uint64_t work) {
    if (work > limits_.max_work_per_operation) {
      return Status::Failure(FaultKind::kLimit, "operation needs %llu MACs, limit %llu", (unsigned long long)work,
                           (unsigned long long)limits_.max_work_per_operation);
    }
    return CountWork(work);
  }
  // Charges `work` to the stream's total (RunLimits::max_total_work).
  Status CountWork(uint64_t work) {
    if (work > limits_.max_total_work - work_done_) {
      return Status::Failure(FaultKind::kLimit, "stream needs more than %llu units of work",
                           (unsigned long long)limits_.max_total_work);
    }
    work_done_ += work;
    return Status::Ok();
  }
  Status LoadWeights(bool depthwise, int ofm_depth, int ifm_depth, int16_t** weights);
  Status LoadWeightsU55(bool depthwise, int ofm_depth, int ifm_depth, int16_t** weights);
  // Weights split over one stream per core (weight_streams.h); one layout given.
  Status LoadWeightStreams(const U85WeightLayout* u85, const U55WeightLayout* u55,
                           int16_t** weights);
  Status LoadScales(int ofm_depth, ScaleRecord** records);
  Scale OfmScale() const;
  Scale IfmScale(uint16_t op) const;
  Status Output(const FeatureMap& ofm, int y, int x, int c, int64_t acc, const Scale& scale);
  bool PerChannel() const { return ((C0(kOfmPrecision) >> 8) & 1) == 0; }

  // U65 runs the U55 command set (its extras: see LoadScales, weight streams).
  bool U55() const { return config_.arch != Architecture::kEthosU85; }
  Status CheckAccumulatorAndActivation(const FeatureMap& ofm, bool ifm2_input = false);
  Status PrepareActivation(const FeatureMap& ofm);
  Status LutDestination(uint64_t address, uint64_t length, uint8_t** out);

  const NpuConfig config_;
  const Region (&regions_)[kNumRegions];
  Registers& r_;
  Arena arena_;
  RunStats* stats_;
  const RunLimits& limits_;
  const OperationObserver* observer_;
  uint64_t work_done_ = 0;  // charged against RunLimits::max_total_work
  FeatureMap last_ofm_;  // what the last operation wrote, for observer_
  ActivationStage activation_;  // set by PrepareActivation for each operation
  Region chain_;  // the chain buffer the last chained OFM was written to
  int chain_dims_[3] = {0, 0, 0};
  Region chain_next_;  // the one the current operation writes, if chained
  int chain_next_dims_[3] = {0, 0, 0};
};

int ElementBytes(int precision) { return 1 << precision; }

Status Machine::Ifm(bool second, FeatureMap* fm) const {
  const uint16_t precision = C0(second ? kIfm2Precision : kIfmPrecision);
  fm->region_index = C0(second ? kIfm2Region : kIfmRegion) & 7;
  fm->region = &regions_[fm->region_index];
  const uint16_t base = second ? kIfm2Base0 : kIfmBase0;
  for (int t = 0; t < 4; ++t) fm->base[t] = Address(uint16_t(base + t));
  fm->width0 = C0(second ? kIfm2Width0M1 : kIfmWidth0M1) + 1;
  fm->height0 = C0(second ? kIfm2Height0M1 : kIfmHeight0M1) + 1;
  fm->height1 = C0(second ? kIfm2Height1M1 : kIfmHeight1M1) + 1;
  fm->stride_x = Stride(second ? kIfm2StrideX : kIfmStrideX);
  fm->stride_y = Stride(second ? kIfm2StrideY : kIfmStrideY);
  fm->stride_c = Stride(second ? kIfm2StrideC : kIfmStrideC);
  fm->is_signed = (precision & 1) != 0;
  const int bits = (precision >> 2) & 3;
  if (bits == 3) return Status::Failure(FaultKind::kUnsupported, "64-bit IFM not supported");
  fm->element_bytes = ElementBytes(bits);
  fm->brick = ((precision >> 6) & 3) == 1;
  fm->broadcast = C0(second ? kIfm2Broadcast : kIfmBroadcast) & 0xF;
  const uint16_t zp = C0(second ? kIfm2ZeroPoint : kIfmZeroPoint);
  fm->zero_point = fm->is_signed ? int32_t(int16_t(zp)) : int32_t(zp);
  fm->depth = C0(kIfmDepthM1) + 1;
  if (!U55() && ((precision >> 14) & 3) == 2) {  // U55: these bits are round_mode
    fm->chained = true;
    fm->region = &chain_;
    fm->chain_height = chain_dims_[0];
    fm->chain_width = chain_dims_[1];
    fm->chain_depth = chain_dims_[2];
  }
  return Status::Ok();
}

Status Machine::Ofm(FeatureMap* fm) {
  const uint16_t precision = C0(kOfmPrecision);
  fm->region_index = C0(kOfmRegion) & 7;
  fm->region = &regions_[fm->region_index];
  for (int t = 0; t < 4; ++t) fm->base[t] = Address(uint16_t(kOfmBase0 + t));
  fm->width0 = C0(kOfmWidth0M1) + 1;
  fm->height0 = C0(kOfmHeight0M1) + 1;
  fm->height1 = C0(kOfmHeight1M1) + 1;
  fm->width = C0(kOfmWidthM1) + 1;
  fm->height = C0(kOfmHeightM1) + 1;
  fm->depth = C0(kOfmDepthM1) + 1;
  fm->stride_x = Stride(kOfmStrideX);
  fm->stride_y = Stride(kOfmStrideY);
  fm->stride_c = Stride(kOfmStrideC);
  fm->is_signed = (precision & 1) != 0;
  const int bits = (precision >> 1) & 3;
  if (bits == 3) return Status::Failure(FaultKind::kUnsupported, "64-bit OFM not supported");
  fm->element_bytes = ElementBytes(bits);
  fm->brick = ((precision >> 6) & 3) == 1;
  const uint16_t zero_point = C0(kOfmZeroPoint);
  if (U55()) {  // no reverse, transpose or chaining; bits 15:14 are round_mode
    fm->zero_point = fm->is_signed ? int32_t(int16_t(zero_point)) : int32_t(zero_point);
    last_ofm_ = *fm;
    return Status::Ok();
  }
  if (((precision >> 9) & 3) != 0) return Status::Failure(FaultKind::kUnsupported, "OFM reverse not supported");
  fm->transpose = (precision >> 11) & 7;
  if (fm->transpose == 4 || fm->transpose == 5) return Status::Error("bad OFM transpose");
  const uint16_t zp = C0(kOfmZeroPoint);
  fm->zero_point = fm->is_signed ? int32_t(int16_t(zp)) : int32_t(zp);
  if (((precision >> 14) & 3) == 2) {
    if (fm->transpose != 0) return Status::Failure(FaultKind::kUnsupported, "transposed chained OFM not supported");
    Status status;
    const size_t bytes = size_t(fm->height) * fm->width * fm->depth * fm->element_bytes;
    uint8_t* buffer = arena_.TakeTop(bytes, &status);
    if (buffer == nullptr) return status;
    chain_next_.read = buffer;
    chain_next_.write = buffer;
    chain_next_.size = bytes;
    chain_next_dims_[0] = fm->height;
    chain_next_dims_[1] = fm->width;
    chain_next_dims_[2] = fm->depth;
    fm->chained = true;
    fm->region = &chain_next_;
    fm->chain_height = fm->height;
    fm->chain_width = fm->width;
    fm->chain_depth = fm->depth;
  }
  last_ofm_ = *fm;
  return Status::Ok();
}

Scale Machine::OfmScale() const {
  Scale s;
  const uint16_t param = r_.cmd1_param[kOfmScale];
  s.shift = param & 0x3F;
  if (U55()) {
    // U55 OFM_PRECISION round_mode: 0 DBL (double rounding), 1 TRUNCATE, 2 NATURAL.
    const int mode = (C0(kOfmPrecision) >> 14) & 3;
    s.round = mode == 0 ? RoundMode::kDoubleSymmetric
              : mode == 1 ? RoundMode::kTruncateToZero : RoundMode::kNatural;
    s.scale = r_.cmd1_payload[kOfmScale];
    return s;
  }
  s.round = RoundMode((param >> 13) & 7);
  s.scale = r_.cmd1_payload[kOfmScale] & 0x7FFFFFFFu;
  return s;
}

Scale Machine::IfmScale(uint16_t op) const {
  Scale s;
  const uint16_t param = r_.cmd1_param[op];
  s.shift = param & 0x3F;
  s.round = ((param >> 13) & 1) ? RoundMode::kNatural : RoundMode::kDoubleSymmetric;
  s.scale = r_.cmd1_payload[op] & 0x7FFFFFFFu;
  return s;
}

Status Machine::Output(const FeatureMap& ofm, int y, int x, int c, int64_t acc,
                       const Scale& scale) {
  int64_t v = ScaleAndRound(acc, scale.scale, scale.shift, scale.round) + ofm.zero_point;
  v = activation_.Apply(v);
  v = Clamp(v, ofm.MinValue(), ofm.MaxValue());
  return ofm.Write(y, x, c, int32_t(v));
}

Status Machine::LoadScales(int ofm_depth, ScaleRecord** records) {
  const int region_index = C0(kScaleRegion) & 7;
  const Region& region = regions_[region_index];
  const uint64_t base = Address(kScaleBase);
  const uint64_t length = Address(kScaleLength);
  // U65-512: core s scales channels s, s + 2, ... from its own stream
  // (SCALE1_BASE/LENGTH, U65 opcodes 146/147). U85 cores share one stream.
  const int cores = U55() ? config_.cores : 1;
  const uint64_t needed = uint64_t((ofm_depth + cores - 1) / cores) * 10;
  if (length < needed) {
    return Status::Error("scale stream of %llu bytes too short for %d channels",
                         (unsigned long long)length, ofm_depth);
  }
  if (region.read == nullptr || base > region.size || needed > region.size - base) {
    return Status::Failure(FaultKind::kBus, "scale stream outside region %d", region_index);
  }
  Status status;
  auto* out = static_cast<ScaleRecord*>(
      arena_.Take(sizeof(ScaleRecord) * size_t(ofm_depth), "scale records", &status));
  if (out == nullptr) return status;
  if (U55()) {
    // U55 record: int40 bias, uint32 scale, 6-bit shift.
    const uint8_t* streams[2] = {region.read + base, nullptr};
    if (cores == 2) {
      const uint64_t base1 = Address(kU65Scale1Base), length1 = Address(kU65Scale1Length);
      const uint64_t needed1 = uint64_t(ofm_depth / 2) * 10;
      if (length1 < needed1 || base1 > region.size || needed1 > region.size - base1) {
        return Status::Failure(FaultKind::kBus, "second scale stream outside region %d", region_index);
      }
      streams[1] = region.read + base1;
    } else if (cores != 1) {
      return Status::Error("%d scale streams", cores);
    }
    for (int c = 0; c < ofm_depth; ++c) {
      const uint8_t* p = streams[c % cores] + uint64_t(c / cores) * 10;
      uint64_t bias = 0;
      for (int k = 0; k < 5; ++k) bias |= uint64_t(p[k]) << (8 * k);
      out[c].bias = int64_t(bias << 24) >> 24;
      out[c].scale = uint32_t(p[5]) | (uint32_t(p[6]) << 8) | (uint32_t(p[7]) << 16) |
                     (uint32_t(p[8]) << 24);
      out[c].shift = p[9] & 0x3F;
    }
    *records = out;
    return Status::Ok();
  }
  const int acc_format = C0(kAccFormat) & 3;
  if (acc_format == 1) {
    // U85 48-bit accumulator record (int16 activations): int48 bias, uint16
    // scale, 6-bit shift, as Vela writes TOSA's 16-bit RESCALE multiplier
    // (observed; pinned by the a16w8 convolution cases).
    for (int c = 0; c < ofm_depth; ++c) {
      const uint8_t* p = region.read + base + uint64_t(c) * 10;
      uint64_t bias = 0;
      for (int k = 0; k < 6; ++k) bias |= uint64_t(p[k]) << (8 * k);
      out[c].bias = int64_t(bias << 16) >> 16;
      out[c].scale = uint32_t(p[6]) | (uint32_t(p[7]) << 8);
      out[c].shift = p[8] & 0x3F;
    }
    *records = out;
    return Status::Ok();
  }
  // U85 32-bit accumulator record: int32 bias, 31-bit scale, 6-bit shift.
  if (acc_format != 0) return Status::Failure(FaultKind::kUnsupported, "accumulator format %d not supported", acc_format);
  for (int c = 0; c < ofm_depth; ++c) {
    const uint8_t* p = region.read + base + uint64_t(c) * 10;
    out[c].bias = int32_t(uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) |
                          (uint32_t(p[3]) << 24));
    out[c].scale = (uint32_t(p[4]) | (uint32_t(p[5]) << 8) | (uint32_t(p[6]) << 16) |
                    (uint32_t(p[7]) << 24)) & 0x7FFFFFFFu;
    out[c].shift = p[8] & 0x3F;
  }
  *records = out;
  return Status::Ok();
}

Status Machine::LoadWeightsU55(bool depthwise, int ofm_depth, int ifm_depth, int16_t** weights) {
  const uint16_t stride = C0(kKernelStride);
  U55WeightLayout layout;
  layout.ofm_depth = ofm_depth;
  layout.ifm_depth = depthwise ? 1 : ifm_depth;
  layout.dilation_x = ((stride >> 3) & 1) + 1;
  layout.dilation_y = ((stride >> 4) & 1) + 1;
  layout.kernel_w = C0(kKernelWidthM1) / layout.dilation_x + 1;
  layout.kernel_h = C0(kKernelHeightM1) / layout.dilation_y + 1;
  layout.ofm_block_depth = C0(kOfmBlkDepthM1) + 1;
  layout.ifm_bits = 8 * ElementBytes((C0(kIfmPrecision) >> 2) & 3);
  // Microblock depths of the U55 MAC configurations (32 MACs: OFM 4).
  layout.ofm_ublock_depth = U55MicroblockDepth(config_.macs);
  layout.ifm_ublock_depth = 8;
  layout.traversal = depthwise ? U85Traversal::kDepthwise
                     : ((stride >> 2) & 1) ? U85Traversal::kPartKernelFirst
                                           : U85Traversal::kDepthFirst;
  if (config_.cores > 1) return LoadWeightStreams(nullptr, &layout, weights);
  const size_t total = size_t(ofm_depth) * size_t(layout.kernel_w * layout.kernel_h) *
                       size_t(layout.ifm_depth);
  Status status;
  auto* out = static_cast<int16_t*>(arena_.Take(total * 2, "weights", &status));
  if (out == nullptr) return status;
  memset(out, 0, total * 2);
  const int region_index = C0(kWeightRegion) & 7;
  const Region& region = regions_[region_index];
  const uint64_t base = Address(kWeightBase);
  const uint64_t length = Address(kWeightLength);
  if (region.read == nullptr || base > region.size || length > region.size - base) {
    return Status::Failure(FaultKind::kBus, "weight stream outside region %d", region_index);
  }
  const size_t stream_count = ForEachU55Weight(layout, [](int, int, int, int) { return true; });
  auto* stream = static_cast<int16_t*>(arena_.Take(stream_count * 2, "weight stream", &status));
  if (stream == nullptr) return status;
  void* scratch = arena_.Take(SwdScratchBytes(), "SWD decoder", &status);
  if (scratch == nullptr) return status;
  size_t decoded = 0;
  NPU_RETURN_IF_ERROR(DecodeSwdWeights(region.read + base, size_t(length), stream, stream_count,
                                       &decoded, scratch));
  if (decoded != stream_count) {
    return Status::Error("weight stream has %u weights, kernel needs %u", unsigned(decoded),
                         unsigned(stream_count));
  }
  size_t at = 0;
  bool padding_nonzero = false;
  ForEachU55Weight(layout, [&](int o, int ky, int kx, int i) {
    const int16_t w = stream[at++];
    if (o < 0) {
      padding_nonzero |= w != 0;
    } else {
      out[((size_t(o) * layout.kernel_h + size_t(ky)) * layout.kernel_w + size_t(kx)) *
              layout.ifm_depth + size_t(i)] = w;
    }
    return true;
  });
  if (padding_nonzero) return Status::Error("weight stream has non-zero padding weights");
  *weights = out;
  return Status::Ok();
}

Status Machine::LoadWeightStreams(const U85WeightLayout* u85, const U55WeightLayout* u55,
                                  int16_t** weights) {
  const int region_index = C0(kWeightRegion) & 7;
  const Region& region = regions_[region_index];
  // WEIGHT_BASE/LENGTH, then WEIGHT1..3 (U65 has WEIGHT1 only; Vela leaves
  // the base of an empty stream stale, so only non-empty ones are checked).
  const uint16_t registers[kMaxWeightStreams][2] = {{kWeightBase, kWeightLength},
                                                   {kWeight1Base, kWeight1Length},
                                                   {kWeight2Base, kWeight2Length},
                                                   {kWeight3Base, kWeight3Length}};
  WeightStream streams[kMaxWeightStreams];
  for (int s = 0; s < config_.cores && s < kMaxWeightStreams; ++s) {
    const uint64_t base = Address(registers[s][0]);
    const uint64_t length = Address(registers[s][1]);
    if (length == 0) continue;
    if (region.read == nullptr || base > region.size || length > region.size - base) {
      return Status::Failure(FaultKind::kBus, "weight stream %d outside region %d", s, region_index);
    }
    streams[s].data = region.read + base;
    streams[s].size = size_t(length);
  }
  const int kernel_h = u85 != nullptr ? u85->kernel_h : u55->kernel_h;
  const int kernel_w = u85 != nullptr ? u85->kernel_w : u55->kernel_w;
  const int ifm_depth = u85 != nullptr ? u85->ifm_depth : u55->ifm_depth;
  const int ofm_depth = u85 != nullptr ? u85->ofm_depth : u55->ofm_depth;
  const size_t total = size_t(ofm_depth) * size_t(kernel_w * kernel_h) * size_t(ifm_depth);
  const bool fwd = u85 != nullptr && (C0(kWeightFormat) & 1) != 0;
  if (u85 != nullptr && ((C0(kWeightFormat) >> 4) & 1)) {
    return Status::Failure(FaultKind::kUnsupported, "sparse weights not supported");
  }
  Status status;
  auto* out = static_cast<int16_t*>(arena_.Take(total * 2, "weights", &status));
  if (out == nullptr) return status;
  memset(out, 0, total * 2);
  const size_t scratch_size = u85 != nullptr ? U85WeightStreamsScratchBytes(*u85, fwd)
                                             : U55WeightStreamsScratchBytes(*u55, config_.cores);
  if (scratch_size == 0) return Status::Error("weights cannot split over %d cores", config_.cores);
  void* scratch = arena_.Take(scratch_size, "weight streams", &status);
  if (scratch == nullptr) return status;
  NPU_RETURN_IF_ERROR(
      u85 != nullptr
          ? DecodeU85WeightStreams(*u85, fwd, streams, out, scratch, scratch_size)
          : DecodeU55WeightStreams(*u55, config_.cores, streams, out, scratch, scratch_size));
  *weights = out;
  return Status::Ok();
}

Status Machine::LoadWeights(bool depthwise, int ofm_depth, int ifm_depth, int16_t** weights) {
  if (U55()) return LoadWeightsU55(depthwise, ofm_depth, ifm_depth, weights);
  const uint16_t stride = C0(kKernelStride);
  U85WeightLayout layout;
  layout.ofm_depth = ofm_depth;
  layout.ifm_depth = depthwise ? 1 : ifm_depth;
  layout.stride_x = (((stride >> 6) & 1) << 1 | (stride & 1)) + 1;
  layout.stride_y = (((stride >> 9) & 1) << 1 | ((stride >> 1) & 1)) + 1;
  layout.dilation_x = ((stride >> 3) & 1) + 1;
  layout.dilation_y = ((stride >> 4) & 1) + 1;
  // KERNEL_WIDTH/HEIGHT hold the dilated extent; weights cover the taps.
  layout.kernel_w = C0(kKernelWidthM1) / layout.dilation_x + 1;
  layout.kernel_h = C0(kKernelHeightM1) / layout.dilation_y + 1;
  layout.ofm_block_depth = C0(kOfmBlkDepthM1) + 1;
  layout.ifm_bits = 8 * ElementBytes((C0(kIfmPrecision) >> 2) & 3);
  layout.macs = config_.macs;
  layout.cores = config_.cores;
  // Microblock (ACC_FORMAT bits 10:8) gives the OFM microblock depth, from
  // the configuration's table (configs.cc).
  const int microblock = (C0(kAccFormat) >> 8) & 7;
  layout.ofm_ublock_depth = U85MicroblockDepth(config_.macs, microblock);
  if (layout.ofm_ublock_depth == 0) {
    return Status::Error("microblock %d not valid for Ethos-U85-%d", microblock, config_.macs);
  }
  layout.traversal = depthwise ? U85Traversal::kDepthwise
                     : ((stride >> 2) & 1) ? U85Traversal::kPartKernelFirst
                                           : U85Traversal::kDepthFirst;
  if (layout.cores > 1) return LoadWeightStreams(&layout, nullptr, weights);
  if (Address(kWeight1Length) != 0 || Address(kWeight2Length) != 0 ||
      Address(kWeight3Length) != 0) {
    return Status::Failure(FaultKind::kUnsupported, "multiple weight streams not supported on one core");
  }
  const int kernel_elements = layout.kernel_w * layout.kernel_h;
  const size_t total = size_t(ofm_depth) * size_t(kernel_elements) * size_t(layout.ifm_depth);
  Status status;
  auto* out = static_cast<int16_t*>(arena_.Take(total * 2, "weights", &status));
  if (out == nullptr) return status;
  memset(out, 0, total * 2);

  const int region_index = C0(kWeightRegion) & 7;
  const Region& region = regions_[region_index];
  const uint64_t base = Address(kWeightBase);
  const uint64_t length = Address(kWeightLength);
  if (region.read == nullptr || base > region.size || length > region.size - base) {
    return Status::Failure(FaultKind::kBus, "weight stream outside region %d", region_index);
  }
  const uint8_t* data = region.read + base;
  // WEIGHT_FORMAT: bit 0 FWD (else SWD), bit 4 sparsity 2:4.
  layout.sparse = ((C0(kWeightFormat) >> 4) & 1) != 0;
  if (layout.sparse && (depthwise || layout.ifm_bits != 8)) {
    return Status::Failure(FaultKind::kUnsupported, "sparse weights for depthwise or 16-bit IFMs not supported");
  }
  bool padding_nonzero = false;
  auto place = [&](int o, int ky, int kx, int i, int16_t w) {
    if (o < 0) {
      padding_nonzero |= w != 0;
    } else {
      out[((size_t(o) * layout.kernel_h + size_t(ky)) * layout.kernel_w + size_t(kx)) *
              layout.ifm_depth + size_t(i)] = w;
    }
  };
  if ((C0(kWeightFormat) & 1) != 0) {  // FWD: decode while walking the layout
    FwdDecoder decoder(data, size_t(length));
    ForEachU85Weight(layout, [&](int o, int ky, int kx, int i) {
      place(o, ky, kx, i, decoder.Next());
      return !decoder.overrun();
    });
    if (decoder.overrun()) return Status::Error("FWD weight stream shorter than the kernel");
  } else {
    const size_t stream_count = ForEachU85Weight(layout, [](int, int, int, int) { return true; });
    auto* stream = static_cast<int16_t*>(arena_.Take(stream_count * 2, "weight stream", &status));
    if (stream == nullptr) return status;
    void* scratch = arena_.Take(SwdScratchBytes(), "SWD decoder", &status);
    if (scratch == nullptr) return status;
    size_t decoded = 0;
    NPU_RETURN_IF_ERROR(
        DecodeSwdWeights(data, size_t(length), stream, stream_count, &decoded, scratch));
    if (decoded != stream_count) {
      return Status::Error("SWD stream has %u weights, kernel needs %u", unsigned(decoded),
                           unsigned(stream_count));
    }
    size_t at = 0;
    ForEachU85Weight(layout, [&](int o, int ky, int kx, int i) {
      place(o, ky, kx, i, stream[at++]);
      return true;
    });
  }
  if (padding_nonzero) return Status::Error("weight stream has non-zero padding weights");
  *weights = out;
  return Status::Ok();
}

struct Window {
  int kernel_w, kernel_h, stride_x, stride_y, dilation_x, dilation_y;
  int pad_top, pad_left, pad_bottom, pad_right;
  int ifm_w, ifm_h;
};

Window MakeWindow(const Registers& r, const FeatureMap& ofm) {
  Window w;
  const uint16_t stride = r.cmd0[kKernelStride];
  w.stride_x = (((stride >> 6) & 1) << 1 | (stride & 1)) + 1;
  w.stride_y = (((stride >> 9) & 1) << 1 | ((stride >> 1) & 1)) + 1;
  w.dilation_x = ((stride >> 3) & 1) + 1;
  w.dilation_y = ((stride >> 4) & 1) + 1;
  // The kernel registers hold the dilated extent; count taps.
  w.kernel_w = r.cmd0[kKernelWidthM1] / w.dilation_x + 1;
  w.kernel_h = r.cmd0[kKernelHeightM1] / w.dilation_y + 1;
  w.pad_top = r.cmd0[kIfmPadTop];
  w.pad_left = r.cmd0[kIfmPadLeft];
  w.pad_bottom = r.cmd0[kIfmPadBottom];
  w.pad_right = r.cmd0[kIfmPadRight];
  // There is no IFM width/height register beyond the tiles: the input
  // extent follows from the OFM, the kernel and the padding.
  w.ifm_w = (ofm.width - 1) * w.stride_x + (w.kernel_w - 1) * w.dilation_x + 1 - w.pad_left -
            w.pad_right;
  w.ifm_h = (ofm.height - 1) * w.stride_y + (w.kernel_h - 1) * w.dilation_y + 1 - w.pad_top -
            w.pad_bottom;
  return w;
}

// ACC_FORMAT (U85): bits 1:0 format (I32, I48), 5:4 input (RESET, KEEP,
// IFM2), 6 output disable, 10:8 microblock. `ifm2_input`: the operation
// loads its accumulators from IFM2 (the only use of ACC_INPUT_IFM2 here).
Status Machine::CheckAccumulatorAndActivation(const FeatureMap& ofm, bool ifm2_input) {
  if (U55()) {
    // acc_format 1 (40-bit, int16 activations) keeps the 32-bit case's
    // scale record (int40 bias already); only FP16 is rejected.
    if ((C0(kAccFormat) & 3) > 1) return Status::Failure(FaultKind::kUnsupported, "U55 FP16 accumulators not supported");
    return PrepareActivation(ofm);
  }
  const uint16_t acc = C0(kAccFormat);
  const int input = (acc >> 4) & 3;
  if (input == 1 || ((acc >> 6) & 1) != 0) {
    return Status::Failure(FaultKind::kUnsupported, "accumulator chaining not supported");
  }
  if (input == 3) return Status::Error("bad accumulator input %d", input);
  if ((input == 2) != ifm2_input) {
    return Status::Error(ifm2_input ? "pooling mode NONE needs ACC_INPUT_IFM2"
                                    : "accumulator input from IFM2 not supported here");
  }
  // Format 1 (48-bit, int16 activations): see LoadScales for its records.
  if ((acc & 3) > 1) return Status::Failure(FaultKind::kUnsupported, "accumulator format %d not supported", acc & 3);
  return PrepareActivation(ofm);
}

// ACTIVATION: U85 bits 4:0 function, 7:5 table, 12 clip range (1: none);
// U55 bits 4:0 function (0 clip only, 3 TANH, 4 SIGMOID, 16+k TABLE_k),
// 14:12 clip range (0 ACTIVATION_MIN/MAX, 2/3/5 force uint8/int8/int16).
Status Machine::PrepareActivation(const FeatureMap& ofm) {
  ActivationStage& a = activation_;
  a = ActivationStage();
  const uint16_t activation = C0(kActivation);
  const int function = activation & 0x1F;
  a.clip_min = int16_t(C0(kActivationMin));
  a.clip_max = int16_t(C0(kActivationMax));
  int table_bytes = 256;
  int table_offset = 0;
  if (U55()) {
    // GUESS (undocumented): with clip range OFM_PRECISION the 16-bit
    // ACTIVATION_MIN/MAX do not apply to 32-bit OFMs; Vela sets them to
    // -32768..32767 there while its 32-bit intermediates (U55 softmax's
    // rescale chain) need the full range. Pinned by u55_softmax.
    const int range = (activation >> 12) & 7;
    a.clip = range != 0 || ofm.element_bytes != 4;
    if (range == 2 || range == 3 || range == 5) {
      const int64_t lo = range == 2 ? 0 : range == 3 ? -128 : -32768;
      const int64_t hi = range == 2 ? 255 : range == 3 ? 127 : 32767;
      a.clip_min = a.clip_min > lo ? a.clip_min : lo;
      a.clip_max = a.clip_max < hi ? a.clip_max : hi;
    } else if (range != 0) {
      return Status::Error("U55 activation clip range %d not valid", range);
    }
    if (function == 0) return Status::Ok();
    if (function < 16 || function > 23) {
      return Status::Failure(FaultKind::kUnsupported, "U55 activation function %d not supported", function);
    }
    // TABLE_k: the table starts at slot k (256 bytes) of the LUT banks
    // (Vela's DMA destination); its entries are as wide as the OFM.
    // 16-bit OFMs would need the interpolating 16-bit table: not modelled.
    if (ofm.element_bytes == 2) return Status::Failure(FaultKind::kUnsupported, "U55 16-bit LUT not supported");
    a.entry_bytes = ofm.element_bytes;
    a.entry_signed = ofm.is_signed;
    a.index_signed = ofm.is_signed || ofm.element_bytes != 1;
    table_bytes = 256 * a.entry_bytes;
    table_offset = (function - 16) * 256;
  } else {
    a.clip = ((activation >> 12) & 1) == 0;
    const int table = (activation >> 5) & 7;
    switch (function) {
      case 0:
        return Status::Ok();
      case 1:  // LUT_U8_U8
        a.entry_signed = false;
        a.index_signed = false;
        break;
      case 4:  // LUT_S8_S8
        break;
      case 5:  // LUT_S8_S16
        a.entry_bytes = 2;
        break;
      case 7:  // LUT_S8_S32
        a.entry_bytes = 4;
        break;
      default:  // 16-bit interpolating tables, TANH, SIGMOID
        return Status::Failure(FaultKind::kUnsupported, "activation function %d (16-bit LUT) not supported", function);
    }
    // The table field counts tables of this size (Vela divides its 256-byte
    // slot index by the table size in slots).
    table_bytes = 256 * a.entry_bytes;
    table_offset = table * table_bytes;
    if (ofm.element_bytes != a.entry_bytes) {
      return Status::Error("LUT output of %d bytes for an OFM of %d bytes", a.entry_bytes,
                           ofm.element_bytes);
    }
  }
  if (table_offset + table_bytes > kLutMemoryBytes) {
    return Status::Error("LUT of %d bytes at %d outside LUT memory", table_bytes, table_offset);
  }
  a.lut = r_.lut + table_offset;
  return Status::Ok();
}

// Where a DMA to internal memory lands in LUT memory. U85: LUT RAM
// addresses 0..2047. U55: SHRAM addresses; GUESS (undocumented): the LUT
// occupies the last two 1 KiB banks (Vela's reserved end banks, its LUT
// DMA destination) and TABLE_k reads slot k there. Pinned by the u55 LUT
// cases. U55 configurations with 16 banks (32/64 MACs) place LUTs
// differently per operation and are not modelled.
Status Machine::LutDestination(uint64_t address, uint64_t length, uint8_t** out) {
  uint64_t base = 0;
  if (U55()) {
    const int banks = config_.macs == 128 ? 24 : config_.macs == 256 ? 48 : 0;
    if (banks == 0) return Status::Failure(FaultKind::kUnsupported, "LUT DMA on a %d-MAC Ethos-U55 not supported", config_.macs);
    base = uint64_t(banks - 2) * 1024;
  }
  if (address < base || address - base > uint64_t(kLutMemoryBytes) ||
      length > uint64_t(kLutMemoryBytes) - (address - base)) {
    return Status::Error("DMA to internal memory outside LUT memory");
  }
  *out = r_.lut + (address - base);
  return Status::Ok();
}

Status Machine::Convolution(bool depthwise) {
  FeatureMap ifm, ofm;
  NPU_RETURN_IF_ERROR(Ifm(false, &ifm));
  NPU_RETURN_IF_ERROR(Ofm(&ofm));
  NPU_RETURN_IF_ERROR(CheckAccumulatorAndActivation(ofm));
  if ((C0(kIfmUpscale) & 3) != 0) return Status::Failure(FaultKind::kUnsupported, "IFM upscale not supported");
  if (depthwise && ifm.depth < ofm.depth) return Status::Error("depthwise IFM depth too small");
  const Window w = MakeWindow(r_, ofm);
  const uint64_t ofm_elements = uint64_t(ofm.height) * ofm.width * ofm.depth;
  NPU_RETURN_IF_ERROR(CheckWork(ofm_elements * w.kernel_h * w.kernel_w *
                                (depthwise ? 1 : uint64_t(ifm.depth))));
  int16_t* weights = nullptr;
  ScaleRecord* scales = nullptr;
  NPU_RETURN_IF_ERROR(LoadWeights(depthwise, ofm.depth, ifm.depth, &weights));
  NPU_RETURN_IF_ERROR(LoadScales(ofm.depth, &scales));
  if (!PerChannel()) return Status::Failure(FaultKind::kUnsupported, "global OFM scale on convolution not supported");
  Scale scale = OfmScale();
  const int cin = depthwise ? 1 : ifm.depth;
  // Gather the receptive field of one output position once (IFM values
  // minus zero point, padding as 0), then one dot product per channel.
  const int taps = w.kernel_h * w.kernel_w;
  const int channels = depthwise ? ofm.depth : cin;  // IFM channels read per tap
  Status status;
  auto* field = static_cast<int32_t*>(
      arena_.Take(sizeof(int32_t) * size_t(taps) * size_t(channels), "receptive field", &status));
  if (field == nullptr) return status;
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      for (int ky = 0; ky < w.kernel_h; ++ky) {
        const int iy = y * w.stride_y - w.pad_top + ky * w.dilation_y;
        for (int kx = 0; kx < w.kernel_w; ++kx) {
          const int ix = x * w.stride_x - w.pad_left + kx * w.dilation_x;
          int32_t* tap = field + size_t(ky * w.kernel_w + kx) * size_t(channels);
          if (iy < 0 || iy >= w.ifm_h || ix < 0 || ix >= w.ifm_w) {
            for (int i = 0; i < channels; ++i) tap[i] = 0;
          } else {
            NPU_RETURN_IF_ERROR(ifm.ReadChannels(iy, ix, channels, tap));
          }
        }
      }
      for (int o = 0; o < ofm.depth; ++o) {
        // 32-bit accumulation with wrap-around (modular, so no overflow UB);
        // the hardware's accumulators for 8-bit IFMs are 32-bit.
        uint32_t sum = 0;
        if (depthwise) {
          const int16_t* k = weights + size_t(o) * size_t(taps);
          for (int t = 0; t < taps; ++t) {
            sum += uint32_t(field[size_t(t) * size_t(channels) + size_t(o)]) * uint32_t(int32_t(k[t]));
          }
        } else {
          const int16_t* k = weights + size_t(o) * size_t(taps) * size_t(cin);
          const size_t n = size_t(taps) * size_t(cin);
          for (size_t j = 0; j < n; ++j) sum += uint32_t(field[j]) * uint32_t(int32_t(k[j]));
        }
        // Accumulators are 32-bit: wrap like the hardware would.
        // U85: bias joins the 32-bit accumulator; U55: 40-bit bias added.
        const int64_t total = U55() ? int64_t(int32_t(sum)) + scales[o].bias
                                    : int64_t(int32_t(sum + uint32_t(scales[o].bias)));
        scale.scale = scales[o].scale;
        scale.shift = scales[o].shift;
        NPU_RETURN_IF_ERROR(Output(ofm, y, x, o, total, scale));
      }
    }
  }
  stats_->macs += uint64_t(ofm.height) * ofm.width * ofm.depth * w.kernel_h * w.kernel_w * cin;
  return Status::Ok();
}

// POOL with pooling mode NONE and ACC_INPUT_IFM2: Vela's rescale (and copy,
// transpose) of 32-bit tensors. The IFM is a placeholder; the accumulators
// are loaded from IFM2 and go through the output stage. GUESS
// (undocumented): IFM2 minus its zero point is the accumulator value, and
// IFM2_BROADCAST (which Vela writes only for elementwise operations) does
// not apply. Pinned by u85_transformer_block's layer-norm rescales.
Status Machine::NullPool() {
  FeatureMap ifm2, ofm;
  NPU_RETURN_IF_ERROR(Ifm(true, &ifm2));
  NPU_RETURN_IF_ERROR(Ofm(&ofm));
  NPU_RETURN_IF_ERROR(CheckAccumulatorAndActivation(ofm, true));
  if (C0(kKernelWidthM1) != 0 || C0(kKernelHeightM1) != 0) {
    return Status::Error("pooling mode NONE with a kernel larger than 1x1");
  }
  NPU_RETURN_IF_ERROR(CheckWork(uint64_t(ofm.height) * ofm.width * ofm.depth));
  ScaleRecord* scales = nullptr;
  if (PerChannel()) NPU_RETURN_IF_ERROR(LoadScales(ofm.depth, &scales));
  Scale scale = OfmScale();
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      for (int c = 0; c < ofm.depth; ++c) {
        int32_t v = 0;
        NPU_RETURN_IF_ERROR(ifm2.Read(y, x, c, &v));
        int64_t acc = int64_t(v) - ifm2.zero_point;
        if (scales != nullptr) {
          scale.scale = scales[c].scale;
          scale.shift = scales[c].shift;
          acc += scales[c].bias;
        }
        NPU_RETURN_IF_ERROR(Output(ofm, y, x, c, int64_t(int32_t(uint32_t(acc))), scale));
      }
    }
  }
  return Status::Ok();
}

// CONV with weights_ifm2: a matrix multiply whose right-hand side comes
// from IFM2 (Vela's MatMul). Vela reshapes the operands to IFM [H, M, K],
// IFM2 [H, N, K] (it transposes the right-hand matrix first) and OFM
// [H, M, N], and uses the global OFM scale with no bias:
//   OFM[h, m, n] = scale(sum_k (IFM[h, m, k] - zp) * (IFM2[h, n, k] - zp2)).
// GUESS (undocumented): IFM2 row h pairs with OFM row h, and the sum wraps
// at 32 bits like a convolution's. Pinned by u85_matmul, u85_bmm and
// u85_transformer_block.
Status Machine::MatMul() {
  FeatureMap ifm, ifm2, ofm;
  NPU_RETURN_IF_ERROR(Ifm(false, &ifm));
  NPU_RETURN_IF_ERROR(Ifm(true, &ifm2));
  NPU_RETURN_IF_ERROR(Ofm(&ofm));
  NPU_RETURN_IF_ERROR(CheckAccumulatorAndActivation(ofm));
  if (U55()) return Status::Error("U55 has no matmul with weights from IFM2");
  if (C0(kKernelWidthM1) != 0 || C0(kKernelHeightM1) != 0 || (C0(kKernelStride) & 0x25B) != 0) {
    return Status::Error("matmul with a kernel larger than 1x1 or strided");
  }
  if (PerChannel()) return Status::Failure(FaultKind::kUnsupported, "matmul with per-channel scales not supported");
  const int depth = ifm.depth;
  NPU_RETURN_IF_ERROR(CheckWork(uint64_t(ofm.height) * ofm.width * ofm.depth * uint64_t(depth)));
  Status status;
  auto* row = static_cast<int32_t*>(arena_.Take(sizeof(int32_t) * size_t(depth), "matmul row", &status));
  if (row == nullptr) return status;
  auto* column = static_cast<int32_t*>(arena_.Take(sizeof(int32_t) * size_t(depth), "matmul column", &status));
  if (column == nullptr) return status;
  const Scale scale = OfmScale();
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      NPU_RETURN_IF_ERROR(ifm.ReadChannels(y, x, depth, row));
      for (int n = 0; n < ofm.depth; ++n) {
        NPU_RETURN_IF_ERROR(ifm2.ReadChannels(y, n, depth, column));
        uint32_t sum = 0;
        for (int k = 0; k < depth; ++k) sum += uint32_t(row[k]) * uint32_t(column[k]);
        NPU_RETURN_IF_ERROR(Output(ofm, y, x, n, int64_t(int32_t(sum)), scale));
      }
    }
  }
  stats_->macs += uint64_t(ofm.height) * ofm.width * ofm.depth * uint64_t(depth);
  return Status::Ok();
}

Status Machine::Pooling(int mode) {
  if (mode == 4 && !U55()) return NullPool();
  FeatureMap ifm, ofm;
  NPU_RETURN_IF_ERROR(Ifm(false, &ifm));
  NPU_RETURN_IF_ERROR(Ofm(&ofm));
  if ((C0(kIfmUpscale) & 3) != 0) return Status::Failure(FaultKind::kUnsupported, "IFM upscale not supported");
  NPU_RETURN_IF_ERROR(CheckAccumulatorAndActivation(ofm));
  enum { kMax = 0, kAverage = 1, kReduceSum = 2, kSum = 3, kMin = 5 };
  if (mode != kMax && mode != kAverage && mode != kSum && mode != kMin && mode != kReduceSum) {
    return Status::Failure(FaultKind::kUnsupported, "pooling mode %d not supported", mode);
  }
  const Window w = MakeWindow(r_, ofm);
  NPU_RETURN_IF_ERROR(CheckWork(uint64_t(ofm.height) * ofm.width * ofm.depth * w.kernel_h *
                                w.kernel_w * (mode == kReduceSum ? uint64_t(ifm.depth) : 1)));
  ScaleRecord* scales = nullptr;
  if (PerChannel()) NPU_RETURN_IF_ERROR(LoadScales(ofm.depth, &scales));
  Scale scale = OfmScale();
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      for (int c = 0; c < ofm.depth; ++c) {
        int64_t sum = 0;
        int64_t best = 0;
        int count = 0;
        for (int ky = 0; ky < w.kernel_h; ++ky) {
          const int iy = y * w.stride_y - w.pad_top + ky;
          if (iy < 0 || iy >= w.ifm_h) continue;
          for (int kx = 0; kx < w.kernel_w; ++kx) {
            const int ix = x * w.stride_x - w.pad_left + kx;
            if (ix < 0 || ix >= w.ifm_w) continue;
            if (mode == kReduceSum) {
              for (int i = 0; i < ifm.depth; ++i) {
                int32_t v = 0;
                NPU_RETURN_IF_ERROR(ifm.Read(iy, ix, i, &v));
                sum += v - ifm.zero_point;
              }
              ++count;
              continue;
            }
            int32_t v = 0;
            NPU_RETURN_IF_ERROR(ifm.Read(iy, ix, c, &v));
            const int64_t value = int64_t(v) - ifm.zero_point;
            if (count == 0 || (mode == kMax && value > best) || (mode == kMin && value < best)) {
              best = value;
            }
            sum += value;
            ++count;
          }
        }
        int64_t result = sum;
        if (mode == kMax || mode == kMin) {
          result = best;
        } else if (mode == kAverage && !(scale.scale == 1 && scale.shift == 0) && U55()) {
          // GUESS (undocumented): U55 AVERAGE with a non-unit OFM scale sums
          // the window; Vela then folds 1/N into OFM_SCALE (2x2: scale
          // 2^31+1, shift 33; transposes: 1x1, shift 31). With a unit scale
          // it divides by the valid count like U85. Pinned by u55_avgpool,
          // u55_avgpool_pad.
          result = sum;
        } else if (mode == kAverage) {
          // GUESS (undocumented): the divisor counts only elements inside
          // the IFM, rounding half away from zero. Pinned by the avgpool
          // test against the TOSA reference model.
          if (count == 0) return Status::Error("average pool window with no elements");
          result = sum >= 0 ? (sum + count / 2) / count : -((-sum + count / 2) / count);
        }
        if (scales != nullptr) {
          scale.scale = scales[c].scale;
          scale.shift = scales[c].shift;
          result += scales[c].bias;
        }
        NPU_RETURN_IF_ERROR(Output(ofm, y, x, c, result, scale));
      }
    }
  }
  return Status::Ok();
}

// Broadcast modes (bit set: that axis reads index 0): H=1, W=2, C=4;
// SCALAR (8) reads the OP_SCALAR register instead of memory.
Status ReadBroadcast(const FeatureMap& fm, int y, int x, int c, int32_t* v) {
  if (fm.broadcast & 1) y = 0;
  if (fm.broadcast & 2) x = 0;
  if (fm.broadcast & 4) c = 0;
  return fm.Read(y, x, c, v);
}

// The two elementwise operands at (y, x, c) minus their zero points; IFM2 is
// `scalar_value` when the operation takes a scalar.
Status ReadOperands(const FeatureMap& a, const FeatureMap& b, bool scalar, int32_t scalar_value,
                    int y, int x, int c, int64_t* ia, int64_t* ib) {
  int32_t va = 0, vb = scalar_value;
  NPU_RETURN_IF_ERROR(ReadBroadcast(a, y, x, c, &va));
  if (!scalar) NPU_RETURN_IF_ERROR(ReadBroadcast(b, y, x, c, &vb));
  *ia = int64_t(va) - a.zero_point;
  *ib = int64_t(vb) - b.zero_point;
  return Status::Ok();
}

Status Machine::Elementwise(int mode) {
  enum { kMul = 0, kAdd = 1, kSub = 2, kMin = 3, kMax = 4 };
  if (mode > kMax) return Status::Failure(FaultKind::kUnsupported, "elementwise mode %d not supported", mode);
  FeatureMap a, b, ofm;
  NPU_RETURN_IF_ERROR(Ifm(false, &a));
  NPU_RETURN_IF_ERROR(Ifm(true, &b));
  NPU_RETURN_IF_ERROR(Ofm(&ofm));
  if (U55()) return ElementwiseU55(mode);
  NPU_RETURN_IF_ERROR(PrepareActivation(ofm));
  NPU_RETURN_IF_ERROR(CheckWork(uint64_t(ofm.height) * ofm.width * ofm.depth));
  const bool scalar = b.broadcast == 8;
  const int32_t scalar_value = int32_t(r_.cmd1_payload[kOpScalar]);
  const Scale sa = IfmScale(kIfmScale), sb = IfmScale(kIfm2Scale);
  const Scale so = OfmScale();
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      for (int c = 0; c < ofm.depth; ++c) {
        int64_t ia = 0, ib = 0;
        NPU_RETURN_IF_ERROR(ReadOperands(a, b, scalar, scalar_value, y, x, c, &ia, &ib));
        int64_t result = 0;
        if (mode == kMul) {
          result = ia * ib;
        } else {
          ia = ScaleAndRound(ia, sa.scale, sa.shift, sa.round);
          ib = ScaleAndRound(ib, sb.scale, sb.shift, sb.round);
          if (mode == kAdd) result = ia + ib;
          if (mode == kSub) result = ia - ib;
          if (mode == kMin) result = ia < ib ? ia : ib;
          if (mode == kMax) result = ia > ib ? ia : ib;
        }
        result = int64_t(int32_t(uint32_t(result)));
        NPU_RETURN_IF_ERROR(Output(ofm, y, x, c, result, so));
      }
    }
  }
  return Status::Ok();
}

// Ethos-U55 elementwise. Operand A is the IFM and B the IFM2 unless
// IFM2_BROADCAST.operand_order (bit 6) swaps them. ADD/SUB pre-scaling
// follows IFM_PRECISION.scale_mode:
//   OPA_OPB_16: A * OPA_SCALE, B * OPB_SCALE (integer scales, no shift);
//   OPA_32 / OPB_32: that operand * scale >> shift (OPA_SCALE register,
//   IFM round mode); GUESS (undocumented): the other operand is multiplied
//   by 2^19 for 8-bit inputs, the fixed pre-shift of Vela's 8-bit ADD
//   scaling (its 16-bit OPB_SCALE field cannot hold it). Pinned by u55_add.
// MUL multiplies (x - zp) operands; MIN/MAX compare them unscaled.
Status Machine::ElementwiseU55(int mode) {
  enum { kMul = 0, kAdd = 1, kSub = 2, kMin = 3, kMax = 4 };
  if (mode > kMax) return Status::Failure(FaultKind::kUnsupported, "elementwise mode %d not supported", mode);
  FeatureMap a, b, ofm;
  NPU_RETURN_IF_ERROR(Ifm(false, &a));
  NPU_RETURN_IF_ERROR(Ifm(true, &b));
  NPU_RETURN_IF_ERROR(Ofm(&ofm));
  NPU_RETURN_IF_ERROR(CheckAccumulatorAndActivation(ofm));
  NPU_RETURN_IF_ERROR(CheckWork(uint64_t(ofm.height) * ofm.width * ofm.depth));
  const uint16_t broadcast = C0(kIfm2Broadcast);
  b.broadcast = broadcast & 7;
  const bool scalar = (broadcast >> 7) & 1;
  const bool swapped = (broadcast >> 6) & 1;
  const int32_t scalar_value = b.is_signed ? int32_t(int16_t(C0(385))) : int32_t(C0(385));
  const int scale_mode = (C0(kIfmPrecision) >> 8) & 3;
  if (scale_mode == 3) return Status::Error("bad U55 IFM scale mode");
  const int ifm_round = (C0(kIfmPrecision) >> 14) & 3;
  const RoundMode round = ifm_round == 0 ? RoundMode::kDoubleSymmetric
                          : ifm_round == 1 ? RoundMode::kTruncateToZero : RoundMode::kNatural;
  const int64_t opa_scale = r_.cmd1_payload[kIfmScale];
  const int opa_shift = r_.cmd1_param[kIfmScale] & 0x3F;
  const int64_t opb_scale = r_.cmd1_payload[kIfm2Scale] & 0xFFFF;
  if (scale_mode != 0 && a.element_bytes != 1 && (mode == kAdd || mode == kSub)) {
    return Status::Failure(FaultKind::kUnsupported, "U55 16/32-bit ADD/SUB with a 32-bit operand scale not supported");
  }
  const int64_t implicit = int64_t(1) << 19;
  const Scale so = OfmScale();
  for (int y = 0; y < ofm.height; ++y) {
    for (int x = 0; x < ofm.width; ++x) {
      for (int c = 0; c < ofm.depth; ++c) {
        int64_t opa = 0, opb = 0;
        NPU_RETURN_IF_ERROR(ReadOperands(a, b, scalar, scalar_value, y, x, c, &opa, &opb));
        if (swapped) {
          const int64_t t = opa;
          opa = opb;
          opb = t;
        }
        int64_t result = 0;
        if (mode == kAdd || mode == kSub) {
          if (scale_mode == 0) {
            opa *= opa_scale;
            opb *= opb_scale;
          } else if (scale_mode == 1) {
            opa = ScaleAndRound(opa, opa_scale, opa_shift, round);
            opb *= implicit;
          } else {
            opb = ScaleAndRound(opb, opa_scale, opa_shift, round);
            opa *= implicit;
          }
          result = mode == kAdd ? opa + opb : opa - opb;
        } else if (mode == kMul) {
          result = opa * opb;
        } else {
          result = mode == kMin ? (opa < opb ? opa : opb) : (opa > opb ? opa : opb);
        }
        // MUL keeps the full product: Vela implements 32-bit RESCALE as
        // MUL by the multiplier with OFM shift (pinned by u55_maximum,
        // whose TOSA graph rescales int32 values this way).
        if (mode != kMul) result = int64_t(int32_t(uint32_t(result)));
        NPU_RETURN_IF_ERROR(Output(ofm, y, x, c, result, so));
      }
    }
  }
  return Status::Ok();
}

Status Machine::Dma() {
  const uint16_t src = C0(kDma0SrcRegion), dst = C0(kDma0DstRegion);
  if (((src >> 9) & 3) != 0) return Status::Failure(FaultKind::kUnsupported, "strided DMA not supported");
  // U65 puts its 2-D/3-D DMA mode in the destination region's bits 10:9.
  if (U55() && ((dst >> 9) & 3) != 0) return Status::Failure(FaultKind::kUnsupported, "2-D/3-D DMA not supported");
  if (((src >> 11) & 1) || ((dst >> 11) & 1)) return Status::Failure(FaultKind::kUnsupported, "indexed DMA not supported");
  // region_mode (bit 8): 1 addresses the NPU's internal memory (LUTs).
  if ((src >> 8) & 1) return Status::Failure(FaultKind::kUnsupported, "DMA from internal memory not supported");
  const Region& from = regions_[src & 7];
  const Region& to = regions_[dst & 7];
  const uint64_t src_addr = Address(kDma0Src), dst_addr = Address(kDma0Dst);
  const uint64_t length = Address(kDma0Len);
  if (from.read == nullptr || src_addr > from.size || length > from.size - src_addr) {
    return Status::Failure(FaultKind::kBus, "DMA source outside region %d", src & 7);
  }
  uint8_t* target = nullptr;
  if ((dst >> 8) & 1) {
    NPU_RETURN_IF_ERROR(LutDestination(dst_addr, length, &target));
  } else {
    if (to.write == nullptr || dst_addr > to.size || length > to.size - dst_addr) {
      return Status::Failure(FaultKind::kBus, "DMA destination outside writable region %d", dst & 7);
    }
    target = to.write + dst_addr;
  }
  NPU_RETURN_IF_ERROR(CountWork(length));
  memmove(target, from.read + src_addr, size_t(length));
  ++stats_->dma_transfers;
  stats_->dma_bytes += length;
  return Status::Ok();
}

Status Machine::Execute(uint16_t opcode, uint16_t param, uint32_t command_offset) {
  const size_t mark = arena_.used();
  Status status;
  switch (opcode) {
    case kOpConv:
      status = (param & 1) ? MatMul() : Convolution(false);
      break;
    case kOpDepthwise:
      status = Convolution(true);
      break;
    case kOpPool:
      status = Pooling(param & 7);
      break;
    case kOpElementwise:
      status = Elementwise(param & 0x3F);
      break;
    case kOpResize:
      return Status::Failure(FaultKind::kUnsupported, "resize not supported");
    default:
      return Status::Ok();
  }
  arena_.Reset(mark);
  if (uint8_t* chain = arena_.SettleTop()) {
    chain_.read = chain;
    chain_.write = chain;
    chain_.size = chain_next_.size;
    for (int k = 0; k < 3; ++k) chain_dims_[k] = chain_next_dims_[k];
    chain_next_ = chain_;  // what last_ofm_ (the observer's view) points to
  }
  ++stats_->operations;
  if (status.ok() && observer_ != nullptr && observer_->after_operation != nullptr) {
    observer_->after_operation(observer_->context, command_offset, opcode, last_ofm_);
  }
  return status;
}

Status Machine::Run(const uint32_t* words, size_t count) {
  size_t i = 0;
  Status status = Step(words, count, &i);
  // QREAD: the stream was fetched through the command that stopped or failed.
  stats_->command_bytes = 4 * uint64_t(i < count ? i + 1 : count);
  if (!status.ok()) status.SetCommandOffset(uint32_t(4 * (i < count ? i : count)));
  return status;
}

Status Machine::Step(const uint32_t* words, size_t count, size_t* at) {
  for (size_t& i = *at; i < count; ++i) {
    const uint32_t word = words[i];
    const uint16_t opcode = word & 0x3FF;
    const uint16_t control = (word >> 14) & 3;
    const uint16_t param = uint16_t(word >> 16);
    if (control == 0) {
      const bool u55_only = opcode == 269 || opcode == 291 || opcode == 301 || opcode == 385 ||
                            opcode == 397;  // IB_END, PARALLEL_MODE, AB_START, IFM2_SCALAR, IB_START
      if (!(IsKnownCmd0(opcode) || (U55() && u55_only))) {
        return Status::Error("unknown command 0x%03x at word %u", opcode, unsigned(i));
      }
      if (opcode == kOpStop) return Status::Ok();
      if (opcode < 256) {
        Status status = opcode == kOpDmaStart ? Dma() : Execute(opcode, param, uint32_t(4 * i));
        if (!status.ok()) return status.Rephrased("word %u: %s", unsigned(i), status.message());
      } else {
        r_.cmd0[opcode] = param;
      }
    } else if (control == 1) {
      if (i + 1 >= count) return Status::Error("command stream ends inside a command");
      if (!IsKnownCmd1(opcode)) {
        return Status::Error("unknown command 0x%03x (with payload) at word %u", opcode,
                             unsigned(i));
      }
      if (opcode == kOpBranch) return Status::Failure(FaultKind::kUnsupported, "NPU_OP_BRANCH not supported");
      r_.cmd1_param[opcode] = param;
      r_.cmd1_payload[opcode] = words[++i];
    } else {
      return Status::Error("bad control field %u at word %u", control, unsigned(i));
    }
  }
  return Status::Error("command stream has no NPU_OP_STOP");
}

}  // namespace
}  // namespace u85

Status RunCommandStream(const NpuConfig& config, const uint32_t* words, size_t num_words,
                        const Region (&regions)[kNumRegions], Workspace workspace,
                        RunStats* stats, const RunLimits& limits,
                        const OperationObserver* observer) {
  if (ConfigCores(config) == 0 || ConfigCores(config) != config.cores) {
    return Status::Failure(FaultKind::kUnsupported, "Ethos-U configuration with %d MACs on %d cores not supported",
                         config.macs, config.cores);
  }
  if (words == nullptr && num_words != 0) return Status::Error("null command stream");
  RunStats local;
  if (stats == nullptr) stats = &local;
  u85::Arena arena(workspace.data, workspace.size);
  Status status;
  auto* regs = static_cast<u85::Registers*>(
      arena.Take(sizeof(u85::Registers), "register file", &status));
  if (regs == nullptr) return status;
  memset(regs, 0, sizeof(*regs));
  u85::Machine machine(config, regions, regs, arena, stats, limits, observer);
  return machine.Run(words, num_words);
}

}  // namespace npu
