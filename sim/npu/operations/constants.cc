#include "sim/npu/operations/constants.h"

#include <cstring>

#include "sim/npu/operations/scales.h"
#include "sim/npu/weights/content_hash.h"
#include "sim/npu/weights/packed_weights.h"
#include "sim/npu/weights/weight_cache.h"
#include "sim/npu/weights/weight_loader.h"

namespace ethosu_sdk::npu {
namespace {

constexpr size_t kBlockAlign = 64;

size_t AlignUp(size_t n) { return (n + kBlockAlign - 1) & ~(kBlockAlign - 1); }

void HashLayout(const WeightSource& s, ContentHash* h) {
  const int fields[] = {s.u55, s.fwd, s.cores, s.ofm_depth, s.taps, s.ifm_depth};
  h->Add(fields, sizeof(fields));
  if (s.u55) {
    const U55WeightLayout& l = s.u55_layout;
    const int layout[] = {l.ofm_depth,        l.ifm_depth,  l.kernel_h,        l.kernel_w,
                          l.dilation_x,       l.dilation_y, l.ofm_block_depth, l.ofm_ublock_depth,
                          l.ifm_ublock_depth, l.ifm_bits,   int(l.traversal)};
    h->Add(layout, sizeof(layout));
  } else {
    const U85WeightLayout& l = s.u85_layout;
    const int layout[] = {l.ofm_depth,       l.ifm_depth,        l.kernel_h,       l.kernel_w,
                          l.stride_x,        l.stride_y,         l.dilation_x,     l.dilation_y,
                          l.ofm_block_depth, l.ofm_ublock_depth, l.ifm_bits,       l.macs,
                          l.cores,           l.stream,           int(l.traversal), l.sparse};
    h->Add(layout, sizeof(layout));
  }
  for (const WeightStream& stream : s.streams) {
    h->AddValue(uint64_t(stream.size));
    if (stream.data != nullptr) h->Add(stream.data, stream.size);
  }
}

void HashScales(const ScaleSource& s, ContentHash* h) {
  const int fields[] = {s.u55, s.format, s.ofm_depth, s.streams_used};
  h->Add(fields, sizeof(fields));
  for (int k = 0; k < s.streams_used; ++k) h->Add(s.streams[k], s.stream_bytes());
}

}  // namespace

Status LoadConstants(Context& ctx, const ConstantsRequest& request, Operation* op) {
  const int ofm_depth = op->ofm.depth;
  ScaleSource scales;
  WeightSource weights;
  ContentHash hash(uint64_t(op->kind));
  size_t scale_bytes = 0, weight_count = 0;
  PackedWeights packed;
  // Weights first: a bad weight stream is reported before a bad scale stream.
  if (request.weights) {
    ESDK_RETURN_IF_ERROR(DescribeWeights(ctx.config, ctx.regs, ctx.regions, request.depthwise,
                                         ofm_depth, request.ifm_depth, &weights));
    weight_count =
        PackedWeightCount(request.depthwise, ofm_depth, weights.taps, weights.ifm_depth, &packed);
    HashLayout(weights, &hash);
  }
  if (request.scales) {
    ESDK_RETURN_IF_ERROR(DescribeScales(ctx.config, ctx.regs, ctx.regions, ofm_depth, &scales));
    scale_bytes = AlignUp(sizeof(ScaleRecord) * size_t(ofm_depth));
    HashScales(scales, &hash);
  }
  const size_t bytes = scale_bytes + weight_count * sizeof(int16_t);
  const uint64_t key = hash.Digest();
  const uint8_t* block = nullptr;
  if (ctx.cache != nullptr) block = static_cast<const uint8_t*>(ctx.cache->Find(key));
  if (block == nullptr) {
    Status status;
    uint8_t* fresh =
        ctx.cache != nullptr ? static_cast<uint8_t*>(ctx.cache->Reserve(key, bytes)) : nullptr;
    if (fresh == nullptr) fresh = static_cast<uint8_t*>(ctx.arena.Take(bytes, "weights", &status));
    if (fresh == nullptr) return status;
    if (request.scales) DecodeScales(scales, reinterpret_cast<ScaleRecord*>(fresh));
    if (request.weights) {
      // Decode into the canonical order, then pack: in place for
      // convolutions (rows only move up), through the workspace for the
      // depthwise transpose (small).
      auto* out = reinterpret_cast<int16_t*>(fresh + scale_bytes);
      const size_t mark = ctx.arena.used();
      int16_t* canonical = out;
      if (request.depthwise) {
        canonical = ctx.arena.TakeArray<int16_t>(weights.count(), "weights", &status);
        if (canonical == nullptr) return status;
      }
      ESDK_RETURN_IF_ERROR(DecodeWeights(weights, canonical, &ctx.arena));
      PackWeights(request.depthwise, ofm_depth, weights.taps, canonical, packed, out);
      ctx.arena.Reset(mark);
    }
    if (ctx.cache != nullptr) ctx.cache->Commit();
    block = fresh;
  }
  if (request.scales) op->output.per_channel = reinterpret_cast<const ScaleRecord*>(block);
  if (request.weights) {
    packed.data = reinterpret_cast<const int16_t*>(block + scale_bytes);
    op->weights = packed;
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu
