// errc.hpp - the one error vocabulary inside impi: Errc and Result<T>.
//
// Contract: functions that can fail return Errc (no value) or Result<T>.
// Errors are logged where they are found; they are translated to MPI error
// classes only at the C boundary (src/api). No exception crosses extern "C".
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace impi::base {

enum class Errc {
  ok = 0,
  invalid_argument,  // caller passed something malformed
  not_supported,     // a feature this build does not provide (yet)
  not_found,         // a lookup found nothing
  io_error,          // a system call failed (errno logged at the site)
  protocol_error,    // a peer sent bytes that violate the protocol
  peer_died,         // the other side went away
  timeout,           // waited as long as we were allowed to
  no_memory,
  internal,    // a broken invariant of our own
  truncated,   // a message was longer than the buffer for it
  conversion,  // a value has no exact form in the data representation asked for
};

// Short stable name of an error, for messages ("invalid_argument").
std::string_view errc_name(Errc e) noexcept;

// Result<T>: a T, or an Errc with a human-readable message.
// gcc 12 has no std::expected; this is the minimal subset we use.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(implicit): success is the common path
  Result(Errc e, std::string msg = {}) : v_(Failure{e, std::move(msg)}) {}

  bool ok() const noexcept { return std::holds_alternative<T>(v_); }
  explicit operator bool() const noexcept { return ok(); }

  T &value() & { return std::get<T>(v_); }
  const T &value() const & { return std::get<T>(v_); }
  T &&value() && { return std::get<T>(std::move(v_)); }
  T &operator*() & { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

  Errc error() const noexcept { return ok() ? Errc::ok : std::get<Failure>(v_).code; }
  const std::string &message() const {
    static const std::string empty;
    return ok() ? empty : std::get<Failure>(v_).msg;
  }

 private:
  struct Failure {
    Errc code;
    std::string msg;
  };
  std::variant<T, Failure> v_;
};

// Status: a Result without a value.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Errc e, std::string msg = {}) : code_(e), msg_(std::move(msg)) {}
  static Status success() { return {}; }
  bool ok() const noexcept { return code_ == Errc::ok; }
  explicit operator bool() const noexcept { return ok(); }
  Errc error() const noexcept { return code_; }
  const std::string &message() const noexcept { return msg_; }

 private:
  Errc code_ = Errc::ok;
  std::string msg_;
};

}  // namespace impi::base
