// The Ethos-U as a bus device: the register file a driver reads and writes
// (cc/ethosu/mmio.h), soft reset and protection, the IRQ line, the PMU, and
// jobs started by CMD that run the functional model synchronously.
#ifndef ETHOSU_SDK_CC_NPU_DEVICE_DEVICE_H_
#define ETHOSU_SDK_CC_NPU_DEVICE_DEVICE_H_

#include <cstddef>
#include <cstdint>

#include "sim/device/device_abi.h"
#include "sim/device/identity.h"
#include "sim/device/job.h"
#include "sim/device/pmu.h"
#include "sim/npu/weights/weight_cache.h"

namespace ethosu_sdk::npu_device {

// Model working memory (decoded weights, scale records, chain buffers),
// allocated once at create: the 6 MiB every sim/tests/npu network runs in,
// with room to spare.
constexpr size_t kWorkspaceBytes = size_t(8) << 20;
// Decoded weights kept across jobs (npu::WeightCache): MobileNetV2's take
// about 7 MiB; a larger model's are decoded again when the cache is full.
constexpr size_t kWeightCacheBytes = size_t(32) << 20;

class Device {
 public:
  // Null (and a reason in `error`) on an unknown configuration, a host
  // without map/set_irq, or no memory.
  // `limits` bounds each job (tests and fuzzers pass smaller ones).
  static Device* Create(const esdk_npu_device_config& config, const esdk_npu_host& host,
                        char* error, size_t error_size, const JobLimits& limits = JobLimits());
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  uint32_t WindowBytes() const { return identity_.window_bytes; }
  void PowerOnReset();
  uint32_t Read(uint32_t offset);
  void Write(uint32_t offset, uint32_t value);

 private:
  Device(const Identity& identity, const esdk_npu_host& host, bool never_complete,
         const JobLimits& limits, uint8_t* workspace);
  void SoftReset(uint32_t request);
  void Command(uint32_t value);
  void Start();
  bool WriteBusConfig(uint32_t offset, uint32_t value);
  bool ReadBusConfig(uint32_t offset, uint32_t* value) const;
  void UpdateIrq();

  const Identity identity_;
  const esdk_npu_host host_;
  const bool never_complete_;
  const JobLimits limits_;
  uint8_t* const workspace_;  // kWorkspaceBytes, then the weight cache's memory
  npu::WeightCache weight_cache_;
  Pmu pmu_;

  // Register state (reset values in PowerOnReset / SoftReset).
  uint32_t status_ = 0;  // state, irq_raised, fault and end bits, irq history
  uint32_t cmd_ = 0;     // clock_q_enable / power_q_enable as last written
  uint32_t prot_ = 0;
  uint64_t qbase_ = 0;
  uint32_t qread_ = 0, qconfig_ = 0, qsize_ = 0;
  uint32_t regioncfg_ = 0;
  uint32_t bus_config_[6] = {};  // U55/U65: AXI_LIMIT0-3; U85: MEM_ATTR0-3, AXI_SRAM, AXI_EXT
  uint64_t basep_[8] = {};
  int irq_level_ = -1;  // last level given to set_irq (-1: never)
};

}  // namespace ethosu_sdk::npu_device

#endif  // ETHOSU_SDK_CC_NPU_DEVICE_DEVICE_H_
