// The register-level driver against the real device core (sim/device,
// through its C ABI): a whole Vela payload run through registers must give
// outputs byte-identical to the functional model run directly; a
// configuration mismatch, a corrupt stream, an access outside the NPU's
// memory and an NPU that never completes must each end in one clear error.
//
//   driver_device_test FILE...   (.pte of an ethosu_model, or a .payload)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cc/backends/ethosu/delegate_io.h"
#include "cc/backends/ethosu/driver_npu.h"
#include "cc/drivers/ethosu/driver.h"
#include "cc/testing/unit_test.h"
#include "sim/host/payload_harness.h"
#include "sim/tests/device/payload_file.h"
#include "tests/ethosu_driver/device_host.h"

namespace {

using ethosu_sdk::ethosu_driver_tests::DeviceHost;
using ethosu_sdk::npu_harness::AlignedBytes;
using ethosu_sdk::npu_harness::PayloadHarness;
namespace driver = ::ethosu_sdk::drivers::ethosu;
namespace backend = ::ethosu_sdk::backends::ethosu;
using ethosu_sdk::ErrorCode;

// The NPU's failure, through the delegate, with its own code.
void ExpectError(const ethosu_sdk::Status& status, ethosu_sdk::ErrorCode code, const char* text,
                 const std::string& what) {
  const bool ok = status.code() == code && std::strstr(status.message(), text) != nullptr;
  EXPECT_TRUE(ok) << what + ": got " + ethosu_sdk::ErrorCodeName(status.code()) + " \"" +
                         status.message() + "\", want " + ethosu_sdk::ErrorCodeName(code) + " \"" +
                         text + "\"";
}

const char* ProductOf(const backend::VelaPayload& payload) {
  return ethosu_sdk::ethosu::ProductName(payload.npu.product);
}

// All MACs of the configuration, as the device is configured (CONFIG's
// macs_per_cc field).
int MacsOf(const backend::VelaPayload& payload) { return 1 << (payload.compiled.config & 0xF); }

// The buffers of one delegate call: pseudo-random inputs, the same for
// every call, and outputs that start as 0xA5.
void BindBuffers(const ethosu_sdk::backends::ethosu::VelaPayload& payload,
                 PayloadHarness* buffers) {
  ethosu_sdk::npu_harness::HarnessOptions options;
  options.input_seed = 0x2545F491u;
  options.output_fill = 0xA5;
  const ethosu_sdk::Status bound = buffers->Bind(payload, options);
  EXPECT_TRUE(bound.ok()) << std::string("harness: ") + bound.message();
}

struct DriverRun {
  const char* product = nullptr;  // default: the payload's own
  int macs = 0;
  bool never_complete = false;
  size_t scratch_exposed = SIZE_MAX;  // bytes of the scratch the NPU may reach
  uint32_t timeout_ms = 5000;
};

ethosu_sdk::Status RunThroughDriver(const ethosu_sdk::backends::ethosu::VelaPayload& payload,
                                    PayloadHarness* b, const DriverRun& how,
                                    ethosu_sdk::backends::ethosu::DriverFigures* figures = nullptr,
                                    uint64_t* polls = nullptr) {
  DeviceHost host(how.product ? how.product : ProductOf(payload),
                  how.macs ? how.macs : MacsOf(payload), how.never_complete);
  if (!host.ok())
    return ethosu_sdk::Status::Error(ethosu_sdk::ErrorCode::kInternal, "device not created");
  host.Expose(payload.commands, payload.num_commands * 4, false);
  host.Expose(payload.weights, payload.weights_size, false);
  host.Expose(b->scratch().data(), std::min(how.scratch_exposed, b->scratch().size()), true);
  host.Expose(b->fast_scratch().data(), b->fast_scratch().size(), true);
  driver::DriverConfig config;
  config.job_timeout_ms = how.timeout_ms;
  driver::Driver npu_driver(host, host, config);
  host.set_driver(&npu_driver);
  ethosu_sdk::backends::ethosu::DriverNpu npu(npu_driver);
  const ethosu_sdk::Status status =
      ethosu_sdk::backends::ethosu::RunDelegate(payload, b->buffers(), npu);
  if (figures != nullptr) *figures = npu.figures();
  if (polls != nullptr) *polls = host.polls;
  return status;
}

void TestWholePayload(const char* path, const ethosu_sdk::backends::ethosu::VelaPayload& payload) {
  PayloadHarness direct, registers;
  BindBuffers(payload, &direct);
  BindBuffers(payload, &registers);
  const ethosu_sdk::Status a = direct.Run();
  EXPECT_TRUE(a.ok()) << std::string(path) + ": direct run: " + a.message();
  backend::DriverFigures figures;
  const ethosu_sdk::Status b = RunThroughDriver(payload, &registers, DriverRun(), &figures);
  EXPECT_TRUE(b.ok()) << std::string(path) + ": run through the driver: " + b.message();
  if (!a.ok() || !b.ok()) return;
  size_t differing = 0, total = 0;
  for (int o = 0; o < payload.outputs.count; ++o) {
    const AlignedBytes &want = direct.output(o), &got = registers.output(o);
    total += want.size();
    for (size_t i = 0; i < want.size(); ++i) differing += want[i] != got[i];
  }
  EXPECT_EQ(differing, 0u) << std::string(path) + ": " + std::to_string(differing) + " of " +
                                  std::to_string(total) +
                                  " output bytes differ from the functional model's";
  EXPECT_EQ(figures.jobs, 1u) << std::string(path) + ": one job";
  std::printf("%s: %s-%d, %zu output bytes identical; PMU cycles %llu, npu_active %llu\n", path,
              ProductOf(payload), MacsOf(payload), total,
              static_cast<unsigned long long>(figures.cycles),
              static_cast<unsigned long long>(figures.events[0]));
}

void TestFaults(const char* path, const backend::VelaPayload& payload) {
  const std::string name(path);
  {
    // Compiled for one NPU, run on another family's.
    const bool u85 = payload.npu.product == ethosu_sdk::ethosu::Product::kEthosU85;
    DriverRun other;
    other.product = u85 ? "ethos-u55" : "ethos-u85";
    other.macs = u85 ? 128 : 256;
    PayloadHarness b;
    BindBuffers(payload, &b);
    const ethosu_sdk::Status s = RunThroughDriver(payload, &b, other);
    ExpectError(s, ErrorCode::kNpuUnsupported, "NPU mismatch: the model was compiled for Ethos-U",
                name + ": mismatch");
    ExpectError(s, ErrorCode::kNpuUnsupported,
                u85 ? "this NPU is Ethos-U55-128 (arch 1." : "this NPU is Ethos-U85-256 (arch 2.",
                name + ": mismatch names the NPU");
  }
  {
    // An undefined opcode as the first command.
    std::vector<uint32_t> corrupt(payload.commands, payload.commands + payload.num_commands);
    corrupt[0] = 0x0000007Fu;
    backend::VelaPayload bad = payload;
    bad.commands = corrupt.data();
    PayloadHarness b;
    BindBuffers(payload, &b);
    const ethosu_sdk::Status s = RunThroughDriver(bad, &b, DriverRun());
    ExpectError(s, ErrorCode::kNpuCommandStream, "NPU fault: command stream parse error (STATUS 0x",
                name + ": corrupt stream");
    ExpectError(s, ErrorCode::kNpuCommandStream, ", QREAD ", name + ": corrupt stream names QREAD");
  }
  {
    // The scratch arena cut to 16 bytes: the stream's accesses leave the
    // memory the NPU can reach.
    DriverRun cut;
    cut.scratch_exposed = 16;
    PayloadHarness b;
    BindBuffers(payload, &b);
    ExpectError(RunThroughDriver(payload, &b, cut), ErrorCode::kNpuBusError, "NPU fault: bus error",
                name + ": access out of range");
  }
  {
    DriverRun silent;
    silent.never_complete = true;
    silent.timeout_ms = 50;
    PayloadHarness b;
    BindBuffers(payload, &b);
    uint64_t polls = 0;
    const ethosu_sdk::Status s = RunThroughDriver(payload, &b, silent, nullptr, &polls);
    ExpectError(s, ErrorCode::kNpuTimeout, "NPU did not complete within 50 ms (STATUS 0x",
                name + ": never completes");
    EXPECT_TRUE(polls >= 50 && polls <= 52)
        << name + ": timed out after " + std::to_string(polls) + " polls";
  }
}

std::vector<const char*> files;  // from the command line

}  // namespace

TEST(DriverDevice, WholePayloadsAndFaults) {
  for (const char* path : files) {
    ethosu_sdk::npu_device_tests::PayloadFile file;
    const bool loaded = ethosu_sdk::npu_device_tests::LoadPayload(path, &file);
    EXPECT_TRUE(loaded) << path;
    if (!loaded) continue;
    TestWholePayload(path, file.payload);
    TestFaults(path, file.payload);
  }
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE...\n", argv[0]);
    return 2;
  }
  files.assign(argv + 1, argv + argc);
  return RUN_ALL_TESTS();
}
