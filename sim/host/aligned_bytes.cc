#include "sim/host/aligned_bytes.h"

#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

namespace ethosu_sdk::npu_harness {
namespace {

uint8_t* Allocate(size_t size) {
  if (size == 0) return nullptr;
  return static_cast<uint8_t*>(::operator new[](size, std::align_val_t(AlignedBytes::kAlignment)));
}

}  // namespace

void AlignedBytes::Free::operator()(uint8_t* bytes) const {
  ::operator delete[](bytes, std::align_val_t(kAlignment));
}

AlignedBytes::AlignedBytes(size_t size, uint8_t fill) : bytes_(Allocate(size)), size_(size) {
  if (size != 0) memset(bytes_.get(), fill, size);
}

AlignedBytes::AlignedBytes(const void* data, size_t size) : bytes_(Allocate(size)), size_(size) {
  if (size != 0) memcpy(bytes_.get(), data, size);
}

bool ReadFile(const char* path, AlignedBytes* out) {
  FILE* f = fopen(path, "rb");
  if (f == nullptr) return false;
  std::vector<uint8_t> bytes;
  uint8_t buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0)
    bytes.insert(bytes.end(), buffer, buffer + n);
  const bool ok = ferror(f) == 0;
  fclose(f);
  *out = AlignedBytes(bytes.data(), bytes.size());
  return ok;
}

}  // namespace ethosu_sdk::npu_harness
