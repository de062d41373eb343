// npu_run's JSON (run_report.h) against documents written out by hand from
// the format its header describes and RFC 8259's string escapes. That
// Python's json module reads what npu_run writes is checked by the callers'
// tests (//tests/verify, //sim/tests/npu).
#include "sim/host/run_report.h"

#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::npu_harness::JsonString;
using ethosu_sdk::npu_harness::OutputComparison;
using ethosu_sdk::npu_harness::RunReport;
using ethosu_sdk::npu_harness::RunReportJson;

}  // namespace

TEST(RunReport, EscapesStrings) {
  EXPECT_STREQ(JsonString("plain").c_str(), "\"plain\"");
  EXPECT_STREQ(JsonString("a \"quoted\" \\ path").c_str(), "\"a \\\"quoted\\\" \\\\ path\"");
  EXPECT_STREQ(JsonString("line\nnext\ttab\x01").c_str(), "\"line\\nnext\\u0009tab\\u0001\"");
  EXPECT_STREQ(JsonString("\xc2\xb5s").c_str(), "\"\xc2\xb5s\"") << "UTF-8 passes through";
}

TEST(RunReport, ExactOutputs) {
  RunReport report;
  report.operations = 3;
  report.macs = 5000000000ull;  // beyond 32 bits
  OutputComparison& o = report.outputs.emplace_back();
  o.elements = 10;
  EXPECT_STREQ(RunReportJson(report).c_str(),
               "{\"format_version\": 1, \"error\": null, \"operations\": 3, \"macs\": 5000000000, "
               "\"outputs\": [{\"index\": 0, \"elements\": 10, \"differing\": 0, \"first\": null, "
               "\"histogram\": {}}]}\n");
}

TEST(RunReport, DifferencesAndHistogram) {
  RunReport report;
  OutputComparison& o = report.outputs.emplace_back();
  o.index = 1;
  o.elements = 8;
  o.differing = 3;
  o.first_element = 2;
  o.first_model = -128;
  o.first_reference = -127;
  o.histogram = {{1, 2}, {-1, 1}};
  EXPECT_STREQ(RunReportJson(report).c_str(),
               "{\"format_version\": 1, \"error\": null, \"operations\": 0, \"macs\": 0, "
               "\"outputs\": [{\"index\": 1, \"elements\": 8, \"differing\": 3, \"first\": "
               "{\"element\": 2, \"model\": -128, \"reference\": -127}, \"histogram\": "
               "{\"-1\": 1, \"1\": 2}}]}\n");
}

TEST(RunReport, Error) {
  RunReport report;
  report.error_stage = "execute";
  report.error_message = "operation 4: \"resize\" not modelled";
  EXPECT_STREQ(RunReportJson(report).c_str(),
               "{\"format_version\": 1, \"error\": {\"stage\": \"execute\", \"message\": "
               "\"operation 4: \\\"resize\\\" not modelled\"}, \"operations\": 0, \"macs\": 0, "
               "\"outputs\": []}\n");
}
