// 3-D heat equation u_t = u_xx + u_yy + u_zz on the unit cube by ADI (Douglas-Gunn, Crank-Nicolson
// weights), solving along x, y and z of a padded cube with bandsolve::factorize_along: no
// transposes, and the lines factored once for every step (dt is fixed).
//
// One step, mu = dt/h^2, lambda = mu/2, d2_x the second difference along x (unscaled):
//   r   = mu (d2_x + d2_y + d2_z) u^n              stencil pre-pass
//   (1 - lambda d2_x) r' = r                        solve along x (in place)
//   (1 - lambda d2_y) r'' = r'                      solve along y (in place)
//   (1 - lambda d2_z) dU = r'',  u^{n+1} = u^n + dU solve along z, added into u in the same pass
// The product of the three factors is Crank-Nicolson plus an O(dt^3) term per step: second order
// in time and space. Dirichlet boundaries (u = 0) are rows (a, b, c) = (0, 1, 0) with r = 0 there.
// The matrices are the same for every line, so the coefficients are 1-D arrays of N values
// shared by the whole batch, factored once per axis before the first step; a step's solves move
// r alone (2 words per unknown; the last one reads r and u and writes u, 3).
//
// Exact solution: u = sin(pi x) sin(pi y) sin(pi z) exp(-3 pi^2 t). The example runs three grid
// sizes with dt proportional to h and exits non-zero unless the error falls at second order.
#include <bandsolve/bandsolve.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

namespace {

using exec = Kokkos::DefaultExecutionSpace;
using cube = Kokkos::View<double***, Kokkos::LayoutStride, exec::memory_space>;
using line = Kokkos::View<double*, exec::memory_space>;
constexpr double pi = 3.14159265358979323846;

// N^3 points inside a larger allocation (halo and alignment padding, different on every axis):
// a LayoutStride subview, as ADI codes hold their fields.
cube padded_cube(const char* label, int N) {
  Kokkos::View<double***, exec::memory_space> storage(std::string(label), N + 2, N + 3, N + 5);
  return Kokkos::subview(storage, std::make_pair(1, N + 1), std::make_pair(1, N + 1),
                         std::make_pair(2, N + 2));
}

// Max-norm error at t_end relative to the exact amplitude, for M intervals per axis and `steps`
// time steps.
double adi_error(int M, double t_end, int steps) {
  const int N = M + 1;  // points per axis, boundaries included
  const double h = 1.0 / M, dt = t_end / steps, mu = dt / (h * h), lambda = 0.5 * mu;
  const cube u = padded_cube("u", N), r = padded_cube("r", N);

  // 1 - lambda d2 on interior rows, identity on the Dirichlet rows.
  const line a("a", N), b("b", N), c("c", N);
  Kokkos::parallel_for(
      "adi coefficients", Kokkos::RangePolicy<exec>(0, N), KOKKOS_LAMBDA(const int i) {
        const bool boundary = i == 0 || i == N - 1;
        a(i) = boundary ? 0.0 : -lambda;
        b(i) = boundary ? 1.0 : 1.0 + 2.0 * lambda;
        c(i) = boundary ? 0.0 : -lambda;
      });
  const int points = N * N * N;
  Kokkos::parallel_for(
      "adi initial", Kokkos::RangePolicy<exec>(0, points), KOKKOS_LAMBDA(const int p) {
        const int i = p / (N * N), j = (p / N) % N, k = p % N;
        u(i, j, k) = sin(pi * i * h) * sin(pi * j * h) * sin(pi * k * h);
      });

  // The lines along each axis, factored once (shared coefficients: r gives the grid); each
  // factorization has one info code per line.
  const auto fx = bandsolve::factorize_along(exec(), bandsolve::algo::thomas{}, 0, a, b, c, r);
  const auto fy = bandsolve::factorize_along(exec(), bandsolve::algo::thomas{}, 1, a, b, c, r);
  const auto fz = bandsolve::factorize_along(exec(), bandsolve::algo::thomas{}, 2, a, b, c, r);
  exec().fence();
  bandsolve::throw_if_failed("adi_heat3d: factorization along x", fx.info());
  bandsolve::throw_if_failed("adi_heat3d: factorization along y", fy.info());
  bandsolve::throw_if_failed("adi_heat3d: factorization along z", fz.info());
  for (int step = 0; step < steps; ++step) {
    Kokkos::parallel_for(
        "adi stencil", Kokkos::RangePolicy<exec>(0, points), KOKKOS_LAMBDA(const int p) {
          const int i = p / (N * N), j = (p / N) % N, k = p % N;
          if (i == 0 || j == 0 || k == 0 || i == N - 1 || j == N - 1 || k == N - 1) {
            r(i, j, k) = 0.0;
            return;
          }
          r(i, j, k) = mu * (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) +
                             u(i, j, k - 1) + u(i, j, k + 1) - 6.0 * u(i, j, k));
        });
    fx.solve(exec(), r);
    fy.solve(exec(), r);
    fz.solve_add(exec(), r, u);  // u += dU
  }
  exec().fence();

  const double amplitude = std::exp(-3.0 * pi * pi * t_end);
  double worst = 0;
  Kokkos::parallel_reduce(
      "adi error", Kokkos::RangePolicy<exec>(0, points),
      KOKKOS_LAMBDA(const int p, double& m) {
        const int i = p / (N * N), j = (p / N) % N, k = p % N;
        const double exact = amplitude * sin(pi * i * h) * sin(pi * j * h) * sin(pi * k * h);
        const double e = fabs(u(i, j, k) - exact);
        m = e > m ? e : m;
      },
      Kokkos::Max<double>(worst));
  return worst / amplitude;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const double t_end = 0.1;
  const int grids[] = {16, 32, 64};
  double errors[3];
  bool ok = true;
  std::printf("adi_heat3d: Douglas-Gunn ADI, dt = 0.2 h, t = %.2f\n", t_end);
  for (int g = 0; g < 3; ++g) {
    const int M = grids[g];
    errors[g] = adi_error(M, t_end, M / 2);
    std::printf("  %3d^3 intervals, %2d steps: relative max error %.3e", M, M / 2, errors[g]);
    if (g > 0) {
      const double order = std::log2(errors[g - 1] / errors[g]);
      std::printf(", observed order %.3f", order);
      ok = ok && order > 1.9 && order < 2.15;
    }
    std::printf("\n");
  }
  ok = ok && errors[2] < 1e-3;
  if (!ok) {
    std::printf("adi_heat3d: FAILED (expected second-order convergence, order in (1.9, 2.15))\n");
    return 1;
  }
  return 0;
}
