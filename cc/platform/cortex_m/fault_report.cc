#include "cc/platform/cortex_m/fault_report.h"

#include <cstdint>

#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

namespace ethosu_sdk::platform {
namespace {

uint32_t ReadReg(uintptr_t address) { return *reinterpret_cast<volatile uint32_t*>(address); }

constexpr uintptr_t kIcsr = 0xE000ED04;   // VECTACTIVE: which exception is active
constexpr uintptr_t kCfsr = 0xE000ED28;   // configurable fault status
constexpr uintptr_t kHfsr = 0xE000ED2C;   // hard fault status
constexpr uintptr_t kMmfar = 0xE000ED34;  // memory-management fault address
constexpr uintptr_t kBfar = 0xE000ED38;   // bus fault address

const char* ExceptionName(uint32_t vector) {
  switch (vector) {
    case 2:
      return "NMI";
    case 3:
      return "HardFault";
    case 4:
      return "MemManage";
    case 5:
      return "BusFault";
    case 6:
      return "UsageFault";
    case 7:
      return "SecureFault";
    case 11:
      return "SVCall";
    case 12:
      return "DebugMonitor";
    case 14:
      return "PendSV";
    case 15:
      return "SysTick";
    default:
      return vector >= 16 ? "IRQ" : "unknown";
  }
}

}  // namespace

void ReportFaultAndExit() {
  const uint32_t vector = ReadReg(kIcsr) & 0x1FF;
  char line[160];
  TextBuilder text(line, sizeof(line));
  text.Str("FAULT ").Str(ExceptionName(vector)).Str(" vector=").UInt(vector);
  text.Str(" cfsr=0x").Hex(ReadReg(kCfsr), 8).Str(" hfsr=0x").Hex(ReadReg(kHfsr), 8);
  text.Str(" mmfar=0x").Hex(ReadReg(kMmfar), 8).Str(" bfar=0x").Hex(ReadReg(kBfar), 8).Char('\n');
  ConsoleWrite(text.c_str(), text.size());
  Exit(kFaultExitStatus);
}

}  // namespace ethosu_sdk::platform
