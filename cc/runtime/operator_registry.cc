#include "cc/runtime/operator_registry.h"

#include <cstring>

namespace ethosu_sdk::runtime {

const KernelEntry* OperatorRegistry::Find(const char* name, size_t name_size, const char* overload,
                                          size_t overload_size) const {
  for (size_t i = 0; i < count_; ++i) {
    const char* entry = entries_[i].name;
    const size_t entry_size = std::strlen(entry);
    const size_t expected = overload_size == 0 ? name_size : name_size + 1 + overload_size;
    if (entry_size != expected || std::memcmp(entry, name, name_size) != 0) continue;
    if (overload_size != 0 && (entry[name_size] != '.' ||
                               std::memcmp(entry + name_size + 1, overload, overload_size) != 0)) {
      continue;
    }
    return &entries_[i];
  }
  return nullptr;
}

}  // namespace ethosu_sdk::runtime
