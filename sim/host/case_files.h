// A sim/tests/npu case as gen_case.py writes it: the Vela payload and the
// tensor file (the inputs, then the reference outputs; schema/tensor_file.md),
// read and parsed.
#pragma once

#include <vector>

#include "cc/backends/ethosu/vela_payload.h"
#include "cc/runner/tensor_file.h"
#include "sim/host/aligned_bytes.h"
#include "sim/host/payload_harness.h"

namespace ethosu_sdk::npu_harness {

struct CaseFiles {
  AlignedBytes payload_bytes, tensor_bytes;  // what the fields below point into
  backends::ethosu::VelaPayload payload;
  std::vector<runner::TensorRecord> tensors;
};

// False, with the reason on stderr, if a file cannot be read or parsed.
bool LoadCase(const char* payload_path, const char* tensors_path, CaseFiles* out);

// Binds `payload` (the case's own, or a variant of it) with the case's
// first tensors as its inputs.
Status BindCase(const CaseFiles& files, const backends::ethosu::VelaPayload& payload,
                const HarnessOptions& options, PayloadHarness* harness);

}  // namespace ethosu_sdk::npu_harness
