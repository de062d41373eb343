// One delegate call on an Npu: checks the caller's tensors against Vela's
// I/O records, copies inputs into the scratch arena at their offsets, binds
// the regions (0 weights, 1 scratch, 2 fast scratch), runs, and copies the
// outputs out.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/backends/ethosu/npu_interface.h"
#include "cc/backends/ethosu/vela_payload.h"

namespace ethosu_sdk::backends::ethosu {

// Where one I/O lies in the scratch region: its Vela record decoded once
// (at Init), not on every call.
struct IoPlace {
  size_t offset = 0;
  size_t bytes = 0;
};

// Decodes `records` (validated by ParseVelaPayload) into places[0..count).
void PlaceIos(const VelaIoRecords& records, IoPlace* places);

struct DelegateIo {
  const IoPlace* input_places = nullptr;  // one per payload input (PlaceIos)
  const IoPlace* output_places = nullptr;
  const void* const* inputs = nullptr;
  const size_t* input_sizes = nullptr;
  int num_inputs = 0;
  void* const* outputs = nullptr;
  const size_t* output_sizes = nullptr;
  int num_outputs = 0;
  uint8_t* scratch = nullptr;  // at least payload.scratch_size bytes
  size_t scratch_size = 0;
  uint8_t* fast_scratch = nullptr;  // optional region 2
  size_t fast_scratch_size = 0;
};

Status RunDelegate(const VelaPayload& payload, const DelegateIo& io, Npu& npu);

}  // namespace ethosu_sdk::backends::ethosu
