// The emulator side of the device ABI for driver tests: the device sees host
// memory at host addresses (the driver writes real pointers into QBASE and
// BASEPn), limited to the blocks a test registers, and its IRQ line is
// delivered to the driver by the wait hook, as an NVIC would after WFI.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "cc/drivers/ethosu/bus.h"
#include "cc/drivers/ethosu/driver.h"
#include "cc/drivers/ethosu/wait_hooks.h"
#include "cc/npu/device/device_abi.h"

namespace ethosu_driver_tests {

namespace driver = ::ethosu_sdk::drivers::ethosu;

class DeviceHost final : public driver::Bus, public driver::WaitHooks {
 public:
  DeviceHost(const char* product, int macs, bool never_complete = false) : api_(esdk_npu_device_api_v1()) {
    esdk_npu_host host{};
    host.opaque = this;
    host.map = &DeviceHost::Map;
    host.set_irq = &DeviceHost::SetIrq;
    const esdk_npu_device_config config{product, macs, never_complete ? 1 : 0};
    char error[200] = {0};
    device_ = api_->create(&config, &host, error, sizeof(error));
    if (device_ == nullptr) printf("FAIL: create %s-%d: %s\n", product, macs, error);
  }
  ~DeviceHost() {
    if (device_ != nullptr) api_->destroy(device_);
  }
  DeviceHost(const DeviceHost&) = delete;
  DeviceHost& operator=(const DeviceHost&) = delete;

  bool ok() const { return device_ != nullptr; }
  // Memory the NPU may reach: [data, data + size).
  void Expose(const void* data, size_t size, bool writable) {
    blocks_.push_back({static_cast<uint8_t*>(const_cast<void*>(data)), size, writable});
  }
  void set_driver(driver::Driver* d) { driver_ = d; }

  // Bus.
  uint32_t Read(uint32_t offset) override { return api_->read(device_, offset); }
  void Write(uint32_t offset, uint32_t value) override { api_->write(device_, offset, value); }

  // WaitHooks: one millisecond per poll, so a timeout is a bounded count.
  uint64_t Ticks() override { return polls; }
  uint64_t TicksPerSecond() override { return 1000; }
  void Wait(const volatile bool&) override {
    ++polls;
    if (irq_ && driver_ != nullptr) driver_->HandleInterrupt();
  }

  uint64_t polls = 0;

 private:
  struct Block {
    uint8_t* data;
    size_t size;
    bool writable;
  };
  static int Map(void* opaque, uint64_t address, esdk_npu_memory* out) {
    for (const Block& b : static_cast<DeviceHost*>(opaque)->blocks_) {
      const uint64_t base = reinterpret_cast<uintptr_t>(b.data);
      if (address >= base && address - base < b.size) {
        out->host = b.data + (address - base);
        out->size = b.size - (address - base);
        out->writable = b.writable ? 1 : 0;
        return 0;
      }
    }
    return 1;
  }
  static void SetIrq(void* opaque, int level) { static_cast<DeviceHost*>(opaque)->irq_ = level != 0; }

  const esdk_npu_device_api* api_;
  esdk_npu_device* device_ = nullptr;
  std::vector<Block> blocks_;
  driver::Driver* driver_ = nullptr;
  bool irq_ = false;
};

}  // namespace ethosu_driver_tests
