// The Ethos-U performance monitor unit: PMCR, counter enables, overflow and
// interrupt enables, the 48-bit cycle counter and 4 (U55/U65) or 8 (U85)
// event counters. The device has no clock: counters advance only when a job
// finishes, by the idealised activity ModelActivity() computes from what the
// functional model did. Deterministic, never measured hardware cycles
// (README.md, "PMU").
#ifndef ETHOSU_SDK_CC_NPU_DEVICE_PMU_H_
#define ETHOSU_SDK_CC_NPU_DEVICE_PMU_H_

#include <cstdint>

#include "sim/npu/model.h"

namespace ethosu_sdk::npu_device {

// Cycles charged per NPU operation (block setup, pipeline fill), per DMA
// byte (one 128-bit AXI beat per cycle), and MAC cycles at full
// utilisation: the documented model, not a measurement.
constexpr uint64_t kOperationCycles = 64;
constexpr uint64_t kDmaBytesPerCycle = 16;

struct JobActivity {
  uint64_t mac_cycles = 0;     // MAC_ACTIVE: ceil(MACs / MACs per cycle)
  uint64_t active_cycles = 0;  // NPU_ACTIVE and CYCLE: MAC + DMA + per-operation cycles
};

JobActivity ModelActivity(const npu::RunStats& stats, int macs_per_cycle);

class Pmu {
 public:
  void Configure(int event_counters, bool u85);
  void Reset();  // reset values (PMCR reports the number of event counters)
  // Offsets relative to the PMU base (PMCR). Unknown ones: Decodes() false.
  bool Decodes(uint32_t offset) const;
  uint32_t Read(uint32_t offset) const;
  void Write(uint32_t offset, uint32_t value);
  // Adds a job's activity to every enabled counter (PMCR.cnt_en and the
  // counter's PMCNTENSET bit), setting overflow flags on wrap.
  void Record(const JobActivity& activity);
  // An overflow flag whose interrupt is enabled (STATUS.pmu_irq_raised).
  bool IrqPending() const { return (overflow_ & interrupt_enable_) != 0; }

 private:
  uint32_t CounterMask() const;
  uint64_t EventCount(uint32_t type, const JobActivity& activity) const;

  int counters_ = 0;
  bool u85_ = false;
  uint32_t pmcr_ = 0;  // cnt_en and mask_en (the reset bits self-clear)
  uint32_t enable_ = 0, overflow_ = 0, interrupt_enable_ = 0;
  uint64_t cycles_ = 0;  // 48 bits
  uint32_t cycle_config_ = 0, axi_channel_ = 0;
  uint32_t event_count_[8] = {};
  uint32_t event_type_[8] = {};
};

}  // namespace ethosu_sdk::npu_device

#endif  // ETHOSU_SDK_CC_NPU_DEVICE_PMU_H_
