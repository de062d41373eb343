// The interface a delegate (e.g. the Ethos-U backend) implements.
//
// At method load, for every BackendDelegate of the method, the runtime finds
// the Backend whose Id() equals the delegate's id and calls Init once with
// the processed payload (read in place from the .pte) and the compile specs.
// Each DelegateCall instruction then calls Execute with that handle and the
// call's argument values (inputs, then outputs, as the .pte lists them).
// Memory a backend needs for its handle comes from `init.arena`: the method's
// arena, allocated before execution starts; no heap.
#ifndef ETHOSU_SDK_CC_RUNTIME_BACKEND_H_
#define ETHOSU_SDK_CC_RUNTIME_BACKEND_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/arena.h"
#include "cc/core/status.h"
#include "cc/runtime/value.h"

namespace ethosu_sdk::runtime {

struct CompileSpec {
  Span<const char> key;  // not NUL-terminated
  Span<const uint8_t> value;
};

struct DelegateInit {
  Span<const uint8_t> processed;  // lives as long as the program buffer
  Span<const CompileSpec> compile_specs;
  Arena* arena;  // for the handle and any state
};

class Backend {
 public:
  // Matched against BackendDelegate.id, e.g. "EthosUBackend".
  virtual const char* Id() const = 0;
  // Validates the payload and prepares a handle for Execute.
  virtual Status Init(const DelegateInit& init, void** handle) = 0;
  // Runs one delegate call; `args` are the DelegateCall's values.
  virtual Status Execute(void* handle, Span<Value* const> args) = 0;

 protected:
  ~Backend() = default;  // backends are static objects, never deleted through this
};

class BackendRegistry {
 public:
  constexpr BackendRegistry() = default;
  constexpr BackendRegistry(Backend* const* backends, size_t count)
      : backends_(backends), count_(count) {}
  Backend* Find(const char* id, size_t id_size) const;

 private:
  Backend* const* backends_ = nullptr;
  size_t count_ = 0;
};

}  // namespace ethosu_sdk::runtime

#endif  // ETHOSU_SDK_CC_RUNTIME_BACKEND_H_
