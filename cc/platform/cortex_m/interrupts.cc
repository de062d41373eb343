// External interrupt dispatch, the SysTick wake-up timer and WFI for every
// Cortex-M board (see cc/platform/interrupts.h). The vector table
// (startup.cc) points every external interrupt at esdk_irq_dispatch.
#include "cc/platform/interrupts.h"

#include <cstdint>

#include "cc/platform/cortex_m/fault_report.h"

namespace ethosu_sdk::platform {
namespace {

volatile uint32_t& Reg(uintptr_t address) { return *reinterpret_cast<volatile uint32_t*>(address); }

constexpr uintptr_t kNvicIser = 0xE000E100;  // set-enable, 32 IRQs a word
constexpr uintptr_t kNvicIcpr = 0xE000E280;  // clear-pending
constexpr uintptr_t kSysTickCsr = 0xE000E010;
constexpr uintptr_t kSysTickRvr = 0xE000E014;
constexpr uintptr_t kSysTickCvr = 0xE000E018;
constexpr uint32_t kSysTickEnable = 1u << 0, kSysTickInterrupt = 1u << 1,
                   kSysTickCoreClock = 1u << 2;
// ~8 ms at 32 MHz, 10 ms at 25 MHz: a timeout is noticed within one period.
constexpr uint32_t kWakePeriodCycles = 250'000;

struct Route {
  InterruptHandler handler;
  void* context;
};
Route routes[kNumExternalIrqs];

}  // namespace

bool AttachInterrupt(int irq, InterruptHandler handler, void* context) {
  if (irq < 0 || irq >= kNumExternalIrqs || handler == nullptr) return false;
  routes[irq] = {handler, context};
  const uint32_t bit = 1u << (uint32_t(irq) % 32);
  Reg(kNvicIcpr + 4u * (uint32_t(irq) / 32)) = bit;
  __asm volatile("dsb" ::: "memory");
  Reg(kNvicIser + 4u * (uint32_t(irq) / 32)) = bit;
  __asm volatile("dsb\n isb" ::: "memory");
  return true;
}

void StartWakeTimer() {
  Reg(kSysTickRvr) = kWakePeriodCycles - 1;
  Reg(kSysTickCvr) = 0;
  Reg(kSysTickCsr) = kSysTickEnable | kSysTickInterrupt | kSysTickCoreClock;
}

void StopWakeTimer() { Reg(kSysTickCsr) = 0; }

void WaitForInterrupt(const volatile bool& done) {
  __asm volatile("cpsid i" ::: "memory");
  // WFI wakes on a pending interrupt even while PRIMASK masks it; the
  // handler runs once interrupts are enabled again.
  if (!done) __asm volatile("dsb\n wfi" ::: "memory");
  __asm volatile("cpsie i\n isb" ::: "memory");
}

}  // namespace ethosu_sdk::platform

extern "C" void esdk_irq_dispatch() {
  uint32_t ipsr;
  __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
  const uint32_t irq = (ipsr & 0x1FFu) - 16u;
  if (irq < uint32_t(ethosu_sdk::platform::kNumExternalIrqs)) {
    const auto& route = ethosu_sdk::platform::routes[irq];
    if (route.handler != nullptr) {
      route.handler(route.context);
      return;
    }
  }
  ethosu_sdk::platform::ReportFaultAndExit();
}

// Only ends WFI; the waiting code checks its own deadline.
extern "C" void esdk_systick() {}
