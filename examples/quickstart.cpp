// Quick start: 10000 tridiagonal systems of 100 rows, solved at once with Thomas.
#include <bandsolve/bandsolve.hpp>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using exec = Kokkos::DefaultExecutionSpace;
  using layout = bandsolve::layout::row;  // or layout::column, layout::interleaved<8>
  const int nsys = 10000, n = 100;
  auto batch = [&](const char* name) { return bandsolve::make_batch<layout, double>(name, nsys, n); };
  auto a = batch("a"), b = batch("b"), c = batch("c"), d = batch("d");  // zero-filled Views
  Kokkos::View<int*> info("info", nsys);
  // System s: -x[i-1] + (4 + s % 7) x[i] - x[i+1] = d[i], with d chosen so that every x[i] = 1.
  Kokkos::parallel_for("fill", Kokkos::RangePolicy<exec>(0, nsys), KOKKOS_LAMBDA(int s) {
    for (int i = 0; i < n; ++i) {
      bandsolve::at(a, s, i) = -1.0, bandsolve::at(c, s, i) = -1.0;  // a[0], c[n-1] are ignored
      bandsolve::at(b, s, i) = 4.0 + s % 7;
      bandsolve::at(d, s, i) = 2.0 + s % 7 + (i == 0) + (i == n - 1);
    }
  });
  bandsolve::solve(exec(), bandsolve::algo::thomas{}, a, b, c, d, info);  // x overwrites d
  bandsolve::throw_if_failed("quickstart", info);  // copies info to the host, so it waits
  double max_error = 0;
  Kokkos::parallel_reduce("max error", Kokkos::RangePolicy<exec>(0, nsys), KOKKOS_LAMBDA(int s, double& e) {
    for (int i = 0; i < n; ++i) {
      const double r = bandsolve::at(d, s, i) - 1.0;
      e = r > e ? r : (-r > e ? -r : e);
    }
  }, Kokkos::Max<double>(max_error));
  std::printf("%d systems of %d rows, max |x - 1| = %.2e\n", nsys, n, max_error);
  return max_error < 1e-12 ? 0 : 1;
}
