#include "cc/drivers/ethosu/job_status.h"

#include "cc/ethosu/mmio.h"
#include "cc/support/text_builder.h"

namespace ethosu_sdk::drivers::ethosu {
namespace {

namespace status = ::ethosu_sdk::ethosu::mmio::status;

struct Fault {
  uint32_t bit;
  const char* name;
  ErrorCode code;
};

// In order of precedence: the first fault set gives the code.
constexpr Fault kFaults[] = {
    {status::kBusStatus, "bus error (an access outside the memory the NPU can reach)",
     ErrorCode::kNpuBusError},
    {status::kCmdParseError, "command stream parse error", ErrorCode::kNpuCommandStream},
    {status::kWdFault, "weight decoder fault", ErrorCode::kNpuFault},
    {status::kEccFault, "ECC fault", ErrorCode::kNpuFault},
    {status::kBranchFault, "branch fault", ErrorCode::kNpuFault},
};

}  // namespace

Status JobError(ErrorCode code, const char* what, uint32_t value, uint32_t qread) {
  return Status::Error(code, "%s (STATUS 0x%08x, QREAD %u)", what, unsigned(value),
                       unsigned(qread));
}

Status DecodeJobStatus(uint32_t value, uint32_t qread) {
  const Fault* first = nullptr;
  char faults[160];
  TextBuilder text(faults, sizeof(faults));
  text.Str("NPU fault: ");
  for (const Fault& fault : kFaults) {
    if ((value & fault.bit) == 0) continue;
    text.Str(first == nullptr ? "" : ", ").Str(fault.name);
    if (first == nullptr) first = &fault;
  }
  if (first != nullptr) return JobError(first->code, faults, value, qread);
  if ((value & status::kCmdEndReached) != 0) return Status::Ok();
  return JobError(ErrorCode::kNpuFault, "NPU stopped before the end of its command stream", value,
                  qread);
}

}  // namespace ethosu_sdk::drivers::ethosu
