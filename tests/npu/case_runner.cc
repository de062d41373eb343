// Runs one generated case through the Vela payload parser and the NPU model
// and compares every output byte with the TOSA reference model's output.
// Usage: case_runner PAYLOAD TENSORS   (TENSORS: inputs, then expected outputs)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "cc/backends/ethosu/ethosu_delegate.h"
#include "cc/backends/ethosu/vela_payload.h"

namespace {

bool ReadFile(const char* path, std::vector<uint8_t>* out) {
  FILE* f = fopen(path, "rb");
  if (f == nullptr) return false;
  uint8_t buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), f)) > 0) out->insert(out->end(), buffer, buffer + n);
  fclose(f);
  return true;
}

struct Tensor {
  uint32_t type;
  std::vector<uint32_t> sizes;
  const uint8_t* data;
  uint64_t bytes;
};

// schema/tensor_file.md
bool ParseTensors(const std::vector<uint8_t>& file, std::vector<Tensor>* out) {
  if (file.size() < 16 || memcmp(file.data(), "ESDKTEN1", 8) != 0) return false;
  uint32_t count;
  memcpy(&count, file.data() + 8, 4);
  size_t at = 16;
  for (uint32_t i = 0; i < count; ++i) {
    if (file.size() - at < 56) return false;
    Tensor t;
    uint32_t rank;
    memcpy(&t.type, file.data() + at, 4);
    memcpy(&rank, file.data() + at + 4, 4);
    if (rank > 8) return false;
    for (uint32_t d = 0; d < rank; ++d) {
      uint32_t s;
      memcpy(&s, file.data() + at + 8 + 4 * d, 4);
      t.sizes.push_back(s);
    }
    memcpy(&t.bytes, file.data() + at + 48, 8);
    at += 56;
    if (file.size() - at < t.bytes) return false;
    t.data = file.data() + at;
    at += (t.bytes + 7) / 8 * 8;
    out->push_back(t);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s PAYLOAD TENSORS\n", argv[0]);
    return 2;
  }
  std::vector<uint8_t> payload_bytes, tensor_bytes;
  if (!ReadFile(argv[1], &payload_bytes) || !ReadFile(argv[2], &tensor_bytes)) {
    fprintf(stderr, "cannot read inputs\n");
    return 2;
  }
  std::vector<Tensor> tensors;
  if (!ParseTensors(tensor_bytes, &tensors)) {
    fprintf(stderr, "bad tensor file\n");
    return 2;
  }
  ethosu::VelaPayload payload;
  ethosu::Status status = ethosu::ParseVelaPayload(payload_bytes.data(), payload_bytes.size(), &payload);
  if (!status.ok()) {
    fprintf(stderr, "parse: %s\n", status.message());
    return 1;
  }
  const int n_in = payload.num_inputs, n_out = payload.num_outputs;
  if (int(tensors.size()) != n_in + n_out) {
    fprintf(stderr, "tensor file has %zu tensors, payload %d inputs + %d outputs\n", tensors.size(),
            n_in, n_out);
    return 1;
  }
  std::vector<const void*> inputs;
  std::vector<size_t> input_sizes, output_sizes;
  std::vector<std::vector<uint8_t>> outputs(static_cast<size_t>(n_out));
  std::vector<void*> output_ptrs;
  for (int i = 0; i < n_in; ++i) {
    inputs.push_back(tensors[size_t(i)].data);
    input_sizes.push_back(size_t(tensors[size_t(i)].bytes));
  }
  for (int i = 0; i < n_out; ++i) {
    outputs[size_t(i)].assign(size_t(tensors[size_t(n_in + i)].bytes), 0xA5);
    output_ptrs.push_back(outputs[size_t(i)].data());
    output_sizes.push_back(outputs[size_t(i)].size());
  }
  std::vector<uint8_t> scratch(payload.scratch_size, 0);
  std::vector<uint8_t> workspace(ethosu::kRecommendedWorkspaceBytes);
  ethosu::DelegateBuffers buffers;
  buffers.inputs = inputs.data();
  buffers.input_sizes = input_sizes.data();
  buffers.num_inputs = n_in;
  buffers.outputs = output_ptrs.data();
  buffers.output_sizes = output_sizes.data();
  buffers.num_outputs = n_out;
  buffers.scratch = scratch.data();
  buffers.scratch_size = scratch.size();
  buffers.workspace = {workspace.data(), workspace.size()};
  npu::RunStats stats;
  status = ethosu::ExecuteVelaPayload(payload, buffers, &stats);
  if (!status.ok()) {
    fprintf(stderr, "execute: %s\n", status.message());
    return 1;
  }
  printf("%u NPU operations, %llu MACs\n", stats.operations, (unsigned long long)stats.macs);
  int failures = 0;
  for (int i = 0; i < n_out; ++i) {
    const Tensor& expected = tensors[size_t(n_in + i)];
    if (expected.type != 1) {
      fprintf(stderr, "output %d: only int8 outputs compared (type %u)\n", i, expected.type);
      return 1;
    }
    std::map<int, size_t> histogram;  // (model - reference) -> count
    size_t mismatches = 0, first = 0;
    for (size_t k = 0; k < expected.bytes; ++k) {
      const int diff = int(int8_t(outputs[size_t(i)][k])) - int(int8_t(expected.data[k]));
      if (diff != 0) {
        if (mismatches == 0) first = k;
        ++mismatches;
        ++histogram[diff];
      }
    }
    printf("output %d: %zu of %llu elements differ from the TOSA reference model\n", i, mismatches,
           (unsigned long long)expected.bytes);
    if (mismatches != 0) {
      ++failures;
      printf("  first at element %zu: model %d, reference %d\n  histogram (model - reference: count):",
             first, int(int8_t(outputs[size_t(i)][first])), int(int8_t(expected.data[first])));
      for (const auto& [diff, count] : histogram) printf(" %d:%zu", diff, count);
      printf("\n");
    }
  }
  return failures == 0 ? 0 : 1;
}
