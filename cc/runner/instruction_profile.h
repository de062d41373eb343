// Where one Execute's time goes, instruction by instruction (PROTOCOL.md's
// PROFILE records): board timer ticks from the end of one instruction to the
// end of the next, read through the method's instruction hook from the same
// start as the run's TIME, so the counts add up to it but for Execute's own
// exit. On QEMU (-icount shift=0: one nanosecond per instruction) a tick is
// 1e9 / ticks_per_second instructions, as for TIME.
#ifndef ETHOSU_SDK_CC_RUNNER_INSTRUCTION_PROFILE_H_
#define ETHOSU_SDK_CC_RUNNER_INSTRUCTION_PROFILE_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/arena.h"
#include "cc/core/span.h"
#include "cc/runtime/method.h"

namespace ethosu_sdk::runner {

class InstructionProfile {
 public:
  // One count per instruction from `arena`; false (and no profile) when the
  // arena has no room for them.
  bool Attach(runtime::Method* method, Arena* arena);
  // Clears the counts; the next Execute starts at `start` ticks.
  void Start(uint64_t start);
  // One PROFILE record per instruction, of the last Execute.
  void Print(const runtime::Method& method) const;

 private:
  static void After(void* self, size_t pc);

  Span<uint64_t> ticks_;
  uint64_t last_ = 0;
};

}  // namespace ethosu_sdk::runner

#endif  // ETHOSU_SDK_CC_RUNNER_INSTRUCTION_PROFILE_H_
