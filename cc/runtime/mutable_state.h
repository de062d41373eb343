// Mutable buffers: program state that persists across Execute calls
// (`register_buffer` updated in place, a KV cache). ExecuTorch plans them
// for the whole program, so no other tensor reuses their bytes, and writes
// them back in place (aten::copy_, index_put_); the caller's planned arenas
// outlive the calls, so the state survives from one Execute to the next.
// A buffer with an initial state (ExecuTorch's InitializedMutableBufferPass)
// carries it in the program's mutable data segment: it is copied into the
// planned memory once, when the method loads. One without starts as the
// caller's arena holds it (zeros in the runners, as in ExecuTorch's).
#ifndef ETHOSU_SDK_CC_RUNTIME_MUTABLE_STATE_H_
#define ETHOSU_SDK_CC_RUNTIME_MUTABLE_STATE_H_

#include "cc/core/status.h"
#include "cc/runtime/program.h"
#include "cc/runtime/tensor.h"

namespace executorch_flatbuffer {
struct Tensor;
}  // namespace executorch_flatbuffer

namespace ethosu_sdk::runtime {

// Copies the initial state of serialized tensor `t` (memory planned, with a
// data_buffer_idx) into `placed`'s planned memory, after checking that the
// program's mutable data segment holds `placed.nbytes` there.
Status LoadInitialState(const Program& program, const executorch_flatbuffer::Tensor* t,
                        const Tensor& placed);

}  // namespace ethosu_sdk::runtime

#endif  // ETHOSU_SDK_CC_RUNTIME_MUTABLE_STATE_H_
