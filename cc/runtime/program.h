// A .pte program held in caller memory: checks the extended header, verifies
// the flatbuffer and every segment range once, then hands out validated views
// of constant data and delegate payloads. Never copies the program.
#ifndef ETHOSU_SDK_CC_RUNTIME_PROGRAM_H_
#define ETHOSU_SDK_CC_RUNTIME_PROGRAM_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/result.h"
#include "cc/core/status.h"
#include "cc/runtime/value.h"

namespace executorch_flatbuffer {
struct Program;
struct ExecutionPlan;
struct BackendDelegateDataReference;
}  // namespace executorch_flatbuffer

namespace ethosu_sdk::runtime {

class Program {
 public:
  // The buffer must stay alive and unchanged while the Program and its
  // methods are used, and be 16-byte aligned (tensor data is read in place).
  static Result<Program> Load(const void* data, size_t size);
  // The same into `out`: only for sim/tests/device until it moves to the
  // Result form above (issue 29 moves that folder in another change).
  static Status Load(const void* data, size_t size, Program* out);

  size_t MethodCount() const;
  // The execution plan called `name`, or kNotFound.
  Result<const executorch_flatbuffer::ExecutionPlan*> FindMethod(const char* name) const;

  // Data of constant tensor `index` (Tensor.data_buffer_idx), at least
  // `nbytes` long, from the constant segment or the inline constant buffers.
  Result<const void*> ConstantData(uint32_t index, size_t nbytes) const;
  // Initial state of mutable buffer `index` (Tensor.data_buffer_idx) in
  // entry `entry` of the program's mutable data segments, at least `nbytes`
  // long (mutable_state.h).
  Result<const void*> MutableData(uint64_t entry, uint32_t index, size_t nbytes) const;
  // A delegate's processed payload (inline or in a segment).
  Result<Span<const uint8_t>> DelegateData(
      const executorch_flatbuffer::BackendDelegateDataReference* ref) const;

  const executorch_flatbuffer::Program* flatbuffer() const { return program_; }

 private:
  Result<Span<const uint8_t>> Segment(uint32_t index) const;

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  // Segment offsets are relative to this; 0 when the file has no segments.
  uint64_t segment_base_ = 0;
  const executorch_flatbuffer::Program* program_ = nullptr;
};

}  // namespace ethosu_sdk::runtime

#endif  // ETHOSU_SDK_CC_RUNTIME_PROGRAM_H_
