// The Ethos-U's memory-mapped register interface: what a driver reads and
// writes, and what a device model must answer. Offsets and fields are public
// facts (Vela's ethos_u55_regs.py and regor's ethos_u85_interface.hpp); the
// firmware driver (cc/drivers/ethosu) and the QEMU device core
// (sim/device) both use this one table.
//
// The block from ID to BASEP is the same on U55, U65 and U85. They differ in
// the bus-configuration registers (U55/U65: AXI_LIMIT0-3; U85: memory
// attributes and AXI_SRAM/AXI_EXT) and in where the PMU sits (U85 moves it
// up by 0x1000 and has 8 event counters instead of 4).
#ifndef ETHOSU_SDK_CC_ETHOSU_MMIO_H_
#define ETHOSU_SDK_CC_ETHOSU_MMIO_H_

#include <cstdint>

#include "cc/ethosu/region.h"

namespace ethosu_sdk::ethosu::mmio {

// ---- Common to every Ethos-U --------------------------------------------

constexpr uint32_t kId = 0x000;
constexpr uint32_t kStatus = 0x004;
constexpr uint32_t kCmd = 0x008;
constexpr uint32_t kReset = 0x00C;
constexpr uint32_t kQbase = 0x010;    // command stream address, low word
constexpr uint32_t kQbaseHi = 0x014;  // high word (40-bit addresses)
constexpr uint32_t kQread = 0x018;    // bytes of the stream consumed so far
constexpr uint32_t kQconfig = 0x01C;  // memory attributes of the stream fetch
constexpr uint32_t kQsize = 0x020;    // command stream length in bytes
constexpr uint32_t kProt = 0x024;
constexpr uint32_t kConfig = 0x028;
constexpr uint32_t kRegioncfg = 0x03C;
// BASEPn: the base address of region n (cc/ethosu/region.h) as a 64-bit
// pair (low word at kBasep0 + 8 * n, high word 4 bytes above).
constexpr uint32_t kBasep0 = 0x080;
using ::ethosu_sdk::ethosu::kNumRegions;
constexpr uint32_t BasepLow(int region) { return kBasep0 + 8u * uint32_t(region); }
constexpr uint32_t BasepHigh(int region) { return BasepLow(region) + 4u; }

// ID fields.
namespace id {
constexpr uint32_t kVersionStatusShift = 0;  // 4 bits
constexpr uint32_t kVersionMinorShift = 4;   // 4 bits
constexpr uint32_t kVersionMajorShift = 8;   // 4 bits
constexpr uint32_t kProductMajorShift = 12;  // 4 bits
constexpr uint32_t kArchPatchShift = 16;     // 4 bits
constexpr uint32_t kArchMinorShift = 20;     // 8 bits
constexpr uint32_t kArchMajorShift = 28;     // 4 bits: 1 U55/U65, 2 U85
}  // namespace id

// STATUS bits (read-only).
namespace status {
constexpr uint32_t kState = 1u << 0;  // 1: running
constexpr uint32_t kIrqRaised = 1u << 1;
constexpr uint32_t kBusStatus = 1u << 2;      // an AXI access faulted
constexpr uint32_t kResetStatus = 1u << 3;    // a reset is in progress
constexpr uint32_t kCmdParseError = 1u << 4;  // the stream held an invalid command
constexpr uint32_t kCmdEndReached = 1u << 5;  // the stream ran to its end
constexpr uint32_t kPmuIrqRaised = 1u << 6;
constexpr uint32_t kWdFault = 1u << 7;  // U55/U65 only: weight decoder fault
constexpr uint32_t kEccFault = 1u << 8;
constexpr uint32_t kBranchFault = 1u << 9;        // U85 only
constexpr uint32_t kFaultingInterfaceShift = 11;  // 1 bit
constexpr uint32_t kFaultingChannelShift = 12;    // 4 bits
constexpr uint32_t kIrqHistoryShift = 16;         // 16 bits
}  // namespace status

// CMD bits (write-only actions).
namespace cmd {
constexpr uint32_t kTransitionToRunning = 1u << 0;  // start the command stream
constexpr uint32_t kClearIrq = 1u << 1;
constexpr uint32_t kClockQEnable = 1u << 2;
constexpr uint32_t kPowerQEnable = 1u << 3;
constexpr uint32_t kStopRequest = 1u << 4;
constexpr uint32_t kClearIrqHistoryShift = 16;  // 16 bits
}  // namespace cmd

// RESET: the privilege and security level to run at after the soft reset
// this write starts. PROT reports the active levels with the same bits.
namespace prot {
constexpr uint32_t kPrivileged = 1u << 0;  // 1: privileged (0: user)
constexpr uint32_t kNonSecure = 1u << 1;   // 1: non-secure (0: secure)
}  // namespace prot

// CONFIG fields (read-only): what the hardware is. Vela writes the CONFIG
// value it compiled for into the driver payload; a driver compares them.
namespace config {
constexpr uint32_t kMacsPerCcShift = 0;         // 4 bits: log2(MACs per cycle)
constexpr uint32_t kCmdStreamVersionShift = 4;  // 4 bits
constexpr uint32_t kU55ShramSizeShift = 8;      // U55/U65: 8 bits, KiB of SHRAM
constexpr uint32_t kU85NumAxiSramShift = 8;     // U85: 2 bits, log2
constexpr uint32_t kU85NumAxiExtShift = 10;     // U85: 1 bit, log2
constexpr uint32_t kU85NumWdShift = 12;         // U85: 2 bits, log2 weight decoders
constexpr uint32_t kCustomDmaShift = 27;        // 1 bit
constexpr uint32_t kProductShift = 28;          // 4 bits: 0 U55, 1 U65, 2 U85
constexpr uint32_t kProductU55 = 0, kProductU65 = 1, kProductU85 = 2;
}  // namespace config

// REGIONCFG: 2 bits per region, which AXI memory type (U55/U65) or memory
// attribute set (U85) its accesses use.
constexpr uint32_t RegioncfgShift(int region) { return 2u * uint32_t(region); }

// ---- U55 and U65 ---------------------------------------------------------

namespace u55 {
constexpr uint32_t kAxiLimit0 = 0x040;  // AXI_LIMIT0..3 at 4-byte steps
constexpr int kNumAxiLimits = 4;
constexpr uint32_t kPmuBase = 0x180;
constexpr int kNumEventCounters = 4;
constexpr uint32_t kWindowBytes = 0x1000;  // register space the device decodes
}  // namespace u55

// ---- U85 -------------------------------------------------------------------

namespace u85 {
constexpr uint32_t kMemAttr0 = 0x040;  // MEM_ATTR0..3 at 4-byte steps
constexpr int kNumMemAttrs = 4;
constexpr uint32_t kAxiSram = 0x050;
constexpr uint32_t kAxiExt = 0x054;
constexpr uint32_t kPmuBase = 0x1180;
constexpr int kNumEventCounters = 8;
constexpr uint32_t kWindowBytes = 0x2000;
}  // namespace u85

// ---- PMU, relative to the architecture's kPmuBase -------------------------

namespace pmu {
constexpr uint32_t kPmcr = 0x00;
constexpr uint32_t kPmcntenset = 0x04;  // bit n: event counter n; bit 31: cycle counter
constexpr uint32_t kPmcntenclr = 0x08;
constexpr uint32_t kPmovsset = 0x0C;
constexpr uint32_t kPmovsclr = 0x10;
constexpr uint32_t kPmintset = 0x14;
constexpr uint32_t kPmintclr = 0x18;
constexpr uint32_t kPmccntrLo = 0x20;
constexpr uint32_t kPmccntrHi = 0x24;  // 48-bit cycle counter, bits 47:32
constexpr uint32_t kPmccntrCfg = 0x28;
constexpr uint32_t kPmcaxiChan = 0x2C;
// Event counters and their event types, 4-byte steps (U55/U65: 4 of each,
// U85: 8).
constexpr uint32_t kPmevcntr0 = 0x180;
constexpr uint32_t kPmevtyper0 = 0x200;
constexpr uint32_t kCycleCounterBit = 1u << 31;

namespace pmcr {
constexpr uint32_t kCountEnable = 1u << 0;
constexpr uint32_t kEventCounterReset = 1u << 1;
constexpr uint32_t kCycleCounterReset = 1u << 2;
constexpr uint32_t kMaskEnable = 1u << 3;
constexpr uint32_t kNumEventCountersShift = 11;  // 5 bits, read-only
}  // namespace pmcr

// Event numbers (PMEVTYPERn) shared by U55/U65/U85.
namespace event {
constexpr uint32_t kNoEvent = 0x00;
constexpr uint32_t kCycle = 0x11;
constexpr uint32_t kNpuIdle = 0x20;
constexpr uint32_t kNpuActive = 0x23;
constexpr uint32_t kMacActive = 0x30;
}  // namespace event
}  // namespace pmu

}  // namespace ethosu_sdk::ethosu::mmio

#endif  // ETHOSU_SDK_CC_ETHOSU_MMIO_H_
