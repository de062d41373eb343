#include "cc/runtime/backend.h"

#include <cstring>

namespace ethosu_sdk::runtime {

Backend* BackendRegistry::Find(const char* id, size_t id_size) const {
  for (size_t i = 0; i < count_; ++i) {
    const char* name = backends_[i]->Id();
    if (std::strlen(name) == id_size && std::memcmp(name, id, id_size) == 0) return backends_[i];
  }
  return nullptr;
}

}  // namespace ethosu_sdk::runtime
