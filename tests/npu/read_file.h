// Whole-file reads for the NPU test tools, into 8-byte aligned storage so
// that TensorFile and the payload parser can use the bytes in place.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace npu_tests {

inline bool ReadAlignedFile(const char* path, std::vector<uint64_t>* out, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (f == nullptr) return false;
  std::vector<uint8_t> bytes;
  uint8_t buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0) bytes.insert(bytes.end(), buffer, buffer + n);
  fclose(f);
  out->assign((bytes.size() + 7) / 8, 0);
  if (!bytes.empty()) memcpy(out->data(), bytes.data(), bytes.size());
  *size = bytes.size();
  return true;
}

}  // namespace npu_tests
