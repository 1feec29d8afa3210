// Backward-Euler steps of u_t = u_xx on many independent rods (one system per rod), factoring the
// matrix once and solving every step with the stored factorization.
//
// Each rod starts in a discrete sine mode sin(k pi x_i); with Dirichlet ends the mode is an
// eigenvector of the implicit matrix, so after m steps u = g^m sin(k pi x_i) exactly, with
// g = 1 / (1 + 2 lambda (1 - cos(k pi h))). The example exits non-zero if the solver disagrees.
#include <bandsolve/bandsolve.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using exec = Kokkos::DefaultExecutionSpace;
  using layout = bandsolve::layout::interleaved<8>;  // systems side by side: SIMD across rods

  const int nrods = 1000, n = 199, steps = 50;  // n interior points, h = 1/(n+1)
  const double h = 1.0 / (n + 1), dt = 1e-3, lambda = dt / (h * h);
  const double pi = 3.14159265358979323846;

  auto a = bandsolve::make_batch<layout, double>("a", nrods, n);
  auto b = bandsolve::make_batch<layout, double>("b", nrods, n);
  auto c = bandsolve::make_batch<layout, double>("c", nrods, n);
  auto u = bandsolve::make_batch<layout, double>("u", nrods, n);
  Kokkos::parallel_for(
      "set up", Kokkos::RangePolicy<exec>(0, nrods * n), KOKKOS_LAMBDA(const int k) {
        const int rod = k / n, i = k % n;
        const int mode = 1 + rod % 5;  // rods carry modes 1..5
        bandsolve::at(a, rod, i) = -lambda;
        bandsolve::at(b, rod, i) = 1 + 2 * lambda;
        bandsolve::at(c, rod, i) = -lambda;
        bandsolve::at(u, rod, i) = sin(mode * pi * (i + 1) * h);
      });

  // Factor once (the matrix does not change between steps), then one cheap solve per step.
  const auto factors = bandsolve::factorize(exec(), bandsolve::algo::thomas{}, a, b, c, nrods);
  bandsolve::throw_if_failed("implicit_diffusion: factorize", factors.info());
  for (int step = 0; step < steps; ++step) factors.solve(exec(), u);
  exec().fence();

  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  double worst = 0;
  for (int rod = 0; rod < nrods; ++rod) {
    const int mode = 1 + rod % 5;
    const double g = 1 / (1 + 2 * lambda * (1 - std::cos(mode * pi * h)));
    for (int i = 0; i < n; ++i) {
      const double exact = std::pow(g, steps) * std::sin(mode * pi * (i + 1) * h);
      worst = std::fmax(worst, std::fabs(bandsolve::at(host, rod, i) - exact));
    }
  }
  std::printf("implicit_diffusion: %d rods x %d points, %d steps, max error %.3e\n", nrods, n,
              steps, worst);
  if (!(worst < 1e-12)) {
    std::printf("implicit_diffusion: FAILED (error above 1e-12)\n");
    return 1;
  }
  return 0;
}
