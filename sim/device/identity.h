// What a device is: the Ethos-U product and MAC configuration an emulator
// asks for, as the functional model's NpuConfig and as the ID and CONFIG
// register values a driver reads (the values Vela writes into the driver
// payload for the same configuration, so a driver comparing the two matches
// on the right device and fails on the wrong one).
#ifndef ETHOSU_SDK_CC_NPU_DEVICE_IDENTITY_H_
#define ETHOSU_SDK_CC_NPU_DEVICE_IDENTITY_H_

#include <cstdint>

#include "sim/npu/model.h"

namespace ethosu_sdk::npu_device {

struct Identity {
  ethosu::NpuConfig npu;      // what RunCommandStream is told
  int macs = 0;               // MACs per cycle of the whole NPU (all cores)
  bool u85 = false;           // register layout: U85 (else U55/U65)
  uint32_t id = 0;            // ID register
  uint32_t config = 0;        // CONFIG register
  uint32_t window_bytes = 0;  // register space decoded
  uint32_t pmu_base = 0;      // offset of PMCR
  int event_counters = 0;     // PMEVCNTRn / PMEVTYPERn pairs
};

// Fills `out` for "ethos-u55" (32/64/128/256 MACs), "ethos-u65" (256, 512)
// or "ethos-u85" (128/256/512/1024/2048); false for anything else.
bool LookupIdentity(const char* product, int macs, Identity* out);

}  // namespace ethosu_sdk::npu_device

#endif  // ETHOSU_SDK_CC_NPU_DEVICE_IDENTITY_H_
