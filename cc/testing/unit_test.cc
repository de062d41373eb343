#include "cc/testing/unit_test.h"

#include "cc/core/format.h"
#include "cc/platform/platform.h"

#if !(defined(__arm__) && !defined(__linux__))
#include <cstdio>
#endif

namespace ethosu_sdk::testing {
namespace {

TestCase* first_test = nullptr;
TestCase* last_test = nullptr;
int current_failures = 0;  // in the running test

void Say(const char* text) {
#if !(defined(__arm__) && !defined(__linux__))
  // On the host a test's own printf output is buffered and the console is
  // not: flush it first, so that the lines come out in the order written.
  std::fflush(stdout);
#endif
  platform::ConsoleWrite(text, std::strlen(text));
}

}  // namespace

bool Register(TestCase* test) {
  test->next = nullptr;
  if (last_test == nullptr) {
    first_test = test;
  } else {
    last_test->next = test;
  }
  last_test = test;
  return true;
}

int RunAllTests() {
  int passed = 0;
  int failed = 0;
  char line[160];
  for (TestCase* test = first_test; test != nullptr; test = test->next) {
    current_failures = 0;
    test->body();
    if (current_failures == 0) {
      ++passed;
    } else {
      ++failed;
      Format(line, sizeof(line), "[  FAILED  ] %s.%s\n", test->suite, test->name);
      Say(line);
    }
  }
  // The closing line firmware_test and the host test rules look for.
  Format(line, sizeof(line), "%d passed, %d failed\n", passed, failed);
  Say(line);
  return failed == 0 && passed > 0 ? 0 : 1;
}

void Printed::Set(const char* text) { Format(text_, kCapacity, "%s", text); }
void Printed::Signed(long long value) { Format(text_, kCapacity, "%lld", value); }
void Printed::Unsigned(unsigned long long value) { Format(text_, kCapacity, "%llu", value); }
void Printed::Pointer(const void* pointer) { Format(text_, kCapacity, "%p", pointer); }
void Printed::Quoted(const char* text) {
  if (text == nullptr) {
    Set("NULL");
  } else {
    Format(text_, kCapacity, "\"%s\"", text);
  }
}

// format.h prints no floating point (no soft-float formatting in firmware):
// six decimals by hand, enough to tell two values in a test apart.
void Printed::Floating(double value) {
  if (value != value) return Set("nan");
  const bool negative = value < 0;
  const double magnitude = negative ? -value : value;
  if (magnitude > 9.0e18) return Set(negative ? "-huge" : "huge");
  constexpr unsigned long long kMillionths = 1000000;
  const auto scaled = static_cast<unsigned long long>(magnitude * kMillionths + 0.5);
  Format(text_, kCapacity, "%s%llu.%06llu", negative ? "-" : "", scaled / kMillionths,
         scaled % kMillionths);
}

Failure::Failure(const char* file, int line, const char* check) {
  ++current_failures;
  length_ = Format(text_, kCapacity, "%s:%d: %s", file, line, check);
  if (length_ >= kCapacity) length_ = kCapacity - 1;
}

Failure::Failure(const char* file, int line, const char* check, const Printed& actual,
                 const Printed& expected)
    : Failure(file, line, check) {
  Append(": ");
  Append(actual.text());
  Append(" vs ");
  Append(expected.text());
}

Failure::~Failure() {
  Append("\n");
  Say(text_);
}

void Failure::Append(const char* text) {
  length_ += Format(text_ + length_, kCapacity - length_, "%s", text);
  if (length_ >= kCapacity) length_ = kCapacity - 1;
}

// The test's own words after the check's: "...: 3 vs 4: after 2 steps".
void Failure::StartMessage() {
  if (has_message_) return;
  has_message_ = true;
  Append(": ");
}

Failure& Failure::operator<<(const char* text) {
  StartMessage();
  Append(text == nullptr ? "NULL" : text);
  return *this;
}

Failure& Failure::operator<<(char c) {
  const char text[2] = {c, '\0'};
  return *this << text;
}

Failure& Failure::operator<<(bool value) { return *this << (value ? "true" : "false"); }

}  // namespace ethosu_sdk::testing
