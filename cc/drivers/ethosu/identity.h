// What an Ethos-U is, from its ID and CONFIG registers (or from the words
// Vela records in a payload's COP1 header, which use the same layouts), and
// whether a command stream compiled for one runs on another.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_IDENTITY_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_IDENTITY_H_

#include <cstdint>

#include "cc/core/status.h"
#include "cc/ethosu/product.h"
#include "cc/support/text_builder.h"

namespace ethosu_sdk::drivers::ethosu {

// The Ethos-U's own types (cc/ethosu); `ethosu` here names this namespace.
namespace hw = ::ethosu_sdk::ethosu;
using hw::Product;
using hw::ProductName;

struct Identity {
  uint32_t id = 0;      // ID register
  uint32_t config = 0;  // CONFIG register
  Product product = Product::kUnknown;
  int arch_major = 0, arch_minor = 0, arch_patch = 0;
  int macs = 0;  // MACs per cycle of the whole NPU (all cores)
  int cmd_stream_version = 0;

  static Identity FromRegisters(uint32_t id, uint32_t config);
  // U85 has its own register layout (bus configuration, PMU location).
  bool IsU85Layout() const { return arch_major >= 2; }
};

// "Ethos-U85-256 (arch 2.0.0, CONFIG 0x20000118)".
void AppendDescription(const Identity& identity, TextBuilder& text);

// Checks that a stream compiled for `compiled` (the payload's words) runs on
// `hardware`: same product, MACs, command stream version and weight decoder
// count; the same architecture major revision and a minor.patch revision at
// least the compiled one. A mismatch is one kNpuUnsupported error naming
// both.
Status CheckCompatible(const Identity& compiled, const Identity& hardware);

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_IDENTITY_H_
