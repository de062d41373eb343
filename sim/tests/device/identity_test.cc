// ID and CONFIG against what Vela wrote: for each configuration, the device
// reports exactly the COP1 header words (architecture version, config) of a
// payload Vela compiled for it, the functional model is configured as the
// payload parser configures it, and no other configuration's device reports
// the same pair (so a driver comparing them fails on the wrong device).
// Usage: identity_test PRODUCT MACS PAYLOAD [PRODUCT MACS PAYLOAD ...]
#include <cstdlib>
#include <vector>

#include "cc/backends/ethosu/model_npu.h"
#include "cc/ethosu/mmio.h"
#include "sim/device/identity.h"
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
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || (argc - 1) % 3 != 0) {
    printf("usage: identity_test PRODUCT MACS PAYLOAD...\n");
    return 2;
  }
  std::vector<Case> cases;
  for (int i = 1; i + 2 < argc; i += 3) {
    PayloadFile file;
    if (!LoadPayload(argv[i + 2], &file)) return 1;
    Case c{argv[i], atoi(argv[i + 1]), file.payload.compiled.id, file.payload.compiled.config};
    cases.push_back(c);

    FakeHost host;
    Npu npu(c.product, c.macs, &host);
    if (!npu.ok()) continue;
    char what[160];
    snprintf(what, sizeof(what), "%s-%d ID vs payload", c.product, c.macs);
    ExpectEq(npu.Read(mmio::kId), c.payload_id, what);
    snprintf(what, sizeof(what), "%s-%d CONFIG vs payload", c.product, c.macs);
    ExpectEq(npu.Read(mmio::kConfig), c.payload_config, what);
    npu.Write(mmio::kReset, mmio::prot::kPrivileged);
    ExpectEq(npu.Read(mmio::kConfig), c.payload_config, "CONFIG after soft reset");

    ethosu_sdk::npu_device::Identity identity;
    Expect(ethosu_sdk::npu_device::LookupIdentity(c.product, c.macs, &identity), "identity");
    snprintf(what, sizeof(what), "%s-%d model configuration as the payload parser's", c.product,
             c.macs);
    const ethosu_sdk::ethosu::NpuConfig& parsed = file.payload.npu;
    Expect(identity.npu.product == parsed.product && identity.npu.macs == parsed.macs &&
               identity.npu.cores == parsed.cores,
           what);
    printf("%s-%d: ID 0x%08x CONFIG 0x%08x (payload 0x%08x 0x%08x)\n", c.product, c.macs,
           unsigned(npu.Read(mmio::kId)), unsigned(npu.Read(mmio::kConfig)), unsigned(c.payload_id),
           unsigned(c.payload_config));
  }
  // Every other configuration's device disagrees with this payload.
  for (const Case& payload : cases) {
    for (const Case& device : cases) {
      if (device.product == payload.product && device.macs == payload.macs) continue;
      FakeHost host;
      Npu npu(device.product, device.macs, &host);
      if (!npu.ok()) continue;
      char what[160];
      snprintf(what, sizeof(what), "a %s-%d payload on a %s-%d device mismatches", payload.product,
               payload.macs, device.product, device.macs);
      Expect(npu.Read(mmio::kId) != payload.payload_id ||
                 npu.Read(mmio::kConfig) != payload.payload_config,
             what);
    }
  }
  return Finish("identity_test");
}
