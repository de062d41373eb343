#include "cc/drivers/ethosu/job_status.h"

#include "cc/ethosu/mmio.h"

namespace ethosu_sdk::drivers::ethosu {
namespace {

namespace status = ::ethosu_sdk::ethosu::mmio::status;

struct Fault {
  uint32_t bit;
  const char* name;
};

constexpr Fault kFaults[] = {
    {status::kBusStatus, "bus error (an access outside the memory the NPU can reach)"},
    {status::kCmdParseError, "command stream parse error"},
    {status::kWdFault, "weight decoder fault"},
    {status::kEccFault, "ECC fault"},
    {status::kBranchFault, "branch fault"},
};

}  // namespace

void AppendRegisters(uint32_t value, uint32_t qread, TextBuilder& text) {
  text.Str(" (STATUS 0x").Hex(value, 8).Str(", QREAD ").UInt(qread).Char(')');
}

Result DecodeJobStatus(uint32_t value, uint32_t qread) {
  Result result;
  bool faulted = false;
  for (const Fault& fault : kFaults) faulted |= (value & fault.bit) != 0;
  if (!faulted && (value & status::kCmdEndReached) != 0) return result;
  TextBuilder text = result.Fail();
  if (!faulted) {
    text.Str("NPU stopped before the end of its command stream");
  } else {
    text.Str("NPU fault: ");
    const char* separator = "";
    for (const Fault& fault : kFaults) {
      if ((value & fault.bit) == 0) continue;
      text.Str(separator).Str(fault.name);
      separator = ", ";
    }
  }
  AppendRegisters(value, qread, text);
  return result;
}

}  // namespace ethosu_sdk::drivers::ethosu
