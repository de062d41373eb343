#include "sim/device/host_log.h"

#include <cstdarg>
#include <cstdio>

namespace ethosu_sdk::npu_device {

void HostLog(const esdk_npu_host& host, const char* fmt, ...) {
  if (host.log == nullptr) return;
  char line[256];
  va_list args;
  va_start(args, fmt);
  vsnprintf(line, sizeof(line), fmt, args);
  va_end(args);
  host.log(host.opaque, line);
}

}  // namespace ethosu_sdk::npu_device
