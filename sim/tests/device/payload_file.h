// The Vela payload of a test input: a raw payload file (sim/tests/npu's
// <case>.payload) or a .pte (an ethosu_model's output, read through the
// SDK's .pte loader: the first method's first delegate), held in 16-byte
// aligned memory and parsed by the delegate's payload parser. For a .pte the
// fast scratch (region 2) size comes from the delegate's Vela flags, as the
// backend takes it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "cc/backends/ethosu/fast_scratch.h"
#include "cc/backends/ethosu/vela_payload.h"
#include "cc/runtime/program.h"
#include "schema/program_generated.h"
#include "sim/host/aligned_bytes.h"

namespace ethosu_sdk::npu_device_tests {

struct PayloadFile {
  ethosu_sdk::npu_harness::AlignedBytes storage;  // the whole file
  ethosu_sdk::backends::ethosu::VelaPayload payload;
};

inline bool EndsWith(const char* s, const char* suffix) {
  const size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

// False (and a line on stderr) if the file cannot be read or parsed.
// The region-2 bytes a delegate's "compile_flags" spec names, if any.
inline bool FastScratchOf(const executorch_flatbuffer::BackendDelegate& delegate, bool* found,
                          uint32_t* bytes) {
  *found = false;
  const auto* specs = delegate.compile_specs();
  for (uint32_t i = 0; specs != nullptr && i < specs->size(); ++i) {
    const auto* spec = specs->Get(i);
    if (spec->key() == nullptr || spec->value() == nullptr || spec->key()->str() != "compile_flags")
      continue;
    const ethosu_sdk::Span<const uint8_t> flags(spec->value()->data(), spec->value()->size());
    if (!ethosu_sdk::backends::ethosu::FastScratchFromVelaFlags(flags, found, bytes).ok())
      return false;
  }
  return true;
}

inline bool LoadPayload(const char* path, PayloadFile* out) {
  if (!ethosu_sdk::npu_harness::ReadFile(path, &out->storage)) {
    fprintf(stderr, "cannot open %s\n", path);
    return false;
  }
  const uint8_t* data = out->storage.data();
  size_t size = out->storage.size();
  bool has_flags = false;
  uint32_t fast_scratch = 0;
  if (EndsWith(path, ".pte")) {
    ethosu_sdk::runtime::Program program;
    ethosu_sdk::Status loaded = ethosu_sdk::runtime::Program::Load(data, size, &program);
    if (!loaded.ok()) {
      fprintf(stderr, "%s: %s\n", path, loaded.message());
      return false;
    }
    const auto* plans = program.flatbuffer()->execution_plan();
    const auto* delegates = plans->Get(0)->delegates();
    if (delegates == nullptr || delegates->size() == 0) {
      fprintf(stderr, "%s has no delegate\n", path);
      return false;
    }
    const auto processed = program.DelegateData(delegates->Get(0)->processed());
    if (!processed.ok() || reinterpret_cast<uintptr_t>(processed->data()) % 4 != 0) {
      fprintf(stderr, "%s: delegate data\n", path);
      return false;
    }
    data = processed->data();
    size = processed->size();
    if (!FastScratchOf(*delegates->Get(0), &has_flags, &fast_scratch)) {
      fprintf(stderr, "%s: Vela flags name no fast scratch size\n", path);
      return false;
    }
  }
  const ethosu_sdk::Status parsed =
      ethosu_sdk::backends::ethosu::ParseVelaPayload(data, size, &out->payload);
  if (!parsed.ok()) fprintf(stderr, "%s: %s\n", path, parsed.message());
  if (has_flags) out->payload.fast_scratch_size = fast_scratch;
  return parsed.ok();
}

}  // namespace ethosu_sdk::npu_device_tests
