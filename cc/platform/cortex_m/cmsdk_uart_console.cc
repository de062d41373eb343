// Console on the board's first CMSDK UART (SSE-300 boards), for images that
// must not depend on a debugger's semihosting for output. The board library
// compiles this file with ESDK_UART_BASE set.
#include <cstdint>

#include "cc/platform/platform.h"

#ifndef ESDK_UART_BASE
#error "the board library defines ESDK_UART_BASE"
#endif

namespace ethosu_sdk::platform {
namespace {

volatile uint32_t& Reg(uintptr_t offset) {
  return *reinterpret_cast<volatile uint32_t*>(ESDK_UART_BASE + offset);
}

constexpr uintptr_t kData = 0x00;
constexpr uintptr_t kState = 0x04;    // bit 0: transmit buffer full
constexpr uintptr_t kControl = 0x08;  // bit 0: transmit enable
constexpr uintptr_t kBaudDivider = 0x10;

void EnableOnce() {
  static bool enabled = false;
  if (enabled) return;
  Reg(kBaudDivider) = 217;  // 25 MHz / 115200: ignored by simulators, right for the FPGA
  Reg(kControl) = 1;
  enabled = true;
}

}  // namespace

void ConsoleWrite(const char* data, size_t size) {
  EnableOnce();
  for (size_t i = 0; i < size; ++i) {
    while ((Reg(kState) & 1u) != 0) {
    }
    Reg(kData) = static_cast<uint8_t>(data[i]);
  }
}

}  // namespace ethosu_sdk::platform
