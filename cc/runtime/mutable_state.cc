#include "cc/runtime/mutable_state.h"

#include <cstring>

#include "schema/program_generated.h"

namespace ethosu_sdk::runtime {

namespace fb = ::executorch_flatbuffer;

Status LoadInitialState(const Program& program, const fb::Tensor* t, const Tensor& placed) {
  // ExecuTorch's schema: the tensor's extra info names the entry of
  // mutable_data_segments, entry 0 without it.
  const fb::ExtraTensorInfo* extra = t->extra_tensor_info();
  const uint64_t entry = extra != nullptr ? extra->mutable_data_segments_idx() : 0;
  ESDK_ASSIGN_OR_RETURN(const void* data,
                        program.MutableData(entry, t->data_buffer_idx(), placed.nbytes));
  if (placed.nbytes > 0) std::memcpy(placed.data, data, placed.nbytes);
  return Status::Ok();
}

}  // namespace ethosu_sdk::runtime
