// The fast scratch (Vela's region 2, its "arena cache" in the NPU's SRAM) a
// delegate needs. The Vela payload does not carry its size; the Vela flags
// ExecuTorch stores beside it (compile spec "compile_flags") do: Vela stages
// data in region 2 only in its Dedicated_Sram memory modes, and the region
// then holds at most --arena-cache-size bytes if that flag is given, else
// the size the mode's name carries (Vela's Arm/vela.ini names each one:
// Dedicated_Sram_384KB). The AOT summary's `fast_scratch_bytes` is the same
// figure, read from Vela's own configuration (python/ethosu_sdk/aot/fast_scratch.py).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/core/span.h"
#include "cc/core/status.h"

namespace ethosu_sdk::backends::ethosu {

// From the space-separated Vela flags: `*found` false when they name no
// memory mode (the payload's own default applies), else `*bytes` is the
// region-2 size (0: the mode does not use region 2).
Status FastScratchFromVelaFlags(Span<const uint8_t> flags, bool* found, uint32_t* bytes);

}  // namespace ethosu_sdk::backends::ethosu
