// libFuzzer target for the device as a guest drives it: the guest controls
// every register write and every byte the device parses (command stream,
// weights, whatever BASEPs point at). The first byte picks the mode:
//   0: [0][config][n][n x (offset u16, value u32)][stream length u16][stream][weights...]
//   1: [1][n][n x (offset u16, value u32)][a whole Vela payload]
// Either way the device is programmed as a driver would (stream in guest
// RAM, BASEP0 the weights, BASEP1 scratch, BASEP2 fast scratch), then the
// guest's own register writes are applied (any offset, any value: they may
// move the stream or the regions anywhere, start jobs, reset), then CMD
// start, then every register of the window is read. Built with clang-19
// -fsanitize=fuzzer,address,undefined (see BUILD.bazel).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cc/backends/ethosu/vela_payload.h"
#include "cc/ethosu/mmio.h"
#include "sim/device/device.h"

namespace {

namespace mmio = ethosu_sdk::ethosu::mmio;
using ethosu_sdk::npu_device::Device;

constexpr uint64_t kStreamBase = 0x1000;
constexpr uint64_t kWeightsBase = 0x100000;
constexpr uint64_t kScratchBase = 0x200000;
constexpr uint64_t kFastBase = 0x300000;
constexpr size_t kScratchBytes = 64 * 1024;
constexpr size_t kFastBytes = 16 * 1024;

struct Block {
  uint64_t address;
  uint8_t* data;
  size_t size;
  bool writable;
};

struct Guest {
  Block blocks[4];
  int count = 0;
  int irq = 0;
};

int Map(void* opaque, uint64_t address, esdk_npu_memory* out) {
  Guest* g = static_cast<Guest*>(opaque);
  for (int i = 0; i < g->count; ++i) {
    const Block& b = g->blocks[i];
    if (address >= b.address && address - b.address < b.size) {
      out->host = b.data + (address - b.address);
      out->size = b.size - (address - b.address);
      out->writable = b.writable;
      return 0;
    }
  }
  return 1;
}
void SetIrq(void* opaque, int level) { static_cast<Guest*>(opaque)->irq = level; }
void Log(void*, const char* message) { (void)strlen(message); }
void Written(void* opaque, uint64_t address, uint64_t size) {
  esdk_npu_memory m{};
  // The range must be memory the device was given.
  if (size != 0 && Map(opaque, address, &m) == 0 && m.size < size) __builtin_trap();
}

const struct {
  const char* product;
  int macs;
} kConfigs[] = {{"ethos-u55", 32},  {"ethos-u55", 64},   {"ethos-u55", 128}, {"ethos-u55", 256},
                {"ethos-u65", 256}, {"ethos-u65", 512},  {"ethos-u85", 128}, {"ethos-u85", 256},
                {"ethos-u85", 512}, {"ethos-u85", 1024}, {"ethos-u85", 2048}};
constexpr int kNumConfigs = sizeof(kConfigs) / sizeof(kConfigs[0]);

Guest guest;

// One device per configuration, made once (the workspace is 8 MiB).
Device* DeviceFor(int index) {
  static Device* devices[kNumConfigs] = {};
  if (devices[index] == nullptr) {
    esdk_npu_host host{&guest, Map, SetIrq, Log, Written};
    esdk_npu_device_config config{kConfigs[index].product, kConfigs[index].macs, 0};
    ethosu_sdk::npu_device::JobLimits limits;
    limits.max_work_per_operation = 1u << 18;
    limits.max_work_per_job = 1u << 21;
    char error[160];
    devices[index] = Device::Create(config, host, error, sizeof(error), limits);
    if (devices[index] == nullptr) __builtin_trap();
  }
  return devices[index];
}

uint32_t ReadLe(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint32_t(p[i]) << (8 * i);
  return v;
}

void Drive(Device* npu, uint32_t qsize, const uint8_t* writes, size_t num_writes) {
  npu->PowerOnReset();
  npu->Write(mmio::kReset, mmio::prot::kPrivileged | mmio::prot::kNonSecure);
  npu->Write(mmio::kQbase, uint32_t(kStreamBase));
  npu->Write(mmio::kQsize, qsize);
  npu->Write(mmio::BasepLow(0), uint32_t(kWeightsBase));
  npu->Write(mmio::BasepLow(1), uint32_t(kScratchBase));
  npu->Write(mmio::BasepLow(2), uint32_t(kFastBase));
  for (size_t i = 0; i < num_writes; ++i) {
    const uint8_t* w = writes + 6 * i;
    npu->Write(ReadLe(w, 2) % npu->WindowBytes(), ReadLe(w + 2, 4));
  }
  npu->Write(mmio::kCmd, mmio::cmd::kTransitionToRunning);
  for (uint32_t offset = 0; offset < npu->WindowBytes(); offset += 4) (void)npu->Read(offset);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const int mode = data[0] & 1;
  size_t at = 1;
  int config = 0;
  if (mode == 0) config = data[at++] % kNumConfigs;
  const size_t num_writes = data[at++];
  if (size - at < 6 * num_writes) return 0;
  const uint8_t* writes = data + at;
  at += 6 * num_writes;

  // Exactly-sized copies, so ASan sees any access past them.
  std::vector<uint8_t> stream, weights;
  std::vector<uint8_t> scratch(kScratchBytes), fast(kFastBytes);
  if (mode == 0) {
    if (size - at < 2) return 0;
    const size_t length = ReadLe(data + at, 2);
    at += 2;
    if (size - at < length) return 0;
    stream.assign(data + at, data + at + length);
    weights.assign(data + at + length, data + size);
  } else {
    if (at == size) return 0;
    // The payload parser needs 4-byte aligned input.
    std::vector<uint32_t> aligned((size - at + 3) / 4);
    memcpy(aligned.data(), data + at, size - at);
    ethosu_sdk::backends::ethosu::VelaPayload payload;
    if (!ethosu_sdk::backends::ethosu::ParseVelaPayload(
             reinterpret_cast<const uint8_t*>(aligned.data()), size - at, &payload)
             .ok()) {
      return 0;
    }
    for (int i = 0; i < kNumConfigs; ++i) {
      if (DeviceFor(i)->Read(mmio::kConfig) == payload.compiled.config) config = i;
    }
    const uint8_t* words = reinterpret_cast<const uint8_t*>(payload.commands);
    stream.assign(words, words + payload.num_commands * 4);
    weights.assign(payload.weights, payload.weights + payload.weights_size);
  }
  guest.count = 0;
  guest.blocks[guest.count++] = {kStreamBase, stream.data(), stream.size(), true};
  guest.blocks[guest.count++] = {kWeightsBase, weights.data(), weights.size(), false};
  guest.blocks[guest.count++] = {kScratchBase, scratch.data(), scratch.size(), true};
  guest.blocks[guest.count++] = {kFastBase, fast.data(), fast.size(), true};
  Drive(DeviceFor(config), uint32_t(stream.size()), writes, num_writes);
  return 0;
}
