// Probes the Ethos-U device of the SDK's QEMU at Corstone-300's NPU address:
// ID/CONFIG through both aliases, soft reset and PROT, a one-command stream
// (NPU_OP_STOP) started with CMD, the IRQ at the NVIC (IRQ 56), and its
// clear. Prints what it reads as `key=value` lines; npu_device_test.py
// decides what is right for the device configuration it started QEMU with.
#include <cstdint>

#include "cc/ethosu/mmio.h"
#include "cc/platform/platform.h"
#include "cc/support/text_builder.h"

namespace {

namespace mmio = ethosu_sdk::ethosu::mmio;

constexpr uintptr_t kNpuSecure = 0x58102000;
constexpr uintptr_t kNpuNonSecure = 0x48102000;
constexpr int kNpuIrq = 56;
// NVIC set-pending / clear-pending registers (one bit per interrupt).
constexpr uintptr_t kNvicIspr = 0xE000E200;
constexpr uintptr_t kNvicIcpr = 0xE000E280;

volatile uint32_t& Reg(uintptr_t base, uint32_t offset) {
  return *reinterpret_cast<volatile uint32_t*>(base + offset);
}
volatile uint32_t& Npu(uint32_t offset) { return Reg(kNpuSecure, offset); }

uint32_t IrqPending() { return (Reg(kNvicIspr, 4 * (kNpuIrq / 32)) >> (kNpuIrq % 32)) & 1u; }

void Print(const char* key, uint64_t value) {
  char line[64];
  ethosu_sdk::TextBuilder text(line, sizeof(line));
  text.Str(key).Str("=0x").Hex(value, 8).Str("\n");
  ethosu_sdk::platform::ConsoleWrite(text.c_str(), text.size());
}

// NPU_OP_STOP (opcode 0, all-ones mask): the shortest valid stream.
constexpr uint32_t kStop = 0xFFFF0000u;
alignas(16) const uint32_t kStream[] = {kStop};

// Runs the one-word stream at `address` and prints the outcome. SRAM and DDR
// sit behind the board's MPCs; a peripheral is no memory (bus error).
void RunStreamAt(const char* name, uintptr_t address, bool copy) {
  if (copy) *reinterpret_cast<volatile uint32_t*>(address) = kStop;
  Npu(mmio::kQbase) = uint32_t(address);
  Npu(mmio::kQsize) = sizeof(kStop);
  Npu(mmio::kCmd) = mmio::cmd::kTransitionToRunning;
  char key[32];
  ethosu_sdk::TextBuilder text(key, sizeof(key));
  text.Str("status_").Str(name);
  Print(text.c_str(), Npu(mmio::kStatus));
  Npu(mmio::kCmd) = mmio::cmd::kClearIrq;
}

}  // namespace

int main() {
  Print("id", Npu(mmio::kId));
  Print("id_ns", Reg(kNpuNonSecure, mmio::kId));
  Print("config", Npu(mmio::kConfig));
  // PMCR of a U55/U65 (0x180) and of a U85 (0x1180, in the window's second
  // page, where a U55 board keeps QEMU's second timing-adapter placeholder).
  Print("reg_0180", Npu(mmio::u55::kPmuBase + mmio::pmu::kPmcr));
  Print("reg_1180", Npu(mmio::u85::kPmuBase + mmio::pmu::kPmcr));
  Print("pending_at_boot", IrqPending());

  Npu(mmio::kReset) = mmio::prot::kPrivileged;  // secure, privileged
  int polls = 0;
  while ((Npu(mmio::kStatus) & mmio::status::kResetStatus) && polls < 1000) ++polls;
  Print("reset_polls", uint64_t(polls));
  Print("prot", Npu(mmio::kProt));
  Print("status_after_reset", Npu(mmio::kStatus));

  Npu(mmio::kQbase) = uint32_t(reinterpret_cast<uintptr_t>(kStream));
  Npu(mmio::kQbaseHi) = 0;
  Npu(mmio::kQsize) = sizeof(kStream);
  Npu(mmio::kCmd) = mmio::cmd::kTransitionToRunning;
  Print("status_after_start", Npu(mmio::kStatus));
  Print("qread", Npu(mmio::kQread));
  Print("pending_after_start", IrqPending());

  Npu(mmio::kCmd) = mmio::cmd::kClearIrq;
  Reg(kNvicIcpr, 4 * (kNpuIrq / 32)) = 1u << (kNpuIrq % 32);
  Print("status_after_clear", Npu(mmio::kStatus));
  Print("pending_after_clear", IrqPending());

  RunStreamAt("sram", 0x111FFF00, true);   // top of SRAM (MPC 0), secure alias
  RunStreamAt("ddr", 0x7FFFFF00, true);    // top of the linked DDR (MPC 2)
  RunStreamAt("uart", 0x59303000, false);  // UART0: not memory
  return 0;
}
