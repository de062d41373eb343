#include "sim/device/identity.h"

#include <cstring>

#include "cc/ethosu/mmio.h"
#include "cc/ethosu/product.h"
#include "sim/npu/configs.h"

namespace ethosu_sdk::npu_device {
namespace {

namespace mmio = ethosu::mmio;

// One row per configuration Vela 5.1.0 targets. AXI port counts are Vela's
// accelerator tables (ethos_u85.cpp); cores follow npu::ConfigCores and
// SHRAM sizes npu::U55ShramBanks.
struct Variant {
  ethosu::Product product;
  int macs;        // whole NPU
  int model_macs;  // NpuConfig::macs (U65: per core, as the payload parser sets it)
  int cores;
  int axi_sram_log2;  // U85
  int axi_ext_log2;   // U85
};

constexpr Variant kVariants[] = {
    {ethosu::Product::kEthosU55, 32, 32, 1, 0, 0},
    {ethosu::Product::kEthosU55, 64, 64, 1, 0, 0},
    {ethosu::Product::kEthosU55, 128, 128, 1, 0, 0},
    {ethosu::Product::kEthosU55, 256, 256, 1, 0, 0},
    {ethosu::Product::kEthosU65, 256, 256, 1, 0, 0},
    {ethosu::Product::kEthosU65, 512, 256, 2, 0, 0},
    {ethosu::Product::kEthosU85, 128, 128, 1, 1, 0},
    {ethosu::Product::kEthosU85, 256, 256, 1, 1, 0},
    {ethosu::Product::kEthosU85, 512, 512, 2, 1, 0},
    {ethosu::Product::kEthosU85, 1024, 1024, 4, 1, 1},
    {ethosu::Product::kEthosU85, 2048, 2048, 4, 2, 1},
};

uint32_t Log2(uint32_t value) {
  uint32_t log = 0;
  while (value > 1) {
    value >>= 1;
    ++log;
  }
  return log;
}

// The ID values Vela writes (id_r's reset value in regor's
// ethos_u65_interface.hpp, which the U55 generator uses too, and
// ethos_u85_interface.hpp): U55/U65 architecture 1.0.6, product 6,
// version status 1; U85 architecture 2.0.0, product 7.
uint32_t IdU55() {
  return (1u << mmio::id::kArchMajorShift) | (0u << mmio::id::kArchMinorShift) |
         (6u << mmio::id::kArchPatchShift) | (6u << mmio::id::kProductMajorShift) |
         (0u << mmio::id::kVersionMajorShift) | (0u << mmio::id::kVersionMinorShift) |
         (1u << mmio::id::kVersionStatusShift);
}

uint32_t IdU85() {
  return (2u << mmio::id::kArchMajorShift) | (0u << mmio::id::kArchMinorShift) |
         (0u << mmio::id::kArchPatchShift) | (7u << mmio::id::kProductMajorShift);
}

// CONFIG as Vela computes it: U55/U65 (ArchEthosU55::ConfigRegister) log2
// of all cores' MACs, SHRAM KiB of all cores, the product, and no command
// stream version; U85 (ArchEthosU85::ConfigRegister) log2 MACs, command
// stream version 1, log2 AXI SRAM and external ports, log2 weight decoders
// (one per core), the product.
constexpr uint32_t kU85CmdStreamVersion = 1;

uint32_t ConfigU55(const Variant& v, uint32_t product) {
  return (Log2(uint32_t(v.macs)) << mmio::config::kMacsPerCcShift) |
         // SHRAM KiB of all cores: its banks are 1 KiB each.
         (uint32_t(npu::U55ShramBanks(v.model_macs) * v.cores)
          << mmio::config::kU55ShramSizeShift) |
         (product << mmio::config::kProductShift);
}

uint32_t ConfigU85(const Variant& v) {
  return (Log2(uint32_t(v.macs)) << mmio::config::kMacsPerCcShift) |
         (kU85CmdStreamVersion << mmio::config::kCmdStreamVersionShift) |
         (uint32_t(v.axi_sram_log2) << mmio::config::kU85NumAxiSramShift) |
         (uint32_t(v.axi_ext_log2) << mmio::config::kU85NumAxiExtShift) |
         (Log2(uint32_t(v.cores)) << mmio::config::kU85NumWdShift) |
         (mmio::config::kProductU85 << mmio::config::kProductShift);
}

}  // namespace

bool LookupIdentity(const char* product, int macs, Identity* out) {
  if (product == nullptr || out == nullptr) return false;
  for (const Variant& v : kVariants) {
    if (v.macs != macs || strcmp(ethosu::ProductName(v.product), product) != 0) continue;
    Identity id;
    id.npu.product = v.product;
    id.npu.macs = v.model_macs;
    id.npu.cores = v.cores;
    id.macs = v.macs;
    id.u85 = v.product == ethosu::Product::kEthosU85;
    if (id.u85) {
      id.id = IdU85();
      id.config = ConfigU85(v);
      id.window_bytes = mmio::u85::kWindowBytes;
      id.pmu_base = mmio::u85::kPmuBase;
      id.event_counters = mmio::u85::kNumEventCounters;
    } else {
      const bool u65 = v.product == ethosu::Product::kEthosU65;
      id.id = IdU55();
      id.config = ConfigU55(v, u65 ? mmio::config::kProductU65 : mmio::config::kProductU55);
      id.window_bytes = mmio::u55::kWindowBytes;
      id.pmu_base = mmio::u55::kPmuBase;
      id.event_counters = mmio::u55::kNumEventCounters;
    }
    *out = id;
    return true;
  }
  return false;
}

}  // namespace ethosu_sdk::npu_device
