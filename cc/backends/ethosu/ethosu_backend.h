// The Ethos-U delegate as a runtime Backend (cc/runtime/backend.h): matches
// ExecuTorch's "EthosUBackend" delegates, parses their Vela payload at method
// load and runs it on an Npu (npu_interface.h) at every DelegateCall: the
// register-level driver in firmware, the functional model on the host.
//
// Memory: each delegate's scratch (Vela's region 1) comes from the method's
// arena at Init; nothing is allocated later. The fast scratch (region 2,
// the NPU's SRAM arena cache, which Vela's Dedicated_Sram modes use) is the
// platform's: one buffer, given at construction, that every delegate
// shares (they run one at a time). A delegate that needs more than it
// holds fails at Init, naming both sizes.
#ifndef ETHOSU_SDK_CC_BACKENDS_ETHOSU_ETHOSU_BACKEND_H_
#define ETHOSU_SDK_CC_BACKENDS_ETHOSU_ETHOSU_BACKEND_H_

#include <cstddef>
#include <cstdint>

#include "cc/backends/ethosu/npu_interface.h"
#include "cc/runtime/backend.h"

namespace ethosu_sdk::backends {

class EthosUBackend final : public runtime::Backend {
 public:
  explicit constexpr EthosUBackend(ethosu::Npu& npu, Span<uint8_t> fast_scratch = {})
      : npu_(npu), fast_scratch_(fast_scratch) {}

  const char* Id() const override { return "EthosUBackend"; }
  Status Init(const runtime::DelegateInit& init, void** handle) override;
  Status Execute(void* handle, Span<runtime::Value* const> args) override;

  // Totals over every Execute since start: for the run report. The NPU's
  // own figures come from the Npu implementation.
  uint32_t delegate_calls() const { return calls_; }
  // Board timer ticks spent in NPU jobs (copies, cache maintenance and the
  // wait for the NPU included).
  uint64_t ticks() const { return ticks_; }
  // Arena bytes taken for NPU scratch (region 1).
  size_t scratch_bytes() const { return scratch_bytes_; }
  // The most fast scratch (region 2) any delegate needs.
  size_t fast_scratch_needed() const { return fast_scratch_needed_; }

 private:
  ethosu::Npu& npu_;
  Span<uint8_t> fast_scratch_;
  uint32_t calls_ = 0;
  uint64_t ticks_ = 0;
  size_t scratch_bytes_ = 0;
  size_t fast_scratch_needed_ = 0;
};

}  // namespace ethosu_sdk::backends

#endif  // ETHOSU_SDK_CC_BACKENDS_ETHOSU_ETHOSU_BACKEND_H_
