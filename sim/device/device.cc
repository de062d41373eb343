#include "sim/device/device.h"

#include <cstdio>
#include <new>

#include "cc/ethosu/mmio.h"
#include "sim/device/host_log.h"

namespace ethosu_sdk::npu_device {
namespace {

namespace mmio = ethosu::mmio;
namespace status = mmio::status;
namespace cmd = mmio::cmd;

// Writable bits of the configuration registers (field widths from Vela's
// register definitions: ethos_u55_regs.py, regor's ethos_u65_interface.hpp
// and ethos_u85_interface.hpp).
constexpr uint32_t kQconfigBits = 0x3;       // cmd_region0
constexpr uint32_t kRegioncfgBits = 0xFFFF;  // 2 bits for each of 8 regions
constexpr uint32_t kU55AxiLimitBits =
    0xFFFF00F3;  // max_beats, memtype, outstanding r/w (8 bits each)
constexpr uint32_t kU65AxiLimitBits = 0x1F3F00F3;  // the same, 6 and 5 bits outstanding
constexpr uint32_t kU85MemAttrBits = 0xF7;         // mem_domain, axi_port, memtype
constexpr uint32_t kU85AxiPortBits = 0x31F3F;      // outstanding r (6) / w (5), max_beats
constexpr uint32_t kProtBits = mmio::prot::kPrivileged | mmio::prot::kNonSecure;
constexpr uint32_t kQEnableBits = cmd::kClockQEnable | cmd::kPowerQEnable;
// CMD reads back its clock/power Q-channel enables; both set at reset.
constexpr uint32_t kCmdResetValue = kQEnableBits;
constexpr uint32_t kIrqHistoryBits = 0xFFFFu << status::kIrqHistoryShift;
// The model's own choice (no public source gives each history bit's
// cause): bit 0 of the history records a job interrupt.
constexpr uint32_t kJobIrqHistory = 1u << status::kIrqHistoryShift;
constexpr uint32_t kJobResultBits =
    status::kCmdEndReached | status::kBusStatus | status::kCmdParseError;
constexpr int kNumBusConfigs = 6;

void Fail(char* error, size_t error_size, const char* message) {
  if (error != nullptr && error_size > 0) snprintf(error, error_size, "%s", message);
}

}  // namespace

Device* Device::Create(const esdk_npu_device_config& config, const esdk_npu_host& host, char* error,
                       size_t error_size, const JobLimits& limits) {
  Identity identity;
  if (!LookupIdentity(config.product, config.macs, &identity)) {
    char message[160];
    snprintf(message, sizeof(message),
             "unknown Ethos-U configuration '%s' with %d MACs (ethos-u55: 32/64/128/256, "
             "ethos-u65: 256/512, ethos-u85: 128/256/512/1024/2048)",
             config.product != nullptr ? config.product : "(null)", config.macs);
    Fail(error, error_size, message);
    return nullptr;
  }
  if (host.map == nullptr || host.set_irq == nullptr) {
    Fail(error, error_size, "the host must provide map and set_irq");
    return nullptr;
  }
  uint8_t* workspace = new (std::nothrow) uint8_t[kWorkspaceBytes + kWeightCacheBytes];
  if (workspace == nullptr) {
    Fail(error, error_size, "out of memory for the model's workspace");
    return nullptr;
  }
  Device* device =
      new (std::nothrow) Device(identity, host, config.never_complete != 0, limits, workspace);
  if (device == nullptr) {
    delete[] workspace;
    Fail(error, error_size, "out of memory for the device");
    return nullptr;
  }
  device->PowerOnReset();
  return device;
}

Device::Device(const Identity& identity, const esdk_npu_host& host, bool never_complete,
               const JobLimits& limits, uint8_t* workspace)
    : identity_(identity),
      host_(host),
      never_complete_(never_complete),
      limits_(limits),
      workspace_(workspace),
      weight_cache_(workspace + kWorkspaceBytes, kWeightCacheBytes) {
  pmu_.Configure(identity.event_counters, identity.u85);
}

Device::~Device() { delete[] workspace_; }

void Device::PowerOnReset() {
  SoftReset(0);  // user, secure: PROT's reset value
  irq_level_ = -1;
  UpdateIrq();
}

// A soft reset completes within the RESET write: STATUS.reset_status is
// never seen set. The requested levels become PROT.
void Device::SoftReset(uint32_t request) {
  status_ = 0;
  cmd_ = kCmdResetValue;
  prot_ = request & kProtBits;
  qbase_ = 0;
  qread_ = qconfig_ = qsize_ = 0;
  regioncfg_ = 0;
  for (uint32_t& c : bus_config_) c = 0;
  for (uint64_t& b : basep_) b = 0;
  pmu_.Reset();
  UpdateIrq();
}

void Device::UpdateIrq() {
  const int level = ((status_ & status::kIrqRaised) != 0 || pmu_.IrqPending()) ? 1 : 0;
  if (level == irq_level_) return;
  irq_level_ = level;
  host_.set_irq(host_.opaque, level);
}

bool Device::ReadBusConfig(uint32_t offset, uint32_t* value) const {
  int index = -1;
  if (identity_.u85) {
    if (offset >= mmio::u85::kMemAttr0 &&
        offset < mmio::u85::kMemAttr0 + 4u * mmio::u85::kNumMemAttrs) {
      index = int((offset - mmio::u85::kMemAttr0) / 4);
    } else if (offset == mmio::u85::kAxiSram) {
      index = mmio::u85::kNumMemAttrs;
    } else if (offset == mmio::u85::kAxiExt) {
      index = mmio::u85::kNumMemAttrs + 1;
    }
  } else if (offset >= mmio::u55::kAxiLimit0 &&
             offset < mmio::u55::kAxiLimit0 + 4u * mmio::u55::kNumAxiLimits) {
    index = int((offset - mmio::u55::kAxiLimit0) / 4);
  }
  if (index < 0 || index >= kNumBusConfigs) return false;
  *value = bus_config_[index];
  return true;
}

bool Device::WriteBusConfig(uint32_t offset, uint32_t value) {
  uint32_t unused = 0;
  if (!ReadBusConfig(offset, &unused)) return false;
  if (identity_.u85) {
    const bool attr = offset < mmio::u85::kMemAttr0 + 4u * mmio::u85::kNumMemAttrs;
    const int index = attr ? int((offset - mmio::u85::kMemAttr0) / 4)
                           : mmio::u85::kNumMemAttrs + (offset == mmio::u85::kAxiExt ? 1 : 0);
    bus_config_[index] = value & (attr ? kU85MemAttrBits : kU85AxiPortBits);
  } else {
    const bool u65 = identity_.npu.product == ethosu::Product::kEthosU65;
    bus_config_[(offset - mmio::u55::kAxiLimit0) / 4] =
        value & (u65 ? kU65AxiLimitBits : kU55AxiLimitBits);
  }
  return true;
}

uint32_t Device::Read(uint32_t offset) {
  switch (offset) {
    case mmio::kId:
      return identity_.id;
    case mmio::kStatus:
      return status_ | (pmu_.IrqPending() ? status::kPmuIrqRaised : 0);
    case mmio::kCmd:
      return cmd_;
    case mmio::kReset:
      return 0;
    case mmio::kQbase:
      return uint32_t(qbase_);
    case mmio::kQbaseHi:
      return uint32_t(qbase_ >> 32);
    case mmio::kQread:
      return qread_;
    case mmio::kQconfig:
      return qconfig_;
    case mmio::kQsize:
      return qsize_;
    case mmio::kProt:
      return prot_;
    case mmio::kConfig:
      return identity_.config;
    case mmio::kRegioncfg:
      return regioncfg_;
    default:
      break;
  }
  uint32_t value = 0;
  if (ReadBusConfig(offset, &value)) return value;
  for (int n = 0; n < mmio::kNumRegions; ++n) {
    if (offset == mmio::BasepLow(n)) return uint32_t(basep_[n]);
    if (offset == mmio::BasepHigh(n)) return uint32_t(basep_[n] >> 32);
  }
  if (offset >= identity_.pmu_base && pmu_.Decodes(offset - identity_.pmu_base)) {
    return pmu_.Read(offset - identity_.pmu_base);
  }
  HostLog(host_, "ethos-u: read of unknown register 0x%04x (reads as 0)", unsigned(offset));
  return 0;
}

void Device::Write(uint32_t offset, uint32_t value) {
  switch (offset) {
    case mmio::kCmd:
      Command(value);
      return;
    case mmio::kReset:
      SoftReset(value);
      return;
    case mmio::kQbase:
      qbase_ = (qbase_ & ~uint64_t(0xFFFFFFFFu)) | value;
      return;
    case mmio::kQbaseHi:
      qbase_ = (qbase_ & 0xFFFFFFFFu) | (uint64_t(value) << 32);
      return;
    case mmio::kQconfig:
      qconfig_ = value & kQconfigBits;
      return;
    case mmio::kQsize:
      qsize_ = value;
      return;
    case mmio::kRegioncfg:
      regioncfg_ = value & kRegioncfgBits;
      return;
    case mmio::kId:
    case mmio::kStatus:
    case mmio::kQread:
    case mmio::kProt:
    case mmio::kConfig:
      HostLog(host_, "ethos-u: write 0x%08x to read-only register 0x%04x ignored", unsigned(value),
              unsigned(offset));
      return;
    default:
      break;
  }
  if (WriteBusConfig(offset, value)) return;
  for (int n = 0; n < mmio::kNumRegions; ++n) {
    if (offset == mmio::BasepLow(n)) {
      basep_[n] = (basep_[n] & ~uint64_t(0xFFFFFFFFu)) | value;
      return;
    }
    if (offset == mmio::BasepHigh(n)) {
      basep_[n] = (basep_[n] & 0xFFFFFFFFu) | (uint64_t(value) << 32);
      return;
    }
  }
  if (offset >= identity_.pmu_base && pmu_.Decodes(offset - identity_.pmu_base)) {
    pmu_.Write(offset - identity_.pmu_base, value);
    UpdateIrq();
    return;
  }
  HostLog(host_, "ethos-u: write 0x%08x to unknown register 0x%04x ignored", unsigned(value),
          unsigned(offset));
}

void Device::Command(uint32_t value) {
  cmd_ = value & kQEnableBits;
  status_ &= ~(value & kIrqHistoryBits);
  if (value & cmd::kClearIrq) status_ &= ~status::kIrqRaised;
  if (value & cmd::kStopRequest) {
    if (status_ & status::kState) {
      HostLog(host_, "ethos-u: stop request: the running job is abandoned");
      status_ &= ~status::kState;
    }
  }
  if (value & cmd::kTransitionToRunning) {
    if (status_ & status::kState) {
      HostLog(host_, "ethos-u: start while a job is running ignored");
    } else {
      Start();
    }
  }
  UpdateIrq();
}

void Device::Start() {
  status_ &= ~kJobResultBits;
  status_ |= status::kState;
  qread_ = 0;
  if (never_complete_) {
    HostLog(host_, "ethos-u: job started; never_complete is set, it will not finish");
    return;
  }
  JobRequest request;
  request.npu = identity_.npu;
  request.qbase = qbase_;
  request.qsize = qsize_;
  for (int n = 0; n < mmio::kNumRegions; ++n) request.basep[n] = basep_[n];
  request.workspace = {workspace_, kWorkspaceBytes, &weight_cache_};
  request.limits = limits_;
  const JobResult result = RunJob(request, host_);
  qread_ = result.qread;
  status_ &= ~status::kState;
  status_ |= result.status_bits | status::kIrqRaised | kJobIrqHistory;
  pmu_.Record(ModelActivity(result.stats, identity_.macs));
}

}  // namespace ethosu_sdk::npu_device
