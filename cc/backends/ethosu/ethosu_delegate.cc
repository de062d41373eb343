#include "cc/backends/ethosu/ethosu_delegate.h"

#include <cstring>

namespace ethosu {

Status ExecuteVelaPayload(const VelaPayload& payload, const DelegateBuffers& b,
                          npu::RunStats* stats) {
  if (b.num_inputs != payload.num_inputs || b.num_outputs != payload.num_outputs) {
    return Status::Error("delegate: got %d inputs/%d outputs, payload has %d/%d", b.num_inputs,
                         b.num_outputs, payload.num_inputs, payload.num_outputs);
  }
  if (b.scratch == nullptr || b.scratch_size < payload.scratch_size) {
    return Status::Error("delegate: scratch of %u bytes, payload needs %u",
                         unsigned(b.scratch_size), unsigned(payload.scratch_size));
  }
  for (int i = 0; i < b.num_inputs; ++i) {
    const VelaIo& io = payload.inputs[i];
    if (b.inputs[i] == nullptr || b.input_sizes[i] != io.bytes()) {
      return Status::Error("delegate: input %d has %u bytes, expected %u", i,
                           unsigned(b.input_sizes[i]), unsigned(io.bytes()));
    }
  }
  for (int i = 0; i < b.num_outputs; ++i) {
    const VelaIo& io = payload.outputs[i];
    if (b.outputs[i] == nullptr || b.output_sizes[i] != io.bytes()) {
      return Status::Error("delegate: output %d has %u bytes, expected %u", i,
                           unsigned(b.output_sizes[i]), unsigned(io.bytes()));
    }
  }
  // Parsing checked that every I/O lies inside payload.scratch_size.
  for (int i = 0; i < b.num_inputs; ++i) {
    memcpy(b.scratch + payload.inputs[i].offset, b.inputs[i], b.input_sizes[i]);
  }
  npu::Region regions[npu::kNumRegions];
  regions[0].read = payload.weights;
  regions[0].size = payload.weights_size;
  regions[1].read = b.scratch;
  regions[1].write = b.scratch;
  regions[1].size = payload.scratch_size;
  if (b.fast_scratch != nullptr) {
    regions[2].read = b.fast_scratch;
    regions[2].write = b.fast_scratch;
    regions[2].size = b.fast_scratch_size;
  }
  const npu::Status status = npu::RunCommandStream(payload.npu, payload.commands,
                                                   payload.num_commands, regions, b.workspace,
                                                   stats, b.limits, b.observer);
  if (!status.ok()) return status;
  for (int i = 0; i < b.num_outputs; ++i) {
    memcpy(b.outputs[i], b.scratch + payload.outputs[i].offset, b.output_sizes[i]);
  }
  return Status::Ok();
}

}  // namespace ethosu
