// A downstream program: checks it sees BandSolve's headers and Kokkos through BandSolve::bandsolve.
#include <bandsolve/version.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>

static_assert(BANDSOLVE_VERSION_MAJOR == CONSUMER_EXPECTED_VERSION_MAJOR,
              "the headers found are not those of the BandSolve package found");

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::printf("consumer: BandSolve %d.%d.%d, Kokkos %s\n", BANDSOLVE_VERSION_MAJOR,
              BANDSOLVE_VERSION_MINOR, BANDSOLVE_VERSION_PATCH,
              Kokkos::DefaultExecutionSpace::name());
  return 0;
}
