// One formatted line to the emulator's log callback (if it gave one).
#ifndef ETHOSU_SDK_CC_NPU_DEVICE_HOST_LOG_H_
#define ETHOSU_SDK_CC_NPU_DEVICE_HOST_LOG_H_

#include "sim/device/device_abi.h"

namespace ethosu_sdk::npu_device {

void HostLog(const esdk_npu_host& host, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace ethosu_sdk::npu_device

#endif  // ETHOSU_SDK_CC_NPU_DEVICE_HOST_LOG_H_
