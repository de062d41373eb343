#include "cc/runtime/program.h"

#include <cstring>

#include "cc/core/format.h"
#include "cc/runtime/flatbuffer_util.h"
#include "schema/program_generated.h"

namespace ethosu_sdk::runtime {
namespace {

namespace fb = ::executorch_flatbuffer;

// Extended header (written by ExecuTorch's serializer after the flatbuffer's
// root offset and file identifier): magic, length, program size, segment
// base offset, and (when length allows) segment data size. Little-endian.
constexpr size_t kHeaderOffset = 8;
constexpr size_t kHeaderMinLength = 24;
constexpr size_t kHeaderFullLength = 32;

uint32_t ReadU32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

uint64_t ReadU64(const uint8_t* p) {
  return static_cast<uint64_t>(ReadU32(p)) | static_cast<uint64_t>(ReadU32(p + 4)) << 32;
}

struct ExtendedHeader {
  uint64_t program_size;  // the flatbuffer's bytes
  uint64_t segment_base;  // 0: no segment data
};

// Reads the extended header, if the file has one: without it the whole file
// is the flatbuffer and there is no segment data.
Status ReadExtendedHeader(const uint8_t* bytes, size_t size, ExtendedHeader* out) {
  out->program_size = size;
  out->segment_base = 0;
  if (size >= kHeaderOffset + kHeaderMinLength &&
      std::memcmp(bytes + kHeaderOffset, "eh00", 4) == 0) {
    const uint8_t* header = bytes + kHeaderOffset;
    const uint32_t length = ReadU32(header + 4);
    if (length < kHeaderMinLength || length > size - kHeaderOffset) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "extended header length %lld: outside 24 to the %lld bytes after it",
                           Lld(length), Lld(size - kHeaderOffset));
    }
    out->program_size = ReadU64(header + 8);
    out->segment_base = ReadU64(header + 16);
    if (out->program_size < kHeaderOffset + length || out->program_size > size) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "program size %lld outside the file of %lld bytes",
                           Lld(out->program_size), Lld(size));
    }
    if (out->segment_base > size ||
        (out->segment_base != 0 && out->segment_base < out->program_size)) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "segment base offset %lld outside the file of %lld bytes",
                           Lld(out->segment_base), Lld(size));
    }
    if (length >= kHeaderFullLength) {
      const uint64_t segment_data_size = ReadU64(header + 24);
      if (segment_data_size > size - out->segment_base) {
        return Status::Error(ErrorCode::kInvalidProgram,
                             "segment data of %lld bytes past the end of the file: %lld bytes "
                             "after the segment base",
                             Lld(segment_data_size), Lld(size - out->segment_base));
      }
    }
  }
  return Status::Ok();
}

// Every segment lies inside the file, after the segment base; the
// constant data has one source; the program has a method.
Status CheckSegments(const fb::Program* program, size_t size, uint64_t segment_base) {
  if (const auto* segments = program->segments()) {
    // Without an extended header there is no segment data; the serializer
    // still lists an empty segment for an empty constant segment.
    const uint64_t available = segment_base == 0 ? 0 : size - segment_base;
    for (uint32_t i = 0; i < segments->size(); ++i) {
      const fb::DataSegment* segment = segments->Get(i);
      if (segment->offset() > available || segment->size() > available - segment->offset()) {
        return Status::Error(
            ErrorCode::kOutOfRange,
            "segment %lld (offset %lld, %lld bytes) outside the %lld bytes of segment data", Lld(i),
            Lld(segment->offset()), Lld(segment->size()), Lld(available));
      }
    }
  }
  const bool has_constant_buffer =
      program->constant_buffer() != nullptr && program->constant_buffer()->size() > 0;
  const fb::SubsegmentOffsets* constant_segment = program->constant_segment();
  if (constant_segment != nullptr && constant_segment->offsets() != nullptr &&
      constant_segment->offsets()->size() > 0) {
    if (has_constant_buffer) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "both constant_buffer and constant_segment are set");
    }
    const uint32_t segment_count = program->segments() ? program->segments()->size() : 0;
    if (constant_segment->segment_index() >= segment_count) {
      return Status::Error(
          ErrorCode::kOutOfRange,
          "constant segment index %lld out of range: the program has %lld segments",
          Lld(constant_segment->segment_index()), Lld(segment_count));
    }
  }
  if (program->execution_plan() == nullptr || program->execution_plan()->size() == 0) {
    return Status::Error(ErrorCode::kInvalidProgram, "program has no methods");
  }

  return Status::Ok();
}

}  // namespace

Status Program::Load(const void* data, size_t size, Program* out) {
  if (out == nullptr)
    return Status::Error(ErrorCode::kInvalidArgument, "Program::Load: no Program to load into");
  ESDK_ASSIGN_OR_RETURN(*out, Load(data, size));
  return Status::Ok();
}

Result<Program> Program::Load(const void* data, size_t size) {
  if (data == nullptr) {
    return Status::Error(ErrorCode::kInvalidArgument, "null program buffer");
  }
  if (reinterpret_cast<uintptr_t>(data) % 16 != 0) {
    return Status::Error(ErrorCode::kInvalidArgument, "program buffer not 16-byte aligned");
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  if (size < kHeaderOffset) {
    return Status::Error(ErrorCode::kInvalidProgram,
                         "file of %lld bytes is shorter than a flatbuffer header (8)", Lld(size));
  }
  if (!flatbuffers::BufferHasIdentifier(bytes, fb::ProgramIdentifier())) {
    return Status::Error(ErrorCode::kInvalidProgram, "file identifier is not ET12");
  }

  ExtendedHeader header;
  ESDK_RETURN_IF_ERROR(ReadExtendedHeader(bytes, size, &header));
  const uint64_t program_size = header.program_size;
  const uint64_t segment_base = header.segment_base;
  if (program_size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return Status::Error(ErrorCode::kInvalidProgram,
                         "flatbuffer of %lld bytes above the flatbuffer limit of 2 GiB",
                         Lld(program_size));
  }

  flatbuffers::Verifier::Options options;
  options.max_depth = 64;
  options.max_tables = 1000000;
  options.check_alignment = true;
  flatbuffers::Verifier verifier(bytes, static_cast<size_t>(program_size), options);
  if (!fb::VerifyProgramBuffer(verifier)) {
    return Status::Error(ErrorCode::kInvalidProgram, "flatbuffer verification failed");
  }
  const fb::Program* program = fb::GetProgram(bytes);

  ESDK_RETURN_IF_ERROR(CheckSegments(program, size, segment_base));

  Program loaded;
  loaded.data_ = bytes;
  loaded.size_ = size;
  loaded.segment_base_ = segment_base;
  loaded.program_ = program;
  return loaded;
}

size_t Program::MethodCount() const {
  return program_ == nullptr ? 0 : program_->execution_plan()->size();
}

Result<const fb::ExecutionPlan*> Program::FindMethod(const char* name) const {
  if (program_ == nullptr) return Status::Error(ErrorCode::kInvalidArgument, "program not loaded");
  const auto* plans = program_->execution_plan();
  for (uint32_t i = 0; i < plans->size(); ++i) {
    const fb::ExecutionPlan* plan = plans->Get(i);
    if (plan->name() != nullptr && std::strcmp(plan->name()->c_str(), name) == 0) return plan;
  }
  return Status::Error(ErrorCode::kNotFound, "no method: %s", name);
}

Result<Span<const uint8_t>> Program::Segment(uint32_t index) const {
  const auto* segments = program_->segments();
  const uint32_t count = segments ? segments->size() : 0;
  if (index >= count) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "segment index %lld out of range: the program has %lld segments",
                         Lld(index), Lld(count));
  }
  // Ranges were checked against the file in Load.
  const fb::DataSegment* segment = segments->Get(index);
  const uint8_t* start = segment->size() == 0 ? data_ : data_ + segment_base_ + segment->offset();
  return Span<const uint8_t>(start, static_cast<size_t>(segment->size()));
}

Result<const void*> Program::ConstantData(uint32_t index, size_t nbytes) const {
  const auto* buffers = program_->constant_buffer();
  if (buffers != nullptr && buffers->size() > 0) {
    if (index >= buffers->size()) {
      return Status::Error(
          ErrorCode::kOutOfRange,
          "constant buffer index %lld out of range: the program has %lld constant buffers",
          Lld(index), Lld(buffers->size()));
    }
    const auto* storage = buffers->Get(index)->storage();
    const size_t available = storage ? storage->size() : 0;
    if (nbytes > available) {
      return Status::Error(ErrorCode::kOutOfRange,
                           "constant buffer of %lld bytes smaller than its tensor of %lld",
                           Lld(available), Lld(nbytes));
    }
    return storage ? static_cast<const void*>(storage->data()) : nullptr;
  }
  const fb::SubsegmentOffsets* constants = program_->constant_segment();
  const auto* offsets = constants ? constants->offsets() : nullptr;
  const uint32_t count = offsets ? offsets->size() : 0;
  if (index >= count) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "constant index %lld out of range: the constant segment has %lld entries",
                         Lld(index), Lld(count));
  }
  ESDK_ASSIGN_OR_RETURN(const Span<const uint8_t> segment, Segment(constants->segment_index()));
  const uint64_t offset = internal::VectorElement(offsets, index);
  if (offset > segment.size() || nbytes > segment.size() - offset) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "constant data (offset %lld, %lld bytes) past the end of its segment",
                         Lld(offset), Lld(nbytes));
  }
  return static_cast<const void*>(segment.data() + offset);
}

Result<const void*> Program::MutableData(uint64_t entry, uint32_t index, size_t nbytes) const {
  const auto* entries = program_->mutable_data_segments();
  const uint32_t entry_count = entries ? entries->size() : 0;
  if (entry >= entry_count) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "mutable data segment entry %lld out of range: the program has %lld",
                         static_cast<long long>(entry), static_cast<long long>(entry_count));
  }
  const fb::SubsegmentOffsets* state = entries->Get(static_cast<uint32_t>(entry));
  const auto* offsets = state->offsets();
  const uint32_t count = offsets ? offsets->size() : 0;
  if (index >= count) {
    return Status::Error(
        ErrorCode::kOutOfRange,
        "mutable buffer index %lld out of range: its data segment entry has %lld offsets",
        static_cast<long long>(index), static_cast<long long>(count));
  }
  ESDK_ASSIGN_OR_RETURN(const Span<const uint8_t> segment, Segment(state->segment_index()));
  const uint64_t offset = internal::VectorElement(offsets, index);
  if (offset > segment.size() || nbytes > segment.size() - offset) {
    return Status::Error(
        ErrorCode::kOutOfRange,
        "mutable buffer initial state (offset %lld, %lld bytes) past the end of its segment",
        static_cast<long long>(offset), static_cast<long long>(nbytes));
  }
  return static_cast<const void*>(segment.data() + offset);
}

Result<Span<const uint8_t>> Program::DelegateData(
    const fb::BackendDelegateDataReference* ref) const {
  if (ref == nullptr) return Status::Error(ErrorCode::kInvalidProgram, "delegate without data");
  if (ref->location() == fb::DataLocation::SEGMENT) return Segment(ref->index());
  if (ref->location() != fb::DataLocation::INLINE) {
    return Status::Error(ErrorCode::kInvalidProgram,
                         "delegate data location %lld: neither inline nor a segment",
                         Lld(ref->location()));
  }
  const auto* inline_data = program_->backend_delegate_data();
  const uint32_t count = inline_data ? inline_data->size() : 0;
  if (ref->index() >= count) {
    return Status::Error(ErrorCode::kOutOfRange,
                         "inline delegate data index %lld out of range: the program has %lld",
                         Lld(ref->index()), Lld(count));
  }
  const auto* bytes = inline_data->Get(ref->index())->data();
  return bytes ? Span<const uint8_t>(bytes->data(), bytes->size()) : Span<const uint8_t>();
}

}  // namespace ethosu_sdk::runtime
