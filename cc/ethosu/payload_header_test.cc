// DecodeCompiledFor on the header words Vela 5.1.0 writes for named
// configurations (the words of the ethos-u55-128 and ethos-u85-256 payloads
// the driver's sequence test also uses), and on words no Ethos-U has.
// Checked at compile time: a wrong decode does not build.
#include "cc/ethosu/payload_header.h"

namespace {

using ethosu_sdk::ethosu::CompiledFor;
using ethosu_sdk::ethosu::DecodeCompiledFor;
using ethosu_sdk::ethosu::NpuConfig;
using ethosu_sdk::ethosu::Product;

constexpr bool Decodes(CompiledFor words, Product product, int macs, int cores) {
  NpuConfig config;
  return DecodeCompiledFor(words, &config) && config.product == product && config.macs == macs &&
         config.cores == cores;
}

constexpr bool Rejects(CompiledFor words) {
  NpuConfig config;
  return !DecodeCompiledFor(words, &config);
}

static_assert(Decodes({0x10066001u, 0x00001807u}, Product::kEthosU55, 128, 1), "ethos-u55-128");
static_assert(Decodes({0x20007000u, 0x20000118u}, Product::kEthosU85, 256, 1), "ethos-u85-256");
// U85 bits 13:12: log2 of the weight decoders (ethos-u85-1024 has four).
static_assert(Decodes({0x20007000u, 0x2000200Au}, Product::kEthosU85, 1024, 4), "ethos-u85-1024");
// U65-512: CONFIG counts both cores' MACs; a core has 256.
static_assert(Decodes({0x10066001u, 0x10000009u}, Product::kEthosU65, 256, 2), "ethos-u65-512");
// A U85 product under a U55 architecture, and product 3: no such NPU.
static_assert(Rejects({0x10066001u, 0x20000118u}), "U85 CONFIG with a U55 ID");
static_assert(Rejects({0x20007000u, 0x30000118u}), "product 3");

}  // namespace

int main() { return 0; }
