// The shared library as an emulator loads it: dlopen, the one entry point,
// a device created through it that runs a job (a DMA, then STOP) and raises
// its IRQ, and none of the model's C++ symbols visible.
// Usage: shared_library_test LIBRARY
#include <dlfcn.h>

#include <cstring>
#include <vector>

#include "cc/ethosu/mmio.h"
#include "cc/testing/unit_test.h"
#include "sim/npu/commands/u85_registers.h"
#include "sim/tests/device/fake_host.h"

namespace {

using namespace ethosu_sdk::npu_device_tests;
namespace mmio = ethosu_sdk::ethosu::mmio;
namespace u85 = ethosu_sdk::npu::u85;

constexpr uint64_t kRam = 0x20000000;
constexpr size_t kRamBytes = 4096;
constexpr uint32_t kStreamOffset = 0x800;
constexpr uint32_t kLength = 64;

const char* library_path = nullptr;  // from the command line

}  // namespace

TEST(SharedLibrary, ExportsOnlyTheEntryPointAndRunsAJob) {
  void* library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
  ASSERT_TRUE(library != nullptr) << "dlopen: " << dlerror();
  using Entry = const esdk_npu_device_api* (*)();
  auto entry = reinterpret_cast<Entry>(dlsym(library, "esdk_npu_device_api_v1"));
  EXPECT_TRUE(entry != nullptr) << "esdk_npu_device_api_v1 exported";
  EXPECT_TRUE(
      dlsym(library,
            "_ZN10ethosu_sdk3npu16RunCommandStreamERKNS0_9NpuConfigEPKjmRA8_KNS0_6RegionENS0_"
            "9WorkspaceEPNS0_8RunStatsERKNS0_9RunLimitsEPKNS0_17OperationObserverE") == nullptr)
      << "ethosu_sdk::npu::RunCommandStream not exported";
  if (entry == nullptr) {
    dlclose(library);
    return;
  }
  const esdk_npu_device_api* api = entry();
  EXPECT_EQ(api->abi_version, ESDK_NPU_DEVICE_ABI_VERSION) << "ABI version";
  {
    FakeHost host;
    uint8_t* ram = host.Add(kRam, kRamBytes, true);
    for (uint32_t i = 0; i < kLength; ++i) ram[i] = uint8_t(i + 1);
    std::vector<uint32_t> s;
    s.push_back(Cmd0(u85::kDma0SrcRegion, 0));
    s.push_back(Cmd0(u85::kDma0DstRegion, 0));
    Cmd1(&s, u85::kDma0Src, 0);
    Cmd1(&s, u85::kDma0Dst, kLength);
    Cmd1(&s, u85::kDma0Len, kLength);
    s.push_back(Cmd0(u85::kOpDmaStart));
    s.push_back(Cmd0(u85::kOpStop));
    memcpy(ram + kStreamOffset, s.data(), s.size() * 4);
    Npu npu(api, "ethos-u85", 256, &host, false);
    if (npu.ok()) {
      EXPECT_EQ(npu.WindowBytes(), mmio::u85::kWindowBytes) << "window";
      npu.Write(mmio::kQbase, uint32_t(kRam + kStreamOffset));
      npu.Write(mmio::kQsize, uint32_t(s.size() * 4));
      npu.Write(mmio::BasepLow(0), uint32_t(kRam));
      npu.Write(mmio::kCmd, mmio::cmd::kTransitionToRunning);
      EXPECT_TRUE((npu.Read(mmio::kStatus) & mmio::status::kCmdEndReached) != 0) << "job ran";
      EXPECT_EQ(host.irq(), 1) << "IRQ";
      EXPECT_TRUE(memcmp(ram, ram + kLength, kLength) == 0) << "DMA through the library";
    }
  }
  dlclose(library);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: shared_library_test LIBRARY\n");
    return 2;
  }
  library_path = argv[1];
  return RUN_ALL_TESTS();
}
