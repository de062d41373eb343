// What npu_run found, as the JSON document its callers read (--json_out):
// the build's verification (python/ethosu_sdk/verify/verify.py) takes the
// per-output counts and histograms from it instead of parsing the console.
//
// {"format_version": 1,
//  "error": null | {"stage": "execute", "message": "..."},
//  "operations": N, "macs": N,
//  "outputs": [{"index": 0, "elements": N, "differing": N,
//               "first": null | {"element": K, "model": V, "reference": V},
//               "histogram": {"<model - reference>": count, ...}}]}
//
// "error" is set when the model refused the payload (stage "execute": an
// operation it does not model, a bad stream); outputs are then empty.
#ifndef ETHOSU_SDK_SIM_HOST_RUN_REPORT_H_
#define ETHOSU_SDK_SIM_HOST_RUN_REPORT_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace ethosu_sdk::npu_harness {

// Bumped when a field changes meaning or goes; new fields do not bump it.
inline constexpr int kRunReportFormatVersion = 1;

struct OutputComparison {
  int index = 0;
  size_t elements = 0;
  size_t differing = 0;
  // The first differing element and its two values (when differing > 0).
  size_t first_element = 0;
  int64_t first_model = 0;
  int64_t first_reference = 0;
  std::map<int64_t, size_t> histogram;  // model - reference -> count
};

struct RunReport {
  std::string error_stage;  // empty: the payload ran
  std::string error_message;
  uint32_t operations = 0;
  uint64_t macs = 0;
  std::vector<OutputComparison> outputs;
};

// `text` as a JSON string literal, quotes included.
std::string JsonString(const std::string& text);

// The document above, one line, newline-terminated.
std::string RunReportJson(const RunReport& report);

// Writes RunReportJson(report) to `path`; false when it cannot.
bool WriteRunReport(const RunReport& report, const char* path);

}  // namespace ethosu_sdk::npu_harness

#endif  // ETHOSU_SDK_SIM_HOST_RUN_REPORT_H_
