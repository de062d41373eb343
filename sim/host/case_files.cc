#include "sim/host/case_files.h"

#include <cstdio>

namespace ethosu_sdk::npu_harness {

bool LoadCase(const char* payload_path, const char* tensors_path, CaseFiles* out) {
  if (!ReadFile(payload_path, &out->payload_bytes) || !ReadFile(tensors_path, &out->tensor_bytes)) {
    fprintf(stderr, "cannot read %s or %s\n", payload_path, tensors_path);
    return false;
  }
  runner::TensorFile file;
  if (!runner::TensorFile::Parse(out->tensor_bytes.data(), out->tensor_bytes.size(), &file).ok()) {
    fprintf(stderr, "%s: bad tensor file\n", tensors_path);
    return false;
  }
  out->tensors.assign(file.count(), runner::TensorRecord());
  for (uint32_t i = 0; i < file.count(); ++i) {
    if (!file.Get(i, &out->tensors[i]).ok()) {
      fprintf(stderr, "%s: bad tensor %u\n", tensors_path, i);
      return false;
    }
  }
  const Status parsed = backends::ethosu::ParseVelaPayload(
      out->payload_bytes.data(), out->payload_bytes.size(), &out->payload);
  if (!parsed.ok()) {
    fprintf(stderr, "%s: %s\n", payload_path, parsed.message());
    return false;
  }
  return true;
}

Status BindCase(const CaseFiles& files, const backends::ethosu::VelaPayload& payload,
                const HarnessOptions& options, PayloadHarness* harness) {
  ESDK_RETURN_IF_ERROR(harness->Bind(payload, options));
  if (files.tensors.size() < size_t(payload.inputs.count)) {
    return Status::Error(ErrorCode::kInvalidArgument, "case: %zu tensors for %d inputs",
                         files.tensors.size(), payload.inputs.count);
  }
  for (int i = 0; i < payload.inputs.count; ++i) {
    const runtime::Tensor& t = files.tensors[size_t(i)].tensor;
    harness->UseInput(i, t.data, t.nbytes);
  }
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu_harness
