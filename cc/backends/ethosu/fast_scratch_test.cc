// Region-2 sizes from the Vela flags ExecuTorch stores beside a payload.
#include "cc/backends/ethosu/fast_scratch.h"

#include <cstdio>
#include <cstring>

#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::Span;
using ethosu_sdk::backends::ethosu::FastScratchFromVelaFlags;

// Expects `flags` to parse (or not, `ok`) to `found` and `bytes`.
void ExpectFlags(const char* flags, bool ok, bool found, uint32_t bytes) {
  bool got_found = true;
  uint32_t got_bytes = 1;
  const Span<const uint8_t> span(reinterpret_cast<const uint8_t*>(flags), strlen(flags));
  const bool got_ok = FastScratchFromVelaFlags(span, &got_found, &got_bytes).ok();
  EXPECT_EQ(got_ok, ok) << "flags '" << flags << "'";
  if (!ok) return;
  EXPECT_EQ(got_found, found) << "flags '" << flags << "'";
  EXPECT_EQ(got_bytes, bytes) << "flags '" << flags << "'";
}

TEST(FastScratch, FromVelaFlags) {
  constexpr char kU85[] =
      "--accelerator-config=ethos-u85-256 --config=Arm/vela.ini --output-format=raw "
      "--system-config=Ethos_U85_SYS_DRAM_Mid ";
  char flags[256];
  const auto with = [&](const char* tail) {
    std::snprintf(flags, sizeof(flags), "%s%s", kU85, tail);
    return flags;
  };
  ExpectFlags(with("--memory-mode=Sram_Only"), true, true, 0);
  ExpectFlags(with("--memory-mode=Shared_Sram"), true, true, 0);
  ExpectFlags(with("--memory-mode=Dedicated_Sram_384KB"), true, true, 384 * 1024);
  ExpectFlags(with("--memory-mode=Dedicated_Sram_512KB"), true, true, 512 * 1024);
  ExpectFlags(with("--arena-cache-size=200000 --memory-mode=Dedicated_Sram_384KB"), true, true,
              200000);
  ExpectFlags(with("--arena-cache-size=200000 --memory-mode=Sram_Only"), true, true,
              0);                                                      // no region 2
  ExpectFlags(with("--memory-mode=Dedicated_Sram"), false, false, 0);  // size unknown
  ExpectFlags(with("--memory-mode=Dedicated_Sram_xKB"), false, false, 0);
  ExpectFlags(with("--arena-cache-size=12x --memory-mode=Dedicated_Sram_384KB"), false, false, 0);
  ExpectFlags(with("--arena-cache-size=99999999999 --memory-mode=Dedicated_Sram_384KB"), false,
              false, 0);
  ExpectFlags(kU85, true, false, 0);  // no memory mode: the payload's default applies
  ExpectFlags("", true, false, 0);
}

}  // namespace
