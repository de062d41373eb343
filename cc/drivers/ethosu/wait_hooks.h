// How the driver waits for the NPU: a clock for timeouts and a way to sleep
// until something happens. Firmware: the board timer and WFI (with a
// periodic wake-up, so a silent NPU times out); host tests: a counted poll
// that delivers the device's interrupt.
#ifndef ETHOSU_SDK_CC_DRIVERS_ETHOSU_WAIT_HOOKS_H_
#define ETHOSU_SDK_CC_DRIVERS_ETHOSU_WAIT_HOOKS_H_

#include <cstdint>

namespace ethosu_sdk::drivers::ethosu {

class WaitHooks {
 public:
  virtual uint64_t Ticks() = 0;
  virtual uint64_t TicksPerSecond() = 0;
  // Returns once `done` is set or after some event (an interrupt, a timer
  // tick); may return early. Must not sleep when `done` is already set.
  virtual void Wait(const volatile bool& done) = 0;
  // Called around a job's wait (firmware: start/stop the wake-up timer).
  virtual void BeginWait() {}
  virtual void EndWait() {}

 protected:
  ~WaitHooks() = default;
};

}  // namespace ethosu_sdk::drivers::ethosu

#endif  // ETHOSU_SDK_CC_DRIVERS_ETHOSU_WAIT_HOOKS_H_
