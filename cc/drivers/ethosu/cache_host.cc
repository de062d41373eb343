// The host has coherent caches: nothing to maintain.
#include "cc/drivers/ethosu/cache.h"

extern "C" {
__attribute__((weak)) void ethosu_sdk_npu_cache_clean(const void*, size_t) {}
__attribute__((weak)) void ethosu_sdk_npu_cache_invalidate(void*, size_t) {}
}
