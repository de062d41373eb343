// CRC-32 (IEEE 802.3, the zlib/PNG polynomial), bitwise: small code, no
// table. Lets a firmware prove which bytes it carries (e.g. its .pte).
#ifndef ETHOSU_SDK_CC_SUPPORT_CRC32_H_
#define ETHOSU_SDK_CC_SUPPORT_CRC32_H_

#include <cstddef>
#include <cstdint>

namespace ethosu_sdk {

// `crc` continues an earlier result; start with 0.
uint32_t Crc32(const void* data, size_t size, uint32_t crc = 0);

}  // namespace ethosu_sdk

#endif  // ETHOSU_SDK_CC_SUPPORT_CRC32_H_
