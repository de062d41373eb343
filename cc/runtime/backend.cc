#include "cc/runtime/backend.h"

#include "cc/core/span.h"

namespace ethosu_sdk::runtime {

Backend* BackendRegistry::Find(const char* id, size_t id_size) const {
  for (size_t i = 0; i < count_; ++i) {
    if (Equals({id, id_size}, backends_[i]->Id())) return backends_[i];
  }
  return nullptr;
}

}  // namespace ethosu_sdk::runtime
