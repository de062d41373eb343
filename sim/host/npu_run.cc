// Runs a Vela payload through the payload parser and the NPU model
// and compares every output byte with the TOSA reference model's output.
//
// Usage: npu_run PAYLOAD TENSORS [--json_out=FILE] [--trace=FILE] [--inject=N]
//                [--fast_scratch=BYTES]
//   TENSORS   inputs, then expected outputs (schema/tensor_file.md)
//   --json_out  writes the result as JSON to FILE (run_report.h): per output
//             the element count, how many differ, the first difference and
//             the histogram; or the error when the model refused the payload.
//             What callers read; the console lines are for people.
//   --trace   writes every NPU operation's output feature map to FILE (format
//             below), for the layer-by-layer comparison in python/ethosu_sdk/verify/compare.py
//   --inject  adds one to element (0, 0, 0) of operation N's output before the
//             next operation reads it: a planted fault, to show that the
//             layer comparison finds and names it
//   --fast_scratch  region 2's size (Vela's arena cache in SRAM). The payload
//             does not carry it; a .pte's Vela flags do (the AOT summary's
//             fast_scratch_bytes). Default: the payload parser's (U65 only).
//
// Trace file: "ESDKLTR1", then per operation: uint32 command offset (bytes
// into the register command stream), opcode, height, width, depth (as
// stored, after any transpose), region (8: the U85 chain buffer, not
// memory); then height*width*depth int32 values in HWC order, then the
// uint32 byte offset in the region of each. Little-endian.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "cc/backends/ethosu/vela_payload.h"
#include "cc/runner/tensor_file.h"
#include "sim/host/case_files.h"
#include "sim/host/ethosu_delegate.h"
#include "sim/host/payload_harness.h"
#include "sim/host/run_report.h"
#include "sim/npu/memory/feature_map.h"

namespace npu = ethosu_sdk::npu;

namespace {

namespace npu_harness = ethosu_sdk::npu_harness;
using ethosu_sdk::runner::TensorRecord;

struct Observer {
  FILE* trace = nullptr;
  long inject = -1;  // operation index, or -1
  long index = 0;
  bool failed = false;
};

void WriteWords(FILE* f, const uint32_t* words, size_t count, bool* failed) {
  if (fwrite(words, sizeof(uint32_t), count, f) != count) *failed = true;
}

void AfterOperation(void* context, uint32_t command_offset, uint16_t opcode,
                    const npu::FeatureMap& ofm) {
  auto* o = static_cast<Observer*>(context);
  const long index = o->index++;
  if (index == o->inject) {
    int32_t v = 0;
    if (!ofm.Read(0, 0, 0, &v).ok() ||
        !ofm.Write(0, 0, 0, v == ofm.MaxValue() ? v - 1 : v + 1).ok()) {
      o->failed = true;
    }
    printf("injected a fault into operation %ld (command offset %u)\n", index, command_offset);
  }
  if (o->trace == nullptr) return;
  int h = 0, w = 0, c = 0;
  ofm.StoredShape(&h, &w, &c);
  const uint32_t region = ofm.chained ? 8u : uint32_t(ofm.region_index);
  const uint32_t header[6] = {command_offset, opcode,      uint32_t(h),
                              uint32_t(w),    uint32_t(c), region};
  WriteWords(o->trace, header, 6, &o->failed);
  const size_t count = size_t(h) * size_t(w) * size_t(c);
  std::vector<int32_t> values(count);
  std::vector<uint32_t> offsets(count);
  size_t i = 0;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int k = 0; k < c; ++k, ++i) {
        int l[3];
        ofm.LogicalOf(y, x, k, l);
        size_t at = 0;
        if (!ofm.Read(l[0], l[1], l[2], &values[i]).ok() ||
            !ofm.Offset(l[0], l[1], l[2], &at).ok()) {
          o->failed = true;
        }
        offsets[i] = uint32_t(at);
      }
    }
  }
  WriteWords(o->trace, reinterpret_cast<const uint32_t*>(values.data()), count, &o->failed);
  WriteWords(o->trace, offsets.data(), count, &o->failed);
}

}  // namespace

// Compares output `i` with the reference; false (and a message) when the two
// cannot be compared at all.
bool CompareOutput(int i, const ethosu_sdk::runtime::Tensor& expected,
                   const npu_harness::AlignedBytes& output, npu_harness::OutputComparison* result) {
  const size_t element = expected.ElementSize();
  // TOSA BOOL is one byte, 0 or 1; int32 outputs come from shifts and CLZ.
  using ethosu_sdk::runtime::ScalarType;
  if (expected.dtype != ScalarType::kChar && expected.dtype != ScalarType::kShort &&
      expected.dtype != ScalarType::kBool && expected.dtype != ScalarType::kInt) {
    fprintf(stderr, "output %d: only int8, int16, int32 and bool outputs compared\n", i);
    return false;
  }
  if (expected.nbytes != output.size()) {
    fprintf(stderr, "output %d: reference has %zu bytes, the payload %zu\n", i,
            size_t(expected.nbytes), output.size());
    return false;
  }
  auto value = [element](const void* data, size_t k) -> int64_t {
    if (element == 1) return static_cast<const int8_t*>(data)[k];
    if (element == 2) {
      int16_t v;
      memcpy(&v, static_cast<const uint8_t*>(data) + 2 * k, 2);
      return v;
    }
    int32_t v;
    memcpy(&v, static_cast<const uint8_t*>(data) + 4 * k, 4);
    return v;
  };
  result->index = i;
  result->elements = expected.numel;
  for (size_t k = 0; k < expected.numel; ++k) {
    const int64_t got = value(output.data(), k), want = value(expected.data, k);
    if (got == want) continue;
    if (result->differing == 0) {
      result->first_element = k;
      result->first_model = got;
      result->first_reference = want;
    }
    ++result->differing;
    ++result->histogram[got - want];
  }
  return true;
}

void PrintComparison(const npu_harness::OutputComparison& o) {
  printf("output %d: %zu of %zu elements differ from the TOSA reference model\n", o.index,
         o.differing, o.elements);
  if (o.differing == 0) return;
  printf(
      "  first at element %zu: model %lld, reference %lld\n  histogram (model - reference: count):",
      o.first_element, (long long)o.first_model, (long long)o.first_reference);
  for (const auto& [diff, count] : o.histogram) printf(" %lld:%zu", (long long)diff, count);
  printf("\n");
}

// Writes the report when --json_out asked for it; false on a write error.
bool Report(const char* json_path, const npu_harness::RunReport& report) {
  if (json_path == nullptr || npu_harness::WriteRunReport(report, json_path)) return true;
  fprintf(stderr, "cannot write %s\n", json_path);
  return false;
}

int main(int argc, char** argv) {
  const char* trace_path = nullptr;
  const char* json_path = nullptr;
  long fast_scratch = -1;                      // bytes, or -1: the payload parser's
  constexpr long kMaxFastScratch = 64l << 20;  // more than any Ethos-U SRAM
  Observer observer;
  std::vector<const char*> positional;
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--json_out=", 11) == 0) {
      json_path = argv[i] + 11;
    } else if (strncmp(argv[i], "--trace=", 8) == 0) {
      trace_path = argv[i] + 8;
    } else if (strncmp(argv[i], "--inject=", 9) == 0) {
      observer.inject = strtol(argv[i] + 9, nullptr, 10);
    } else if (strncmp(argv[i], "--fast_scratch=", 15) == 0) {
      char* end = nullptr;
      fast_scratch = strtol(argv[i] + 15, &end, 10);
      if (*end != '\0' || fast_scratch < 0 || fast_scratch > kMaxFastScratch) {
        fprintf(stderr, "--fast_scratch: a byte count up to %ld expected, got %s\n",
                kMaxFastScratch, argv[i] + 15);
        return 2;
      }
    } else {
      positional.push_back(argv[i]);
    }
  }
  if (positional.size() != 2) {
    fprintf(stderr,
            "usage: %s PAYLOAD TENSORS [--json_out=FILE] [--trace=FILE] [--inject=N] "
            "[--fast_scratch=BYTES]\n",
            argv[0]);
    return 2;
  }
  npu_harness::CaseFiles files;
  if (!npu_harness::LoadCase(positional[0], positional[1], &files)) return 2;
  ethosu_sdk::backends::ethosu::VelaPayload payload = files.payload;
  if (fast_scratch >= 0) payload.fast_scratch_size = uint32_t(fast_scratch);
  const std::vector<TensorRecord>& tensors = files.tensors;
  const int n_in = payload.inputs.count, n_out = payload.outputs.count;
  if (int(tensors.size()) != n_in + n_out) {
    fprintf(stderr, "tensor file has %zu tensors, payload %d inputs + %d outputs\n", tensors.size(),
            n_in, n_out);
    return 1;
  }
  if (trace_path != nullptr) {
    observer.trace = fopen(trace_path, "wb");
    if (observer.trace == nullptr || fwrite("ESDKLTR1", 1, 8, observer.trace) != 8) {
      fprintf(stderr, "cannot write %s\n", trace_path);
      return 2;
    }
  }
  const npu::OperationObserver hook = {AfterOperation, &observer};
  npu_harness::HarnessOptions options;
  options.output_fill = 0xA5;
  if (trace_path != nullptr || observer.inject >= 0) options.observer = &hook;
  npu_harness::PayloadHarness harness;
  ethosu_sdk::Status status = npu_harness::BindCase(files, payload, options, &harness);
  npu::RunStats stats;
  if (status.ok()) status = harness.Run(&stats);
  if (observer.trace != nullptr && fclose(observer.trace) != 0) observer.failed = true;
  npu_harness::RunReport report;
  if (!status.ok()) {
    fprintf(stderr, "execute: %s\n", status.message());
    report.error_stage = "execute";
    report.error_message = status.message();
    Report(json_path, report);
    return 1;
  }
  if (observer.failed) {
    fprintf(stderr, "could not trace or inject (write error or unreadable feature map)\n");
    return 2;
  }
  printf("%u NPU operations, %llu MACs\n", stats.operations, (unsigned long long)stats.macs);
  report.operations = stats.operations;
  report.macs = stats.macs;
  int failures = 0;
  for (int i = 0; i < n_out; ++i) {
    npu_harness::OutputComparison& result = report.outputs.emplace_back();
    if (!CompareOutput(i, tensors[size_t(n_in + i)].tensor, harness.output(i), &result)) return 1;
    PrintComparison(result);
    if (result.differing != 0) ++failures;
  }
  if (!Report(json_path, report)) return 2;
  return failures == 0 ? 0 : 1;
}
