#include "sim/device/pmu.h"

#include "cc/ethosu/mmio.h"

namespace ethosu_sdk::npu_device {
namespace {

namespace pmu = ethosu::mmio::pmu;

// Writable bits (field widths from Vela's register definitions,
// ethos_u55_regs.py / regor's ethos_u85_interface.hpp).
constexpr uint32_t kPmcrWritable = pmu::pmcr::kCountEnable | pmu::pmcr::kMaskEnable;
constexpr uint32_t kEventTypeBits = 0x3FF;            // ev_type, 10 bits
constexpr uint32_t kU85EventTypeDomainBits = 0xF000;  // D0-D3, bits 15:12
constexpr uint32_t kCycleConfigBits = 0x03FF03FF;     // start 9:0, stop 25:16
constexpr uint32_t kU85CycleConfigBits = 0xF000F000;  // S0-S3 15:12, E0-E3 31:28
constexpr uint32_t kU55AxiChannelBits = 0x70F;  // ch_sel 3:0, axi_cnt_sel 9:8, bw_ch_sel_en 10
constexpr uint32_t kU85AxiChannelBits = 0x50F;  // ch_sel 3:0, axi_sel 8, bw_ch_sel_en 10
constexpr uint64_t kCycleCounterMask = (uint64_t(1) << 48) - 1;
constexpr uint32_t kCycleCounterHiBits = 0xFFFF;  // PMCCNTR_HI: bits 47:32

uint64_t DivideRoundingUp(uint64_t value, uint64_t divisor) {
  return value / divisor + (value % divisor != 0 ? 1 : 0);
}

}  // namespace

JobActivity ModelActivity(const npu::RunStats& stats, int macs_per_cycle) {
  JobActivity a;
  a.mac_cycles = macs_per_cycle > 0 ? DivideRoundingUp(stats.macs, uint64_t(macs_per_cycle)) : 0;
  a.active_cycles = a.mac_cycles + DivideRoundingUp(stats.dma_bytes, kDmaBytesPerCycle) +
                    uint64_t(stats.operations) * kOperationCycles;
  return a;
}

void Pmu::Configure(int event_counters, bool u85) {
  counters_ = event_counters < 0 ? 0 : (event_counters > 8 ? 8 : event_counters);
  u85_ = u85;
  Reset();
}

void Pmu::Reset() {
  pmcr_ = 0;
  enable_ = overflow_ = interrupt_enable_ = 0;
  cycles_ = 0;
  cycle_config_ = axi_channel_ = 0;
  for (int i = 0; i < 8; ++i) event_count_[i] = event_type_[i] = 0;
}

uint32_t Pmu::CounterMask() const { return ((1u << counters_) - 1) | pmu::kCycleCounterBit; }

bool Pmu::Decodes(uint32_t offset) const {
  if (offset % 4 != 0) return false;
  switch (offset) {
    case pmu::kPmcr:
    case pmu::kPmcntenset:
    case pmu::kPmcntenclr:
    case pmu::kPmovsset:
    case pmu::kPmovsclr:
    case pmu::kPmintset:
    case pmu::kPmintclr:
    case pmu::kPmccntrLo:
    case pmu::kPmccntrHi:
    case pmu::kPmccntrCfg:
    case pmu::kPmcaxiChan:
      return true;
    default:
      break;
  }
  const uint32_t span = 4u * uint32_t(counters_);
  return (offset >= pmu::kPmevcntr0 && offset < pmu::kPmevcntr0 + span) ||
         (offset >= pmu::kPmevtyper0 && offset < pmu::kPmevtyper0 + span);
}

uint32_t Pmu::Read(uint32_t offset) const {
  switch (offset) {
    case pmu::kPmcr:
      return pmcr_ | (uint32_t(counters_) << pmu::pmcr::kNumEventCountersShift);
    case pmu::kPmcntenset:
    case pmu::kPmcntenclr:
      return enable_;
    case pmu::kPmovsset:
    case pmu::kPmovsclr:
      return overflow_;
    case pmu::kPmintset:
    case pmu::kPmintclr:
      return interrupt_enable_;
    case pmu::kPmccntrLo:
      return uint32_t(cycles_);
    case pmu::kPmccntrHi:
      return uint32_t(cycles_ >> 32) & kCycleCounterHiBits;
    case pmu::kPmccntrCfg:
      return cycle_config_;
    case pmu::kPmcaxiChan:
      return axi_channel_;
    default:
      break;
  }
  if (offset >= pmu::kPmevtyper0 && offset < pmu::kPmevtyper0 + 4u * uint32_t(counters_)) {
    return event_type_[(offset - pmu::kPmevtyper0) / 4];
  }
  if (offset >= pmu::kPmevcntr0 && offset < pmu::kPmevcntr0 + 4u * uint32_t(counters_)) {
    return event_count_[(offset - pmu::kPmevcntr0) / 4];
  }
  return 0;
}

void Pmu::Write(uint32_t offset, uint32_t value) {
  switch (offset) {
    case pmu::kPmcr:
      pmcr_ = value & kPmcrWritable;
      if (value & pmu::pmcr::kEventCounterReset) {
        for (uint32_t& count : event_count_) count = 0;
      }
      if (value & pmu::pmcr::kCycleCounterReset) cycles_ = 0;
      return;
    case pmu::kPmcntenset:
      enable_ |= value & CounterMask();
      return;
    case pmu::kPmcntenclr:
      enable_ &= ~value;
      return;
    case pmu::kPmovsset:
      overflow_ |= value & CounterMask();
      return;
    case pmu::kPmovsclr:
      overflow_ &= ~value;
      return;
    case pmu::kPmintset:
      interrupt_enable_ |= value & CounterMask();
      return;
    case pmu::kPmintclr:
      interrupt_enable_ &= ~value;
      return;
    case pmu::kPmccntrLo:
      cycles_ = (cycles_ & ~uint64_t(0xFFFFFFFFu)) | value;
      return;
    case pmu::kPmccntrHi:
      cycles_ = (cycles_ & 0xFFFFFFFFu) | (uint64_t(value & kCycleCounterHiBits) << 32);
      return;
    case pmu::kPmccntrCfg:
      cycle_config_ = value & (kCycleConfigBits | (u85_ ? kU85CycleConfigBits : 0));
      return;
    case pmu::kPmcaxiChan:
      axi_channel_ = value & (u85_ ? kU85AxiChannelBits : kU55AxiChannelBits);
      return;
    default:
      break;
  }
  if (offset >= pmu::kPmevtyper0 && offset < pmu::kPmevtyper0 + 4u * uint32_t(counters_)) {
    event_type_[(offset - pmu::kPmevtyper0) / 4] =
        value & (kEventTypeBits | (u85_ ? kU85EventTypeDomainBits : 0));
  } else if (offset >= pmu::kPmevcntr0 && offset < pmu::kPmevcntr0 + 4u * uint32_t(counters_)) {
    event_count_[(offset - pmu::kPmevcntr0) / 4] = value;
  }
}

uint64_t Pmu::EventCount(uint32_t type, const JobActivity& activity) const {
  switch (type & kEventTypeBits) {
    case pmu::event::kCycle:
    case pmu::event::kNpuActive:
      return activity.active_cycles;
    case pmu::event::kMacActive:
      return activity.mac_cycles;
    case pmu::event::kNpuIdle:  // the model's clock runs only while a job does
    default:                    // events the model does not count
      return 0;
  }
}

void Pmu::Record(const JobActivity& activity) {
  if ((pmcr_ & pmu::pmcr::kCountEnable) == 0) return;
  if (enable_ & pmu::kCycleCounterBit) {
    const uint64_t sum = cycles_ + activity.active_cycles;
    if ((sum & ~kCycleCounterMask) != 0 || sum < cycles_) overflow_ |= pmu::kCycleCounterBit;
    cycles_ = sum & kCycleCounterMask;
  }
  for (int i = 0; i < counters_; ++i) {
    if ((enable_ & (1u << i)) == 0) continue;
    const uint64_t sum = uint64_t(event_count_[i]) + EventCount(event_type_[i], activity);
    if (sum > 0xFFFFFFFFu) overflow_ |= 1u << i;
    event_count_[i] = uint32_t(sum);
  }
}

}  // namespace ethosu_sdk::npu_device
