#include "sim/npu/weights/weight_streams.h"

#include <cstddef>

#include "sim/npu/stream_error.h"
#include "sim/npu/weights/weight_codec.h"

namespace ethosu_sdk::npu {
namespace {

// Puts one decoded weight at its OHWI position; padding must be zero.
struct Placer {
  int16_t* out;
  int kernel_h, kernel_w, ifm_depth;
  bool padding_nonzero = false;
  void Place(int o, int ky, int kx, int i, int16_t w) {
    if (o < 0) {
      padding_nonzero |= w != 0;
      return;
    }
    out[((size_t(o) * size_t(kernel_h) + size_t(ky)) * size_t(kernel_w) + size_t(kx)) *
            size_t(ifm_depth) +
        size_t(i)] = w;
  }
};

size_t CountU85(const U85WeightLayout& layout) {
  return ForEachU85Weight(layout, [](int, int, int, int) { return true; });
}

U85WeightLayout U85Stream(const U85WeightLayout& layout, int stream) {
  U85WeightLayout s = layout;
  s.stream = stream;
  return s;
}

// Weights of each core's order between two switches in a multi-core FWD
// stream (Vela's EthosU85WeightOrderingFwd block size).
int U85FwdBlock(const U85WeightLayout& layout) {
  const bool part_kernel = layout.traversal == U85Traversal::kPartKernelFirst;
  const bool ifm16 = layout.ifm_bits == 16;
  const int ifm_ublock = part_kernel && ifm16 ? 8 : U85IfmBlockDepth(layout);
  const int round = part_kernel ? (ifm16 ? 10 : 5) : 1;
  return layout.ofm_ublock_depth * ifm_ublock * round / layout.cores;
}

// The SWD decoder's scratch sits at the aligned end of the caller's scratch.
constexpr size_t kAlign = alignof(std::max_align_t);

void* SwdScratchAtEnd(void* scratch, size_t scratch_size, size_t* weight_capacity) {
  const size_t offset = (scratch_size - SwdScratchBytes()) / kAlign * kAlign;
  *weight_capacity = offset / sizeof(int16_t);
  return static_cast<uint8_t*>(scratch) + offset;
}

bool ValidCores(int cores) { return cores >= 1 && cores <= kMaxWeightStreams; }

// One U55/U65 core's share: OFM channels s, s + cores, ... of the operation.
bool U55Stream(const U55WeightLayout& layout, int cores, int stream, U55WeightLayout* out) {
  *out = layout;
  out->ofm_depth = (layout.ofm_depth + cores - 1 - stream) / cores;
  out->ofm_block_depth = (layout.ofm_block_depth + cores - 1 - stream) / cores;
  return out->ofm_depth == 0 || out->ofm_block_depth > 0;
}

size_t CountU55(const U55WeightLayout& layout) {
  return ForEachU55Weight(layout, [](int, int, int, int) { return true; });
}

}  // namespace

size_t U85WeightStreamsScratchBytes(const U85WeightLayout& layout, bool fwd) {
  if (!ValidCores(layout.cores)) return 0;
  size_t total = 0, largest = 0;
  for (int s = 0; s < layout.cores; ++s) {
    const size_t n = CountU85(U85Stream(layout, s));
    total += n;
    if (n > largest) largest = n;
  }
  return fwd ? total * sizeof(int16_t) : largest * sizeof(int16_t) + kAlign + SwdScratchBytes();
}

Status DecodeU85WeightStreams(const U85WeightLayout& layout, bool fwd,
                              const WeightStream (&streams)[kMaxWeightStreams], int16_t* out,
                              void* scratch, size_t scratch_size) {
  if (!ValidCores(layout.cores)) return StreamError("%d weight streams", layout.cores);
  if (scratch_size < U85WeightStreamsScratchBytes(layout, fwd)) {
    return Status::Error(ErrorCode::kNpuLimit, "weight stream scratch too small");
  }
  auto* decoded = static_cast<int16_t*>(scratch);
  Placer placer{out, layout.kernel_h, layout.kernel_w, layout.ifm_depth};
  if (fwd) {
    // Vela never writes depthwise weights as FWD; the block interleave
    // below is defined for the other traversals only.
    if (layout.traversal == U85Traversal::kDepthwise) {
      return StreamError("FWD weights for a depthwise operation");
    }
    const size_t block = size_t(U85FwdBlock(layout));
    const size_t per_stream = CountU85(layout);
    for (int s = 1; s < layout.cores; ++s) {
      // Every core walks the same loops over its share of each microblock.
      if (CountU85(U85Stream(layout, s)) != per_stream) {
        return StreamError("FWD streams of unequal length");
      }
    }
    if (block == 0 || per_stream % block != 0) {
      return StreamError("FWD stream of %u weights per core is not whole blocks of %u",
                         unsigned(per_stream), unsigned(block));
    }
    const size_t total = per_stream * size_t(layout.cores);
    FwdDecoder decoder(streams[0].data, streams[0].size);
    for (size_t k = 0; k < total; ++k) decoded[k] = decoder.Next();
    if (decoder.overrun()) return StreamError("FWD weight stream shorter than the kernel");
    for (int s = 0; s < layout.cores; ++s) {
      size_t j = 0;
      ForEachU85Weight(U85Stream(layout, s), [&](int o, int ky, int kx, int i) {
        const size_t at =
            (j / block) * block * size_t(layout.cores) + size_t(s) * block + j % block;
        ++j;
        placer.Place(o, ky, kx, i, decoded[at]);
        return true;
      });
    }
  } else {
    size_t capacity = 0;
    void* swd_scratch = SwdScratchAtEnd(scratch, scratch_size, &capacity);
    for (int s = 0; s < layout.cores; ++s) {
      const U85WeightLayout stream_layout = U85Stream(layout, s);
      const size_t needed = CountU85(stream_layout);
      if (needed > capacity)
        return Status::Error(ErrorCode::kNpuLimit, "weight stream scratch too small");
      size_t count = 0;
      ESDK_RETURN_IF_ERROR(
          DecodeSwdWeights(streams[s].data, streams[s].size, decoded, needed, &count, swd_scratch));
      if (count != needed) {
        return StreamError("SWD stream %d has %u weights, kernel needs %u", s, unsigned(count),
                           unsigned(needed));
      }
      size_t j = 0;
      ForEachU85Weight(stream_layout, [&](int o, int ky, int kx, int i) {
        placer.Place(o, ky, kx, i, decoded[j++]);
        return true;
      });
    }
  }
  if (placer.padding_nonzero) return StreamError("weight stream has non-zero padding weights");
  return Status::Ok();
}

size_t U55WeightStreamsScratchBytes(const U55WeightLayout& layout, int cores) {
  if (!ValidCores(cores)) return 0;
  size_t largest = 0;
  for (int s = 0; s < cores; ++s) {
    U55WeightLayout stream_layout;
    if (!U55Stream(layout, cores, s, &stream_layout)) return 0;
    const size_t n = CountU55(stream_layout);
    if (n > largest) largest = n;
  }
  return largest * sizeof(int16_t) + kAlign + SwdScratchBytes();
}

Status DecodeU55WeightStreams(const U55WeightLayout& layout, int cores,
                              const WeightStream (&streams)[kMaxWeightStreams], int16_t* out,
                              void* scratch, size_t scratch_size) {
  if (!ValidCores(cores)) return StreamError("%d weight streams", cores);
  const size_t needed_scratch = U55WeightStreamsScratchBytes(layout, cores);
  if (needed_scratch == 0) return StreamError("OFM block too shallow for %d cores", cores);
  if (scratch_size < needed_scratch) {
    return Status::Error(ErrorCode::kNpuLimit, "weight stream scratch too small");
  }
  auto* decoded = static_cast<int16_t*>(scratch);
  size_t capacity = 0;
  void* swd_scratch = SwdScratchAtEnd(scratch, scratch_size, &capacity);
  Placer placer{out, layout.kernel_h, layout.kernel_w, layout.ifm_depth};
  for (int s = 0; s < cores; ++s) {
    U55WeightLayout stream_layout;
    U55Stream(layout, cores, s, &stream_layout);
    const size_t needed = CountU55(stream_layout);
    // A core with no OFM channels gets no stream (Vela: WEIGHT1_LENGTH 0).
    if (needed == 0) continue;
    if (needed > capacity)
      return Status::Error(ErrorCode::kNpuLimit, "weight stream scratch too small");
    size_t count = 0;
    ESDK_RETURN_IF_ERROR(
        DecodeSwdWeights(streams[s].data, streams[s].size, decoded, needed, &count, swd_scratch));
    if (count != needed) {
      return StreamError("SWD stream %d has %u weights, kernel needs %u", s, unsigned(count),
                         unsigned(needed));
    }
    size_t j = 0;
    ForEachU55Weight(stream_layout, [&](int o, int ky, int kx, int i) {
      placer.Place(o < 0 ? -1 : o * cores + s, ky, kx, i, decoded[j++]);
      return true;
    });
  }
  if (placer.padding_nonzero) return StreamError("weight stream has non-zero padding weights");
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu
