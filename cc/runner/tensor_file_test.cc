// The tensor file reader (schema/tensor_file.md) on hand-built files:
// version 2's per-record tolerance read and range-checked, its reserved
// word checked, version 1 read with the default of one step.
#include "cc/runner/tensor_file.h"

#include <cstdint>
#include <cstring>

#include "cc/testing/unit_test.h"

namespace ethosu_sdk::runner {
namespace {

constexpr size_t kFileHeader = 16;
constexpr size_t kV1Record = 56;
constexpr size_t kV2Record = 64;
constexpr size_t kData = 8;  // one int8 tensor of 8 elements
constexpr uint32_t kInt8 = 1;

struct File {
  alignas(8) uint8_t bytes[kFileHeader + kV2Record + kData] = {};
  size_t size = 0;
};

void PutU32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

// One int8 record [8], scale 0.5, `tolerance` steps (version 2 only).
File Make(const char* magic, uint32_t tolerance, uint32_t reserved = 0) {
  File f;
  const bool v2 = std::memcmp(magic, "ESDKTEN2", 8) == 0;
  const size_t record = v2 ? kV2Record : kV1Record;
  std::memcpy(f.bytes, magic, 8);
  PutU32(f.bytes + 8, 1);
  uint8_t* h = f.bytes + kFileHeader;
  PutU32(h, kInt8);
  PutU32(h + 4, 1);
  PutU32(h + 8, kData);
  const float scale = 0.5f;
  std::memcpy(h + 40, &scale, 4);
  const uint64_t nbytes = kData;
  std::memcpy(h + 48, &nbytes, 8);
  if (v2) {
    PutU32(h + 56, tolerance);
    PutU32(h + 60, reserved);
  }
  for (size_t i = 0; i < kData; ++i) h[record + i] = static_cast<uint8_t>(i);
  f.size = kFileHeader + record + kData;
  return f;
}

// The file's one record; a default record (0 elements) if it does not parse.
TensorRecord Only(const File& f) {
  TensorFile file;
  TensorRecord record;
  if (!TensorFile::Parse(f.bytes, f.size, &file).ok() || !file.Get(0, &record).ok()) return {};
  return record;
}

TEST(TensorFile, Version2CarriesTheTolerance) {
  const File f = Make("ESDKTEN2", 16);
  const TensorRecord record = Only(f);
  ASSERT_EQ(record.tensor.numel, kData);
  EXPECT_EQ(record.tolerance_steps, 16u);
  EXPECT_EQ(record.scale, 0.5f);
  EXPECT_EQ(static_cast<const uint8_t*>(record.tensor.data)[7], 7u)
      << "data after the 64-byte header";
}

TEST(TensorFile, Version1HoldsOneStep) {
  const File f = Make("ESDKTEN1", 0);
  const TensorRecord record = Only(f);
  ASSERT_EQ(record.tensor.numel, kData);
  EXPECT_EQ(record.tolerance_steps, kDefaultToleranceSteps);
  EXPECT_EQ(static_cast<const uint8_t*>(record.tensor.data)[7], 7u)
      << "data after the 56-byte header";
}

TEST(TensorFile, ToleranceAndReservedAreChecked) {
  TensorFile file;
  const File zero = Make("ESDKTEN2", 0);
  EXPECT_FALSE(TensorFile::Parse(zero.bytes, zero.size, &file).ok()) << "0 steps";
  const File huge = Make("ESDKTEN2", kMaxToleranceSteps + 1);
  EXPECT_FALSE(TensorFile::Parse(huge.bytes, huge.size, &file).ok()) << "beyond the maximum";
  const File reserved = Make("ESDKTEN2", 1, 7);
  EXPECT_FALSE(TensorFile::Parse(reserved.bytes, reserved.size, &file).ok()) << "reserved != 0";
  const File bad = Make("ESDKTEN3", 1);
  EXPECT_FALSE(TensorFile::Parse(bad.bytes, bad.size, &file).ok()) << "unknown version";
}

}  // namespace
}  // namespace ethosu_sdk::runner
