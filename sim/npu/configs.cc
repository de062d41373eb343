#include "sim/npu/configs.h"

namespace ethosu_sdk::npu {
namespace {

// Vela's U85 AcceleratorConfig table: MACs, cores (weight decoders), the
// OFM microblocks (height x width x depth) each configuration offers and
// its accumulator RAM.
struct U85Config {
  int macs;
  int cores;
  int8_t depth[6];  // by ACC_FORMAT microblock: 1x1, 1x2, 1x4, 2x2, 2x4, 4x4
  int accumulator_bytes;
};

constexpr U85Config kU85Configs[] = {
    {128, 1, {16, 8, 0, 0, 0, 0}, 8192},       // 1x2x8, 1x1x16
    {256, 1, {0, 16, 8, 8, 0, 0}, 16384},      // 1x2x16, 1x4x8, 2x2x8
    {512, 2, {0, 0, 16, 16, 0, 0}, 32768},     // 2x2x16, 1x4x16
    {1024, 4, {0, 0, 32, 32, 16, 0}, 65536},   // 2x2x32, 1x4x32, 2x4x16
    {2048, 4, {0, 0, 64, 64, 0, 16}, 131072},  // 2x2x64, 1x4x64, 4x4x16
};

const U85Config* FindU85(int macs) {
  for (const U85Config& c : kU85Configs) {
    if (c.macs == macs) return &c;
  }
  return nullptr;
}

}  // namespace

int ConfigCores(const NpuConfig& config) {
  switch (config.product) {
    case Product::kEthosU85: {
      const U85Config* c = FindU85(config.macs);
      return c == nullptr ? 0 : c->cores;
    }
    case Product::kEthosU55:
      return (config.macs == 32 || config.macs == 64 || config.macs == 128 || config.macs == 256)
                 ? 1
                 : 0;
    case Product::kEthosU65:
      // Vela's two U65 configurations: 256 MACs on one core or two.
      return (config.macs == 256 && (config.cores == 1 || config.cores == 2)) ? config.cores : 0;
    case Product::kUnknown:
      return 0;
  }
  return 0;
}

int U85MicroblockDepth(int macs, int microblock) {
  const U85Config* c = FindU85(macs);
  if (c == nullptr || microblock < 0 || microblock >= 6) return 0;
  return c->depth[microblock];
}

int U85AccumulatorBytes(int macs) {
  const U85Config* c = FindU85(macs);
  return c == nullptr ? 0 : c->accumulator_bytes;
}

int U55ShramBanks(int macs) { return macs == 256 ? 48 : macs == 128 ? 24 : 16; }

int U55MicroblockDepth(int macs) {
  // Vela's U55/U65 ofmUBlock: 1x1x4 (32 MACs), 1x1x8, 1x2x8, 2x2x8 (256).
  return macs == 32 ? 4 : 8;
}

}  // namespace ethosu_sdk::npu
