// The SDK's C++ test framework: a small subset of GoogleTest's API of our own
// (TEST, EXPECT_*/ASSERT_*, `<<` for context), so that the same test source
// runs on the host and as firmware on QEMU's boards: no heap, no iostreams,
// no exceptions, output through the board console, and a closing line
// "N passed, N failed" that firmware_test and the host both read. Why not
// GoogleTest itself: cc/testing/README.md.
//
//   #include "cc/testing/unit_test.h"
//   TEST(Arena, AlignsEachAllocation) {
//     ASSERT_TRUE(arena.Allocate(3, 1) != nullptr);
//     EXPECT_EQ(offset % 8, 0u) << "after " << n << " bytes";
//   }
//
// and depend on //cc/testing:unit_test_main (which has main()), or on
// //cc/testing:unit_test with a main() of the test's own that ends in
// `return RUN_ALL_TESTS();` (a host test that reads its arguments).
#ifndef ETHOSU_SDK_CC_TESTING_UNIT_TEST_H_
#define ETHOSU_SDK_CC_TESTING_UNIT_TEST_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ethosu_sdk::testing {

// One TEST: registered before main() by a static object, in a list that
// needs no heap.
struct TestCase {
  const char* suite;
  const char* name;
  void (*body)();
  TestCase* next;
};

// Adds `test` to the list; returns true (for the static initializer).
bool Register(TestCase* test);

// Runs every registered test in registration order, prints a line per
// failure and the closing "N passed, N failed"; returns main()'s exit status.
int RunAllTests();

template <typename T, typename = void>
struct HasCStr : std::false_type {};
template <typename T>
struct HasCStr<T, std::void_t<decltype(std::declval<const T&>().c_str())>> : std::true_type {};

// The text of one value in a failure message.
class Printed {
 public:
  static constexpr size_t kCapacity = 48;
  const char* text() const { return text_; }

  template <typename T>
  static Printed Of(const T& value) {
    Printed p;
    if constexpr (std::is_same_v<T, bool>) {
      p.Set(value ? "true" : "false");
    } else if constexpr (std::is_enum_v<T>) {
      p.Signed(static_cast<long long>(value));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      p.Signed(static_cast<long long>(value));
    } else if constexpr (std::is_integral_v<T>) {
      p.Unsigned(static_cast<unsigned long long>(value));
    } else if constexpr (std::is_floating_point_v<T>) {
      p.Floating(static_cast<double>(value));
    } else if constexpr (std::is_convertible_v<const T&, const char*>) {
      p.Quoted(static_cast<const char*>(value));
    } else if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
      p.Pointer(reinterpret_cast<const void*>(value));
    } else if constexpr (HasCStr<T>::value) {
      p.Quoted(value.c_str());
    } else {
      p.Set("(a value that cannot be printed)");
    }
    return p;
  }

 private:
  void Set(const char* text);
  void Signed(long long value);
  void Unsigned(unsigned long long value);
  void Floating(double value);
  void Quoted(const char* text);
  void Pointer(const void* pointer);

  char text_[kCapacity] = {};
};

// One failed check: collects the message (the check, the values, then what
// the test streams with <<) into a fixed buffer and prints it when the full
// statement ends.
class Failure {
 public:
  static constexpr size_t kCapacity = 512;
  Failure(const char* file, int line, const char* check);
  Failure(const char* file, int line, const char* check, const Printed& actual,
          const Printed& expected);
  ~Failure();
  Failure(const Failure&) = delete;
  Failure& operator=(const Failure&) = delete;

  Failure& operator<<(const char* text);
  Failure& operator<<(char c);
  Failure& operator<<(bool value);
  template <typename T>
  Failure& operator<<(const T& value) {
    if constexpr (std::is_convertible_v<const T&, const char*>) {
      return *this << static_cast<const char*>(value);
    } else if constexpr (HasCStr<T>::value) {
      return *this << value.c_str();
    } else {
      StartMessage();
      Append(Printed::Of(value).text());
      return *this;
    }
  }

 private:
  void StartMessage();
  void Append(const char* text);
  char text_[kCapacity];
  size_t length_ = 0;
  bool has_message_ = false;
};

// ASSERT_*: `return Stop() = Failure(...) << ...;` ends the test body after
// the message is printed (a void expression, as GoogleTest does it).
struct Stop {
  void operator=(const Failure&) const {}
};

// The comparisons of EXPECT_EQ and friends; C strings compare by pointer
// there, as in GoogleTest (EXPECT_STREQ compares text).
template <typename A, typename B>
bool Equal(const A& a, const B& b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && !std::is_same_v<A, bool> &&
                !std::is_same_v<B, bool>) {
    // Without -Wsign-compare noise and without a negative int matching a
    // large unsigned: compare the mathematical values.
    if constexpr (std::is_signed_v<A> != std::is_signed_v<B>) {
      if constexpr (std::is_signed_v<A>) {
        return a >= 0 && static_cast<unsigned long long>(a) == static_cast<unsigned long long>(b);
      } else {
        return b >= 0 && static_cast<unsigned long long>(a) == static_cast<unsigned long long>(b);
      }
    } else {
      return a == b;
    }
  } else {
    return a == b;
  }
}
template <typename A, typename B>
bool Less(const A& a, const B& b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> &&
                std::is_signed_v<A> != std::is_signed_v<B>) {
    if constexpr (std::is_signed_v<A>) {
      return a < 0 || static_cast<unsigned long long>(a) < static_cast<unsigned long long>(b);
    } else {
      return b >= 0 && static_cast<unsigned long long>(a) < static_cast<unsigned long long>(b);
    }
  } else {
    return a < b;
  }
}
inline bool TextEqual(const char* a, const char* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return std::strcmp(a, b) == 0;
}

}  // namespace ethosu_sdk::testing

#define ESDK_TEST_CLASS_(suite, name) esdk_test_##suite##_##name

// A test body, run once by RunAllTests. Suite and name are identifiers.
#define TEST(suite, name)                                                         \
  static void ESDK_TEST_CLASS_(suite, name)();                                    \
  static ::ethosu_sdk::testing::TestCase ESDK_TEST_CLASS_(suite, name##_case) = { \
      #suite, #name, &ESDK_TEST_CLASS_(suite, name), nullptr};                    \
  [[maybe_unused]] static const bool ESDK_TEST_CLASS_(suite, name##_registered) = \
      ::ethosu_sdk::testing::Register(&ESDK_TEST_CLASS_(suite, name##_case));     \
  static void ESDK_TEST_CLASS_(suite, name)()

// `if (ok) ; else <failure>`: the dangling-else-safe form, so that a check
// can sit in an unbraced if and take `<<` after it.
#define ESDK_CHECK_(ok, on_failure) \
  if (ok)                           \
    ;                               \
  else                              \
    on_failure

#define ESDK_FAIL_(check) ::ethosu_sdk::testing::Failure(__FILE__, __LINE__, check)
#define ESDK_FAIL_VALUES_(check, a, b)                                                             \
  ::ethosu_sdk::testing::Failure(__FILE__, __LINE__, check, ::ethosu_sdk::testing::Printed::Of(a), \
                                 ::ethosu_sdk::testing::Printed::Of(b))
#define ESDK_STOP_ return ::ethosu_sdk::testing::Stop() =

#define ESDK_BOOL_(condition, want, text, stop) \
  ESDK_CHECK_(static_cast<bool>(condition) == (want), stop ESDK_FAIL_(text))
#define ESDK_COMPARE_(ok, a, b, text, stop) ESDK_CHECK_(ok, stop ESDK_FAIL_VALUES_(text, a, b))

#define EXPECT_TRUE(c) ESDK_BOOL_(c, true, "EXPECT_TRUE(" #c ")", )
#define EXPECT_FALSE(c) ESDK_BOOL_(c, false, "EXPECT_FALSE(" #c ")", )
#define ASSERT_TRUE(c) ESDK_BOOL_(c, true, "ASSERT_TRUE(" #c ")", ESDK_STOP_)
#define ASSERT_FALSE(c) ESDK_BOOL_(c, false, "ASSERT_FALSE(" #c ")", ESDK_STOP_)

// Each *_EQ family member evaluates its arguments once per check... and
// twice on failure (to print them), as the arguments are plain expressions.
#define ESDK_CMP_(op, a, b, text, stop) ESDK_COMPARE_(op, a, b, text, stop)
#define EXPECT_EQ(a, b) \
  ESDK_CMP_(::ethosu_sdk::testing::Equal(a, b), a, b, "EXPECT_EQ(" #a ", " #b ")", )
#define EXPECT_NE(a, b) \
  ESDK_CMP_(!::ethosu_sdk::testing::Equal(a, b), a, b, "EXPECT_NE(" #a ", " #b ")", )
#define EXPECT_LT(a, b) \
  ESDK_CMP_(::ethosu_sdk::testing::Less(a, b), a, b, "EXPECT_LT(" #a ", " #b ")", )
#define EXPECT_LE(a, b) \
  ESDK_CMP_(!::ethosu_sdk::testing::Less(b, a), a, b, "EXPECT_LE(" #a ", " #b ")", )
#define EXPECT_GT(a, b) \
  ESDK_CMP_(::ethosu_sdk::testing::Less(b, a), a, b, "EXPECT_GT(" #a ", " #b ")", )
#define EXPECT_GE(a, b) \
  ESDK_CMP_(!::ethosu_sdk::testing::Less(a, b), a, b, "EXPECT_GE(" #a ", " #b ")", )
#define EXPECT_STREQ(a, b) \
  ESDK_CMP_(::ethosu_sdk::testing::TextEqual(a, b), a, b, "EXPECT_STREQ(" #a ", " #b ")", )
#define EXPECT_STRNE(a, b) \
  ESDK_CMP_(!::ethosu_sdk::testing::TextEqual(a, b), a, b, "EXPECT_STRNE(" #a ", " #b ")", )
#define ASSERT_EQ(a, b) \
  ESDK_CMP_(::ethosu_sdk::testing::Equal(a, b), a, b, "ASSERT_EQ(" #a ", " #b ")", ESDK_STOP_)
#define ASSERT_NE(a, b) \
  ESDK_CMP_(!::ethosu_sdk::testing::Equal(a, b), a, b, "ASSERT_NE(" #a ", " #b ")", ESDK_STOP_)
#define ASSERT_LT(a, b) \
  ESDK_CMP_(::ethosu_sdk::testing::Less(a, b), a, b, "ASSERT_LT(" #a ", " #b ")", ESDK_STOP_)
#define ASSERT_LE(a, b) \
  ESDK_CMP_(!::ethosu_sdk::testing::Less(b, a), a, b, "ASSERT_LE(" #a ", " #b ")", ESDK_STOP_)
#define ASSERT_GT(a, b) \
  ESDK_CMP_(::ethosu_sdk::testing::Less(b, a), a, b, "ASSERT_GT(" #a ", " #b ")", ESDK_STOP_)
#define ASSERT_GE(a, b) \
  ESDK_CMP_(!::ethosu_sdk::testing::Less(a, b), a, b, "ASSERT_GE(" #a ", " #b ")", ESDK_STOP_)
#define ASSERT_STREQ(a, b)                                                                \
  ESDK_CMP_(::ethosu_sdk::testing::TextEqual(a, b), a, b, "ASSERT_STREQ(" #a ", " #b ")", \
            ESDK_STOP_)

// A failure with only a message: ADD_FAILURE() << "why"; FAIL() << "why".
#define ADD_FAILURE() ESDK_FAIL_("ADD_FAILURE()")

// GoogleTest's spelling of RunAllTests, for a test with its own main()
// (//cc/testing:unit_test instead of :unit_test_main).
#define RUN_ALL_TESTS() ::ethosu_sdk::testing::RunAllTests()
#define FAIL() ESDK_STOP_ ESDK_FAIL_("FAIL()")

#endif  // ETHOSU_SDK_CC_TESTING_UNIT_TEST_H_
