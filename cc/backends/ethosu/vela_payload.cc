#include "cc/backends/ethosu/vela_payload.h"

#include <cstring>

namespace ethosu_sdk::backends::ethosu {
namespace {

constexpr size_t kBlockHeaderBytes = 32;  // name[16], u32 length, u8 external, 11 reserved
constexpr size_t kBlockAlignment = 16;

uint32_t ReadU32(const uint8_t* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

bool NameIs(const uint8_t* name, const char* expected) {
  return strncmp(reinterpret_cast<const char*>(name), expected, 16) == 0;
}

constexpr size_t kIoRecordBytes = 36;  // shape[6], element_size, offset, region

VelaIo DecodeIo(const uint8_t* p) {
  VelaIo io;
  for (int d = 0; d < 6; ++d) io.shape[d] = int32_t(ReadU32(p + 4 * d));
  io.element_size = int32_t(ReadU32(p + 24));
  io.offset = int32_t(ReadU32(p + 28));
  io.region = int32_t(ReadU32(p + 32));
  return io;
}

// "inputs"/"outputs": i32 count, then count records of 9 i32, kept in place.
Status ParseIos(const uint8_t* data, size_t size, const char* what, VelaIoRecords* ios) {
  if (size < 4) return Status::Error(ErrorCode::kInvalidProgram, "vela: %s block too short", what);
  const int32_t n = int32_t(ReadU32(data));
  // Divided, not multiplied: n * 36 may overflow a 32-bit size_t.
  if (n < 0 || size_t(n) != (size - 4) / kIoRecordBytes || (size - 4) % kIoRecordBytes != 0)
    return Status::Error(ErrorCode::kInvalidProgram, "vela: %s block of %u bytes for %d records",
                         what, unsigned(size), int(n));
  for (int i = 0; i < n; ++i) {
    const VelaIo io = DecodeIo(data + 4 + size_t(i) * kIoRecordBytes);
    for (int d = 0; d < 6; ++d) {
      if (io.shape[d] < 0 || io.shape[d] > (1 << 20)) {
        return Status::Error(ErrorCode::kInvalidProgram, "vela: %s %d has bad dimension %d", what,
                             i, int(io.shape[d]));
      }
    }
    if (io.element_size != 1 && io.element_size != 2 && io.element_size != 4) {
      return Status::Error(ErrorCode::kInvalidProgram, "vela: %s %d has element size %d", what, i,
                           int(io.element_size));
    }
    if (io.offset < 0 || io.region < 0 || io.region >= hw::kNumRegions) {
      return Status::Error(ErrorCode::kInvalidProgram, "vela: %s %d has offset %d region %d", what,
                           i, int(io.offset), int(io.region));
    }
    uint64_t elements = 1;
    for (int d = 0; d < 6; ++d) elements *= uint64_t(io.shape[d]);
    if (elements * uint64_t(io.element_size) > 0x7FFFFFFFu) {
      return Status::Error(ErrorCode::kInvalidProgram, "vela: %s %d too large", what, i);
    }
  }
  ios->records = data + 4;
  ios->count = n;
  return Status::Ok();
}

// cmd_data starts with the driver payload header "COP1": a config word, the
// architecture config and version, NOP tags to 16-byte alignment, and a
// CMDSTRM tag whose length (in words) is reserved<<16 | param.
Status ParseCommandData(const uint8_t* data, size_t size, VelaPayload* out) {
  if (size < 16 || size % 4 != 0)
    return Status::Error(ErrorCode::kInvalidProgram, "vela: cmd_data size %u", unsigned(size));
  if (memcmp(data, "COP1", 4) != 0)
    return Status::Error(ErrorCode::kInvalidProgram, "vela: cmd_data lacks COP1 header");
  if ((ReadU32(data + 4) & 0xFF) != hw::kOptimizerConfigTag) {
    return Status::Error(ErrorCode::kInvalidProgram, "vela: missing optimizer config");
  }
  out->compiled.config = ReadU32(data + 8);
  out->compiled.id = ReadU32(data + 12);
  if (!hw::DecodeCompiledFor(out->compiled, &out->npu)) {
    return Status::Error(ErrorCode::kInvalidProgram, "vela: unknown NPU (version %u, product %u)",
                         unsigned(out->compiled.id >> 28), unsigned(out->compiled.config >> 28));
  }
  // The payload does not carry the fast scratch size: U65 streams use the
  // dedicated SRAM as region 2 (U55/U85 modes use none). Accesses beyond
  // it fail as out of region.
  if (out->npu.product == hw::Product::kEthosU65)
    out->fast_scratch_size = hw::kU65DedicatedSramBytes;
  size_t at = 4 * hw::kHeaderWords;
  for (;;) {
    if (at + 4 > size)
      return Status::Error(ErrorCode::kInvalidProgram, "vela: cmd_data has no command stream");
    const uint32_t tag = ReadU32(data + at);
    at += 4;
    if ((tag & 0xFF) == hw::kNopTag) continue;
    if ((tag & 0xFF) != hw::kCommandStreamTag)
      return Status::Error(ErrorCode::kInvalidProgram, "vela: unknown driver tag 0x%08x",
                           unsigned(tag));
    const size_t words = (size_t((tag >> 8) & 0xFF) << 16) | (tag >> 16);
    if (words == 0 || words > (size - at) / 4) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "vela: command stream of %u words exceeds cmd_data", unsigned(words));
    }
    if (reinterpret_cast<uintptr_t>(data + at) % 4 != 0) {
      return Status::Error(ErrorCode::kInvalidProgram, "vela: command stream not 4-byte aligned");
    }
    out->commands = reinterpret_cast<const uint32_t*>(data + at);
    out->num_commands = words;
    return Status::Ok();
  }
}

}  // namespace

VelaIo VelaIoRecords::operator[](int i) const {
  return DecodeIo(records + size_t(i) * kIoRecordBytes);
}

size_t VelaIo::bytes() const {
  size_t n = size_t(element_size);
  for (int32_t d : shape) n *= size_t(d);
  return n;
}

Status ParseVelaPayload(const uint8_t* data, size_t size, VelaPayload* out) {
  if (data == nullptr || out == nullptr)
    return Status::Error(ErrorCode::kInvalidProgram, "vela: null argument");
  *out = VelaPayload();
  size_t at = 0;
  bool started = false, ended = false, have_cmd = false, have_weights = false, have_scratch = false,
       have_inputs = false, have_outputs = false;
  while (!ended) {
    if (size - at < kBlockHeaderBytes)
      return Status::Error(ErrorCode::kInvalidProgram, "vela: truncated block header at %u",
                           unsigned(at));
    const uint8_t* header = data + at;
    if (memchr(header, 0, 16) == nullptr)
      return Status::Error(ErrorCode::kInvalidProgram, "vela: block name not terminated");
    const uint32_t length = ReadU32(header + 16);
    const uint8_t external = header[20];
    at += kBlockHeaderBytes;
    const size_t padded =
        (size_t(length) + kBlockAlignment - 1) / kBlockAlignment * kBlockAlignment;
    if (padded > size - at)
      return Status::Error(ErrorCode::kInvalidProgram, "vela: block '%.16s' of %u bytes truncated",
                           header, unsigned(length));
    const uint8_t* body = data + at;
    at += padded;
    if (!started) {
      if (!NameIs(header, "vela_bin_stream"))
        return Status::Error(ErrorCode::kInvalidProgram, "vela: missing vela_bin_stream");
      started = true;
      continue;
    }
    if (external != 0) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "vela: block '%.16s' is external named data, not supported", header);
    }
    if (NameIs(header, "vela_end_stream")) {
      ended = true;
    } else if (NameIs(header, "cmd_data")) {
      ESDK_RETURN_IF_ERROR(ParseCommandData(body, length, out));
      have_cmd = true;
    } else if (NameIs(header, "weight_data")) {
      out->weights = body;
      out->weights_size = length;
      have_weights = true;
    } else if (NameIs(header, "scratch_size")) {
      if (length != 4)
        return Status::Error(ErrorCode::kInvalidProgram, "vela: scratch_size block of %u bytes",
                             unsigned(length));
      out->scratch_size = ReadU32(body);
      have_scratch = true;
    } else if (NameIs(header, "inputs")) {
      ESDK_RETURN_IF_ERROR(ParseIos(body, length, "inputs", &out->inputs));
      have_inputs = true;
    } else if (NameIs(header, "outputs")) {
      ESDK_RETURN_IF_ERROR(ParseIos(body, length, "outputs", &out->outputs));
      have_outputs = true;
    } else {
      return Status::Error(ErrorCode::kInvalidProgram, "vela: unknown block '%.16s'", header);
    }
  }
  if (!(have_cmd && have_weights && have_scratch && have_inputs && have_outputs)) {
    return Status::Error(ErrorCode::kInvalidProgram, "vela: payload lacks a required block");
  }
  const VelaIoRecords* all[2] = {&out->inputs, &out->outputs};
  for (const VelaIoRecords* ios : all) {
    for (int i = 0; i < ios->count; ++i) {
      const VelaIo io = (*ios)[i];
      if (io.region != hw::kScratchRegion)
        return Status::Error(ErrorCode::kInvalidProgram,
                             "vela: I/O in region %d, only scratch (1) supported", int(io.region));
      if (size_t(io.offset) > out->scratch_size ||
          io.bytes() > out->scratch_size - size_t(io.offset)) {
        return Status::Error(ErrorCode::kInvalidProgram, "vela: I/O %d outside scratch", i);
      }
    }
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends::ethosu
