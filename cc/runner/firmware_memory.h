// A firmware's static memory, generated per model by the ethosu_firmware
// rule (python/ethosu_sdk/firmware/gen_memory.py): the method's
// memory-planned buffers, sized from the .pte, and the runtime arena (method
// state and NPU scratch), both in the board's bulk memory, and the NPU's
// fast scratch (Vela's region 2, empty unless the model's memory mode uses
// one) in the board's SRAM. The NPU reaches all three.
#ifndef ETHOSU_SDK_CC_RUNNER_FIRMWARE_MEMORY_H_
#define ETHOSU_SDK_CC_RUNNER_FIRMWARE_MEMORY_H_

#include <cstddef>
#include <cstdint>

#include "cc/core/span.h"

namespace ethosu_sdk::firmware {

struct FirmwareMemory {
  Span<Span<uint8_t>> planned;
  Span<uint8_t> runtime_arena;
  Span<uint8_t> fast_scratch;
};

extern const FirmwareMemory kMemory;

}  // namespace ethosu_sdk::firmware

#endif  // ETHOSU_SDK_CC_RUNNER_FIRMWARE_MEMORY_H_
