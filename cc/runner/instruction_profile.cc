#include "cc/runner/instruction_profile.h"

#include "cc/platform/platform.h"
#include "cc/runner/protocol.h"

namespace ethosu_sdk::runner {

bool InstructionProfile::Attach(runtime::Method* method, Arena* arena) {
  const size_t count = method->InstructionCount();
  uint64_t* ticks = arena->New<uint64_t>(count);
  if (ticks == nullptr && count > 0) return false;
  ticks_ = Span<uint64_t>(ticks, count);
  runtime::Method::InstructionHook hook;
  hook.after = &InstructionProfile::After;
  hook.context = this;
  method->SetInstructionHook(hook);
  return true;
}

void InstructionProfile::Start(uint64_t start) {
  for (uint64_t& t : ticks_) t = 0;
  last_ = start;
}

void InstructionProfile::After(void* self, size_t pc) {
  auto* profile = static_cast<InstructionProfile*>(self);
  const uint64_t now = platform::TimerTicks();
  profile->ticks_[pc] += now - profile->last_;  // a jump loop adds up per instruction
  profile->last_ = now;
}

void InstructionProfile::Print(const runtime::Method& method) const {
  for (size_t pc = 0; pc < ticks_.size(); ++pc) {
    PrintProfile(pc, ticks_[pc], method.InstructionName(pc));
  }
}

}  // namespace ethosu_sdk::runner
