#include "cc/backends/ethosu/delegate_io.h"

#include <cstring>

namespace ethosu_sdk::backends::ethosu {

void PlaceIos(const VelaIoRecords& records, IoPlace* places) {
  for (int i = 0; i < records.count; ++i) {
    const VelaIo io = records[i];
    places[i] = {size_t(io.offset), io.bytes()};
  }
}

Status RunDelegate(const VelaPayload& payload, const DelegateIo& b, Npu& npu) {
  if (b.num_inputs != payload.inputs.count || b.num_outputs != payload.outputs.count) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "delegate: got %d inputs/%d outputs, payload has %d/%d", b.num_inputs,
                         b.num_outputs, payload.inputs.count, payload.outputs.count);
  }
  if (b.scratch == nullptr || b.scratch_size < payload.scratch_size) {
    return Status::Error(ErrorCode::kOutOfMemory, "delegate: scratch of %u bytes, payload needs %u",
                         unsigned(b.scratch_size), unsigned(payload.scratch_size));
  }
  if ((b.num_inputs > 0 && b.input_places == nullptr) ||
      (b.num_outputs > 0 && b.output_places == nullptr)) {
    return Status::Error(ErrorCode::kInvalidArgument, "delegate: I/O places not decoded");
  }
  for (int i = 0; i < b.num_inputs; ++i) {
    const size_t bytes = b.input_places[i].bytes;
    if (b.inputs[i] == nullptr || b.input_sizes[i] != bytes) {
      return Status::Error(ErrorCode::kInvalidArgument,
                           "delegate: input %d has %u bytes, expected %u", i,
                           unsigned(b.input_sizes[i]), unsigned(bytes));
    }
  }
  for (int i = 0; i < b.num_outputs; ++i) {
    const size_t bytes = b.output_places[i].bytes;
    if (b.outputs[i] == nullptr || b.output_sizes[i] != bytes) {
      return Status::Error(ErrorCode::kInvalidArgument,
                           "delegate: output %d has %u bytes, expected %u", i,
                           unsigned(b.output_sizes[i]), unsigned(bytes));
    }
  }
  // Parsing checked that every I/O lies inside payload.scratch_size.
  for (int i = 0; i < b.num_inputs; ++i) {
    memcpy(b.scratch + b.input_places[i].offset, b.inputs[i], b.input_sizes[i]);
  }
  hw::Job job;
  job.commands = payload.commands;
  job.num_words = payload.num_commands;
  job.compiled = payload.compiled;
  // Weights are only read; the NPU never writes them.
  job.regions[hw::kWeightsRegion] = {const_cast<uint8_t*>(payload.weights), payload.weights_size,
                                     false};
  job.regions[hw::kScratchRegion] = {b.scratch, payload.scratch_size, true};
  if (b.fast_scratch != nullptr) {
    job.regions[hw::kFastScratchRegion] = {b.fast_scratch, b.fast_scratch_size, true};
  }
  ESDK_RETURN_IF_ERROR(npu.Run(job));
  for (int i = 0; i < b.num_outputs; ++i) {
    memcpy(b.outputs[i], b.scratch + b.output_places[i].offset, b.output_sizes[i]);
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends::ethosu
