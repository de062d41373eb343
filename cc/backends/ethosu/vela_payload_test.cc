// The Vela payload parser's I/O records: any count the payload holds (the
// U55's A16W8 matmul delegates write 20 outputs), read in place, and a count
// that disagrees with its block refused in one line.
#include "cc/backends/ethosu/vela_payload.h"

#include <cstdint>
#include <cstring>

#include "cc/ethosu/mmio.h"
#include "cc/ethosu/payload_header.h"
#include "cc/ethosu/region.h"
#include "cc/testing/unit_test.h"

namespace {

namespace hw = ethosu_sdk::ethosu;
using ethosu_sdk::backends::ethosu::ParseVelaPayload;
using ethosu_sdk::backends::ethosu::VelaIo;
using ethosu_sdk::backends::ethosu::VelaPayload;

constexpr int kIos = 20;           // more than the former limit of 16
constexpr uint32_t kIoBytes = 64;  // each record: a [1, 1, 1, 1, 8, 8] int8 tensor
constexpr uint32_t kScratch = 2 * kIos * kIoBytes;
constexpr size_t kRecordWords = 9;  // shape[6], element size, offset, region
constexpr size_t kCapacity = 4096;

// Writes a payload in ExecuTorch's layout (named blocks, 16-byte aligned).
class PayloadWriter {
 public:
  void Block(const char* name, const uint32_t* words, size_t count) {
    uint8_t header[32] = {};
    for (size_t i = 0; i < 15 && name[i] != 0; ++i) header[i] = uint8_t(name[i]);  // NUL-padded
    PutU32(header + 16, uint32_t(4 * count));
    Append(header, sizeof(header));
    for (size_t i = 0; i < count; ++i) {
      uint8_t word[4];
      PutU32(word, words[i]);
      Append(word, 4);
    }
    while (size_ % 16 != 0) Append(reinterpret_cast<const uint8_t*>("\0"), 1);
  }
  void Reset() { size_ = 0; }
  const uint8_t* data() const { return bytes_; }
  size_t size() const { return size_; }

 private:
  static void PutU32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
  }
  void Append(const uint8_t* p, size_t n) {
    if (size_ + n <= kCapacity) memcpy(bytes_ + size_, p, n);
    size_ += n;
  }
  alignas(16) uint8_t bytes_[kCapacity] = {};
  size_t size_ = 0;
};

// An "inputs"/"outputs" block body: `count` as written, `records` records
// (offsets from `first_offset`, kIoBytes apart).
size_t IoBody(int32_t count, int records, uint32_t first_offset, uint32_t* words) {
  size_t n = 0;
  words[n++] = uint32_t(count);
  for (int i = 0; i < records; ++i) {
    const uint32_t record[kRecordWords] = {
        1, 1, 1, 1, 8, 8, 1, first_offset + uint32_t(i) * kIoBytes, hw::kScratchRegion};
    for (uint32_t w : record) words[n++] = w;
  }
  return n;
}

// A whole payload for an Ethos-U55-128 whose stream is one NPU_OP_STOP.
void WritePayload(int32_t input_count, PayloadWriter* out) {
  const uint32_t cmd[] = {0x3150'4F43u,  // "COP1"
                          hw::kOptimizerConfigTag,
                          (hw::mmio::config::kProductU55 << hw::mmio::config::kProductShift) | 7u,
                          1u << hw::mmio::id::kArchMajorShift,
                          hw::kCommandStreamTag | (1u << 16),
                          0u};
  const uint32_t scratch[] = {kScratch};
  static uint32_t inputs[1 + kIos * kRecordWords], outputs[1 + kIos * kRecordWords];
  out->Block("vela_bin_stream", nullptr, 0);
  out->Block("cmd_data", cmd, sizeof(cmd) / 4);
  out->Block("weight_data", nullptr, 0);
  out->Block("scratch_size", scratch, 1);
  out->Block("inputs", inputs, IoBody(input_count, kIos, 0, inputs));
  out->Block("outputs", outputs, IoBody(kIos, kIos, kIos * kIoBytes, outputs));
  out->Block("vela_end_stream", nullptr, 0);
}

TEST(VelaPayload, TwentyInputsAndOutputs) {
  static PayloadWriter writer;
  WritePayload(kIos, &writer);
  ASSERT_TRUE(writer.size() <= kCapacity) << "payload fits the test's buffer";
  VelaPayload payload;
  const ethosu_sdk::Status status = ParseVelaPayload(writer.data(), writer.size(), &payload);
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(payload.inputs.count, kIos);
  EXPECT_EQ(payload.outputs.count, kIos);
  for (int i = 0; i < kIos; ++i) {
    const VelaIo in = payload.inputs[i], out = payload.outputs[i];
    EXPECT_EQ(in.offset, int32_t(uint32_t(i) * kIoBytes)) << "input " << i;
    EXPECT_EQ(out.offset, int32_t((kIos + uint32_t(i)) * kIoBytes)) << "output " << i;
    EXPECT_EQ(out.bytes(), size_t(kIoBytes)) << "output " << i;
  }
}

TEST(VelaPayload, CountThatDisagreesWithItsBlockIsRefused) {
  const int32_t wrong[] = {kIos + 1, kIos - 1, -1, INT32_MAX};
  for (int32_t count : wrong) {
    static PayloadWriter writer;
    writer.Reset();
    WritePayload(count, &writer);
    VelaPayload payload;
    const ethosu_sdk::Status status = ParseVelaPayload(writer.data(), writer.size(), &payload);
    EXPECT_FALSE(status.ok()) << "inputs count " << count;
    EXPECT_TRUE(!status.ok() && strstr(status.message(), "inputs block") != nullptr)
        << "inputs count " << count << ": " << status.message();
  }
}

}  // namespace
