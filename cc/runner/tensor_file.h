// Reader of the SDK's tensor files (schema/tensor_file.md), in place: no
// copies, no heap. Every size is checked against the file before use.
#ifndef ETHOSU_SDK_CC_RUNNER_TENSOR_FILE_H_
#define ETHOSU_SDK_CC_RUNNER_TENSOR_FILE_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "cc/runtime/tensor.h"

namespace ethosu_sdk::runner {

struct TensorRecord {
  runtime::Tensor tensor;  // data points into the file
  float scale = 0.0f;
  int32_t zero_point = 0;
};

class TensorFile {
 public:
  // `data` must be 8-byte aligned and outlive the TensorFile.
  static Status Parse(const void* data, size_t size, TensorFile* out);
  uint32_t count() const { return count_; }
  // Record `index`; walks the records from the start (files are small).
  Status Get(uint32_t index, TensorRecord* out) const;

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  uint32_t count_ = 0;
};

}  // namespace ethosu_sdk::runner

#endif  // ETHOSU_SDK_CC_RUNNER_TENSOR_FILE_H_
