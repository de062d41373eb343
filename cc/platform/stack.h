// The stack's high-water mark, for the firmware's memory report: the free
// stack is painted with a pattern early in main, and the words the pattern
// no longer holds at the end are the deepest the stack went (interrupt
// handlers included: they share the main stack).
#ifndef ETHOSU_SDK_CC_PLATFORM_STACK_H_
#define ETHOSU_SDK_CC_PLATFORM_STACK_H_

#include <cstddef>

namespace ethosu_sdk::platform {

// Fills the stack below the caller's frame with the pattern. Call once,
// first thing in main, before any interrupt is enabled.
void PaintStack();

// Bytes from the stack's top down to the lowest word that no longer holds
// the pattern: the high-water mark since PaintStack. 0 on the host.
size_t StackHighWater();

// The stack's size (the linker script's), 0 on the host.
size_t StackSize();

}  // namespace ethosu_sdk::platform

#endif  // ETHOSU_SDK_CC_PLATFORM_STACK_H_
