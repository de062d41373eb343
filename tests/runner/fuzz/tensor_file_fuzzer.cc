// libFuzzer target: arbitrary bytes as a tensor file (schema/tensor_file.md),
// the format the runners read inputs and reference outputs from. Parses it,
// then reads every record and every byte of every record's data, so ASan
// reports any record that the parser lets point outside the file.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cc/runner/tensor_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An exactly-sized copy, so ASan sees reads past the end of the input;
  // operator new aligns it to 16, more than the 8 that Parse requires.
  const std::vector<uint8_t> copy(data, data + size);
  const uint8_t* bytes = copy.data();

  ethosu_sdk::runner::TensorFile file;
  if (!ethosu_sdk::runner::TensorFile::Parse(bytes, size, &file).ok()) return 0;
  // Get walks from the start each time: cap the walk so a file claiming
  // millions of empty records does not make one input take seconds.
  const uint32_t count = file.count() < 64 ? file.count() : 64;
  uint32_t checksum = 0;
  for (uint32_t i = 0; i < count; ++i) {
    ethosu_sdk::runner::TensorRecord record;
    if (!file.Get(i, &record).ok()) __builtin_trap();  // Parse accepted it
    const uint8_t* p = static_cast<const uint8_t*>(record.tensor.data);
    if (p < bytes || record.tensor.nbytes > size ||
        p - bytes > static_cast<ptrdiff_t>(size - record.tensor.nbytes)) {
      __builtin_trap();  // data outside the file
    }
    for (size_t b = 0; b < record.tensor.nbytes; ++b) checksum += p[b];
  }
  // Keep the reads.
  volatile uint32_t sink = checksum;
  (void)sink;
  return 0;
}
