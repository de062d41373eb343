#include "cc/backends/ethosu/ethosu_backend.h"

#include "cc/backends/ethosu/delegate_io.h"
#include "cc/backends/ethosu/fast_scratch.h"
#include "cc/backends/ethosu/vela_payload.h"
#include "cc/core/span.h"
#include "cc/platform/platform.h"

namespace ethosu_sdk::backends {
namespace {

struct Handle {
  ethosu::VelaPayload payload;
  uint8_t* scratch = nullptr;
  uint8_t* fast_scratch = nullptr;  // region 2, if the payload needs one
  // One slot per Vela input and output, sized at Init from the payload's
  // own counts: a call fills them, so Execute needs no fixed-size array.
  const void** inputs = nullptr;
  size_t* input_sizes = nullptr;
  ethosu::IoPlace* input_places = nullptr;  // decoded at Init
  ethosu::IoPlace* output_places = nullptr;
  void** outputs = nullptr;
  size_t* output_sizes = nullptr;
};

// The call's pointer and size slots, from the method's arena.
Status AllocateIoSlots(Arena& arena, Handle* h) {
  const size_t n_in = static_cast<size_t>(h->payload.inputs.count);
  const size_t n_out = static_cast<size_t>(h->payload.outputs.count);
  h->inputs = arena.New<const void*>(n_in);
  h->input_sizes = arena.New<size_t>(n_in);
  h->outputs = arena.New<void*>(n_out);
  h->output_sizes = arena.New<size_t>(n_out);
  h->input_places = arena.New<ethosu::IoPlace>(n_in);
  h->output_places = arena.New<ethosu::IoPlace>(n_out);
  if ((n_in > 0 &&
       (h->inputs == nullptr || h->input_sizes == nullptr || h->input_places == nullptr)) ||
      (n_out > 0 &&
       (h->outputs == nullptr || h->output_sizes == nullptr || h->output_places == nullptr))) {
    return Status::Error(ErrorCode::kOutOfMemory,
                         "arena too small for the Ethos-U delegate's %lld input and %lld output "
                         "slots",
                         static_cast<long long>(n_in), static_cast<long long>(n_out));
  }
  ethosu::PlaceIos(h->payload.inputs, h->input_places);
  ethosu::PlaceIos(h->payload.outputs, h->output_places);
  return Status::Ok();
}

constexpr char kVelaFlagsKey[] = "compile_flags";

// Region-2 bytes the delegate needs: what its Vela flags say, else the
// payload's own default (U65 streams: ExecuTorch's Dedicated_Sram_384KB).
Status FastScratchNeeded(const runtime::DelegateInit& init, uint32_t payload_default,
                         uint32_t* bytes) {
  *bytes = payload_default;
  for (const runtime::CompileSpec& spec : init.compile_specs) {
    if (!Equals(spec.key, kVelaFlagsKey)) continue;
    bool found = false;
    uint32_t from_flags = 0;
    ESDK_RETURN_IF_ERROR(ethosu::FastScratchFromVelaFlags(spec.value, &found, &from_flags));
    if (found) *bytes = from_flags;
  }
  return Status::Ok();
}

// The delegate's failure as the runtime reports it: its own code and
// command offset, the message saying where it came from.
Status FromNpu(const Status& status) {
  if (status.ok()) return status;
  return Status::Error(status.code(), "Ethos-U: %s", status.message())
      .WithCommandOffset(status.command_offset());
}

}  // namespace

Status EthosUBackend::Init(const runtime::DelegateInit& init, void** handle) {
  if (init.arena == nullptr || handle == nullptr) {
    return Status::Error(ErrorCode::kInvalidArgument, "Ethos-U Init without an arena or handle");
  }
  // The command stream is read as 32-bit words in place.
  if (reinterpret_cast<uintptr_t>(init.processed.data()) % 4 != 0) {
    return Status::Error(ErrorCode::kInvalidProgram, "Ethos-U payload not 4-byte aligned");
  }
  Handle* h = init.arena->New<Handle>(1);
  if (h == nullptr)
    return Status::Error(ErrorCode::kOutOfMemory, "arena too small for the Ethos-U handle");
  ESDK_RETURN_IF_ERROR(
      FromNpu(ethosu::ParseVelaPayload(init.processed.data(), init.processed.size(), &h->payload)));

  ESDK_RETURN_IF_ERROR(AllocateIoSlots(*init.arena, h));
  h->scratch = static_cast<uint8_t*>(init.arena->Allocate(h->payload.scratch_size, 16));
  if (h->scratch == nullptr && h->payload.scratch_size > 0) {
    return Status::Error(ErrorCode::kOutOfMemory,
                         "arena too small for Ethos-U scratch: it needs %lld bytes, %lld are free",
                         static_cast<long long>(h->payload.scratch_size),
                         static_cast<long long>(init.arena->size() - init.arena->used()));
  }
  scratch_bytes_ += h->payload.scratch_size;
  uint32_t fast_needed = 0;
  ESDK_RETURN_IF_ERROR(
      FromNpu(FastScratchNeeded(init, h->payload.fast_scratch_size, &fast_needed)));
  if (fast_needed > fast_scratch_.size()) {
    return Status::Error(
        ErrorCode::kOutOfMemory,
        "Ethos-U fast scratch (region 2, the NPU's SRAM arena cache) too small for the model: "
        "%lld bytes, the model needs %lld",
        static_cast<long long>(fast_scratch_.size()), static_cast<long long>(fast_needed));
  }
  // Bound to exactly what Vela may use: a stray access beyond it faults.
  h->payload.fast_scratch_size = fast_needed;
  if (fast_needed > 0) h->fast_scratch = fast_scratch_.data();
  if (fast_needed > fast_scratch_needed_) fast_scratch_needed_ = fast_needed;
  *handle = h;
  return Status::Ok();
}

Status EthosUBackend::Execute(void* handle, Span<runtime::Value* const> args) {
  const Handle* h = static_cast<const Handle*>(handle);
  const ethosu::VelaPayload& payload = h->payload;
  const size_t expected = static_cast<size_t>(payload.inputs.count + payload.outputs.count);
  if (args.size() != expected) {
    return Status::Error(ErrorCode::kInvalidProgram,
                         "Ethos-U delegate call with %lld arguments, the payload expects %lld",
                         static_cast<long long>(args.size()), static_cast<long long>(expected));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const runtime::Value* value = args.data()[i];
    if (value == nullptr || !value->IsTensor() || value->tensor == nullptr ||
        value->tensor->data == nullptr) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "Ethos-U delegate argument %lld is not a tensor with memory",
                           static_cast<long long>(i));
    }
    const runtime::Tensor& tensor = *value->tensor;
    // Byte counts are checked against Vela's I/O records by the delegate.
    if (i < static_cast<size_t>(payload.inputs.count)) {
      h->inputs[i] = tensor.data;
      h->input_sizes[i] = tensor.nbytes;
    } else {
      const size_t o = i - static_cast<size_t>(payload.inputs.count);
      h->outputs[o] = tensor.data;
      h->output_sizes[o] = tensor.nbytes;
    }
  }
  ethosu::DelegateIo buffers;
  buffers.input_places = h->input_places;
  buffers.output_places = h->output_places;
  buffers.inputs = h->inputs;
  buffers.input_sizes = h->input_sizes;
  buffers.num_inputs = payload.inputs.count;
  buffers.outputs = h->outputs;
  buffers.output_sizes = h->output_sizes;
  buffers.num_outputs = payload.outputs.count;
  buffers.scratch = h->scratch;
  buffers.scratch_size = payload.scratch_size;
  buffers.fast_scratch = h->fast_scratch;
  buffers.fast_scratch_size = payload.fast_scratch_size;
  const uint64_t start = platform::TimerTicks();
  const Status status = ethosu::RunDelegate(payload, buffers, npu_);
  ticks_ += platform::TimerTicks() - start;
  ESDK_RETURN_IF_ERROR(FromNpu(status));
  ++calls_;
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends
