// Checks the ThreadSanitizer tree itself (BANDSOLVE_SANITIZE_THREAD), on the default host
// execution space: `clean` runs kernels whose threads touch only their own values, or meet
// through Kokkos's reductions and the end of a launch, and must draw no report (a report here
// means TSan does not see the OpenMP runtime's synchronization: the Archer tool is not loaded);
// `race` runs a kernel whose iterations all write one plain variable, and must draw a data-race
// report (its test passes on TSan's report, whatever the exit code).
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstring>

namespace {

using exec_space = Kokkos::DefaultHostExecutionSpace;

int clean_kernels() {
  const int n = 10000;
  const Kokkos::View<double*, Kokkos::HostSpace> x("x", n);
  Kokkos::parallel_for(
      "thread_sanitizer_check: own values", Kokkos::RangePolicy<exec_space>(0, n),
      [=](const int i) { x(i) = i; });
  double sum = 0;
  Kokkos::parallel_reduce(
      "thread_sanitizer_check: reduction", Kokkos::RangePolicy<exec_space>(0, n),
      [=](const int i, double& s) { s += x(i); }, sum);
  Kokkos::fence();
  double host_sum = 0;
  for (int i = 0; i < n; ++i) host_sum += x(i);
  const double expected = 0.5 * n * (n - 1.0);
  if (sum != expected || host_sum != expected) {
    std::printf("thread_sanitizer_check: sums %g and %g, expected %g\n", sum, host_sum, expected);
    return 1;
  }
  std::printf("thread_sanitizer_check: clean kernels on %d threads\n",
              exec_space().concurrency());
  return 0;
}

int racing_kernel() {
  static int shared_count = 0;  // written by every iteration, on every thread: a data race
  const int n = 10000;
  Kokkos::parallel_for(
      "thread_sanitizer_check: race", Kokkos::RangePolicy<exec_space>(0, n),
      [=](const int) { shared_count = shared_count + 1; });
  Kokkos::fence();
  std::printf("thread_sanitizer_check: racing kernel on %d threads, count %d\n",
              exec_space().concurrency(), shared_count);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  const bool race = argc > 1 && std::strcmp(argv[argc - 1], "race") == 0;
  Kokkos::initialize(argc, argv);
  const int result = race ? racing_kernel() : clean_kernels();
  Kokkos::finalize();
  return result;
}
