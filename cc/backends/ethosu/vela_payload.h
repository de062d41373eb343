// The Vela payload that ExecuTorch's Arm backend stores as the delegate's
// processed bytes (layout of executorch/backends/arm/arm_vela.py): named
// 16-byte-aligned blocks from "vela_bin_stream" to "vela_end_stream".
// Parsing only points into the caller's buffer; nothing is copied.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "cc/ethosu/payload_header.h"
#include "cc/ethosu/product.h"
#include "cc/ethosu/region.h"

namespace ethosu_sdk::backends::ethosu {

// The Ethos-U's own types (cc/ethosu); `ethosu` here names this namespace.
namespace hw = ::ethosu_sdk::ethosu;

struct VelaIo {
  int32_t shape[6];  // Vela pads every shape to 6-D
  int32_t element_size;
  int32_t offset;  // byte offset inside `region`
  int32_t region;  // base-pointer region (1: scratch)
  size_t bytes() const;
};

// Vela's I/O records ("inputs"/"outputs" blocks: 9 little-endian i32 each),
// read in place: any count the payload holds, validated once by the parser.
struct VelaIoRecords {
  const uint8_t* records = nullptr;
  int count = 0;
  VelaIo operator[](int i) const;  // 0 <= i < count
};

struct VelaPayload {
  // Register command stream (driver payload header already removed).
  const uint32_t* commands = nullptr;
  size_t num_commands = 0;
  hw::CompiledFor compiled;          // the COP1 header's words
  hw::NpuConfig npu;                 // what they name (hw::DecodeCompiledFor)
  const uint8_t* weights = nullptr;  // region 0, read-only
  size_t weights_size = 0;
  uint32_t scratch_size = 0;  // region 1 bytes the caller provides
  // Region 2 (fast scratch: dedicated SRAM for staged weights and feature
  // maps) bytes the caller provides; 0 if the stream does not use it.
  uint32_t fast_scratch_size = 0;
  VelaIoRecords inputs;
  VelaIoRecords outputs;
};

// Validates every block header, size and I/O record. `data` must stay alive
// and be 4-byte aligned (the command stream is read as 32-bit words).
Status ParseVelaPayload(const uint8_t* data, size_t size, VelaPayload* out);

}  // namespace ethosu_sdk::backends::ethosu
