// Test doubles for the emulator side of the device ABI: guest memory as host
// buffers at guest addresses behind the map callback, and a host that
// records the IRQ line, log lines and written ranges. For tests on
// cc/testing: a device that cannot be created is a test failure.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "cc/testing/unit_test.h"
#include "sim/device/device_abi.h"

namespace ethosu_sdk::npu_device_tests {

class FakeHost {
 public:
  struct Block {
    uint64_t address;  // guest address of data[0]
    uint8_t* data;
    size_t size;
    bool writable;
  };

  // Guest memory [address, address + size), owned here; its host bytes.
  uint8_t* Add(uint64_t address, size_t size, bool writable) {
    uint8_t* data = storage_.emplace_back(size).data();
    blocks_.push_back(Block{address, data, size, writable});
    return data;
  }
  // The caller's memory, seen at its own host address: what a driver running
  // on the host writes into QBASE and BASEPn.
  void Expose(const void* data, size_t size, bool writable) {
    uint8_t* bytes = static_cast<uint8_t*>(const_cast<void*>(data));
    blocks_.push_back(Block{uint64_t(reinterpret_cast<uintptr_t>(bytes)), bytes, size, writable});
  }

  esdk_npu_host Host() {
    esdk_npu_host h{};
    h.opaque = this;
    h.map = &FakeHost::Map;
    h.set_irq = &FakeHost::SetIrq;
    h.log = &FakeHost::Log;
    h.written = &FakeHost::Written;
    return h;
  }

  int irq() const { return irq_levels.empty() ? -1 : irq_levels.back(); }
  int raises() const {
    int n = 0;
    for (int level : irq_levels) n += level;
    return n;
  }
  bool Logged(const char* text) const {
    for (const std::string& line : logs) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }
  bool WasWritten(uint64_t address, uint64_t size) const {
    for (const auto& range : written) {
      if (range.first <= address && address + size <= range.first + range.second) return true;
    }
    return false;
  }

  std::vector<int> irq_levels;
  std::vector<std::string> logs;
  std::vector<std::pair<uint64_t, uint64_t>> written;

 private:
  static int Map(void* opaque, uint64_t address, esdk_npu_memory* out) {
    for (const Block& b : static_cast<FakeHost*>(opaque)->blocks_) {
      if (address >= b.address && address - b.address < b.size) {
        out->host = b.data + (address - b.address);
        out->size = b.size - (address - b.address);
        out->writable = b.writable ? 1 : 0;
        return 0;
      }
    }
    return 1;
  }
  static void SetIrq(void* opaque, int level) {
    static_cast<FakeHost*>(opaque)->irq_levels.push_back(level);
  }
  static void Log(void* opaque, const char* message) {
    static_cast<FakeHost*>(opaque)->logs.push_back(message);
  }
  static void Written(void* opaque, uint64_t address, uint64_t size) {
    static_cast<FakeHost*>(opaque)->written.push_back({address, size});
  }

  std::vector<Block> blocks_;
  std::deque<std::vector<uint8_t>> storage_;  // Add()'s bytes, never moved
};

// A device created through the C ABI, as an emulator holds it.
class Npu {
 public:
  Npu(const char* product, int macs, FakeHost* host, bool never_complete = false)
      : Npu(esdk_npu_device_api_v1(), product, macs, host, never_complete) {}
  // The device behind `api` (e.g. from a dlopen'ed library).
  Npu(const esdk_npu_device_api* api, const char* product, int macs, FakeHost* host,
      bool never_complete)
      : api_(api), host_(host->Host()) {
    esdk_npu_device_config config{product, macs, never_complete ? 1 : 0};
    device_ = api_->create(&config, &host_, error_, sizeof(error_));
    if (device_ == nullptr) ADD_FAILURE() << "create " << product << "-" << macs << ": " << error_;
  }
  ~Npu() {
    if (device_ != nullptr) api_->destroy(device_);
  }
  Npu(const Npu&) = delete;
  Npu& operator=(const Npu&) = delete;

  bool ok() const { return device_ != nullptr; }
  uint32_t Read(uint32_t offset) { return api_->read(device_, offset); }
  void Write(uint32_t offset, uint32_t value) { api_->write(device_, offset, value); }
  uint32_t WindowBytes() { return api_->window_bytes(device_); }
  void PowerOnReset() { api_->reset(device_); }

 private:
  const esdk_npu_device_api* api_;
  esdk_npu_host host_;
  esdk_npu_device* device_ = nullptr;
  char error_[200] = {0};
};

// Command words (sim/npu/commands/u85_registers.h layout).
inline uint32_t Cmd0(uint16_t opcode, uint16_t param = 0) {
  return uint32_t(opcode) | (uint32_t(param) << 16);
}
constexpr uint32_t kPayloadFollows = 1u << 14;
inline void Cmd1(std::vector<uint32_t>* out, uint16_t opcode, uint32_t payload,
                 uint16_t param = 0) {
  out->push_back(uint32_t(opcode) | kPayloadFollows | (uint32_t(param) << 16));
  out->push_back(payload);
}

}  // namespace ethosu_sdk::npu_device_tests
