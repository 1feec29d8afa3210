// CUDA only: the umbrella header in a translation unit compiled by nvcc against a Kokkos with
// the CUDA backend (what a user whose Kokkos has CUDA gets, even when solving on the host), and
// ordinary batched host solves through it on Kokkos::Serial: Thomas and the Thomas-PCR hybrid,
// row layout, checked by their residuals. Needs no GPU. A plain main(): returns 1 on failure.
#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

namespace {

int failures = 0;

template <class T, class Algo>
void solve_and_check(const char* name, Algo algo, std::size_t nsys, std::size_t n) {
  using exec = Kokkos::Serial;
  using layout = bandsolve::layout::row;
  using mem = exec::memory_space;
  auto a = bandsolve::make_batch<layout, T, mem>("a", nsys, n);
  auto b = bandsolve::make_batch<layout, T, mem>("b", nsys, n);
  auto c = bandsolve::make_batch<layout, T, mem>("c", nsys, n);
  auto d = bandsolve::make_batch<layout, T, mem>("d", nsys, n);
  Kokkos::View<int*, mem> info("info", nsys);
  std::mt19937 gen(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      bandsolve::at(a, s, i) = i > 0 ? static_cast<T>(u(gen)) : T(0);
      bandsolve::at(c, s, i) = i + 1 < n ? static_cast<T>(u(gen)) : T(0);
      bandsolve::at(b, s, i) = static_cast<T>(3 + u(gen));
      bandsolve::at(d, s, i) = static_cast<T>(u(gen));
    }
  auto rhs = bandsolve::make_batch<layout, T, mem>("rhs", nsys, n);
  Kokkos::deep_copy(rhs, d);
  bandsolve::solve(exec(), algo, a, b, c, d, info);
  exec().fence();
  double worst = 0;
  int bad_info = 0;
  for (std::size_t s = 0; s < nsys; ++s) {
    bad_info += info(s) != 0;
    for (std::size_t i = 0; i < n; ++i) {
      double r = double(bandsolve::at(b, s, i)) * double(bandsolve::at(d, s, i)) -
                 double(bandsolve::at(rhs, s, i));
      if (i > 0) r += double(bandsolve::at(a, s, i)) * double(bandsolve::at(d, s, i - 1));
      if (i + 1 < n) r += double(bandsolve::at(c, s, i)) * double(bandsolve::at(d, s, i + 1));
      worst = std::isnan(r) ? r : std::max(worst, std::abs(r));
    }
  }
  const double tol = 64 * double(std::numeric_limits<T>::epsilon());
  const bool ok = bad_info == 0 && worst <= tol;
  failures += !ok;
  std::printf("%s %s, Serial, %zu systems of %zu rows: residual %.3g (tol %.3g), %d bad info\n",
              ok ? "ok  " : "FAIL", name, nsys, n, worst, tol, bad_info);
}

}  // namespace

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  std::printf("test_umbrella_header: Kokkos %d.%d.%d, default execution space %s\n",
              KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100,
              Kokkos::DefaultExecutionSpace::name());
  solve_and_check<double>("thomas, double", bandsolve::algo::thomas{}, 20, 100);
  solve_and_check<float>("thomas, float", bandsolve::algo::thomas{}, 20, 100);
  solve_and_check<double>("thomas_pcr, double", bandsolve::algo::thomas_pcr{}, 2, 5000);
  Kokkos::finalize();
  return failures == 0 ? 0 : 1;
}
