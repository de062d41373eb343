// The one way the backend reaches an NPU: run this command stream with these
// base-pointer regions. Firmware implements it with the register-level driver
// (driver_npu.h, cc/drivers/ethosu); the host (runner, tests) with the
// functional model (model_npu.h). Nothing here depends on either.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "cc/backends/ethosu/vela_payload.h"

namespace ethosu_sdk::backends::ethosu {

// Ethos-U base pointers BASEP0-7: 0 weights, 1 scratch, 2 fast scratch.
constexpr int kNpuRegions = 8;

struct NpuRegion {
  uint8_t* data = nullptr;  // null: not bound
  size_t size = 0;
  bool writable = false;    // the NPU writes it (scratch); otherwise read-only
};

struct NpuJob {
  // The command stream and the configuration Vela compiled it for.
  const VelaPayload* payload = nullptr;
  NpuRegion regions[kNpuRegions];
};

class Npu {
 public:
  // Runs one job to completion. The regions' memory holds the inputs before
  // and the outputs after; errors name the cause (fault, timeout, mismatch).
  virtual Status Run(const NpuJob& job) = 0;

 protected:
  ~Npu() = default;
};

}  // namespace ethosu_sdk::backends::ethosu
