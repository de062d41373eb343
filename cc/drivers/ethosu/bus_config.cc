#include "cc/drivers/ethosu/bus_config.h"

#include "cc/ethosu/mmio.h"

namespace ethosu_sdk::drivers::ethosu {
namespace {

namespace mmio = ::ethosu_sdk::ethosu::mmio;

// AXI memory type "normal, non-cacheable, bufferable": the CPU side keeps
// coherence with explicit cache maintenance around each job.
constexpr uint32_t kNormalNonCacheableBufferable = 3;
constexpr uint32_t kMaxOutstandingReads = 32;
constexpr uint32_t kMaxOutstandingWrites = 16;

// U55/U65 AXI_LIMITn: max_beats 1:0, memtype 7:4, outstanding reads - 1
// 23:16, outstanding writes - 1 31:24.
constexpr uint32_t AxiLimit(uint32_t memtype) {
  return (memtype << 4) | ((kMaxOutstandingReads - 1) << 16) | ((kMaxOutstandingWrites - 1) << 24);
}

// U85 MEM_ATTRn: mem_domain 1:0 (3: system, as non-cacheable accesses must
// be), axi_port 2 (0 SRAM, 1 EXT), memtype 7:4.
constexpr uint32_t MemAttr(uint32_t port, uint32_t memtype) {
  return 3u | (port << 2) | (memtype << 4);
}

// U85 AXI_SRAM/AXI_EXT: outstanding reads - 1 5:0, writes - 1 12:8,
// max_beats 17:16.
constexpr uint32_t kU85AxiLimits = (kMaxOutstandingReads - 1) | ((kMaxOutstandingWrites - 1) << 8);

}  // namespace

void ProgramBusConfig(Bus& bus, bool u85_layout, const BusConfig& config) {
  uint32_t regioncfg = 0;
  for (int region = 0; region < mmio::kNumRegions; ++region) {
    regioncfg |= (uint32_t(config.region_attr[region]) & 3u) << mmio::RegioncfgShift(region);
  }
  bus.Write(mmio::kQconfig, uint32_t(config.command_stream_attr) & 3u);
  bus.Write(mmio::kRegioncfg, regioncfg);
  if (u85_layout) {
    // Attribute sets 0/1 on the SRAM port, 2/3 on the external port, as on
    // U55/U65.
    for (int i = 0; i < mmio::u85::kNumMemAttrs; ++i) {
      bus.Write(mmio::u85::kMemAttr0 + 4u * uint32_t(i),
                MemAttr(i < 2 ? 0u : 1u, kNormalNonCacheableBufferable));
    }
    bus.Write(mmio::u85::kAxiSram, kU85AxiLimits);
    bus.Write(mmio::u85::kAxiExt, kU85AxiLimits);
  } else {
    for (int i = 0; i < mmio::u55::kNumAxiLimits; ++i) {
      bus.Write(mmio::u55::kAxiLimit0 + 4u * uint32_t(i), AxiLimit(kNormalNonCacheableBufferable));
    }
  }
}

}  // namespace ethosu_sdk::drivers::ethosu
