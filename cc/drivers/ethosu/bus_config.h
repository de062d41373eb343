// The NPU's AXI set-up before a job: which memory attributes each region and
// the command stream fetch use, and the outstanding-transaction limits.
// U55/U65: REGIONCFG selects one of AXI_LIMIT0-3 (0/1 on the AXI0 port, the
// SRAM; 2/3 on AXI1, external memory). U85: REGIONCFG selects one of
// MEM_ATTR0-3, each naming a port (SRAM or EXT) and memory type, and
// AXI_SRAM/AXI_EXT hold the limits. Field layouts: Vela's ethos_u55_regs.py
// and regor's ethos_u85_interface.hpp.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_BUS_CONFIG_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_BUS_CONFIG_H_

#include <cstdint>

#include "cc/drivers/ethosu/bus.h"

namespace ethosu_sdk::drivers::ethosu {

// Memory attribute set per region (0-3): by default the read-only model
// data (region 0) and the scratch arena (1, in the board's DDR here) go to
// external memory, fast scratch (2) to the SRAM port.
struct BusConfig {
  uint8_t region_attr[8] = {3, 2, 0, 2, 2, 2, 2, 2};
  uint8_t command_stream_attr = 3;
};

void ProgramBusConfig(Bus& bus, bool u85_layout, const BusConfig& config);

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_BUS_CONFIG_H_
