// A downstream program, as a user writes it: solves a batch of tridiagonal systems with BandSolve and
// checks the residual. Returns nonzero when anything is wrong.
#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <exception>

static_assert(BANDSOLVE_VERSION_MAJOR == CONSUMER_EXPECTED_VERSION_MAJOR,
              "the headers found are not those of the BandSolve package found");

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard guard(argc, argv);
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using Mem = Exec::memory_space;
  const int nsys = 37, n = 50;

  auto a = bandsolve::make_batch<bandsolve::layout::row, double, Mem>("a", nsys, n);
  auto b = bandsolve::make_batch<bandsolve::layout::row, double, Mem>("b", nsys, n);
  auto c = bandsolve::make_batch<bandsolve::layout::row, double, Mem>("c", nsys, n);
  auto d = bandsolve::make_batch<bandsolve::layout::row, double, Mem>("d", nsys, n);
  auto rhs = bandsolve::make_batch<bandsolve::layout::row, double, Mem>("rhs", nsys, n);
  Kokkos::View<int*, Mem> info("info", nsys);

  // Diagonally dominant systems that differ from one system to the next.
  for (int s = 0; s < nsys; ++s) {
    for (int i = 0; i < n; ++i) {
      a(s, i) = i > 0 ? -1.0 - 0.01 * s : 0.0;
      c(s, i) = i < n - 1 ? -1.0 + 0.005 * i : 0.0;
      b(s, i) = 4.0 + 0.1 * ((s + i) % 7);
      d(s, i) = rhs(s, i) = std::sin(0.1 * i + s);
    }
  }

  try {
    bandsolve::solve(Exec(), bandsolve::algo::thomas{}, a, b, c, d, info);  // d becomes x
    Exec().fence();
    bandsolve::throw_if_failed("consumer", info);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }

  // max_s ||A x - rhs||_inf / (||A||_inf ||x||_inf + ||rhs||_inf)
  double worst = 0.0;
  for (int s = 0; s < nsys; ++s) {
    double r = 0.0, anorm = 0.0, xnorm = 0.0, dnorm = 0.0;
    for (int i = 0; i < n; ++i) {
      double ax = b(s, i) * d(s, i);
      if (i > 0) ax += a(s, i) * d(s, i - 1);
      if (i < n - 1) ax += c(s, i) * d(s, i + 1);
      r = std::fmax(r, std::fabs(ax - rhs(s, i)));
      anorm = std::fmax(anorm, std::fabs(a(s, i)) + std::fabs(b(s, i)) + std::fabs(c(s, i)));
      xnorm = std::fmax(xnorm, std::fabs(d(s, i)));
      dnorm = std::fmax(dnorm, std::fabs(rhs(s, i)));
    }
    worst = std::fmax(worst, r / (anorm * xnorm + dnorm));
  }
  const double tol = 1e-13;
  std::printf("consumer: BandSolve %d.%d.%d on %s: %d systems of %d rows, relative residual %.2e\n",
              BANDSOLVE_VERSION_MAJOR, BANDSOLVE_VERSION_MINOR, BANDSOLVE_VERSION_PATCH,
              Exec::name(), nsys, n, worst);
  if (!(worst < tol)) {
    std::fprintf(stderr, "consumer: residual %.2e is above %.0e\n", worst, tol);
    return 1;
  }
  return 0;
}
