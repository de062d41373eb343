// ID and CONFIG against what Vela wrote: for each configuration, the device
// reports exactly the COP1 header words (architecture version, config) of a
// payload Vela compiled for it, the functional model is configured as the
// payload parser configures it, and no other configuration's device reports
// the same pair (so a driver comparing them fails on the wrong device).
// Usage: identity_test PRODUCT MACS PAYLOAD [PRODUCT MACS PAYLOAD ...]
#include <cstdlib>
#include <vector>

#include "cc/ethosu/mmio.h"
#include "cc/testing/unit_test.h"
#include "sim/device/identity.h"
#include "sim/host/model_npu.h"
#include "sim/tests/device/fake_host.h"
#include "sim/tests/device/payload_file.h"

namespace {

using namespace ethosu_sdk::npu_device_tests;
namespace mmio = ethosu_sdk::ethosu::mmio;

struct Case {
  const char* product;
  int macs;
  uint32_t payload_id;
  uint32_t payload_config;
  ethosu_sdk::ethosu::NpuConfig parsed;  // the payload parser's configuration
};

// From the command line, before the tests run.
std::vector<Case> cases;

}  // namespace

TEST(Identity, DeviceReportsThePayloadsIdAndConfig) {
  for (const Case& c : cases) {
    FakeHost host;
    Npu npu(c.product, c.macs, &host);
    if (!npu.ok()) continue;  // a failure already
    EXPECT_EQ(npu.Read(mmio::kId), c.payload_id) << c.product << "-" << c.macs << " ID vs payload";
    EXPECT_EQ(npu.Read(mmio::kConfig), c.payload_config)
        << c.product << "-" << c.macs << " CONFIG vs payload";
    npu.Write(mmio::kReset, mmio::prot::kPrivileged);
    EXPECT_EQ(npu.Read(mmio::kConfig), c.payload_config)
        << c.product << "-" << c.macs << " CONFIG after soft reset";
    printf("%s-%d: ID 0x%08x CONFIG 0x%08x (payload 0x%08x 0x%08x)\n", c.product, c.macs,
           unsigned(npu.Read(mmio::kId)), unsigned(npu.Read(mmio::kConfig)), unsigned(c.payload_id),
           unsigned(c.payload_config));
  }
}

TEST(Identity, ModelConfiguredAsThePayloadParser) {
  for (const Case& c : cases) {
    ethosu_sdk::npu_device::Identity identity;
    ASSERT_TRUE(ethosu_sdk::npu_device::LookupIdentity(c.product, c.macs, &identity))
        << c.product << "-" << c.macs;
    EXPECT_TRUE(identity.npu.product == c.parsed.product && identity.npu.macs == c.parsed.macs &&
                identity.npu.cores == c.parsed.cores)
        << c.product << "-" << c.macs << " model configuration as the payload parser's";
  }
}

// Every other configuration's device disagrees with a payload.
TEST(Identity, OtherConfigurationsMismatch) {
  for (const Case& payload : cases) {
    for (const Case& device : cases) {
      if (device.product == payload.product && device.macs == payload.macs) continue;
      FakeHost host;
      Npu npu(device.product, device.macs, &host);
      if (!npu.ok()) continue;
      EXPECT_TRUE(npu.Read(mmio::kId) != payload.payload_id ||
                  npu.Read(mmio::kConfig) != payload.payload_config)
          << "a " << payload.product << "-" << payload.macs << " payload on a " << device.product
          << "-" << device.macs << " device matches";
    }
  }
}

int main(int argc, char** argv) {
  if (argc < 4 || (argc - 1) % 3 != 0) {
    fprintf(stderr, "usage: identity_test PRODUCT MACS PAYLOAD [PRODUCT MACS PAYLOAD ...]\n");
    return 2;
  }
  for (int i = 1; i + 2 < argc; i += 3) {
    PayloadFile file;
    if (!LoadPayload(argv[i + 2], &file)) return 1;
    cases.push_back(Case{argv[i], atoi(argv[i + 1]), file.payload.compiled.id,
                         file.payload.compiled.config, file.payload.npu});
  }
  return RUN_ALL_TESTS();
}
