// The weight decoders (weight_codec.h) and the U55/U65 multi-stream order
// (weight_streams.h) against Vela 5.1.0's own encoders: known weights are
// encoded by Vela (sim/tests/npu/weight_vectors: the mlw_codec module, regor's
// SWD and FWD encoders, and mlw_codec's U55 reorder), decoded here and
// compared with the weights they came from.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cc/testing/unit_test.h"
#include "sim/npu/weights/weight_codec.h"
#include "sim/npu/weights/weight_streams.h"
#include "sim/tests/npu/weight_vectors/weight_vectors.h"

namespace npu = ethosu_sdk::npu;

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::Status;

using weight_vectors::CodecVector;
using weight_vectors::LayoutVector;

// The FWD header (256 bits) before the first weight.
constexpr size_t kFwdHeaderBytes = 32;
// Streams are padded to 16 bytes; cutting half of one this long certainly
// cuts encoded weights.
constexpr size_t kMinCutStream = 64;
// OFM and IFM microblock depths the layout vectors were ordered for.
constexpr int kU55MicroblockDepth = 8;

// Index of the first weight that differs, or `count` if none does.
size_t FirstDifference(const int16_t* got, const int16_t* want, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (got[i] != want[i]) {
      printf("  weight %zu: decoded %d, encoded %d\n", i, got[i], want[i]);
      return i;
    }
  }
  return count;
}

// Scratch for the SWD decoder, aligned for its int32 arrays.
std::vector<uint64_t> SwdScratch() {
  return std::vector<uint64_t>((npu::SwdScratchBytes() + 7) / 8);
}

void TestSwd(const CodecVector& v) {
  std::vector<uint64_t> scratch = SwdScratch();
  std::vector<int16_t> out(v.count + 64, int16_t(0x5A5A));
  size_t count = 0;
  Status status =
      npu::DecodeSwdWeights(v.stream, v.size, out.data(), out.size(), &count, scratch.data());
  EXPECT_TRUE(status.ok()) << "SWD stream decodes: " << status.message() << ": " << v.name
                           << " (encoder " << v.encoder << ")";
  EXPECT_EQ(count, v.count) << "SWD stream holds the encoded weight count: " << v.name
                            << " (encoder " << v.encoder << ")";
  EXPECT_TRUE(FirstDifference(out.data(), v.weights, v.count) == v.count)
      << "SWD weights as encoded: " << v.name << " (encoder " << v.encoder << ")";

  // Room for one weight fewer: an error, never a write past the buffer.
  status = npu::DecodeSwdWeights(v.stream, v.size, out.data(), v.count - 1, &count, scratch.data());
  EXPECT_TRUE(!status.ok()) << "SWD into too small a buffer is an error: " << v.name << " (encoder "
                            << v.encoder << ")";

  // Cut in half: an error, or fewer weights than were encoded.
  if (v.size >= kMinCutStream) {
    count = 0;
    status =
        npu::DecodeSwdWeights(v.stream, v.size / 2, out.data(), out.size(), &count, scratch.data());
    EXPECT_TRUE(!status.ok() || count < v.count)
        << "half an SWD stream does not decode whole: " << v.name << " (encoder " << v.encoder
        << ")";
  }
}

void TestFwd(const CodecVector& v) {
  std::vector<int16_t> out(v.count);
  npu::FwdDecoder decoder(v.stream, v.size);
  for (int16_t& w : out) w = decoder.Next();
  EXPECT_TRUE(!decoder.overrun()) << "FWD stream holds the encoded weight count: " << v.name
                                  << " (encoder " << v.encoder << ")";
  EXPECT_TRUE(FirstDifference(out.data(), v.weights, v.count) == v.count)
      << "FWD weights as encoded: " << v.name << " (encoder " << v.encoder << ")";

  // The header alone: reading any weight runs past the end.
  npu::FwdDecoder header_only(v.stream, kFwdHeaderBytes);
  for (size_t i = 0; i < v.count; ++i) header_only.Next();
  EXPECT_TRUE(header_only.overrun())
      << "FWD header without weights overruns: " << v.name << " (encoder " << v.encoder << ")";
}

void TestU55Layout(const LayoutVector& v) {
  npu::U55WeightLayout layout;
  layout.ofm_depth = v.ofm_depth;
  layout.ifm_depth = v.ifm_depth;
  layout.kernel_h = v.kernel_h;
  layout.kernel_w = v.kernel_w;
  layout.dilation_x = v.dilation_x;
  layout.dilation_y = v.dilation_y;
  layout.ofm_block_depth = v.ofm_block_depth;
  layout.ofm_ublock_depth = kU55MicroblockDepth;
  layout.ifm_ublock_depth = kU55MicroblockDepth;
  layout.traversal = v.traversal;
  npu::WeightStream streams[npu::kMaxWeightStreams];
  for (int c = 0; c < v.cores; ++c) streams[c] = {v.streams[c], v.sizes[c]};
  const size_t count =
      size_t(v.ofm_depth) * size_t(v.kernel_h) * size_t(v.kernel_w) * size_t(v.ifm_depth);
  std::vector<int16_t> out(count, 0);
  std::vector<uint64_t> scratch((npu::U55WeightStreamsScratchBytes(layout, v.cores) + 7) / 8);
  const Status status = npu::DecodeU55WeightStreams(layout, v.cores, streams, out.data(),
                                                    scratch.data(), scratch.size() * 8);
  EXPECT_TRUE(status.ok()) << "U55 streams decode: " << status.message() << ": " << v.name
                           << " (encoder mlw_codec reorder_encode)";
  EXPECT_TRUE(FirstDifference(out.data(), v.ohwi, count) == count)
      << "U55 streams give the OHWI kernel: " << v.name << " (encoder mlw_codec reorder_encode)";
}

}  // namespace

TEST(WeightCodec, DecodesVelaStreams) {
  for (const CodecVector& v : weight_vectors::kCodecVectors) {
    if (v.fwd) {
      TestFwd(v);
    } else {
      TestSwd(v);
    }
  }
}

TEST(WeightCodec, U55LayoutGivesOhwiKernel) {
  for (const LayoutVector& v : weight_vectors::kLayoutVectors) TestU55Layout(v);
}
