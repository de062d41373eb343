// Ethos-U memory regions: a command stream addresses memory as a region
// index (0..7) plus an offset, and the base-pointer registers BASEP0-7 say
// where each region is. Vela's convention for which region holds what is
// fixed, so the payload parser, the backend, the driver, the functional
// model and the device agree on these numbers.
#ifndef ETHOSU_SDK_CC_ETHOSU_REGION_H_
#define ETHOSU_SDK_CC_ETHOSU_REGION_H_

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk::ethosu {

constexpr int kNumRegions = 8;  // BASEP0-7

// Vela's region assignment (ethos-u-vela, its NPU memory layout): weights
// and constants, the scratch tensor arena (inputs, outputs, intermediates),
// and the fast scratch (U65's dedicated SRAM for staged data).
constexpr int kWeightsRegion = 0;
constexpr int kScratchRegion = 1;
constexpr int kFastScratchRegion = 2;

// One bound region. The NPU reads `size` bytes at `data`; it writes them
// only when `writable` (scratch). data == nullptr: not bound.
struct Region {
  uint8_t* data = nullptr;
  size_t size = 0;
  bool writable = false;
};

}  // namespace ethosu_sdk::ethosu

#endif  // ETHOSU_SDK_CC_ETHOSU_REGION_H_
