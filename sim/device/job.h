// One job: what happens between CMD start and the IRQ. Maps the command
// stream (QBASE, QSIZE) and the eight base-pointer regions through the
// host's map callback, runs the functional model on them, and says what the
// hardware would report: which STATUS bits, how far QREAD got, and the
// activity for the PMU.
#ifndef ETHOSU_SDK_CC_NPU_DEVICE_JOB_H_
#define ETHOSU_SDK_CC_NPU_DEVICE_JOB_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "sim/device/device_abi.h"
#include "sim/npu/model.h"

namespace ethosu_sdk::npu_device {

// Bounds on one job, so that a guest's stream cannot stall the emulator
// forever: multiply-accumulates plus DMA bytes. MobileNetV2 needs 3e8 MACs
// (its largest layer 2e7); a stream asking for the maximum runs for minutes
// on one host core and then fails (STATUS.cmd_parse_error, logged).
struct JobLimits {
  uint64_t max_work_per_operation = uint64_t(1) << 32;  // npu::RunLimits
  uint64_t max_work_per_job = uint64_t(1) << 34;        // npu::RunLimits::max_total_work
};

struct JobRequest {
  ethosu::NpuConfig npu;
  uint64_t qbase = 0;
  uint32_t qsize = 0;
  uint64_t basep[ethosu::kNumRegions] = {};
  npu::Workspace workspace;
  JobLimits limits;
};

struct JobResult {
  Status status;             // ok, or what failed (kind and stream offset)
  uint32_t status_bits = 0;  // STATUS: cmd_end_reached, or bus_status / cmd_parse_error
  uint32_t qread = 0;        // bytes of the stream consumed
  npu::RunStats stats;
};

// Runs the job synchronously. Reports every written region through
// host.written (when set) and every fault through host.log (when set).
JobResult RunJob(const JobRequest& request, const esdk_npu_host& host);

}  // namespace ethosu_sdk::npu_device

#endif  // ETHOSU_SDK_CC_NPU_DEVICE_JOB_H_
