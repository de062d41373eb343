#include "sim/host/payload_harness.h"

#include "sim/host/model_npu.h"

namespace ethosu_sdk::npu_harness {

Status PayloadHarness::Bind(const backends::ethosu::VelaPayload& payload,
                            const HarnessOptions& options) {
  const size_t limit = options.max_buffer_bytes;
  if (payload.scratch_size > limit || payload.fast_scratch_size > limit) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "harness: scratch of %u bytes over the limit of %zu",
                         unsigned(payload.scratch_size), limit);
  }
  for (int i = 0; i < payload.inputs.count; ++i) {
    if (payload.inputs[i].bytes() > limit) {
      return Status::Error(ErrorCode::kInvalidArgument, "harness: input %d too large", i);
    }
  }
  for (int i = 0; i < payload.outputs.count; ++i) {
    if (payload.outputs[i].bytes() > limit) {
      return Status::Error(ErrorCode::kInvalidArgument, "harness: output %d too large", i);
    }
  }
  payload_ = &payload;
  inputs_.clear();
  outputs_.clear();
  uint32_t seed = options.input_seed;
  for (int i = 0; i < payload.inputs.count; ++i) {
    inputs_.emplace_back(payload.inputs[i].bytes(), options.input_fill);
    if (seed != 0) FillPseudoRandom(inputs_.back().data(), inputs_.back().size(), &seed);
  }
  for (int i = 0; i < payload.outputs.count; ++i) {
    outputs_.emplace_back(payload.outputs[i].bytes(), options.output_fill);
  }
  input_data_.assign(inputs_.size(), nullptr);
  input_sizes_.assign(inputs_.size(), 0);
  for (size_t i = 0; i < inputs_.size(); ++i) {
    input_data_[i] = inputs_[i].data();
    input_sizes_[i] = inputs_[i].size();
  }
  output_data_.assign(outputs_.size(), nullptr);
  output_sizes_.assign(outputs_.size(), 0);
  for (size_t i = 0; i < outputs_.size(); ++i) {
    output_data_[i] = outputs_[i].data();
    output_sizes_[i] = outputs_[i].size();
  }
  scratch_ = AlignedBytes(payload.scratch_size);
  fast_scratch_ = AlignedBytes(payload.fast_scratch_size);
  workspace_ = AlignedBytes(options.workspace_bytes);
  weight_cache_.reset();
  weight_cache_memory_ = AlignedBytes(options.weight_cache_bytes);
  if (!weight_cache_memory_.empty()) {
    weight_cache_ = std::make_unique<npu::WeightCache>(weight_cache_memory_.data(),
                                                       weight_cache_memory_.size());
  }

  input_places_.assign(size_t(payload.inputs.count), {});
  output_places_.assign(size_t(payload.outputs.count), {});
  backends::ethosu::PlaceIos(payload.inputs, input_places_.data());
  backends::ethosu::PlaceIos(payload.outputs, output_places_.data());
  buffers_ = DelegateBuffers();
  buffers_.input_places = input_places_.data();
  buffers_.output_places = output_places_.data();
  buffers_.inputs = input_data_.data();
  buffers_.input_sizes = input_sizes_.data();
  buffers_.num_inputs = payload.inputs.count;
  buffers_.outputs = output_data_.data();
  buffers_.output_sizes = output_sizes_.data();
  buffers_.num_outputs = payload.outputs.count;
  buffers_.scratch = scratch_.data();
  buffers_.scratch_size = scratch_.size();
  buffers_.fast_scratch = fast_scratch_.data();  // null when the stream has none
  buffers_.fast_scratch_size = fast_scratch_.size();
  buffers_.workspace = {workspace_.data(), workspace_.size(), weight_cache_.get()};
  buffers_.limits = options.limits;
  buffers_.observer = options.observer;
  return Status::Ok();
}

void PayloadHarness::UseInput(int index, const void* data, size_t size) {
  input_data_[size_t(index)] = data;
  input_sizes_[size_t(index)] = size;
}

Status PayloadHarness::Run(npu::RunStats* stats) const {
  if (payload_ == nullptr)
    return Status::Error(ErrorCode::kInvalidArgument, "harness: no payload bound");
  return ExecuteVelaPayload(*payload_, buffers_, stats);
}

Status PayloadHarness::RunStream(npu::RunStats* stats, WeightsBinding weights) {
  if (payload_ == nullptr)
    return Status::Error(ErrorCode::kInvalidArgument, "harness: no payload bound");
  ethosu::Region regions[ethosu::kNumRegions];
  if (weights == WeightsBinding::kBound) {
    // Read-only: the model never writes a region that is not writable.
    regions[ethosu::kWeightsRegion] = {const_cast<uint8_t*>(payload_->weights),
                                       payload_->weights_size, false};
  }
  regions[ethosu::kScratchRegion] = {scratch_.data(), scratch_.size(), true};
  if (!fast_scratch_.empty()) {
    regions[ethosu::kFastScratchRegion] = {fast_scratch_.data(), fast_scratch_.size(), true};
  }
  return npu::RunCommandStream(payload_->npu, payload_->commands, payload_->num_commands, regions,
                               buffers_.workspace, stats, buffers_.limits, buffers_.observer);
}

Status RunPayloadBytes(const uint8_t* data, size_t size, const HarnessOptions& options,
                       npu::RunStats* stats) {
  const AlignedBytes copy(data, size);
  backends::ethosu::VelaPayload payload;
  ESDK_RETURN_IF_ERROR(backends::ethosu::ParseVelaPayload(copy.data(), copy.size(), &payload));
  PayloadHarness harness;
  ESDK_RETURN_IF_ERROR(harness.Bind(payload, options));
  return harness.Run(stats);
}

void FillPseudoRandom(uint8_t* data, size_t size, uint32_t* state) {
  for (size_t i = 0; i < size; ++i) {
    *state = *state * 1664525u + 1013904223u;
    data[i] = uint8_t(*state >> 24);
  }
}

}  // namespace ethosu_sdk::npu_harness
