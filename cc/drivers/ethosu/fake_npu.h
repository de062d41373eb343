// A scripted register file for sequencing tests of the driver: it answers
// reset/protection, records what was programmed when a job starts and ends
// the job with whatever STATUS the test asks for. Not a model of the NPU
// (the device core tests are): it only lets a test see the order of writes.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_FAKE_NPU_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_FAKE_NPU_H_

#include <cstdint>
#include <map>

#include "cc/drivers/ethosu/bus.h"
#include "cc/drivers/ethosu/driver.h"
#include "cc/drivers/ethosu/wait_hooks.h"
#include "cc/ethosu/mmio.h"

namespace ethosu_sdk::drivers::ethosu::testing {

namespace mmio = ::ethosu_sdk::ethosu::mmio;

class FakeNpu final : public Bus {
 public:
  uint32_t id = 0x10066001u;             // what Vela records for U55
  uint32_t config = 0x00001807u;         // U55-128
  uint32_t prot_override = 0xFFFFFFFFu;  // else PROT follows RESET
  bool reset_sticks = false;
  bool never_complete = false;
  uint32_t end_status = mmio::status::kCmdEndReached;  // STATUS bits a job ends with
  uint32_t end_qread = 0;

  bool irq = false;
  int starts = 0, irq_clears = 0, resets = 0;
  std::map<uint32_t, uint32_t> regs;           // last value written per offset
  std::map<uint32_t, uint32_t> regs_at_start;  // snapshot at CMD start

  uint32_t Read(uint32_t offset) override {
    switch (offset) {
      case mmio::kId:
        return id;
      case mmio::kConfig:
        return config;
      case mmio::kStatus:
        return status_ | (irq ? mmio::status::kIrqRaised : 0u);
      case mmio::kProt:
        return prot_override != 0xFFFFFFFFu ? prot_override : regs[mmio::kReset];
      case mmio::kQread:
        return qread_;
      default:
        return regs.count(offset) != 0 ? regs[offset] : 0u;
    }
  }

  void Write(uint32_t offset, uint32_t value) override {
    regs[offset] = value;
    if (offset == mmio::kReset) {
      ++resets;
      status_ = reset_sticks ? mmio::status::kResetStatus : 0u;
      irq = false;
    }
    if (offset != mmio::kCmd) return;
    if ((value & mmio::cmd::kClearIrq) != 0) {
      ++irq_clears;
      irq = false;
    }
    if ((value & mmio::cmd::kTransitionToRunning) != 0) {
      ++starts;
      regs_at_start = regs;
      if (never_complete) {
        status_ = mmio::status::kState;
        return;
      }
      status_ = end_status;
      qread_ = end_qread;
      irq = true;
    }
  }

 private:
  uint32_t status_ = 0;
  uint32_t qread_ = 0;
};

// One millisecond per poll; each poll delivers a raised interrupt, as the
// NVIC would.
class PollHooks final : public WaitHooks {
 public:
  explicit PollHooks(FakeNpu& npu) : npu_(npu) {}
  void set_driver(Driver* driver) { driver_ = driver; }
  uint64_t Ticks() override { return polls; }
  uint64_t TicksPerSecond() override { return 1000; }
  void Wait(const volatile bool&) override {
    ++polls;
    if (npu_.irq && driver_ != nullptr) driver_->HandleInterrupt();
  }
  uint64_t polls = 0;

 private:
  FakeNpu& npu_;
  Driver* driver_ = nullptr;
};

}  // namespace ethosu_sdk::drivers::ethosu::testing

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_FAKE_NPU_H_
