// Shared main() of BandSolve's test executables: Kokkos is initialized once around Catch2's session.
// Kokkos' own flags (--kokkos-num-threads=N, ...) are removed from argv before Catch2 parses it.
// Under AddressSanitizer, the bytes after each View's data are poisoned (view_tail_poisoning.hpp).
#include "view_tail_poisoning.hpp"

#include <Kokkos_Core.hpp>
#include <catch2/catch_session.hpp>

#include <iostream>

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  bstest::poison_view_tails();
  int result = 0;
  {
    // stderr, so that machine-readable reporters (--reporter junit) keep a clean stdout.
    std::cerr << "BandSolve tests: Kokkos " << KOKKOS_VERSION / 10000 << '.'
              << KOKKOS_VERSION / 100 % 100 << '.' << KOKKOS_VERSION % 100
              << ", default execution space " << Kokkos::DefaultExecutionSpace::name()
              << " (concurrency " << Kokkos::DefaultExecutionSpace().concurrency() << ")"
              << std::endl;
    result = Catch::Session().run(argc, argv);
  }
  Kokkos::finalize();
  return result;
}
