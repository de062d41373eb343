// Probes the SDK's QEMU corstone-320 machine from a firmware built for the
// corstone320 board (the same ELF as for Arm's FVP). Prints what it reads as
// `key=0x...` lines; corstone320_machine_test.py decides what is right.
//
// Without arguments it surveys the machine: the core's CPUID, every memory
// through its secure and non-secure alias, the boot ROM, UART0, the SLOWCLK
// timer and its IRQ, the DWT cycle counter, and the Ethos-U85 (ID/CONFIG and
// IRQ 16 raised by a one-command stream, then cleared). With the semihosting
// arguments `read <hex address>` it reads that one word: where nothing is
// mapped the bus faults and the fault report ends the run.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cc/ethosu/mmio.h"
#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

namespace {

namespace mmio = ethosu_sdk::ethosu::mmio;

// Corstone-320 addresses (TF-M's platform_base_address.h for MPS4
// Corstone-320; sizes from platforms/boards/corstone320.bzl).
struct Region {
  const char* name;
  uintptr_t secure;
  uintptr_t non_secure;
  uint32_t size;
};
constexpr Region kRegions[] = {
    {"itcm", 0x10000000, 0x00000000, 32 * 1024},
    {"bram", 0x12000000, 0x01000000, 2 * 1024 * 1024},
    {"dtcm", 0x30000000, 0x20000000, 32 * 1024},
    {"sram", 0x31000000, 0x21000000, 4 * 1024 * 1024},
    {"ddr", 0x70000000, 0x60000000, 256 * 1024 * 1024},
};
constexpr uintptr_t kBootRom = 0x11000000;
constexpr uintptr_t kUart0Secure = 0x59303000;
constexpr uintptr_t kUart0NonSecure = 0x49303000;
constexpr uintptr_t kSlowTimer = 0x5802F000;  // CMSDK timer, 32.768 kHz
constexpr int kSlowTimerIrq = 2;
constexpr uintptr_t kNpuNonSecure = 0x40004000;
constexpr uintptr_t kCpuid = 0xE000ED00;
constexpr uintptr_t kDemcr = 0xE000EDFC;    // TRCENA: bit 24
constexpr uintptr_t kDwtCtrl = 0xE0001000;  // CYCCNTENA: bit 0
constexpr uintptr_t kDwtCyccnt = 0xE0001004;
// NVIC set-pending / clear-pending registers (one bit per interrupt).
constexpr uintptr_t kNvicIspr = 0xE000E200;
constexpr uintptr_t kNvicIcpr = 0xE000E280;

volatile uint32_t& Reg(uintptr_t address) { return *reinterpret_cast<volatile uint32_t*>(address); }

uint32_t Pending(int irq) { return (Reg(kNvicIspr + 4 * (irq / 32)) >> (irq % 32)) & 1u; }
void ClearPending(int irq) { Reg(kNvicIcpr + 4 * (irq / 32)) = 1u << (irq % 32); }

void Print(const char* key, uint64_t value) {
  char line[64];
  ethosu_sdk::TextBuilder text(line, sizeof(line));
  text.Str(key).Str("=0x").Hex(value, 8).Str("\n");
  ethosu_sdk::platform::ConsoleWrite(text.c_str(), text.size());
}

void Print2(const char* prefix, const char* key, uint64_t value) {
  char name[48];
  ethosu_sdk::TextBuilder text(name, sizeof(name));
  text.Str(prefix).Str("_").Str(key);
  Print(text.c_str(), value);
}

// Semihosting SYS_GET_CMDLINE (0x15): the arguments QEMU was given with
// -semihosting-config arg=...; the first is the program's name.
bool CommandLine(char* buffer, int size) {
  struct {
    char* buffer;
    int size;
  } block = {buffer, size};
  register uintptr_t r0 asm("r0") = 0x15;
  register void* r1 asm("r1") = &block;
  asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0 == 0;
}

uintptr_t ParseHex(const char* text) {
  uintptr_t value = 0;
  if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text += 2;
  for (; *text; ++text) {
    const char c = *text;
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) break;
    value = value * 16 + uintptr_t(digit);
  }
  return value;
}

// Writes through one alias, reads through the other, at both ends of the
// region; restores what was there (the firmware's own code and data live in
// BRAM, SRAM and DDR).
void ProbeRegion(const Region& region) {
  const uint32_t offsets[] = {0u, region.size - 4};
  for (const uint32_t offset : offsets) {
    volatile uint32_t& secure = Reg(region.secure + offset);
    volatile uint32_t& non_secure = Reg(region.non_secure + offset);
    const uint32_t saved = secure;
    secure = 0x5EC0A11A ^ offset;
    const uint32_t seen_ns = non_secure;
    non_secure = 0x0A11A5EC ^ offset;
    const uint32_t seen_s = secure;
    secure = saved;
    Print2(region.name, offset == 0 ? "first_s_to_ns" : "last_s_to_ns", seen_ns);
    Print2(region.name, offset == 0 ? "first_ns_to_s" : "last_ns_to_s", seen_s);
  }
}

void UartWrite(uintptr_t base, const char* text) {
  constexpr uint32_t kData = 0x00, kState = 0x04, kCtrl = 0x08, kBaudDiv = 0x10;
  Reg(base + kBaudDiv) = 16;  // the smallest divider CMSDK allows
  Reg(base + kCtrl) = 1;      // TX enable
  for (; *text; ++text) {
    while (Reg(base + kState) & 1u) {
    }
    Reg(base + kData) = uint8_t(*text);
  }
}

void ProbeTimer() {
  constexpr uint32_t kCtrl = 0x0, kValue = 0x4, kReload = 0x8, kIntStatus = 0xC;
  Reg(kSlowTimer + kReload) = 0xFFFFFFFF;
  Reg(kSlowTimer + kValue) = 0xFFFFFFFF;
  Reg(kSlowTimer + kCtrl) = 1;  // enable, no interrupt
  const uint32_t start = Reg(kSlowTimer + kValue);
  for (volatile int i = 0; i < 200000; ++i) {
  }
  Print("timer_elapsed", start - Reg(kSlowTimer + kValue));
  Print("timer_pending_without_irq_enable", Pending(kSlowTimerIrq));
  // Count down from 2 with the interrupt enabled: it raises IRQ 2.
  Reg(kSlowTimer + kCtrl) = 0;
  Reg(kSlowTimer + kReload) = 2;
  Reg(kSlowTimer + kValue) = 2;
  Reg(kSlowTimer + kCtrl) = 1 | 8;  // enable, interrupt enable
  for (volatile int i = 0; i < 20000; ++i) {
  }
  Reg(kSlowTimer + kCtrl) = 0;
  Print("timer_intstatus", Reg(kSlowTimer + kIntStatus));
  Print("timer_pending", Pending(kSlowTimerIrq));
  Reg(kSlowTimer + kIntStatus) = 1;
  ClearPending(kSlowTimerIrq);
  Print("timer_pending_after_clear", Pending(kSlowTimerIrq));
}

// NPU_OP_STOP (opcode 0, all-ones mask): the shortest valid stream.
alignas(16) const uint32_t kStream[] = {0xFFFF0000u};

void ProbeNpu() {
  const ethosu_sdk::platform::NpuLocation npu = ethosu_sdk::platform::BoardNpu();
  Print("board_npu_base", npu.base);
  Print("board_npu_irq", uint64_t(npu.irq));
  auto Npu = [&](uint32_t offset)->volatile uint32_t& { return Reg(npu.base + offset); };
  Print("npu_id", Npu(mmio::kId));
  Print("npu_id_ns", Reg(kNpuNonSecure + mmio::kId));
  Print("npu_config", Npu(mmio::kConfig));
  Print("npu_pending_at_boot", Pending(npu.irq));
  Npu(mmio::kReset) = mmio::prot::kPrivileged;
  for (int polls = 0; (Npu(mmio::kStatus) & mmio::status::kResetStatus) && polls < 1000; ++polls) {
  }
  Npu(mmio::kQbase) = uint32_t(reinterpret_cast<uintptr_t>(kStream));
  Npu(mmio::kQbaseHi) = 0;
  Npu(mmio::kQsize) = sizeof(kStream);
  Npu(mmio::kCmd) = mmio::cmd::kTransitionToRunning;
  Print("npu_status_after_start", Npu(mmio::kStatus));
  Print("npu_pending_after_start", Pending(npu.irq));
  Npu(mmio::kCmd) = mmio::cmd::kClearIrq;
  ClearPending(npu.irq);
  Print("npu_status_after_clear", Npu(mmio::kStatus));
  Print("npu_pending_after_clear", Pending(npu.irq));
}

}  // namespace

int main() {
  char line[96] = {};
  if (CommandLine(line, sizeof(line))) {
    const char* read = std::strstr(line, "read ");
    if (read) {
      const uintptr_t address = ParseHex(read + 5);
      Print("reading", address);
      Print("value", Reg(address));  // a bus fault ends the run in the fault report
      return 0;
    }
  }
  Print("cpuid", Reg(kCpuid));
  Print("brom_reset_vector", Reg(kBootRom + 4));
  const uint32_t rom_word = Reg(kBootRom + 4);
  Reg(kBootRom + 4) = ~rom_word;  // ROM: the write is ignored
  Print("brom_changed_by_write", Reg(kBootRom + 4) != rom_word);
  for (const Region& region : kRegions) ProbeRegion(region);
  Reg(kDemcr) |= 1u << 24;
  Reg(kDwtCtrl) |= 1u;
  const uint32_t cycles = Reg(kDwtCyccnt);
  for (volatile int i = 0; i < 1000; ++i) {
  }
  Print("dwt_elapsed", Reg(kDwtCyccnt) - cycles);
  UartWrite(kUart0Secure, "uart0 secure alias\n");
  UartWrite(kUart0NonSecure, "uart0 non-secure alias\n");
  ProbeTimer();
  ProbeNpu();
  return 0;
}
