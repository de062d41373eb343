#include "sim/device/job.h"

#include "cc/ethosu/mmio.h"
#include "sim/device/host_log.h"

namespace ethosu_sdk::npu_device {
namespace {

namespace status = ethosu::mmio::status;

constexpr uint32_t kWordBytes = 4;

JobResult BusFault(const esdk_npu_host& host, Status why) {
  HostLog(host, "ethos-u: bus error: %s", why.message());
  JobResult r;
  r.status = why;
  r.status_bits = status::kBusStatus;
  return r;
}

// The stream and regions as the model sees them. A region whose BASEP maps
// to nothing stays unbound: any access to it is a bus error.
struct Bindings {
  const uint32_t* words = nullptr;
  ethosu::Region regions[ethosu::kNumRegions];
};

Status Bind(const JobRequest& request, const esdk_npu_host& host, Bindings* out) {
  if (request.qbase % kWordBytes != 0) {
    return Status::Error(ErrorCode::kNpuBusError, "command stream at 0x%llx not 4-byte aligned",
                         (unsigned long long)request.qbase);
  }
  esdk_npu_memory memory{};
  if (host.map(host.opaque, request.qbase, &memory) != 0 || memory.host == nullptr) {
    return Status::Error(ErrorCode::kNpuBusError, "command stream at 0x%llx: nothing mapped there",
                         (unsigned long long)request.qbase);
  }
  if (memory.size < request.qsize) {
    return Status::Error(ErrorCode::kNpuBusError,
                         "command stream at 0x%llx: %u bytes, only %llu mapped",
                         (unsigned long long)request.qbase, unsigned(request.qsize),
                         (unsigned long long)memory.size);
  }
  if (reinterpret_cast<uintptr_t>(memory.host) % alignof(uint32_t) != 0) {
    return Status::Error(ErrorCode::kNpuBusError,
                         "command stream at 0x%llx: host memory not word aligned",
                         (unsigned long long)request.qbase);
  }
  out->words = reinterpret_cast<const uint32_t*>(memory.host);
  for (int n = 0; n < ethosu::kNumRegions; ++n) {
    esdk_npu_memory region{};
    if (host.map(host.opaque, request.basep[n], &region) != 0 || region.host == nullptr) continue;
    out->regions[n] = {region.host, size_t(region.size), region.writable != 0};
  }
  return Status::Ok();
}

// Coarse dirty tracking: every writable region, its whole mapped extent
// (the model does not say which bytes it wrote), each range once.
void ReportWritten(const JobRequest& request, const Bindings& b, const esdk_npu_host& host) {
  if (host.written == nullptr) return;
  for (int n = 0; n < ethosu::kNumRegions; ++n) {
    if (!b.regions[n].writable || b.regions[n].size == 0) continue;
    bool seen = false;
    for (int m = 0; m < n; ++m) {
      seen = seen || (b.regions[m].writable && request.basep[m] == request.basep[n] &&
                      b.regions[m].size == b.regions[n].size);
    }
    if (!seen) host.written(host.opaque, request.basep[n], b.regions[n].size);
  }
}

}  // namespace

JobResult RunJob(const JobRequest& request, const esdk_npu_host& host) {
  Bindings bindings;
  const Status bound = Bind(request, host, &bindings);
  if (!bound.ok()) return BusFault(host, bound);

  npu::RunLimits limits;
  limits.max_work_per_operation = request.limits.max_work_per_operation;
  limits.max_total_work = request.limits.max_work_per_job;
  JobResult r;
  r.status = npu::RunCommandStream(request.npu, bindings.words, request.qsize / kWordBytes,
                                   bindings.regions, request.workspace, &r.stats, limits);
  r.qread = uint32_t(r.stats.command_bytes);
  ReportWritten(request, bindings, host);
  if (r.status.ok()) {
    r.status_bits = status::kCmdEndReached;
    return r;
  }
  switch (r.status.code()) {
    case ErrorCode::kNpuBusError:
      r.status_bits = status::kBusStatus;
      HostLog(host, "ethos-u: bus error at stream offset 0x%x: %s",
              unsigned(r.status.command_offset()), r.status.message());
      break;
    case ErrorCode::kNpuUnsupported:
      r.status_bits = status::kCmdParseError;
      HostLog(host, "ethos-u: command at stream offset 0x%x not supported by the model: %s",
              unsigned(r.status.command_offset()), r.status.message());
      break;
    case ErrorCode::kNpuLimit:
      r.status_bits = status::kCmdParseError;
      HostLog(host, "ethos-u: command at stream offset 0x%x exceeds the work limit: %s",
              unsigned(r.status.command_offset()), r.status.message());
      break;
    default:
      r.status_bits = status::kCmdParseError;
      HostLog(host, "ethos-u: command stream parse error at offset 0x%x: %s",
              unsigned(r.status.command_offset()), r.status.message());
      break;
  }
  return r;
}

}  // namespace ethosu_sdk::npu_device
