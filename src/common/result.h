// Result<T>: a value of type T or the error Status explaining why there is none.
//
// Modelled on absl::StatusOr. Use ASSIGN_OR_RETURN to unwrap in functions that themselves
// return Status or Result. Accessing the value of an error Result is a programming error and
// aborts (it never happens on user input: callers check ok() or use the macro).
//
// Thread-safety: a value type, like T.

#pragma once

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <variant>

#include "common/status.h"

namespace common {

template <typename T>
class [[nodiscard]] Result {
 public:
  static_assert(!std::is_same_v<std::decay_t<T>, Status>, "Result<Status> is meaningless");

  // REQUIRES: !status.ok().
  Result(Status status) : data_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    if (std::get<Status>(data_).ok()) {
      data_ = Status::Internal("Result constructed from an OK status without a value");
    }
  }
  Result(const T& value) : data_(value) {}        // NOLINT(google-explicit-constructor)
  Result(T&& value) : data_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Status> &&
                                                    !std::is_same_v<std::decay_t<U>, Result<T>>>>
  Result(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT

  bool ok() const { return std::holds_alternative<T>(data_); }

  // The error, or an OK status when there is a value.
  Status status() const& { return ok() ? Status() : std::get<Status>(data_); }
  Status status() && { return ok() ? Status() : std::move(std::get<Status>(data_)); }

  // REQUIRES: ok().
  const T& value() const& { return std::get<T>(CheckOk()); }
  T& value() & { return std::get<T>(CheckOk()); }
  T&& value() && { return std::get<T>(std::move(CheckOk())); }

  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  // The value, or `fallback` when this is an error.
  T value_or(T fallback) const& { return ok() ? std::get<T>(data_) : std::move(fallback); }

 private:
  const std::variant<T, Status>& CheckOk() const {
    if (!ok()) {
      std::fprintf(stderr, "Result::value() on error: %s\n",
                   std::get<Status>(data_).ToString().c_str());
      std::abort();
    }
    return data_;
  }
  std::variant<T, Status>& CheckOk() {
    return const_cast<std::variant<T, Status>&>(std::as_const(*this).CheckOk());
  }

  std::variant<T, Status> data_;
};

namespace internal {
template <typename T>
Status ToStatus(const Result<T>& r) {
  return r.status();
}
template <typename T>
Status ToStatus(Result<T>&& r) {
  return std::move(r).status();
}
}  // namespace internal

}  // namespace common

#define CQLD_CONCAT_INNER_(a, b) a##b
#define CQLD_CONCAT_(a, b) CQLD_CONCAT_INNER_(a, b)

// ASSIGN_OR_RETURN(lhs, expr): evaluates `expr` (a Result<T>); on error returns its status
// from the caller, otherwise moves the value into `lhs` (which may be a declaration).
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL_(CQLD_CONCAT_(cqld_result_, __LINE__), lhs, expr)
// `lhs` may be a declaration, so it cannot be parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr)   \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return std::move(tmp).status(); \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)
