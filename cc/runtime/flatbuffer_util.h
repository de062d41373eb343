// Reading 8-byte vector elements from a verified flatbuffer. The Verifier
// checks the alignment of a vector's length field (4 bytes) but not of its
// elements, so a crafted file can place an int64 vector at a 4-byte boundary;
// Cortex-M faults on such loads (LDRD). Copying each element avoids that.
#ifndef ETHOSU_SDK_CC_RUNTIME_FLATBUFFER_UTIL_H_
#define ETHOSU_SDK_CC_RUNTIME_FLATBUFFER_UTIL_H_

#include <cstring>

#include "flatbuffers/flatbuffers.h"

namespace ethosu_sdk::runtime::internal {

template <typename T>
T VectorElement(const flatbuffers::Vector<T>* vector, flatbuffers::uoffset_t i) {
  T value;
  std::memcpy(&value, vector->Data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return flatbuffers::EndianScalar(value);
}

}  // namespace ethosu_sdk::runtime::internal

#endif  // ETHOSU_SDK_CC_RUNTIME_FLATBUFFER_UTIL_H_
