// The C ABI (device_abi.h) over Device: the one symbol the shared library
// exports.
#include <cstdio>
#include <new>

#include "sim/device/device.h"
#include "sim/device/device_abi.h"

struct esdk_npu_device {
  ethosu_sdk::npu_device::Device* device;
};

namespace {

using ethosu_sdk::npu_device::Device;

esdk_npu_device* Create(const esdk_npu_device_config* config, const esdk_npu_host* host,
                        char* error, size_t error_size) {
  if (config == nullptr || host == nullptr) {
    if (error != nullptr && error_size > 0) snprintf(error, error_size, "null config or host");
    return nullptr;
  }
  Device* device = Device::Create(*config, *host, error, error_size);
  if (device == nullptr) return nullptr;
  esdk_npu_device* handle = new (std::nothrow) esdk_npu_device{device};
  if (handle == nullptr) {
    delete device;
    if (error != nullptr && error_size > 0) snprintf(error, error_size, "out of memory");
  }
  return handle;
}

void Destroy(esdk_npu_device* handle) {
  if (handle == nullptr) return;
  delete handle->device;
  delete handle;
}

uint32_t WindowBytes(const esdk_npu_device* handle) {
  return handle != nullptr ? handle->device->WindowBytes() : 0;
}

void Reset(esdk_npu_device* handle) {
  if (handle != nullptr) handle->device->PowerOnReset();
}

uint32_t Read(esdk_npu_device* handle, uint32_t offset) {
  return handle != nullptr ? handle->device->Read(offset) : 0;
}

void Write(esdk_npu_device* handle, uint32_t offset, uint32_t value) {
  if (handle != nullptr) handle->device->Write(offset, value);
}

constexpr esdk_npu_device_api kApi = {
    ESDK_NPU_DEVICE_ABI_VERSION, Create, Destroy, WindowBytes, Reset, Read, Write,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const esdk_npu_device_api* esdk_npu_device_api_v1(
    void) {
  return &kApi;
}
