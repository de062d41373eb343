// How the driver reaches the NPU's registers: 32-bit accesses at byte
// offsets. Firmware: volatile MMIO at the board's NPU base (MmioBus); host
// tests: the device core's C ABI.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_BUS_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_BUS_H_

#include <cstdint>

namespace ethosu_sdk::drivers::ethosu {

class Bus {
 public:
  virtual uint32_t Read(uint32_t offset) = 0;
  virtual void Write(uint32_t offset, uint32_t value) = 0;

 protected:
  ~Bus() = default;
};

class MmioBus final : public Bus {
 public:
  explicit constexpr MmioBus(uintptr_t base) : base_(base) {}
  uint32_t Read(uint32_t offset) override { return *Register(offset); }
  void Write(uint32_t offset, uint32_t value) override { *Register(offset) = value; }

 private:
  volatile uint32_t* Register(uint32_t offset) const {
    return reinterpret_cast<volatile uint32_t*>(base_ + offset);
  }
  uintptr_t base_;
};

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_BUS_H_
