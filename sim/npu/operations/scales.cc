#include "sim/npu/operations/scales.h"

#include "sim/npu/commands/u55_registers.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

uint64_t Le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int k = 0; k < bytes; ++k) v |= uint64_t(p[k]) << (8 * k);
  return v;
}

int64_t SignExtend(uint64_t v, int bits) { return int64_t(v << (64 - bits)) >> (64 - bits); }

}  // namespace

RoundMode U55RoundMode(uint32_t field) {
  return field == u55::kRoundDouble     ? RoundMode::kDoubleSymmetric
         : field == u55::kRoundTruncate ? RoundMode::kTruncateToZero
                                        : RoundMode::kNatural;
}

Scale OfmScale(const RegisterFile& r, bool u55) {
  Scale s;
  s.shift = int(r.Get(kOfmScaleShift));
  if (u55) {
    s.round = U55RoundMode(r.Get(u55::kOfmRound));
    s.scale = r.Payload(kOfmScale);
    return s;
  }
  s.round = RoundMode(r.Get(kOfmScaleRound));
  s.scale = r.Payload(kOfmScale) & kScaleMultiplierMask;
  return s;
}

Scale IfmScale(const RegisterFile& r, bool second) {
  Scale s;
  s.shift = int(r.Get(second ? kIfm2ScaleShift : kIfmScaleShift));
  s.round = r.Get(second ? kIfm2ScaleRound : kIfmScaleRound) ? RoundMode::kNatural
                                                             : RoundMode::kDoubleSymmetric;
  s.scale = r.Payload(second ? kIfm2Scale : kIfmScale) & kScaleMultiplierMask;
  return s;
}

bool PerChannelScales(const RegisterFile& r) { return r.Get(kOfmScaleMode) == 0; }

Status DescribeScales(const NpuConfig& config, const RegisterFile& r,
                      const Region (&regions)[kNumRegions], int ofm_depth, ScaleSource* s) {
  *s = ScaleSource();
  s->u55 = config.product != Product::kEthosU85;
  s->ofm_depth = ofm_depth;
  const int region_index = int(r.Get(kScaleRegionIndex));
  const Region& region = regions[region_index];
  const uint64_t base = r.Address(kScaleBase);
  const uint64_t length = r.Address(kScaleLength);
  // U65-512: core s scales channels s, s + 2, ... from its own stream
  // (SCALE1_BASE/LENGTH). U85 cores share one stream.
  s->streams_used = s->u55 ? config.cores : 1;
  const uint64_t needed = s->stream_bytes();
  if (length < needed) {
    return StreamError("scale stream of %llu bytes too short for %d channels",
                       (unsigned long long)length, ofm_depth);
  }
  if (region.data == nullptr || base > region.size || needed > region.size - base) {
    return Status::Error(ErrorCode::kNpuBusError, "scale stream outside region %d", region_index);
  }
  s->streams[0] = region.data + base;
  if (s->u55) {
    if (s->streams_used == 2) {
      const uint64_t base1 = r.Address(kU65Scale1Base), length1 = r.Address(kU65Scale1Length);
      const uint64_t needed1 = uint64_t(ofm_depth / 2) * kScaleRecordBytes;
      if (length1 < needed1 || base1 > region.size || needed1 > region.size - base1) {
        return Status::Error(ErrorCode::kNpuBusError, "second scale stream outside region %d",
                             region_index);
      }
      s->streams[1] = region.data + base1;
    } else if (s->streams_used != 1) {
      return StreamError("%d scale streams", s->streams_used);
    }
    return Status::Ok();
  }
  s->format = int(r.Get(kAccFormatType));
  if (s->format > 1) {
    return Status::Error(ErrorCode::kNpuUnsupported, "accumulator format %d not supported",
                         s->format);
  }
  return Status::Ok();
}

void DecodeScales(const ScaleSource& s, ScaleRecord* out) {
  for (int c = 0; c < s.ofm_depth; ++c) {
    const uint8_t* p =
        s.streams[c % s.streams_used] + size_t(c / s.streams_used) * kScaleRecordBytes;
    if (s.u55) {
      // int40 bias, uint32 scale, 6-bit shift.
      out[c].bias = SignExtend(Le(p, 5), 40);
      out[c].scale = uint32_t(Le(p + 5, 4));
      out[c].shift = p[9] & 0x3F;
    } else if (s.format == 1) {
      // U85 48-bit accumulators (int16 activations): int48 bias, uint16
      // scale, 6-bit shift, as Vela writes TOSA's 16-bit RESCALE multiplier
      // (observed; pinned by the a16w8 convolution cases).
      out[c].bias = SignExtend(Le(p, 6), 48);
      out[c].scale = uint32_t(Le(p + 6, 2));
      out[c].shift = p[8] & 0x3F;
    } else {
      // U85 32-bit accumulators: int32 bias, 31-bit scale, 6-bit shift.
      out[c].bias = SignExtend(Le(p, 4), 32);
      out[c].scale = uint32_t(Le(p + 4, 4)) & kScaleMultiplierMask;
      out[c].shift = p[8] & 0x3F;
    }
  }
}

}  // namespace ethosu_sdk::npu
