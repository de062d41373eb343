// The emulator side of the device ABI for driver tests: the device sees host
// memory at host addresses (the driver writes real pointers into QBASE and
// BASEPn), limited to the blocks a test registers, and its IRQ line is
// delivered to the driver by the wait hook, as an NVIC would after WFI.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cc/drivers/ethosu/bus.h"
#include "cc/drivers/ethosu/driver.h"
#include "cc/drivers/ethosu/wait_hooks.h"
#include "sim/tests/device/fake_host.h"

namespace ethosu_sdk::ethosu_driver_tests {

namespace driver = ::ethosu_sdk::drivers::ethosu;

class DeviceHost final : public driver::Bus, public driver::WaitHooks {
 public:
  DeviceHost(const char* product, int macs, bool never_complete = false)
      : npu_(product, macs, &memory_, never_complete) {}

  bool ok() const { return npu_.ok(); }
  // Memory the NPU may reach: [data, data + size), at its host address.
  void Expose(const void* data, size_t size, bool writable) {
    memory_.Expose(data, size, writable);
  }
  void set_driver(driver::Driver* d) { driver_ = d; }

  // Bus.
  uint32_t Read(uint32_t offset) override { return npu_.Read(offset); }
  void Write(uint32_t offset, uint32_t value) override { npu_.Write(offset, value); }

  // WaitHooks: one millisecond per poll, so a timeout is a bounded count.
  uint64_t Ticks() override { return polls; }
  uint64_t TicksPerSecond() override { return 1000; }
  void Wait(const volatile bool&) override {
    ++polls;
    if (memory_.irq() == 1 && driver_ != nullptr) driver_->HandleInterrupt();
  }

  uint64_t polls = 0;

 private:
  ethosu_sdk::npu_device_tests::FakeHost memory_;  // before npu_: the device maps through it
  ethosu_sdk::npu_device_tests::Npu npu_;
  driver::Driver* driver_ = nullptr;
};

}  // namespace ethosu_sdk::ethosu_driver_tests
