// Reader of the SDK's tensor files (schema/tensor_file.md), in place: no
// copies, no heap. Every size is checked against the file before use.
#ifndef ETHOSU_SDK_CC_RUNNER_TENSOR_FILE_H_
#define ETHOSU_SDK_CC_RUNNER_TENSOR_FILE_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "cc/runtime/tensor.h"

namespace ethosu_sdk::runner {

// An expected output may differ from its record by this many quantization
// steps unless the record says otherwise (version 1 files always).
constexpr uint32_t kDefaultToleranceSteps = 1;
// A record asking for more is damaged (the widest allowance the AOT step
// writes is 2^20, a 32-bit TABLE output's: python/ethosu_sdk/tosa_tables.py).
constexpr uint32_t kMaxToleranceSteps = uint32_t(1) << 24;

struct TensorRecord {
  runtime::Tensor tensor;  // data points into the file
  float scale = 0.0f;
  int32_t zero_point = 0;
  uint32_t tolerance_steps = kDefaultToleranceSteps;
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
  size_t record_header_ = 0;  // by version: 56 bytes (1) or 64 (2)
};

}  // namespace ethosu_sdk::runner

#endif  // ETHOSU_SDK_CC_RUNNER_TENSOR_FILE_H_
