#include "sim/host/run_report.h"

#include <cinttypes>

namespace ethosu_sdk::npu_harness {

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20) {
      // Other control characters (RFC 8259 section 7 requires escaping them).
      char escaped[8];
      snprintf(escaped, sizeof(escaped), "\\u%04x", c);
      out += escaped;
    } else {
      out += ch;  // UTF-8 passes through: JSON text is UTF-8
    }
  }
  return out + "\"";
}

namespace {

std::string Number(uint64_t value) {
  char text[24];
  snprintf(text, sizeof(text), "%" PRIu64, value);
  return text;
}

std::string Signed(int64_t value) {
  char text[24];
  snprintf(text, sizeof(text), "%" PRId64, value);
  return text;
}

std::string OutputJson(const OutputComparison& o) {
  std::string out = "{\"index\": " + Signed(o.index) + ", \"elements\": " + Number(o.elements) +
                    ", \"differing\": " + Number(o.differing) + ", \"first\": ";
  if (o.differing == 0) {
    out += "null";
  } else {
    out += "{\"element\": " + Number(o.first_element) + ", \"model\": " + Signed(o.first_model) +
           ", \"reference\": " + Signed(o.first_reference) + "}";
  }
  out += ", \"histogram\": {";
  bool first = true;
  for (const auto& [diff, count] : o.histogram) {
    if (!first) out += ", ";
    first = false;
    // JSON object keys are strings: the difference in decimal.
    out += "\"" + Signed(diff) + "\": " + Number(count);
  }
  return out + "}}";
}

}  // namespace

std::string RunReportJson(const RunReport& report) {
  std::string out = "{\"format_version\": " + Signed(kRunReportFormatVersion) + ", \"error\": ";
  if (report.error_stage.empty()) {
    out += "null";
  } else {
    out += "{\"stage\": " + JsonString(report.error_stage) +
           ", \"message\": " + JsonString(report.error_message) + "}";
  }
  out += ", \"operations\": " + Number(report.operations) + ", \"macs\": " + Number(report.macs) +
         ", \"outputs\": [";
  for (size_t i = 0; i < report.outputs.size(); ++i) {
    if (i != 0) out += ", ";
    out += OutputJson(report.outputs[i]);
  }
  return out + "]}\n";
}

bool WriteRunReport(const RunReport& report, const char* path) {
  FILE* f = fopen(path, "w");
  if (f == nullptr) return false;
  const std::string text = RunReportJson(report);
  const bool wrote = fwrite(text.data(), 1, text.size(), f) == text.size();
  return fclose(f) == 0 && wrote;
}

}  // namespace ethosu_sdk::npu_harness
