// The U85 DMA forms Vela 5.1.0 writes (GenerateDMA), run through the
// model's public entry point on hand-assembled streams: a gather (TOSA
// GATHER, torch embedding) as a source-indexed 2-D DMA with int32 indices,
// the same over int64 indices (3-D, IDX_SKIP1 skipping each high word), a
// scatter (destination-indexed), and a plain 2-D strided copy. Expected
// results come from the operations' definitions (out[i] = table[ids[i]],
// out[ids[i]] = src[i], a sub-rectangle copy), not from the model.
#include <cstdint>
#include <cstring>

#include "cc/testing/unit_test.h"
#include "sim/npu/commands/u85_registers.h"
#include "sim/npu/model.h"

namespace npu = ethosu_sdk::npu;
namespace u85 = ethosu_sdk::npu::u85;

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::Status;

// DMA0_SRC_REGION fields: stride_mode bits 10:9, idx_mode bit 11.
constexpr uint32_t kMode2D = 1u << 9, kMode3D = 2u << 9, kIndexed = 1u << 11;
constexpr uint16_t kCmd1 = 0x4000;  // control bits 15:14 = 1: a payload word follows

constexpr int kRows = 10, kRowBytes = 8, kMaxWords = 64;

struct Stream {
  uint32_t words[kMaxWords];
  size_t n = 0;
  void Cmd0(uint16_t op, uint16_t param) { words[n++] = op | (uint32_t(param) << 16); }
  void Cmd1(uint16_t op, uint64_t value) {
    words[n++] = (kCmd1 | op) | (uint32_t((value >> 32) & 0xFF) << 16);
    words[n++] = uint32_t(value);
  }
  void Start() {
    Cmd0(u85::kOpDmaStart, 0);
    Cmd0(u85::kOpStop, 0xFFFF);
  }
};

// Region 0: a read-only table of kRows rows; region 1: read-write scratch.
struct Memory {
  uint8_t table[kRows * kRowBytes];
  uint8_t scratch[512];
  alignas(16) uint8_t workspace[1 << 16];
  npu::Region regions[npu::kNumRegions];
  Memory() {
    for (int i = 0; i < kRows * kRowBytes; ++i) table[i] = uint8_t(7 * i + 3);
    memset(scratch, 0, sizeof(scratch));
    regions[0] = {table, sizeof(table), false};
    regions[1] = {scratch, sizeof(scratch), true};
  }
  Status Run(const Stream& s, npu::RunStats* stats) {
    npu::NpuConfig config;  // ethos-u85-256
    npu::Workspace w;
    w.data = workspace;
    w.size = sizeof(workspace);
    return npu::RunCommandStream(config, s.words, s.n, regions, w, stats);
  }
};

// The registers every 2-D DMA writes (GenerateDMA's order).
void Rows2D(Stream& s, uint32_t src_region, uint64_t src, uint32_t dst_region, uint64_t dst,
            uint64_t length, uint16_t rows, uint64_t src_stride, uint64_t dst_stride) {
  s.Cmd0(u85::kDma0SrcRegion, uint16_t(src_region | kMode2D));
  s.Cmd1(u85::kDma0Src, src);
  s.Cmd0(u85::kDma0DstRegion, uint16_t(dst_region));
  s.Cmd1(u85::kDma0Dst, dst);
  s.Cmd1(u85::kDma0Len, length);
  s.Cmd0(u85::kDma0Size0, rows);
  s.Cmd1(u85::kDma0SrcStride0, src_stride);
  s.Cmd1(u85::kDma0DstStride0, dst_stride);
}

// DMA0_IDX_*: where the int32 indices are and the largest allowed.
void Indices(Stream& s, uint32_t idx_max, uint64_t at) {
  s.Cmd0(u85::kDma0IdxRegion, 1);
  s.Cmd1(u85::kDma0IdxMax, idx_max);
  s.Cmd1(u85::kDma0Idx, at);
}

constexpr uint32_t kIds = 0x100;  // where the indices sit in region 1
constexpr int32_t kIdValues[] = {4, 0, 9, 4, 7, 2};
constexpr int kN = sizeof(kIdValues) / sizeof(kIdValues[0]);

// What Vela writes for a gather of kN rows with int32 indices (the U85
// text classifier's embedding): 2-D, source indexed, SIZE0 = N.
Stream Gather2D(int32_t idx_max, uint64_t dst = 0) {
  Stream s;
  Rows2D(s, kIndexed, 0, 1, dst, kRowBytes, kN, kRowBytes, kRowBytes);
  Indices(s, uint32_t(idx_max), kIds);
  s.Start();
  return s;
}

TEST(Dma, GatherWithInt32IndicesIsTwoDimensional) {
  Memory m;
  memcpy(m.scratch + kIds, kIdValues, sizeof(kIdValues));
  npu::RunStats stats;
  const Status st = m.Run(Gather2D(kRows - 1), &stats);
  ASSERT_TRUE(st.ok()) << st.message();
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(memcmp(m.scratch + i * kRowBytes, m.table + kIdValues[i] * kRowBytes, kRowBytes), 0)
        << "row " << i;
  }
  EXPECT_EQ(stats.dma_bytes, uint64_t(kN * kRowBytes));
  EXPECT_EQ(stats.dma_transfers, 1u);
}

TEST(Dma, GatherWithInt64IndicesSkipsTheHighWords) {
  Memory m;
  for (int i = 0; i < kN; ++i) {
    const int64_t id = kIdValues[i];
    memcpy(m.scratch + kIds + 8 * i, &id, sizeof(id));
  }
  // Vela: sizes (N, batch 1), source strides (0, row), destination (row, 0).
  Stream s;
  s.Cmd0(u85::kDma0SrcRegion, uint16_t(0 | kMode3D | kIndexed));
  s.Cmd1(u85::kDma0Src, 0);
  s.Cmd0(u85::kDma0DstRegion, 1);
  s.Cmd1(u85::kDma0Dst, 0);
  s.Cmd1(u85::kDma0Len, kRowBytes);
  s.Cmd0(u85::kDma0Size0, 1);
  s.Cmd1(u85::kDma0SrcStride0, kRowBytes);
  s.Cmd1(u85::kDma0DstStride0, 0);
  s.Cmd0(u85::kDma0Size1, kN);
  s.Cmd1(u85::kDma0SrcStride1, 0);
  s.Cmd1(u85::kDma0DstStride1, kRowBytes);
  Indices(s, kRows - 1, kIds);
  s.Cmd1(u85::kDma0IdxSkip1, 4);
  s.Start();
  npu::RunStats stats;
  const Status st = m.Run(s, &stats);
  ASSERT_TRUE(st.ok()) << st.message();
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(memcmp(m.scratch + i * kRowBytes, m.table + kIdValues[i] * kRowBytes, kRowBytes), 0)
        << "row " << i;
  }
}

TEST(Dma, ScatterWritesRowsAtTheirIndices) {
  Memory m;
  const int32_t ids[] = {3, 1, 8};
  memcpy(m.scratch + kIds, ids, sizeof(ids));
  // Region 2: the rows to scatter, read-only; region 1 row 0.. the target.
  uint8_t rows[3 * kRowBytes];
  for (int i = 0; i < 3 * kRowBytes; ++i) rows[i] = uint8_t(200 - i);
  m.regions[2] = {rows, sizeof(rows), false};
  Stream s;
  Rows2D(s, 2, 0, 1 | kIndexed, 0, kRowBytes, 3, kRowBytes, kRowBytes);
  Indices(s, kRows - 1, kIds);
  s.Start();
  npu::RunStats stats;
  const Status st = m.Run(s, &stats);
  ASSERT_TRUE(st.ok()) << st.message();
  uint8_t expected[kRows * kRowBytes] = {};
  for (int i = 0; i < 3; ++i)
    memcpy(expected + ids[i] * kRowBytes, rows + i * kRowBytes, kRowBytes);
  EXPECT_EQ(memcmp(m.scratch, expected, sizeof(expected)), 0);
}

TEST(Dma, TwoDimensionalCopyTakesASubRectangle) {
  Memory m;
  // Columns 2..5 of rows 1..4 of the table (row stride 8) into a dense
  // 4x4 block at 0x40.
  Stream s;
  Rows2D(s, 0, 1 * kRowBytes + 2, 1, 0x40, 4, 4, kRowBytes, 4);
  s.Start();
  npu::RunStats stats;
  const Status st = m.Run(s, &stats);
  ASSERT_TRUE(st.ok()) << st.message();
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      EXPECT_EQ(m.scratch[0x40 + 4 * y + x], m.table[(1 + y) * kRowBytes + 2 + x]) << y << "," << x;
    }
  }
  EXPECT_EQ(m.scratch[0x40 + 16], 0) << "nothing past the block";
}

TEST(Dma, IndexAboveIdxMaxIsABusFault) {
  Memory m;
  memcpy(m.scratch + kIds, kIdValues, sizeof(kIdValues));
  npu::RunStats stats;
  const Status st = m.Run(Gather2D(8), &stats);  // id 9 is above 8
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(st.code(), ErrorCode::kNpuBusError);
  EXPECT_TRUE(strstr(st.message(), "IDX_MAX") != nullptr) << st.message();
}

TEST(Dma, RowOutsideTheDestinationIsABusFault) {
  Memory m;
  memcpy(m.scratch + kIds, kIdValues, sizeof(kIdValues));
  // The last two of the six rows fall past the end of region 1.
  const Stream s = Gather2D(kRows - 1, sizeof(m.scratch) - 4 * kRowBytes);
  npu::RunStats stats;
  const Status st = m.Run(s, &stats);
  EXPECT_EQ(st.code(), ErrorCode::kNpuBusError);
  EXPECT_TRUE(strstr(st.message(), "destination") != nullptr) << st.message();
}

}  // namespace
