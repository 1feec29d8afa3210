#pragma once
// What the libFuzzer targets share: reading the input's bytes, the values they stand for, the
// contract a call is held to (it returns, or throws std::invalid_argument naming a bandsolve
// function), the range of info codes, and starting Kokkos once per process with the bytes after
// each View's data poisoned (the library's own Views too: view_tail_poisoning.hpp).
#include "view_tail_poisoning.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

namespace fuzz {

// Reads the fuzzer's bytes in order; zeros once they run out.
struct byte_reader {
  const std::uint8_t* data;
  std::size_t size, pos = 0;
  unsigned next() { return pos < size ? data[pos++] : 0u; }
  unsigned below(unsigned bound) { return bound == 0 ? 0 : next() % bound; }
};

// The value of an input byte: mostly a dominant-ish coefficient (i: its place, every third one
// larger), sometimes 0, -1, NaN or Inf.
inline double value_of(unsigned v, std::size_t i) {
  return v == 255   ? std::nan("")
         : v == 254 ? HUGE_VAL
         : v == 253 ? 0.0
         : v == 252 ? -1.0
                    : (i % 3 == 0 ? 8.0 : 1.0) + v / 64.0;
}

// Reports a broken contract and aborts, which libFuzzer records as a crash with its input.
[[noreturn]] inline void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "%s: %s\n", what, detail.c_str());
  std::abort();
}

// Runs call (and fences); an std::invalid_argument must name a bandsolve function, any other
// exception is a finding. Returns whether the call returned.
template <class Call>
bool returns(const Call& call) {
  try {
    call();
    Kokkos::fence();
    return true;
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).rfind("bandsolve::", 0) != 0)
      finding("message does not name the function", e.what());
    return false;
  } catch (const std::exception& e) {
    finding("an exception other than std::invalid_argument", e.what());
  }
}

// Every code of info (a View of int in any memory space) in [0, n].
template <class Info>
void check_codes(const Info& info, std::size_t n) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), info);
  for (std::size_t s = 0; s < host.extent(0); ++s)
    if (host(s) < 0 || static_cast<std::size_t>(host(s)) > n)
      finding("info code out of range", "info(" + std::to_string(s) + ") = " +
                                            std::to_string(host(s)) + ", n = " + std::to_string(n));
}

// For LLVMFuzzerInitialize: Kokkos starts once and stops at exit.
inline int initialize_kokkos() {
  Kokkos::initialize();
  bstest::poison_view_tails();
  std::atexit([] { Kokkos::finalize(); });
  return 0;
}

}  // namespace fuzz
