// The register-level driver against the real device core (cc/npu/device,
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
#include "cc/backends/ethosu/ethosu_delegate.h"
#include "cc/drivers/ethosu/driver.h"
#include "tests/ethosu_driver/device_host.h"
#include "tests/npu_device/payload_file.h"

namespace {

using ethosu_sdk::ErrorCode;
using ethosu_sdk::ethosu_driver_tests::DeviceHost;
namespace backend = ::ethosu_sdk::backends::ethosu;
namespace driver = ::ethosu_sdk::drivers::ethosu;

int failures = 0;

void Expect(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL %s\n", what.c_str());
    ++failures;
  }
}

// The NPU's failure, through the delegate, with its own code.
void ExpectError(const ethosu_sdk::Status& status, ethosu_sdk::ErrorCode code, const char* text,
                 const std::string& what) {
  const bool ok = status.code() == code && std::strstr(status.message(), text) != nullptr;
  Expect(ok, what + ": got " + ethosu_sdk::ErrorCodeName(status.code()) + " \"" + status.message() +
                 "\", want " + ethosu_sdk::ErrorCodeName(code) + " \"" + text + "\"");
}

const char* ProductOf(const backend::VelaPayload& payload) {
  switch (payload.product) {
    case backend::NpuProduct::kEthosU55: return "ethos-u55";
    case backend::NpuProduct::kEthosU65: return "ethos-u65";
    case backend::NpuProduct::kEthosU85: return "ethos-u85";
  }
  return "?";
}

// All MACs of the configuration, as the device is configured (CONFIG's
// macs_per_cc field).
int MacsOf(const backend::VelaPayload& payload) { return 1 << (payload.arch_config & 0xF); }

// Inputs, outputs and scratch for one delegate call, 16-byte aligned.
struct Buffers {
  std::vector<std::vector<uint8_t>> inputs, outputs;
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  std::vector<size_t> in_sizes, out_sizes;
  std::vector<uint64_t> scratch, fast_scratch;

  explicit Buffers(const backend::VelaPayload& payload) {
    uint32_t seed = 0x2545F491u;
    for (int i = 0; i < payload.num_inputs; ++i) {
      std::vector<uint8_t> bytes(payload.inputs[i].bytes());
      for (uint8_t& b : bytes) {
        seed = seed * 1664525u + 1013904223u;
        b = uint8_t(seed >> 24);
      }
      inputs.push_back(bytes);
    }
    for (int i = 0; i < payload.num_outputs; ++i) outputs.emplace_back(payload.outputs[i].bytes(), 0xA5);
    for (auto& v : inputs) {
      in_ptrs.push_back(v.data());
      in_sizes.push_back(v.size());
    }
    for (auto& v : outputs) {
      out_ptrs.push_back(v.data());
      out_sizes.push_back(v.size());
    }
    scratch.assign(payload.scratch_size / 8 + 2, 0);
    fast_scratch.assign(payload.fast_scratch_size / 8 + 2, 0);
  }

  void Fill(const backend::VelaPayload& payload, backend::DelegateIo* io) {
    io->inputs = in_ptrs.data();
    io->input_sizes = in_sizes.data();
    io->num_inputs = payload.num_inputs;
    io->outputs = out_ptrs.data();
    io->output_sizes = out_sizes.data();
    io->num_outputs = payload.num_outputs;
    io->scratch = reinterpret_cast<uint8_t*>(scratch.data());
    io->scratch_size = payload.scratch_size;
    if (payload.fast_scratch_size > 0) {
      io->fast_scratch = reinterpret_cast<uint8_t*>(fast_scratch.data());
      io->fast_scratch_size = payload.fast_scratch_size;
    }
  }
};

ethosu_sdk::Status RunDirect(const backend::VelaPayload& payload, Buffers* b) {
  std::vector<uint8_t> workspace(backend::kRecommendedWorkspaceBytes);
  backend::DelegateBuffers io;
  b->Fill(payload, &io);
  io.workspace = {workspace.data(), workspace.size()};
  npu::RunStats stats;
  return backend::ExecuteVelaPayload(payload, io, &stats);
}

struct DriverRun {
  const char* product = nullptr;  // default: the payload's own
  int macs = 0;
  bool never_complete = false;
  size_t scratch_exposed = SIZE_MAX;  // bytes of the scratch the NPU may reach
  uint32_t timeout_ms = 5000;
};

ethosu_sdk::Status RunThroughDriver(const backend::VelaPayload& payload, Buffers* b, const DriverRun& how,
                                backend::DriverFigures* figures = nullptr, uint64_t* polls = nullptr) {
  DeviceHost host(how.product ? how.product : ProductOf(payload), how.macs ? how.macs : MacsOf(payload),
                  how.never_complete);
  if (!host.ok()) return ethosu_sdk::Status::Error(ethosu_sdk::ErrorCode::kInternal, "device not created");
  host.Expose(payload.commands, payload.num_commands * 4, false);
  host.Expose(payload.weights, payload.weights_size, false);
  host.Expose(b->scratch.data(), std::min(how.scratch_exposed, b->scratch.size() * 8), true);
  host.Expose(b->fast_scratch.data(), b->fast_scratch.size() * 8, true);
  driver::DriverConfig config;
  config.job_timeout_ms = how.timeout_ms;
  driver::Driver npu_driver(host, host, config);
  host.set_driver(&npu_driver);
  backend::DriverNpu npu(npu_driver);
  backend::DelegateIo io;
  b->Fill(payload, &io);
  const ethosu_sdk::Status status = backend::RunDelegate(payload, io, npu);
  if (figures != nullptr) *figures = npu.figures();
  if (polls != nullptr) *polls = host.polls;
  return status;
}

void TestWholePayload(const char* path, const backend::VelaPayload& payload) {
  Buffers direct(payload), registers(payload);
  const ethosu_sdk::Status a = RunDirect(payload, &direct);
  Expect(a.ok(), std::string(path) + ": direct run: " + a.message());
  backend::DriverFigures figures;
  const ethosu_sdk::Status b = RunThroughDriver(payload, &registers, DriverRun(), &figures);
  Expect(b.ok(), std::string(path) + ": run through the driver: " + b.message());
  if (!a.ok() || !b.ok()) return;
  size_t differing = 0, total = 0;
  for (size_t o = 0; o < direct.outputs.size(); ++o) {
    total += direct.outputs[o].size();
    for (size_t i = 0; i < direct.outputs[o].size(); ++i) differing += direct.outputs[o][i] != registers.outputs[o][i];
  }
  Expect(differing == 0, std::string(path) + ": " + std::to_string(differing) + " of " + std::to_string(total) +
                             " output bytes differ from the functional model's");
  Expect(figures.jobs == 1, std::string(path) + ": one job");
  std::printf("%s: %s-%d, %zu output bytes identical; PMU cycles %llu, npu_active %llu\n", path, ProductOf(payload),
              MacsOf(payload), total, static_cast<unsigned long long>(figures.cycles),
              static_cast<unsigned long long>(figures.events[0]));
}

void TestFaults(const char* path, const backend::VelaPayload& payload) {
  const std::string name(path);
  {
    // Compiled for one NPU, run on another family's.
    const bool u85 = payload.product == backend::NpuProduct::kEthosU85;
    DriverRun other;
    other.product = u85 ? "ethos-u55" : "ethos-u85";
    other.macs = u85 ? 128 : 256;
    Buffers b(payload);
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
    Buffers b(payload);
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
    Buffers b(payload);
    ExpectError(RunThroughDriver(payload, &b, cut), ErrorCode::kNpuBusError, "NPU fault: bus error",
                name + ": access out of range");
  }
  {
    DriverRun silent;
    silent.never_complete = true;
    silent.timeout_ms = 50;
    Buffers b(payload);
    uint64_t polls = 0;
    const ethosu_sdk::Status s = RunThroughDriver(payload, &b, silent, nullptr, &polls);
    ExpectError(s, ErrorCode::kNpuTimeout, "NPU did not complete within 50 ms (STATUS 0x",
                name + ": never completes");
    Expect(polls >= 50 && polls <= 52, name + ": timed out after " + std::to_string(polls) + " polls");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; ++i) {
    npu_device_tests::PayloadFile file;
    if (!npu_device_tests::LoadPayload(argv[i], &file)) {
      ++failures;
      continue;
    }
    TestWholePayload(argv[i], file.payload);
    TestFaults(argv[i], file.payload);
  }
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
