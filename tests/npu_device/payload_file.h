// The Vela payload of a test input: a raw payload file (tests/npu's
// <case>.payload) or a .pte (an ethosu_model's output, read through the
// SDK's .pte loader: the first method's first delegate), held in 16-byte
// aligned memory and parsed by the delegate's payload parser.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "cc/backends/ethosu/vela_payload.h"
#include "cc/runtime/program.h"
#include "schema/program_generated.h"
#include "tests/npu/harness/aligned_bytes.h"

namespace ethosu_sdk::npu_device_tests {

struct PayloadFile {
  ethosu_sdk::npu_harness::AlignedBytes storage;  // the whole file
  ethosu_sdk::backends::ethosu::VelaPayload payload;
};

inline bool EndsWith(const char* s, const char* suffix) {
  const size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

// False (and a line on stdout) if the file cannot be read or parsed.
inline bool LoadPayload(const char* path, PayloadFile* out) {
  if (!ethosu_sdk::npu_harness::ReadFile(path, &out->storage)) {
    printf("FAIL: cannot open %s\n", path);
    return false;
  }
  const uint8_t* data = out->storage.data();
  size_t size = out->storage.size();
  if (EndsWith(path, ".pte")) {
    ethosu_sdk::runtime::Program program;
    ethosu_sdk::Status loaded = ethosu_sdk::runtime::Program::Load(data, size, &program);
    if (!loaded.ok()) {
      printf("FAIL: %s: %s\n", path, loaded.message());
      return false;
    }
    const auto* plans = program.flatbuffer()->execution_plan();
    const auto* delegates = plans->Get(0)->delegates();
    if (delegates == nullptr || delegates->size() == 0) {
      printf("FAIL: %s has no delegate\n", path);
      return false;
    }
    const auto processed = program.DelegateData(delegates->Get(0)->processed());
    if (!processed.ok() || reinterpret_cast<uintptr_t>(processed->data()) % 4 != 0) {
      printf("FAIL: %s: delegate data\n", path);
      return false;
    }
    data = processed->data();
    size = processed->size();
  }
  const ethosu_sdk::Status parsed = ethosu_sdk::backends::ethosu::ParseVelaPayload(data, size, &out->payload);
  if (!parsed.ok()) printf("FAIL: %s: %s\n", path, parsed.message());
  return parsed.ok();
}

}  // namespace ethosu_sdk::npu_device_tests
