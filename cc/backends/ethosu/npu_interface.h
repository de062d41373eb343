// The one way the backend reaches an NPU: run this command stream with these
// base-pointer regions. Firmware implements it with the register-level driver
// (driver_npu.h, cc/drivers/ethosu); the host (runner, tests) with the
// functional model (model_npu.h). Nothing here depends on either.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/status.h"
#include "cc/ethosu/job.h"

namespace ethosu_sdk::backends::ethosu {

// The Ethos-U's own types (cc/ethosu); `ethosu` here names this namespace.
namespace hw = ::ethosu_sdk::ethosu;

class Npu {
 public:
  // Runs one job to completion. The regions' memory holds the inputs before
  // and the outputs after; errors name the cause (fault, timeout, mismatch).
  // The job is the Ethos-U's own (cc/ethosu/job.h): command stream, the
  // payload header's words, regions.
  virtual Status Run(const hw::Job& job) = 0;

 protected:
  ~Npu() = default;
};

}  // namespace ethosu_sdk::backends::ethosu
