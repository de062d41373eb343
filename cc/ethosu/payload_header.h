// The driver payload header Vela writes before a command stream ("COP1",
// then the architecture words): what the stream was compiled for, in the
// layouts of the ID and CONFIG registers (cc/ethosu/mmio.h).
#ifndef ETHOSU_SDK_CC_ETHOSU_PAYLOAD_HEADER_H_
#define ETHOSU_SDK_CC_ETHOSU_PAYLOAD_HEADER_H_

#include <cstdint>

#include "cc/ethosu/mmio.h"
#include "cc/ethosu/product.h"

namespace ethosu_sdk::ethosu {

// Header layout (ethos-u-vela's driver actions, read by Arm's driver):
// "COP1", a word whose low byte is 0x01 (optimizer config), the CONFIG
// word, the ID word, then NOP tags (low byte 0x05) up to a CMDSTRM tag
// (low byte 0x02) whose length in words is bits 15:8 << 16 | bits 31:16.
constexpr uint32_t kHeaderWords = 4;
constexpr uint32_t kOptimizerConfigTag = 0x01;
constexpr uint32_t kCommandStreamTag = 0x02;
constexpr uint32_t kNopTag = 0x05;

// U65's dedicated SRAM in Vela's memory mode Dedicated_Sram_384KB, which
// ExecuTorch's EthosUCompileSpec compiles every U65 stream for: the size
// of region 2 (fast scratch), which the payload itself does not carry.
constexpr uint32_t kU65DedicatedSramBytes = 384 * 1024;

// The header's two architecture words.
struct CompiledFor {
  uint32_t id = 0;      // ID register layout: bits 31:28 1 U55/U65, 2 U85
  uint32_t config = 0;  // CONFIG register layout
};

// The NPU configuration the words name, or false for an unknown pair: the
// architecture major revision (ID: 1 U55/U65, 2 U85) and the CONFIG
// fields (mmio::config): the product, log2 of the MACs (U55/U65: of all
// cores together), U85's log2 of the weight decoders (cores).
constexpr bool DecodeCompiledFor(const CompiledFor& words, NpuConfig* config) {
  const uint32_t major = words.id >> mmio::id::kArchMajorShift;
  const uint32_t product = words.config >> mmio::config::kProductShift;
  const int macs = 1 << ((words.config >> mmio::config::kMacsPerCcShift) & 0xF);
  if (major == 1 && product == mmio::config::kProductU55) {
    *config = {Product::kEthosU55, macs, 1};
    return true;
  }
  if (major == 1 && product == mmio::config::kProductU65) {
    // GUESS (not in the header): a U65 core has 256 MACs, as in Vela's
    // only two U65 configurations (256 on one core, 512 on two), so the
    // MAC count gives the cores. Pinned by the u65_256_* and u65_512_*
    // cases.
    *config = {Product::kEthosU65, 256, macs / 256};
    return true;
  }
  if (major == 2 && product == mmio::config::kProductU85) {
    *config = {Product::kEthosU85, macs, 1 << ((words.config >> mmio::config::kU85NumWdShift) & 3)};
    return true;
  }
  return false;
}

}  // namespace ethosu_sdk::ethosu

#endif  // ETHOSU_SDK_CC_ETHOSU_PAYLOAD_HEADER_H_
