// Natural cubic spline interpolation on uniform knots with the Toeplitz solvers. The second
// derivatives M_i at the knots solve
//   M_{i-1} + 4 M_i + M_{i+1} = 6 (y_{i-1} - 2 y_i + y_{i+1}) / h^2,  i = 1 .. n-2,
// with M_0 = M_{n-1} = 0: T = tridiag(1, 4, 1) of n - 2 rows, diagonally dominant. One long curve
// goes through the divide and conquer (algo::toeplitz_dc); a batch of curves through the batched
// Toeplitz solver (algo::toeplitz, column layout). For y = sin(2 pi k x) the natural end
// conditions are exact (y'' = 0 at both ends), so the error at the mid-points falls as h^4: the
// example checks ratios near 16 and that both solvers agree, and exits non-zero otherwise.
#include <bandsolve/bandsolve.hpp>

#include <cmath>
#include <cstdio>

namespace {

constexpr double pi = 3.14159265358979323846;
using exec_space = Kokkos::DefaultHostExecutionSpace;

// Right-hand side of the interior rows for the curve y = sin(2 pi k x) on n knots.
KOKKOS_INLINE_FUNCTION double spline_rhs(int k, bandsolve::index_t i, bandsolve::index_t n) {
  const double h = 1.0 / static_cast<double>(n - 1);
  auto y = [&](bandsolve::index_t j) { return std::sin(2 * pi * k * static_cast<double>(j) * h); };
  return 6 * (y(i) - 2 * y(i + 1) + y(i + 2)) / (h * h);  // interior row i is knot i + 1
}

// Max error at the mid-points of the spline with second derivatives m (interior knots).
template <class MView>
double midpoint_error(int k, const MView& m, bandsolve::index_t n) {
  const double h = 1.0 / static_cast<double>(n - 1);
  auto M = [&](bandsolve::index_t j) { return j == 0 || j == n - 1 ? 0.0 : m(j - 1); };
  double error = 0;
  for (bandsolve::index_t j = 0; j + 1 < n; ++j) {
    const double y0 = std::sin(2 * pi * k * j * h), y1 = std::sin(2 * pi * k * (j + 1) * h);
    const double spline = 0.5 * (y0 + y1) - h * h / 16 * (M(j) + M(j + 1));
    error = std::fmax(error, std::fabs(spline - std::sin(2 * pi * k * (j + 0.5) * h)));
  }
  return error;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const exec_space exec;
  bool ok = true;
  double previous = 0;
  std::printf("%9s %14s %8s %16s\n", "knots", "max error", "ratio", "batch vs d&c");
  for (bandsolve::index_t n : {1 << 8, 1 << 9, 1 << 10, 1 << 11}) {
    const bandsolve::index_t rows = n - 2;
    // One curve, k = 3, by divide and conquer.
    Kokkos::View<double*, Kokkos::HostSpace> m("m", rows);
    Kokkos::parallel_for(
        "rhs", Kokkos::RangePolicy<exec_space>(exec, 0, rows),
        KOKKOS_LAMBDA(const bandsolve::index_t i) { m(i) = spline_rhs(3, i, n); });
    const auto plan = bandsolve::factorize(exec, bandsolve::algo::toeplitz_dc{}, 1.0, 4.0, 1.0,
                                           static_cast<std::size_t>(rows));
    plan.solve(exec, m);
    // Curves k = 1 .. 5 as one batch (system s is k = s + 1).
    const int curves = 5;
    auto batch = bandsolve::make_batch<bandsolve::layout::column, double, Kokkos::HostSpace>(
        "curves", curves, static_cast<std::size_t>(rows));
    Kokkos::parallel_for(
        "rhs", Kokkos::RangePolicy<exec_space>(exec, 0, rows),
        KOKKOS_LAMBDA(const bandsolve::index_t i) {
          for (int s = 0; s < curves; ++s) batch(s, i) = spline_rhs(s + 1, i, n);
        });
    const auto f = bandsolve::factorize(exec, bandsolve::algo::toeplitz{}, 1.0, 4.0, 1.0,
                                        static_cast<std::size_t>(rows));
    f.solve(exec, batch);
    exec.fence();

    const double error = midpoint_error(3, m, n);
    double differ = 0;  // the batch's k = 3 curve against the divide and conquer
    for (bandsolve::index_t i = 0; i < rows; ++i)
      differ = std::fmax(differ, std::fabs(batch(2, i) - m(i)) / (1 + std::fabs(m(i))));
    for (int s = 0; s < curves; ++s) {
      const auto curve = Kokkos::subview(batch, s, Kokkos::ALL);
      // Every curve of the batch is accurate too (error ~ (k h)^4).
      if (!(midpoint_error(s + 1, curve, n) < 1e-6)) ok = false;
    }
    const double ratio = previous > 0 ? previous / error : 0;
    std::printf("%9td %14.6e %8.2f %16.3e\n", n, error, ratio, differ);
    if (previous > 0 && !(ratio > 14 && ratio < 18)) ok = false;
    if (!(differ < 1e-12)) ok = false;
    previous = error;
  }
  std::printf(ok ? "fourth-order mid-point convergence, solvers agree: ok\n" : "FAILED\n");
  return ok ? 0 : 1;
}
