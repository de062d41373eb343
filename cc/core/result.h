// A value or the Status of why there is none: for functions that produce
// something, so that the caller gets both through the return value instead
// of an out-parameter. No heap: the value lives inside the Result, and T
// needs no default constructor.
//
//   Result<const Tensor*> FindTensor(...);
//   ESDK_ASSIGN_OR_RETURN(const Tensor* tensor, FindTensor(...));
#ifndef ETHOSU_SDK_CC_CORE_RESULT_H_
#define ETHOSU_SDK_CC_CORE_RESULT_H_

#include <new>
#include <type_traits>
#include <utility>

#include "cc/core/status.h"

namespace ethosu_sdk {

template <typename T>
class [[nodiscard]] Result {
  static_assert(!std::is_reference_v<T>, "hold a pointer instead");
  static_assert(!std::is_same_v<std::remove_cv_t<T>, Status>, "a Status is already a result");

 public:
  // Implicit both ways, so that a function returns either a value or a
  // Status. An ok Status carries no value: it becomes kInternal.
  Result(const T& value) { new (&value_) T(value); }
  Result(T&& value) { new (&value_) T(std::move(value)); }
  Result(const Status& status)
      : status_(status.ok() ? Status::Error(ErrorCode::kInternal,
                                            "Result from an ok Status without a value")
                            : status) {}

  Result(const Result& other) : status_(other.status_) {
    if (ok()) new (&value_) T(other.value_);
  }
  Result(Result&& other) : status_(other.status_) {
    if (ok()) new (&value_) T(std::move(other.value_));
  }
  Result& operator=(const Result& other) {
    if (this != &other) Assign(other.status_, other.value_);
    return *this;
  }
  Result& operator=(Result&& other) {
    if (this != &other) Assign(other.status_, std::move(other.value_));
    return *this;
  }
  ~Result() {
    if (ok()) value_.~T();
  }

  bool ok() const { return status_.ok(); }
  // Ok when there is a value.
  const Status& status() const { return status_; }

  // Only when ok(): there is no value otherwise.
  T& value() & { return value_; }
  const T& value() const& { return value_; }
  T&& value() && { return std::move(value_); }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }
  T& operator*() & { return value_; }
  const T& operator*() const& { return value_; }

 private:
  template <typename V>
  void Assign(const Status& status, V&& value) {
    if (ok()) value_.~T();
    status_ = status;
    if (ok()) new (&value_) T(std::forward<V>(value));
  }

  Status status_;  // ok when value_ holds the value
  union {
    T value_;
  };
};

}  // namespace ethosu_sdk

#define ESDK_CONCAT_INNER_(a, b) a##b
#define ESDK_CONCAT_(a, b) ESDK_CONCAT_INNER_(a, b)

// Evaluates `expr` (a Result); on failure returns its Status from the
// enclosing function, else moves the value into `lhs`, which may declare a
// variable: ESDK_ASSIGN_OR_RETURN(auto program, LoadProgram(...)).
#define ESDK_ASSIGN_OR_RETURN(lhs, expr) \
  ESDK_ASSIGN_OR_RETURN_IMPL_(ESDK_CONCAT_(esdk_result_, __LINE__), lhs, expr)
#define ESDK_ASSIGN_OR_RETURN_IMPL_(result, lhs, expr) \
  auto result = (expr);                                \
  if (!result.ok()) return result.status();            \
  lhs = std::move(result).value()

#endif  // ETHOSU_SDK_CC_CORE_RESULT_H_
