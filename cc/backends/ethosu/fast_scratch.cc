#include "cc/backends/ethosu/fast_scratch.h"

#include <cstring>

namespace ethosu_sdk::backends::ethosu {
namespace {

constexpr char kMemoryModeFlag[] = "--memory-mode=";
constexpr char kArenaCacheFlag[] = "--arena-cache-size=";
constexpr char kSpillingModePrefix[] = "Dedicated_Sram";  // cache in SRAM, arena elsewhere
constexpr uint32_t kKiB = 1024;
// Vela's limit is the AXI address space; ours what a 32-bit size holds.
constexpr uint64_t kMaxBytes = 0xFFFFFFFFu;

struct Token {
  const char* data = nullptr;
  size_t size = 0;
};

// `token` minus `prefix`, if it starts with it.
bool Value(const Token& token, const char* prefix, Token* value) {
  const size_t n = strlen(prefix);
  if (token.size < n || memcmp(token.data, prefix, n) != 0) return false;
  *value = {token.data + n, token.size - n};
  return true;
}

bool ParseDecimal(const char* p, size_t n, uint64_t* out) {
  if (n == 0 || n > 10) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    if (p[i] < '0' || p[i] > '9') return false;
    v = v * 10 + uint64_t(p[i] - '0');
  }
  if (v > kMaxBytes) return false;
  *out = v;
  return true;
}

// "Dedicated_Sram_<n>KB" -> n KiB.
bool SizeFromModeName(const Token& mode, uint64_t* bytes) {
  const size_t prefix = strlen(kSpillingModePrefix) + 1;  // and the '_'
  if (mode.size < prefix + 3 || mode.data[prefix - 1] != '_' ||
      memcmp(mode.data + mode.size - 2, "KB", 2) != 0) {
    return false;
  }
  uint64_t kib = 0;
  if (!ParseDecimal(mode.data + prefix, mode.size - prefix - 2, &kib) || kib * kKiB > kMaxBytes)
    return false;
  *bytes = kib * kKiB;
  return true;
}

}  // namespace

Status FastScratchFromVelaFlags(Span<const uint8_t> flags, bool* found, uint32_t* bytes) {
  *found = false;
  *bytes = 0;
  Token mode, arena_cache;
  bool have_mode = false, have_arena_cache = false;
  const char* p = reinterpret_cast<const char*>(flags.data());
  const char* end = p + flags.size();
  while (p < end) {
    while (p < end && *p == ' ') ++p;
    const char* start = p;
    while (p < end && *p != ' ') ++p;
    const Token token{start, size_t(p - start)};
    have_mode |= Value(token, kMemoryModeFlag, &mode);
    have_arena_cache |= Value(token, kArenaCacheFlag, &arena_cache);
  }
  if (!have_mode) return Status::Ok();
  *found = true;
  const size_t prefix = strlen(kSpillingModePrefix);
  if (mode.size < prefix || memcmp(mode.data, kSpillingModePrefix, prefix) != 0)
    return Status::Ok();
  uint64_t size = 0;
  if (have_arena_cache) {
    if (!ParseDecimal(arena_cache.data, arena_cache.size, &size)) {
      return Status::Error(ErrorCode::kInvalidProgram,
                           "Vela flag --arena-cache-size=%.*s is not a size", int(arena_cache.size),
                           arena_cache.data);
    }
  } else if (!SizeFromModeName(mode, &size)) {
    return Status::Error(
        ErrorCode::kInvalidProgram,
        "Vela memory mode %.*s does not name its arena cache size: compile with --arena-cache-size",
        int(mode.size), mode.data);
  }
  *bytes = uint32_t(size);
  return Status::Ok();
}

}  // namespace ethosu_sdk::backends::ethosu
