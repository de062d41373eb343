// One NPU job: a register command stream, what it was compiled for, and
// the memory its regions point at. What the backend hands to an NPU, the
// firmware driver programs into QBASE/QSIZE/BASEPn, and the functional
// model executes.
#ifndef ETHOSU_SDK_CC_ETHOSU_JOB_H_
#define ETHOSU_SDK_CC_ETHOSU_JOB_H_

#include <cstddef>
#include <cstdint>

#include "cc/ethosu/payload_header.h"
#include "cc/ethosu/region.h"

namespace ethosu_sdk::ethosu {

struct Job {
  const uint32_t* commands = nullptr;  // register command stream
  size_t num_words = 0;
  CompiledFor compiled;  // the payload header's words
  Region regions[kNumRegions];
};

}  // namespace ethosu_sdk::ethosu

#endif  // ETHOSU_SDK_CC_ETHOSU_JOB_H_
