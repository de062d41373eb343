// Reset and fault handling shared by every Cortex-M board.
//
// The vector table goes where the board boots from (its linker script places
// .vectors in the VECTORS region). Reset enables
// the FPU and MVE before any compiled code can use them, sets up .data/.bss,
// runs static constructors and calls main().
#include <cstdint>

#include "cc/platform/cortex_m/fault_report.h"
#include "cc/platform/interrupts.h"
#include "cc/platform/platform.h"

extern "C" {
int main();
void initialise_monitor_handles();  // newlib rdimon: semihosting stdio
void __libc_init_array();

extern uint32_t __data_start__[], __data_end__[], __data_load__[];
extern uint32_t __bss_start__[], __bss_end__[];
extern uint32_t __ddr_bss_start__[], __ddr_bss_end__[];
extern uint32_t __stack_top__[];

// -nostartfiles drops crti/crtbegin; newlib's init code still calls these.
void* __dso_handle = nullptr;
void _init() {}
void _fini() {}

[[noreturn]] void Reset_Handler();
void esdk_irq_dispatch();  // interrupts.cc
void esdk_systick();
}

namespace {

constexpr uintptr_t kCpacr = 0xE000ED88;

// CP10/CP11 full access: the FPU and MVE. Must precede any FP instruction,
// including those GCC emits for memcpy/memset at -O2.
__attribute__((always_inline)) inline void EnableFpuAndMve() {
  *reinterpret_cast<volatile uint32_t*>(kCpacr) |= (0xFu << 20);
  __asm volatile("dsb\n isb" ::: "memory");
}

// Plain word loops: the C library is not usable before .data exists.
void CopyWords(uint32_t* dst, const uint32_t* src, const uint32_t* dst_end) {
  while (dst < dst_end) *dst++ = *src++;
}
void ZeroWords(uint32_t* dst, const uint32_t* dst_end) {
  while (dst < dst_end) *dst++ = 0;
}

[[noreturn]] void DefaultHandler() {
  EnableFpuAndMve();  // the fault may have hit before CPACR was set
  ethosu_sdk::platform::ReportFaultAndExit();
}

using Handler = void (*)();

}  // namespace

extern "C" [[noreturn]] void Reset_Handler() {
  EnableFpuAndMve();
  CopyWords(__data_start__, __data_load__, __data_end__);
  ZeroWords(__bss_start__, __bss_end__);
  ZeroWords(__ddr_bss_start__, __ddr_bss_end__);
  initialise_monitor_handles();
  __libc_init_array();
  // Static destructors are not run: a firmware never tears down.
  ethosu_sdk::platform::Exit(main());
}

// Armv8-M vector table: initial SP, 15 system exceptions, then interrupts.
// Armv7-M (the Cortex-M4/M7 boards) reads the same layout, with the
// SecureFault slot reserved and fewer interrupts wired (32 on QEMU's mps2).
// Every fault reports and exits non-zero. External interrupts go through
// esdk_irq_dispatch (interrupts.cc): to the handler a driver attached, or,
// unexpected, report and exit. SysTick is the wake-up timer for WFI.
// Listed in full (no constexpr function: the stack address is a link-time
// constant, which only an aggregate initializer keeps out of run-time init).
#define ESDK_IRQ8                                                                                \
  esdk_irq_dispatch, esdk_irq_dispatch, esdk_irq_dispatch, esdk_irq_dispatch, esdk_irq_dispatch, \
      esdk_irq_dispatch, esdk_irq_dispatch, esdk_irq_dispatch
constexpr int kVectors = 16 + ethosu_sdk::platform::kNumExternalIrqs;
static_assert(ethosu_sdk::platform::kNumExternalIrqs == 96,
              "the table below lists 12 x 8 interrupts");

// VTOR needs the table aligned to its size rounded up to a power of two.
__attribute__((section(".vectors"), used, aligned(512))) const Handler kVectorTable[kVectors] = {
    reinterpret_cast<Handler>(__stack_top__),
    Reset_Handler,
    DefaultHandler,  // NMI
    DefaultHandler,  // HardFault
    DefaultHandler,  // MemManage
    DefaultHandler,  // BusFault
    DefaultHandler,  // UsageFault
    DefaultHandler,  // SecureFault
    nullptr,
    nullptr,
    nullptr,
    DefaultHandler,  // SVCall
    DefaultHandler,  // DebugMonitor
    nullptr,
    DefaultHandler,  // PendSV
    esdk_systick,    // SysTick: the WFI wake-up timer
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
    ESDK_IRQ8,
};
#undef ESDK_IRQ8
