#include "cc/drivers/ethosu/pmu.h"

#include "cc/ethosu/mmio.h"

namespace ethosu_sdk::drivers::ethosu {
namespace {

namespace mmio = ::ethosu_sdk::ethosu::mmio;
namespace pmu = ::ethosu_sdk::ethosu::mmio::pmu;

uint32_t PmuBase(bool u85_layout) { return u85_layout ? mmio::u85::kPmuBase : mmio::u55::kPmuBase; }

}  // namespace

const PmuEvent kPmuEventList[kPmuEvents] = {
    {pmu::event::kNpuActive, "npu_active"},
    {pmu::event::kMacActive, "mac_active"},
    {pmu::event::kNpuIdle, "npu_idle"},
    {pmu::event::kCycle, "cycle"},
};

void PmuStart(Bus& bus, bool u85_layout) {
  const uint32_t base = PmuBase(u85_layout);
  uint32_t enable = pmu::kCycleCounterBit;
  for (int i = 0; i < kPmuEvents; ++i) {
    bus.Write(base + pmu::kPmevtyper0 + 4u * uint32_t(i), kPmuEventList[i].type);
    enable |= 1u << i;
  }
  bus.Write(base + pmu::kPmcr, pmu::pmcr::kCountEnable | pmu::pmcr::kEventCounterReset |
                                   pmu::pmcr::kCycleCounterReset);
  bus.Write(base + pmu::kPmcntenset, enable);
}

PmuCounts PmuRead(Bus& bus, bool u85_layout) {
  const uint32_t base = PmuBase(u85_layout);
  PmuCounts counts;
  const uint64_t high = bus.Read(base + pmu::kPmccntrHi) & 0xFFFFu;
  counts.cycles = (high << 32) | bus.Read(base + pmu::kPmccntrLo);
  for (int i = 0; i < kPmuEvents; ++i)
    counts.events[i] = bus.Read(base + pmu::kPmevcntr0 + 4u * uint32_t(i));
  return counts;
}

}  // namespace ethosu_sdk::drivers::ethosu
