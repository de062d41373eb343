#include "cc/runner/tensor_file.h"

#include <cstring>

namespace ethosu_sdk::runner {
namespace {

constexpr size_t kFileHeader = 16;
// Version 2 appends the tolerance in steps and a reserved word to version
// 1's record header (schema/tensor_file.md).
constexpr size_t kRecordHeaderV1 = 56;
constexpr size_t kRecordHeaderV2 = 64;
constexpr size_t kToleranceOffset = 56;
constexpr size_t kReservedOffset = 60;

uint32_t U32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);  // the file is little-endian, like every target
  return v;
}

// Reads the record at `offset`; `*next` is where the following one starts.
Status ReadRecord(const uint8_t* data, size_t size, size_t offset, size_t header, TensorRecord* out,
                  size_t* next) {
  if (offset > size || size - offset < header) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "tensor file: record header past the end: record at byte %lld",
                         static_cast<long long>(offset));
  }
  const uint8_t* h = data + offset;
  const uint32_t dtype = U32(h);
  const uint32_t rank = U32(h + 4);
  const size_t element = runtime::ScalarTypeSize(static_cast<int32_t>(dtype));
  if (element == 0) {
    return Status::Error(ErrorCode::kNotSupported,
                         "tensor file: dtype %lld is not one the runner knows",
                         static_cast<long long>(dtype));
  }
  if (rank > static_cast<uint32_t>(runtime::kMaxRank)) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "tensor file: rank %lld above the runtime's limit of %lld",
                         static_cast<long long>(rank), static_cast<long long>(runtime::kMaxRank));
  }
  runtime::Tensor& t = out->tensor;
  t = runtime::Tensor{};
  t.dtype = static_cast<runtime::ScalarType>(dtype);
  t.rank = static_cast<int32_t>(rank);
  uint64_t numel = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    const uint32_t s = U32(h + 8 + 4 * d);
    if (s > (1u << 30)) {
      return Status::Error(ErrorCode::kInvalidArgument,
                           "tensor file: dimension %lld has size %lld, above 2^30",
                           static_cast<long long>(d), static_cast<long long>(s));
    }
    t.sizes[d] = static_cast<int32_t>(s);
    numel *= s;
    if (numel > (uint64_t{1} << 30))
      return Status::Error(ErrorCode::kInvalidArgument, "tensor file: too many elements");
  }
  std::memcpy(&out->scale, h + 40, 4);
  std::memcpy(&out->zero_point, h + 44, 4);
  uint64_t nbytes;
  std::memcpy(&nbytes, h + 48, 8);
  if (nbytes != numel * element) {
    return Status::Error(
        ErrorCode::kInvalidArgument,
        "tensor file: data size differs from shape: %lld bytes, the shape needs %lld",
        static_cast<long long>(nbytes), static_cast<long long>(numel * element));
  }
  out->tolerance_steps = kDefaultToleranceSteps;
  if (header == kRecordHeaderV2) {
    out->tolerance_steps = U32(h + kToleranceOffset);
    if (out->tolerance_steps < kDefaultToleranceSteps ||
        out->tolerance_steps > kMaxToleranceSteps) {
      return Status::Error(
          ErrorCode::kInvalidArgument, "tensor file: tolerance of %lld steps outside 1..%lld",
          static_cast<long long>(out->tolerance_steps), static_cast<long long>(kMaxToleranceSteps));
    }
    if (U32(h + kReservedOffset) != 0) {
      return Status::Error(ErrorCode::kInvalidArgument,
                           "tensor file: reserved record field is %lld, expected 0",
                           static_cast<long long>(U32(h + kReservedOffset)));
    }
  }
  const size_t data_offset = offset + header;
  if (nbytes > size - data_offset) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "tensor file: data past the end: %lld bytes, %lld left in the file",
                         static_cast<long long>(nbytes),
                         static_cast<long long>(size - data_offset));
  }
  t.numel = static_cast<size_t>(numel);
  t.nbytes = static_cast<size_t>(nbytes);
  t.data = const_cast<uint8_t*>(data + data_offset);
  *next = data_offset + static_cast<size_t>((nbytes + 7) & ~uint64_t{7});
  return Status::Ok();
}

}  // namespace

Status TensorFile::Parse(const void* data, size_t size, TensorFile* out) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  if (bytes == nullptr || reinterpret_cast<uintptr_t>(bytes) % 8 != 0) {
    return Status::Error(ErrorCode::kInvalidArgument, "tensor file: buffer not 8-byte aligned");
  }
  size_t header = 0;
  if (size >= kFileHeader && std::memcmp(bytes, "ESDKTEN2", 8) == 0) header = kRecordHeaderV2;
  if (size >= kFileHeader && std::memcmp(bytes, "ESDKTEN1", 8) == 0) header = kRecordHeaderV1;
  if (header == 0) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "tensor file: bad magic (expected ESDKTEN2 or ESDKTEN1)");
  }
  out->record_header_ = header;
  out->data_ = bytes;
  out->size_ = size;
  out->count_ = U32(bytes + 8);
  // Walk once so that a damaged file fails here, not halfway through a run.
  size_t offset = kFileHeader;
  for (uint32_t i = 0; i < out->count_; ++i) {
    TensorRecord record;
    ESDK_RETURN_IF_ERROR(ReadRecord(bytes, size, offset, header, &record, &offset));
  }
  return Status::Ok();
}

Status TensorFile::Get(uint32_t index, TensorRecord* out) const {
  if (index >= count_) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "tensor file: record index %lld out of range: the file has %lld records",
                         static_cast<long long>(index), static_cast<long long>(count_));
  }
  size_t offset = kFileHeader;
  for (uint32_t i = 0; i <= index; ++i) {
    ESDK_RETURN_IF_ERROR(ReadRecord(data_, size_, offset, record_header_, out, &offset));
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::runner
