// The stack between the linker script's __stack_limit__ and __stack_top__
// (sections.ld), painted and scanned word by word.
#include <cstdint>

#include "cc/platform/stack.h"

extern "C" uint32_t __stack_limit__[], __stack_top__[];

namespace ethosu_sdk::platform {
namespace {

// An unlikely word for a stack to hold: not 0, not a small integer, not an
// address in any board's memory map.
constexpr uint32_t kPaint = 0xC5A5C5A5u;

}  // namespace

// noinline: the stack pointer read here is below main's frame and above
// nothing in use, so every word under it is free.
__attribute__((noinline)) void PaintStack() {
  uint32_t* sp;
  __asm volatile("mov %0, sp" : "=r"(sp));
  // volatile: GCC would turn the loop into a memset call, whose frame lies
  // below sp, in the words being painted.
  for (volatile uint32_t* word = __stack_limit__; word < sp; ++word) *word = kPaint;
}

size_t StackHighWater() {
  const uint32_t* word = __stack_limit__;
  while (word < __stack_top__ && *word == kPaint) ++word;
  return static_cast<size_t>(reinterpret_cast<uintptr_t>(__stack_top__) -
                             reinterpret_cast<uintptr_t>(word));
}

size_t StackSize() {
  return static_cast<size_t>(reinterpret_cast<uintptr_t>(__stack_top__) -
                             reinterpret_cast<uintptr_t>(__stack_limit__));
}

}  // namespace ethosu_sdk::platform
