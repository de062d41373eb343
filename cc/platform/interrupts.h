// Interrupts on the Cortex-M boards: route a device's external interrupt to
// a handler, and sleep (WFI) until it arrives with a periodic wake-up so a
// device that never interrupts cannot hang the core. Implemented in
// cc/platform/cortex_m (the vector table); not available on the host.
#ifndef ETHOSU_SDK_CC_PLATFORM_INTERRUPTS_H_
#define ETHOSU_SDK_CC_PLATFORM_INTERRUPTS_H_

namespace ethosu_sdk::platform {

// External interrupts the vector table covers (SSE-300: 96; the SSE-320's
// NPU is IRQ 16).
inline constexpr int kNumExternalIrqs = 96;

using InterruptHandler = void (*)(void* context);

// Routes external interrupt `irq` to `handler` and enables it in the NVIC.
// False when `irq` is outside the vector table. Interrupts nobody attached
// still report and end the program.
bool AttachInterrupt(int irq, InterruptHandler handler, void* context);

// A periodic SysTick interrupt (a few ms of core clock) whose only job is
// to end WFI, so waits can check their deadline.
void StartWakeTimer();
void StopWakeTimer();

// Sleeps until an interrupt unless `done` is already set. Interrupts are
// masked around the check, so one arriving just before WFI still wakes it.
void WaitForInterrupt(const volatile bool& done);

}  // namespace ethosu_sdk::platform

#endif  // ETHOSU_SDK_CC_PLATFORM_INTERRUPTS_H_
