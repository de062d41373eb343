// Which Ethos-U a command stream was compiled for or a device is: the
// product and the configuration Vela names it by ("ethos-u85-256").
// Shared by the payload parser, the firmware driver, the functional model
// and the device core; freestanding (no heap, no library beyond <cstdint>).
#ifndef ETHOSU_SDK_CC_ETHOSU_PRODUCT_H_
#define ETHOSU_SDK_CC_ETHOSU_PRODUCT_H_

namespace ethosu_sdk::ethosu {

// U65 runs U55 command streams plus its own extensions (PARALLEL_MODE, a
// second weight and scale stream for its second core, 2-D/3-D DMA).
// kUnknown: a CONFIG register whose product field names none of them.
enum class Product { kEthosU55, kEthosU65, kEthosU85, kUnknown };

// "ethos-u85", as the SDK's targets and Vela's configurations spell it.
constexpr const char* ProductName(Product product) {
  switch (product) {
    case Product::kEthosU55:
      return "ethos-u55";
    case Product::kEthosU65:
      return "ethos-u65";
    case Product::kEthosU85:
      return "ethos-u85";
    case Product::kUnknown:
      break;
  }
  return "unknown";
}

// `macs` counts as Vela's configurations do: the whole U85 (U85-1024 has
// four cores), one U55/U65 core (U65-512 is two cores of 256). `cores` is
// the number of weight streams an operation may split its weights into.
struct NpuConfig {
  Product product = Product::kEthosU85;
  int macs = 256;
  int cores = 1;
};

}  // namespace ethosu_sdk::ethosu

#endif  // ETHOSU_SDK_CC_ETHOSU_PRODUCT_H_
