#pragma once
// Exceptions thrown by the host API. Messages start with the function name and give the values,
// e.g. "bandsolve::solve(thomas): d.extent(1) = 7 but b.extent(1) = 9".
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace bandsolve {

// A system of the batch could not be solved (zero, tiny or non-finite pivot). Carries the first
// failing system and its LAPACK-style info code (the 1-based row of the bad pivot).
class numerical_error : public std::runtime_error {
 public:
  numerical_error(const std::string& message, std::size_t system, int info, std::size_t failed)
      : std::runtime_error(message), system_(system), info_(info), failed_(failed) {}
  std::size_t system() const noexcept { return system_; }
  int info() const noexcept { return info_; }
  std::size_t failed_systems() const noexcept { return failed_; }

 private:
  std::size_t system_;
  int info_;
  std::size_t failed_;
};

// A solve or factorization could not get the memory it needs (scratch or factors). Thrown from
// the host API before any kernel runs; the message names the function and the bytes asked for.
class allocation_error : public std::runtime_error {
 public:
  allocation_error(const std::string& message, std::size_t bytes)
      : std::runtime_error(message), bytes_(bytes) {}
  std::size_t bytes() const noexcept { return bytes_; }

 private:
  std::size_t bytes_;
};

namespace detail {

template <class... Parts>
std::string concat(Parts&&... parts) {
  std::ostringstream out;
  (out << ... << std::forward<Parts>(parts));
  return out.str();
}

// Throws std::invalid_argument("<function>: <parts...>").
template <class... Parts>
[[noreturn]] void throw_invalid_argument(const std::string& function, Parts&&... parts) {
  throw std::invalid_argument(concat(function, ": ", std::forward<Parts>(parts)...));
}

}  // namespace detail
}  // namespace bandsolve
