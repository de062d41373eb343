// The NPU's performance monitor: a 48-bit cycle counter and event counters,
// reset and started before each job and read after it.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_PMU_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_PMU_H_

#include <cstdint>

#include "cc/drivers/ethosu/bus.h"

namespace ethosu_sdk::drivers::ethosu {

// The events counted (as many as both layouts have counters for: 4).
constexpr int kPmuEvents = 4;

struct PmuEvent {
  uint32_t type;     // PMEVTYPER value
  const char* name;  // lower-case event name, as in Vela's pmu_event list
};
extern const PmuEvent kPmuEventList[kPmuEvents];

struct PmuCounts {
  uint64_t cycles = 0;
  uint32_t events[kPmuEvents] = {};
};

// Resets and enables the cycle counter and the kPmuEventList counters.
void PmuStart(Bus& bus, bool u85_layout);
PmuCounts PmuRead(Bus& bus, bool u85_layout);

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_PMU_H_
