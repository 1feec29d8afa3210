// The device backend (backend::device) of the partial pivoting, periodic, PCR and CR tridiagonal
// families and of banded LU, run on
// Kokkos::DefaultExecutionSpace (and Kokkos::Serial when that is a device). In a CUDA build
// the same file runs on the GPU with device Views; results come back through host mirrors.
// Compared with LAPACK (pivoting: ?gtsv and ?gttrf's interchanges, within a multiple of eps times
// the condition number; periodic: ?gesv of the dense cyclic matrix for n <= 100, and residuals;
// banded: ?gbsv's solutions, pivots and info, and backward errors)
// and with the host path of the same family: n = 1, 2, 3, 17, 1001;
// batches of 1, 31 and 33 systems (not multiples of the 32-system tiles); row, column,
// interleaved<4>, interleaved<32> and three kinds of strided Views; float, double, complex and
// real coefficients with complex right-hand sides; info codes of singular and NaN systems; a
// factorization solved twice; argument checks. PCR and CR (diagonally dominant batches, float
// and double, n up to 1001 so that rows go to each scratch place) against ?gtsv and their host
// path, whose info codes and messages they must give; the backend a call without one takes.
#include "device_support.hpp"
#include "pcr_support.hpp"
#include "pivoting_support.hpp"

#include <bandsolve/banded/banded_lu.hpp>
#include <bandsolve/tridiag/pcr.hpp>
#include <bandsolve/tridiag/periodic.hpp>
#include <bandsolve/tridiag/pivoting.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace test_families_device {  // units compile in groups: tests/CMakeLists.txt

// The banded helpers (?gbsv, random bands, band transfers) in a namespace of their own: their
// real_of differs from pivoting_support.hpp's.
namespace band_ref {
#include "banded_support.hpp"
}  // namespace band_ref
namespace bb = band_ref::bstest;

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::algo::partial_pivoting;
using bandsolve::algo::periodic;

namespace {

using namespace devtest;

// ---------------------------------------------------------------------------------------------
// Batches and references.

// Random systems that need interchanges (every entry U(-1, 1)) with right-hand sides of type D.
template <class C, class D>
struct batch {
  bstest::host_batch<C> m;
  std::vector<D> d;
};

template <class C, class D>
batch<C, D> random_batch(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  batch<C, D> p{bstest::random_general<C>(nsys, n, seed), std::vector<D>(nsys * n)};
  std::mt19937 gen(seed + 17);
  for (auto& v : p.d) v = bstest::uniform11<D>(gen);
  return p;
}

template <class D>
std::vector<D> rhs_only(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  std::vector<D> d(nsys * n);
  std::mt19937 gen(seed);
  for (auto& v : d) v = bstest::uniform11<D>(gen);
  return d;
}

// The host path of the family (row layout, host space, the execution space's own backend).
template <class C, class D>
std::vector<D> host_pivoting(const batch<C, D>& p, const std::vector<D>& rhs,
                             std::vector<int>& info) {
  using mem = Kokkos::HostSpace;
  const std::size_t nsys = p.m.nsys, n = p.m.n;
  auto a = bstest::to_device<bl::row, C, mem>("a", p.m.a, nsys, n);
  auto b = bstest::to_device<bl::row, C, mem>("b", p.m.b, nsys, n);
  auto c = bstest::to_device<bl::row, C, mem>("c", p.m.c, nsys, n);
  auto d = bstest::to_device<bl::row, D, mem>("d", rhs, nsys, n);
  auto inf = bstest::make_info<mem>(nsys);
  bandsolve::solve(host_exec(), partial_pivoting{}, a, b, c, d, inf);
  host_exec().fence();
  info = bstest::info_to_host(inf);
  return bstest::to_host(d, nsys);
}

// LAPACK ?gtsv, for right-hand sides of the coefficient type or the real and imaginary parts of
// complex ones over real coefficients.
template <class C, class D>
std::vector<D> lapack_gtsv(const batch<C, D>& p, const std::vector<D>& rhs) {
  if constexpr (std::is_same_v<C, D>) {
    return bstest::gtsv_reference(p.m, nullptr, &rhs);
  } else {
    std::vector<C> re(rhs.size()), im(rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) re[k] = rhs[k].real(), im[k] = rhs[k].imag();
    const auto xr = bstest::gtsv_reference(p.m, nullptr, &re);
    const auto xi = bstest::gtsv_reference(p.m, nullptr, &im);
    std::vector<D> x(rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) x[k] = D(xr[k], xi[k]);
    return x;
  }
}

// Largest max_i |x_i - y_i| / ||y|| over systems s, divided by cond[s] when given.
template <class D>
double max_rel_diff(const std::vector<D>& x, const std::vector<D>& y, std::size_t nsys,
                    std::size_t n, const std::vector<double>* cond = nullptr) {
  double worst = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    worst = std::max(worst, bstest::rel_diff_any(x, y, n, s) / (cond ? std::max((*cond)[s], 1.0) : 1.0));
  return worst;
}

// ---------------------------------------------------------------------------------------------
// One batch through the one-shot and the factored device solves.

template <class Layout, class C, class D, class Exec>
void check_batch(const Exec& exec, std::size_t nsys, std::size_t n, strides kind) {
  using mem = typename Exec::memory_space;
  const auto p = random_batch<C, D>(nsys, n, static_cast<std::uint32_t>(nsys * 7919 + n));
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                    << static_cast<int>(kind) << ", " << nsys << " systems of n = " << n
                    << ", sizeof(C) = " << sizeof(C) << ", sizeof(D) = " << sizeof(D));
  std::vector<int> ipiv, lapack_info;
  std::vector<double> cond;
  bstest::gttrf_reference(p.m, ipiv, lapack_info, cond);
  REQUIRE(lapack_info == std::vector<int>(nsys, 0));

  auto a = store<Layout, C, mem>(p.m.a, nsys, n, kind);
  auto b = store<Layout, C, mem>(p.m.b, nsys, n, kind);
  auto c = store<Layout, C, mem>(p.m.c, nsys, n, kind);
  auto d = store<Layout, D, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, partial_pivoting{}, a.view, b.view, c.view, d.view, info, device_tag{});
  exec.fence();
  bool gaps_intact = false;
  const auto x = fetch(d, nsys, n, &gaps_intact);
  CHECK(gaps_intact);
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));

  // The host path: the same interchanges and arithmetic in another order of operations (SIMD,
  // contractions); LAPACK: backward stable, so within eps times the condition number.
  std::vector<int> host_info;
  const auto y = host_pivoting(p, p.d, host_info);
  CHECK(max_rel_diff(x, y, nsys, n, &cond) <= 64 * eps_of<C>());
  CHECK(max_rel_diff(x, lapack_gtsv(p, p.d), nsys, n, &cond) <= 64 * eps_of<C>());

  // Factored: the interchanges of ?gttrf exactly, then two right-hand sides.
  auto f = bandsolve::factorize(exec, partial_pivoting{}, a.view, b.view, c.view, nsys,
                                device_tag{});
  static_assert(std::is_same_v<typename decltype(f)::scalar_type, C>);
  CHECK(f.nsys() == nsys);
  CHECK(f.n() == n);
  const auto fp = f.ipiv();
  std::size_t ipiv_mismatches = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i + 1 < n; ++i)  // ?gttrf's last entry is n, ours too; both checked
      ipiv_mismatches += fp(s, i) != ipiv[s * n + i] ? 1 : 0;
  CHECK(ipiv_mismatches == 0);
  for (std::uint32_t round = 0; round < 2; ++round) {
    const auto rhs = rhs_only<D>(nsys, n, 1000 + round);
    auto d2 = store<Layout, D, mem>(rhs, nsys, n, kind);
    f.solve(exec, d2.view);
    exec.fence();
    const auto x2 = fetch(d2, nsys, n, &gaps_intact);
    CHECK(gaps_intact);
    const auto y2 = host_pivoting(p, rhs, host_info);
    CHECK(max_rel_diff(x2, y2, nsys, n, &cond) <= 64 * eps_of<C>());
    CHECK(max_rel_diff(x2, lapack_gtsv(p, rhs), nsys, n, &cond) <= 64 * eps_of<C>());
  }
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
}

template <class Layout, class C, class D, class Exec>
void check_sizes(const Exec& exec, strides kind = strides::plain) {
  for (std::size_t n : {1, 2, 3, 17})
    for (std::size_t nsys : {1, 31, 33}) check_batch<Layout, C, D>(exec, nsys, n, kind);
  for (std::size_t nsys : {1, 33}) check_batch<Layout, C, D>(exec, nsys, 1001, kind);
}

template <class C, class D, class Exec>
void check_every_layout(const Exec& exec) {
  check_sizes<bl::row, C, D>(exec);
  check_sizes<bl::column, C, D>(exec);
  check_sizes<bl::interleaved<4>, C, D>(exec);
  check_sizes<bl::interleaved<32>, C, D>(exec);
  check_sizes<bl::strided, C, D>(exec, strides::padded_rows);
  check_sizes<bl::strided, C, D>(exec, strides::unit_system_stride);
  check_sizes<bl::strided, C, D>(exec, strides::neither_unit);
}

// Info codes: those of the host path exactly, and LAPACK's for exactly singular systems.
template <class Layout, class T, class Exec>
void check_info(const Exec& exec, strides kind) {
  using mem = typename Exec::memory_space;
  const std::size_t nsys = 40, n = 30;
  auto p = random_batch<T, T>(nsys, n, 7);
  using R = bandsolve::real_type_t<T>;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  // Column j of system s zero (b[j] = a[j+1] = c[j-1] = 0): exactly singular, ?gtsv's info j+1
  // or earlier; NaN in b or a: a non-finite pivot.
  auto zero_column = [&](std::size_t s, std::size_t j) {
    p.m.b[s * n + j] = T(0);
    if (j + 1 < n) p.m.a[s * n + j + 1] = T(0);
    if (j > 0) p.m.c[s * n + j - 1] = T(0);
  };
  zero_column(0, 0);
  zero_column(3, 12);
  zero_column(31, n - 1);
  zero_column(32, 5);
  p.m.b[33 * n + 9] = T(nan);
  p.m.a[39 * n + 20] = T(nan);
  std::vector<int> lapack_info;
  bstest::gtsv_reference(p.m, &lapack_info);
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                    << static_cast<int>(kind) << ", sizeof(T) = " << sizeof(T));
  std::vector<int> host_info;
  const auto y = host_pivoting(p, p.d, host_info);
  for (std::size_t s : {0, 3, 31, 32}) {
    CHECK(host_info[s] == lapack_info[s]);
    CHECK(host_info[s] > 0);
  }
  CHECK(host_info[33] > 0);
  CHECK(host_info[39] > 0);
  CHECK(host_info[0] == 1);

  auto a = store<Layout, T, mem>(p.m.a, nsys, n, kind);
  auto b = store<Layout, T, mem>(p.m.b, nsys, n, kind);
  auto c = store<Layout, T, mem>(p.m.c, nsys, n, kind);
  auto d = store<Layout, T, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, partial_pivoting{}, a.view, b.view, c.view, d.view, info, device_tag{});
  CHECK(bstest::info_to_host(info) == host_info);
  const auto x = fetch(d, nsys, n);
  for (std::size_t s = 0; s < nsys; ++s)
    if (host_info[s] == 0) CHECK(bstest::rel_diff_any(x, y, n, s) <= 1e4 * eps_of<T>());
  auto f = bandsolve::factorize(exec, partial_pivoting{}, a.view, b.view, c.view, nsys,
                                device_tag{});
  CHECK(bstest::info_to_host(f.info()) == host_info);
}

}  // namespace

TEST_CASE("device partial pivoting: double in every layout against LAPACK and the host path",
          "[device][pivoting]") {
  for_each_device_exec([](const auto& exec) { check_every_layout<double, double>(exec); });
}

TEST_CASE("device partial pivoting: float, complex and complex right-hand sides",
          "[device][pivoting]") {
  const Kokkos::DefaultExecutionSpace exec;
  check_every_layout<float, float>(exec);
  check_every_layout<cplx<double>, cplx<double>>(exec);
  check_every_layout<double, cplx<double>>(exec);
  check_sizes<bl::row, cplx<float>, cplx<float>>(exec);
  check_sizes<bl::interleaved<4>, float, cplx<float>>(exec);
}

TEST_CASE("device partial pivoting: info codes of singular and NaN systems",
          "[device][pivoting]") {
  for_each_device_exec([](const auto& exec) {
    check_info<bl::row, double>(exec, strides::plain);
    check_info<bl::column, double>(exec, strides::plain);
    check_info<bl::interleaved<4>, double>(exec, strides::plain);
    check_info<bl::strided, double>(exec, strides::neither_unit);
  });
  const Kokkos::DefaultExecutionSpace exec;
  check_info<bl::row, float>(exec, strides::plain);
  check_info<bl::column, cplx<double>>(exec, strides::plain);
}

TEST_CASE("device partial pivoting: argument checks throw as on the host", "[device][pivoting]") {
  using mem = Kokkos::DefaultExecutionSpace::memory_space;
  const Kokkos::DefaultExecutionSpace exec;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, mem>;
  const V a("a", 5, 8), b("b", 5, 8), c("c", 5, 8), d("d", 5, 8), d7("d7", 5, 7), d4("d4", 4, 8);
  const auto info = bstest::make_info<mem>(5);
  const auto info4 = bstest::make_info<mem>(4);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::solve(exec, partial_pivoting{}, a, b, c, d7, info, device_tag{}),
                    StartsWith("bandsolve::solve(partial_pivoting)"));
  CHECK_THROWS_AS(bandsolve::solve(exec, partial_pivoting{}, a, b, c, d, info4, device_tag{}),
                  std::invalid_argument);
  CHECK_THROWS_WITH(bandsolve::factorize(exec, partial_pivoting{}, a, b, d7, device_tag{}),
                    StartsWith("bandsolve::factorize(partial_pivoting)"));
  CHECK_THROWS_AS(bandsolve::factorize(exec, partial_pivoting{}, a, b, c, 4, device_tag{}),
                  std::invalid_argument);
  const auto f = bandsolve::factorize(exec, partial_pivoting{}, a, b, c, device_tag{});
  CHECK_THROWS_WITH(f.solve(exec, d7), StartsWith("bandsolve::pivoting_factorization::solve"));
  CHECK_THROWS_AS(f.solve(exec, d4), std::invalid_argument);
  const decltype(f) empty;
  CHECK_THROWS_AS(empty.solve(exec, d), std::invalid_argument);
  // n = 0 writes info (every system solved).
  const V z("z", 5, 0);
  bandsolve::solve(exec, partial_pivoting{}, z, z, z, V("dz", 5, 0), info, device_tag{});
  CHECK(bstest::info_to_host(info) == std::vector<int>(5, 0));
}

TEST_CASE("device partial pivoting: calls without a backend take the execution space's own",
          "[device][pivoting]") {
  using exec_type = Kokkos::DefaultExecutionSpace;
  using mem = exec_type::memory_space;
  const exec_type exec;
  const std::size_t nsys = 33, n = 65;
  const auto p = random_batch<double, double>(nsys, n, 5);
  std::vector<int> ipiv, lapack_info;
  std::vector<double> cond;
  bstest::gttrf_reference(p.m, ipiv, lapack_info, cond);
  auto a = store<bl::column, double, mem>(p.m.a, nsys, n, strides::plain);
  auto b = store<bl::column, double, mem>(p.m.b, nsys, n, strides::plain);
  auto c = store<bl::column, double, mem>(p.m.c, nsys, n, strides::plain);
  auto d1 = store<bl::column, double, mem>(p.d, nsys, n, strides::plain);
  auto d2 = store<bl::column, double, mem>(p.d, nsys, n, strides::plain);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, partial_pivoting{}, a.view, b.view, c.view, d1.view, info);
  bandsolve::solve(exec, partial_pivoting{}, a.view, b.view, c.view, d2.view, info, device_tag{});
  CHECK(max_rel_diff(fetch(d1, nsys, n), fetch(d2, nsys, n), nsys, n, &cond) <=
        64 * eps_of<double>());
  const auto f = bandsolve::factorize(exec, partial_pivoting{}, a.view, b.view, c.view);
  f.solve(exec, d1.view);
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
}

// ---------------------------------------------------------------------------------------------
// Periodic: dominant cyclic systems (cond < 10), against zgesv of the dense matrix (n <= 100),
// residuals and the host path.

namespace {

template <class C, class D>
batch<C, D> random_periodic_batch(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  batch<C, D> p{bstest::random_periodic<C>(nsys, n, seed), rhs_only<D>(nsys, n, seed + 17)};
  return p;
}

template <class C, class D>
std::vector<D> host_periodic(const batch<C, D>& p, const std::vector<D>& rhs,
                             std::vector<int>& info) {
  using mem = Kokkos::HostSpace;
  const std::size_t nsys = p.m.nsys, n = p.m.n;
  auto a = bstest::to_device<bl::row, C, mem>("a", p.m.a, nsys, n);
  auto b = bstest::to_device<bl::row, C, mem>("b", p.m.b, nsys, n);
  auto c = bstest::to_device<bl::row, C, mem>("c", p.m.c, nsys, n);
  auto d = bstest::to_device<bl::row, D, mem>("d", rhs, nsys, n);
  auto inf = bstest::make_info<mem>(nsys);
  bandsolve::solve(host_exec(), periodic{}, a, b, c, d, inf);
  host_exec().fence();
  info = bstest::info_to_host(inf);
  return bstest::to_host(d, nsys);
}

// zgesv of the dense cyclic matrix, for the right-hand sides or their real and imaginary parts.
template <class C, class D>
std::vector<D> lapack_periodic(const batch<C, D>& p, const std::vector<D>& rhs) {
  if constexpr (std::is_same_v<C, D>) {
    return bstest::periodic_dense_reference(p.m, &rhs);
  } else {
    std::vector<C> re(rhs.size()), im(rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) re[k] = rhs[k].real(), im[k] = rhs[k].imag();
    const auto xr = bstest::periodic_dense_reference(p.m, &re);
    const auto xi = bstest::periodic_dense_reference(p.m, &im);
    std::vector<D> x(rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) x[k] = D(xr[k], xi[k]);
    return x;
  }
}

// Largest periodic residual ||A x - d|| / (||A|| ||x|| + ||d||) over the systems, in
// complex<double> (complex right-hand sides over real coefficients: both parts at once).
template <class C, class D>
double periodic_residual(const batch<C, D>& p, const std::vector<D>& x, const std::vector<D>& rhs) {
  const std::size_t n = p.m.n;
  double worst = 0;
  for (std::size_t s = 0; s < p.m.nsys; ++s) {
    double r = 0, an = 0, xn = 0, dn = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = s * n + i, prev = s * n + (i + n - 1) % n, next = s * n + (i + 1) % n;
      const bstest::cd a = bstest::to_cd(p.m.a[k]), b = bstest::to_cd(p.m.b[k]),
                       c = bstest::to_cd(p.m.c[k]);
      const bstest::cd ax = b * bstest::to_cd(x[k]) + a * bstest::to_cd(x[prev]) +
                            c * bstest::to_cd(x[next]);
      r = std::max(r, std::abs(ax - bstest::to_cd(rhs[k])));
      an = std::max(an, std::abs(a) + std::abs(b) + std::abs(c));
      xn = std::max(xn, std::abs(bstest::to_cd(x[k])));
      dn = std::max(dn, std::abs(bstest::to_cd(rhs[k])));
    }
    if (!std::isfinite(r)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, r / (an * xn + dn));
  }
  return worst;
}

template <class Layout, class C, class D, class Exec>
void check_periodic_batch(const Exec& exec, std::size_t nsys, std::size_t n, strides kind) {
  using mem = typename Exec::memory_space;
  const auto p = random_periodic_batch<C, D>(nsys, n, static_cast<std::uint32_t>(nsys * 131 + n));
  INFO("periodic " << Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                   << static_cast<int>(kind) << ", " << nsys << " systems of n = " << n
                   << ", sizeof(C) = " << sizeof(C) << ", sizeof(D) = " << sizeof(D));
  auto a = store<Layout, C, mem>(p.m.a, nsys, n, kind);
  auto b = store<Layout, C, mem>(p.m.b, nsys, n, kind);
  auto c = store<Layout, C, mem>(p.m.c, nsys, n, kind);
  auto d = store<Layout, D, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, periodic{}, a.view, b.view, c.view, d.view, info, device_tag{});
  exec.fence();
  bool gaps_intact = false;
  const auto x = fetch(d, nsys, n, &gaps_intact);
  CHECK(gaps_intact);
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  std::vector<int> host_info;
  const double tol = 64 * eps_of<C>();
  CHECK(max_rel_diff(x, host_periodic(p, p.d, host_info), nsys, n) <= tol);
  CHECK(periodic_residual(p, x, p.d) <= tol);
  if (n <= 100) CHECK(max_rel_diff(x, lapack_periodic(p, p.d), nsys, n) <= tol);

  auto f = bandsolve::factorize(exec, periodic{}, a.view, b.view, c.view, nsys, device_tag{});
  static_assert(std::is_same_v<typename decltype(f)::scalar_type, C>);
  CHECK(f.nsys() == nsys);
  CHECK(f.n() == n);
  CHECK(f.storage_bytes() == 4 * ((nsys + 31) / 32) * 32 * n * sizeof(C));
  for (std::uint32_t round = 0; round < 2; ++round) {
    const auto rhs = rhs_only<D>(nsys, n, 2000 + round);
    auto d2 = store<Layout, D, mem>(rhs, nsys, n, kind);
    f.solve(exec, d2.view);
    exec.fence();
    const auto x2 = fetch(d2, nsys, n, &gaps_intact);
    CHECK(gaps_intact);
    CHECK(max_rel_diff(x2, host_periodic(p, rhs, host_info), nsys, n) <= tol);
    CHECK(periodic_residual(p, x2, rhs) <= tol);
  }
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
}

template <class Layout, class C, class D, class Exec>
void check_periodic_sizes(const Exec& exec, strides kind = strides::plain) {
  for (std::size_t n : {1, 2, 3, 17})
    for (std::size_t nsys : {1, 31, 33}) check_periodic_batch<Layout, C, D>(exec, nsys, n, kind);
  for (std::size_t nsys : {1, 33}) check_periodic_batch<Layout, C, D>(exec, nsys, 1001, kind);
}

template <class C, class D, class Exec>
void check_periodic_every_layout(const Exec& exec) {
  check_periodic_sizes<bl::row, C, D>(exec);
  check_periodic_sizes<bl::column, C, D>(exec);
  check_periodic_sizes<bl::interleaved<4>, C, D>(exec);
  check_periodic_sizes<bl::interleaved<32>, C, D>(exec);
  check_periodic_sizes<bl::strided, C, D>(exec, strides::padded_rows);
  check_periodic_sizes<bl::strided, C, D>(exec, strides::unit_system_stride);
  check_periodic_sizes<bl::strided, C, D>(exec, strides::neither_unit);
}

// Info codes at known rows: a zero first pivot, NaN in b of a leading row, NaN in the closing
// row (the Schur complement, row n); those of the host path exactly.
template <class Layout, class T, class Exec>
void check_periodic_info(const Exec& exec, strides kind) {
  using mem = typename Exec::memory_space;
  const std::size_t nsys = 40, n = 30;
  auto p = random_periodic_batch<T, T>(nsys, n, 9);
  using R = bandsolve::real_type_t<T>;
  const R nan = std::numeric_limits<R>::quiet_NaN();
  std::vector<int> expected(nsys, 0);
  p.m.b[0 * n + 0] = T(0), expected[0] = 1;
  p.m.b[31 * n + 12] = T(nan), expected[31] = 13;
  p.m.b[33 * n + n - 1] = T(nan), expected[33] = int(n);
  p.m.a[39 * n + 7] = T(nan), expected[39] = 8;
  INFO("periodic " << Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                   << static_cast<int>(kind) << ", sizeof(T) = " << sizeof(T));
  std::vector<int> host_info;
  const auto y = host_periodic(p, p.d, host_info);
  REQUIRE(host_info == expected);
  auto a = store<Layout, T, mem>(p.m.a, nsys, n, kind);
  auto b = store<Layout, T, mem>(p.m.b, nsys, n, kind);
  auto c = store<Layout, T, mem>(p.m.c, nsys, n, kind);
  auto d = store<Layout, T, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, periodic{}, a.view, b.view, c.view, d.view, info, device_tag{});
  CHECK(bstest::info_to_host(info) == expected);
  const auto x = fetch(d, nsys, n);
  for (std::size_t s = 0; s < nsys; ++s)
    if (expected[s] == 0) CHECK(bstest::rel_diff_any(x, y, n, s) <= 64 * eps_of<T>());
  auto f = bandsolve::factorize(exec, periodic{}, a.view, b.view, c.view, nsys, device_tag{});
  CHECK(bstest::info_to_host(f.info()) == expected);
}

}  // namespace

TEST_CASE("device periodic: double in every layout against LAPACK and the host path",
          "[device][periodic]") {
  for_each_device_exec([](const auto& exec) { check_periodic_every_layout<double, double>(exec); });
}

TEST_CASE("device periodic: float, complex and complex right-hand sides", "[device][periodic]") {
  const Kokkos::DefaultExecutionSpace exec;
  check_periodic_every_layout<float, float>(exec);
  check_periodic_every_layout<cplx<double>, cplx<double>>(exec);
  check_periodic_every_layout<double, cplx<double>>(exec);
  check_periodic_sizes<bl::row, cplx<float>, cplx<float>>(exec);
  check_periodic_sizes<bl::interleaved<4>, float, cplx<float>>(exec);
}

TEST_CASE("device periodic: info codes at known rows", "[device][periodic]") {
  for_each_device_exec([](const auto& exec) {
    check_periodic_info<bl::row, double>(exec, strides::plain);
    check_periodic_info<bl::column, double>(exec, strides::plain);
    check_periodic_info<bl::interleaved<4>, double>(exec, strides::plain);
    check_periodic_info<bl::strided, double>(exec, strides::neither_unit);
  });
  const Kokkos::DefaultExecutionSpace exec;
  check_periodic_info<bl::row, float>(exec, strides::plain);
  check_periodic_info<bl::column, cplx<double>>(exec, strides::plain);
}

TEST_CASE("device periodic: argument checks throw as on the host", "[device][periodic]") {
  using mem = Kokkos::DefaultExecutionSpace::memory_space;
  const Kokkos::DefaultExecutionSpace exec;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, mem>;
  const V a("a", 5, 8), b("b", 5, 8), c("c", 5, 8), d("d", 5, 8), d7("d7", 5, 7);
  const auto info = bstest::make_info<mem>(5);
  const auto info4 = bstest::make_info<mem>(4);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::solve(exec, periodic{}, a, b, c, d7, info, device_tag{}),
                    StartsWith("bandsolve::solve(periodic)"));
  CHECK_THROWS_AS(bandsolve::solve(exec, periodic{}, a, b, c, d, info4, device_tag{}),
                  std::invalid_argument);
  CHECK_THROWS_WITH(bandsolve::factorize(exec, periodic{}, a, b, d7, device_tag{}),
                    StartsWith("bandsolve::factorize(periodic)"));
  const auto f = bandsolve::factorize(exec, periodic{}, a, b, c, device_tag{});
  CHECK_THROWS_WITH(f.solve(exec, d7), StartsWith("bandsolve::periodic_factorization::solve"));
  const decltype(f) empty;
  CHECK_THROWS_AS(empty.solve(exec, d), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// Banded LU: row, column, interleaved<4> and strided bands (LayoutStride Views of a LayoutLeft
// array, systems side by side), with and without pivoting, one or two right-hand sides, against
// ?gbsv and the host path.

namespace {

// A band (and its right-hand sides) in a layout: strided ones are LayoutStride Views of
// LayoutLeft arrays.
template <class Layout, class T, class Mem>
auto band_in(const bb::host_band<T>& h) {
  if constexpr (std::is_same_v<Layout, bl::strided>) {
    Kokkos::View<T***, Kokkos::LayoutLeft, Mem> left("ab", h.nsys, h.n, h.ldab);
    auto m = Kokkos::create_mirror_view(left);
    for (std::size_t s = 0; s < h.nsys; ++s)
      for (std::size_t j = 0; j < h.n; ++j)
        for (std::size_t r = 0; r < h.ldab; ++r) m(s, j, r) = h.ab[s * h.n * h.ldab + j * h.ldab + r];
    Kokkos::deep_copy(left, m);
    return Kokkos::View<T***, Kokkos::LayoutStride, Mem>(left);
  } else {
    return bb::band_to_device<Layout, T, Mem>(h);
  }
}

template <class Layout, class T, class Mem, bool Several>
auto rhs_in(const std::vector<T>& h, std::size_t nsys, std::size_t n, std::size_t nrhs) {
  if constexpr (std::is_same_v<Layout, bl::strided>) {
    if constexpr (Several) {
      Kokkos::View<T***, Kokkos::LayoutLeft, Mem> left("b", nsys, n, nrhs);
      auto m = Kokkos::create_mirror_view(left);
      for (std::size_t s = 0; s < nsys; ++s)
        for (std::size_t k = 0; k < nrhs; ++k)
          for (std::size_t i = 0; i < n; ++i) m(s, i, k) = h[(s * nrhs + k) * n + i];
      Kokkos::deep_copy(left, m);
      return Kokkos::View<T***, Kokkos::LayoutStride, Mem>(left);
    } else {
      Kokkos::View<T**, Kokkos::LayoutLeft, Mem> left("b", nsys, n);
      auto m = Kokkos::create_mirror_view(left);
      for (std::size_t s = 0; s < nsys; ++s)
        for (std::size_t i = 0; i < n; ++i) m(s, i) = h[s * n + i];
      Kokkos::deep_copy(left, m);
      return Kokkos::View<T**, Kokkos::LayoutStride, Mem>(left);
    }
  } else {
    return bb::rhs_to_device<Layout, T, Mem, Several>(h, nsys, n, nrhs);
  }
}

// ?gbsv of real bands for right-hand sides of their type, or both parts of complex ones.
template <class T, class R>
bb::lapack_result<T> gbsv_of(const bb::host_band<T>& h, const std::vector<R>& rhs,
                                 int nrhs, std::vector<R>& x) {
  if constexpr (std::is_same_v<T, R>) {
    auto r = bb::reference_gbsv(h, rhs, nrhs);
    x = r.x;
    return r;
  } else {
    std::vector<T> re(rhs.size()), im(rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) re[k] = rhs[k].real(), im[k] = rhs[k].imag();
    auto r = bb::reference_gbsv(h, re, nrhs);
    const auto ri = bb::reference_gbsv(h, im, nrhs);
    x.resize(rhs.size());
    for (std::size_t k = 0; k < rhs.size(); ++k) x[k] = R(r.x[k], ri.x[k]);
    return r;
  }
}

template <class Layout, class T, class R, bool Several, class Exec>
void check_banded(const Exec& exec, std::size_t nsys, std::size_t n, int kl, int ku, bool pivot) {
  using mem = typename Exec::memory_space;
  const std::size_t nrhs = Several ? 2 : 1;
  // Without pivoting: dominant rows; with: small diagonals, so that rows are interchanged (not
  // for triangular bands, whose small diagonals would make x overflow).
  const auto h = bb::random_band<T>(nsys, n, kl, ku, static_cast<std::uint32_t>(nsys * 31 + n),
                                    pivot && kl > 0 ? -0.25 : 1.0);
  const auto rhs = bb::random_values<R>(nsys * n * nrhs, static_cast<std::uint32_t>(n + 5));
  INFO("banded " << Exec::name() << " " << bstest::layout_name<Layout>() << ", " << nsys
                 << " systems of n = " << n << ", kl = " << kl << ", ku = " << ku
                 << ", pivoting " << pivot << ", nrhs " << nrhs << ", sizeof(T) = " << sizeof(T)
                 << ", sizeof(R) = " << sizeof(R));
  const bandsolve::algo::banded_lu alg{kl, ku, pivot};
  std::vector<R> xl;
  const auto ref = gbsv_of(h, rhs, static_cast<int>(nrhs), xl);
  REQUIRE(ref.info == std::vector<int>(nsys, 0));
  const double tol = 64 * eps_of<T>();

  auto ab = band_in<Layout, T, mem>(h);
  auto b = rhs_in<Layout, R, mem, Several>(rhs, nsys, n, nrhs);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, alg, ab, b, info, device_tag{});
  exec.fence();
  const auto x = bb::rhs_to_host(b, nsys, n, nrhs);
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));

  // The host path on the same data, for double bands and right-hand sides: the host kernels of
  // every scalar pair would double this file's compile time, and LAPACK checks them all below.
  constexpr bool against_host = std::is_same_v<T, double> && std::is_same_v<R, double>;
  std::vector<R> y;
  if constexpr (against_host) {
    auto hb = rhs_in<Layout, R, Kokkos::HostSpace, Several>(rhs, nsys, n, nrhs);
    auto hab = band_in<Layout, T, Kokkos::HostSpace>(h);
    auto hinfo = bstest::make_info<Kokkos::HostSpace>(nsys);
    bandsolve::solve(host_exec(), alg, hab, hb, hinfo);
    host_exec().fence();
    y = bb::rhs_to_host(hb, nsys, n, nrhs);
  }
  double worst_host = 0, worst_lapack = 0, worst_residual = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t k = 0; k < nrhs; ++k) {
      const std::size_t off = (s * nrhs + k) * n;
      if constexpr (against_host) worst_host = std::max(worst_host, bb::vec_rel_diff(x, y, off, n));
      worst_lapack = std::max(worst_lapack, bb::vec_rel_diff(x, xl, off, n));
      if constexpr (std::is_same_v<T, R>)
        worst_residual = std::max(worst_residual, bb::band_residual(h, x, rhs, s, k, nrhs));
    }
  // Same pivots, same operations, but a GPU fuses multiply-adds where the host does not: the
  // solutions differ by rounding amplified by the condition number of the pivoted bands (<= 1e5),
  // as the forward error against ?gbsv does (seen on an H200: 2400 eps at n = 1000); the backward
  // error is that of LU with partial pivoting.
  const double forward = (pivot ? 1e6 : 64) * eps_of<T>();
  CHECK(worst_host <= forward);
  CHECK(worst_lapack <= forward);
  CHECK(worst_residual <= tol);

  // Factored: ?gbtrf's pivots and LU for row-layout bands, then two solves.
  auto f = bandsolve::factorize(exec, alg, ab, nsys, device_tag{});
  CHECK(f.on_device_backend());
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
  if constexpr (std::is_same_v<Layout, bl::row>) {
    if (pivot) {
      auto piv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.pivots());
      std::size_t mismatches = 0;
      for (std::size_t s = 0; s < nsys; ++s)
        for (std::size_t i = 0; i < n; ++i) mismatches += piv(s, i) != ref.ipiv[s * n + i] ? 1 : 0;
      CHECK(mismatches == 0);
    }
  }
  for (std::uint32_t round = 0; round < 2; ++round) {
    const auto rhs2 = bb::random_values<R>(nsys * n * nrhs, 3000 + round);
    auto b2 = rhs_in<Layout, R, mem, Several>(rhs2, nsys, n, nrhs);
    f.solve(exec, b2);
    exec.fence();
    const auto x2 = bb::rhs_to_host(b2, nsys, n, nrhs);
    std::vector<R> xl2;
    gbsv_of(h, rhs2, static_cast<int>(nrhs), xl2);
    double worst = 0;
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t k = 0; k < nrhs; ++k)
        worst = std::max(worst, bb::vec_rel_diff(x2, xl2, (s * nrhs + k) * n, n));
    CHECK(worst <= forward);
  }
}

template <class Layout, class T, class R, bool Several, class Exec>
void check_banded_sizes(const Exec& exec) {
  const int bands[][2] = {{1, 1}, {2, 3}, {0, 2}};
  for (const auto& kb : bands)
    for (const bool pivot : {true, false}) {
      for (std::size_t n : {1, 2, 3, 17})
        for (std::size_t nsys : {1, 31, 33})
          check_banded<Layout, T, R, Several>(exec, nsys, n, kb[0], kb[1], pivot);
      check_banded<Layout, T, R, Several>(exec, 33, 1000, kb[0], kb[1], pivot);
    }
}

}  // namespace

TEST_CASE("device banded LU: every layout against LAPACK and the host path",
          "[device][banded]") {
  for_each_device_exec([](const auto& exec) {
    check_banded_sizes<bl::row, double, double, false>(exec);
    check_banded_sizes<bl::column, double, double, true>(exec);
    check_banded_sizes<bl::interleaved<4>, double, double, false>(exec);
    check_banded_sizes<bl::strided, double, double, true>(exec);
  });
}

TEST_CASE("device banded LU: float, complex and complex right-hand sides", "[device][banded]") {
  const Kokkos::DefaultExecutionSpace exec;
  check_banded_sizes<bl::row, float, float, true>(exec);
  check_banded_sizes<bl::interleaved<4>, cplx<double>, cplx<double>, true>(exec);
  check_banded_sizes<bl::column, double, cplx<double>, false>(exec);
  check_banded_sizes<bl::strided, cplx<float>, cplx<float>, false>(exec);
}

TEST_CASE("device banded LU: info codes and argument checks", "[device][banded]") {
  using mem = Kokkos::DefaultExecutionSpace::memory_space;
  const Kokkos::DefaultExecutionSpace exec;
  const std::size_t nsys = 40, n = 20;
  for (const bool pivot : {true, false}) {
    auto h = bb::random_band<double>(nsys, n, 2, 1, 11, 1.0);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // System 3: column 7 zero (singular); system 32: NaN on the diagonal of row 12.
    for (std::size_t i = 0; i < n; ++i)
      if (h.in_band(i, 7)) h.at(3, i, 7) = 0.0;
    h.at(32, 12, 12) = nan;
    const auto rhs = bb::random_values<double>(nsys * n, 4);
    INFO("pivoting " << pivot);
    const bandsolve::algo::banded_lu alg{2, 1, pivot};
    auto hab = band_in<bl::row, double, Kokkos::HostSpace>(h);
    auto hb = rhs_in<bl::row, double, Kokkos::HostSpace, false>(rhs, nsys, n, 1);
    auto hinfo = bstest::make_info<Kokkos::HostSpace>(nsys);
    bandsolve::solve(host_exec(), alg, hab, hb, hinfo);
    const auto expected = bstest::info_to_host(hinfo);
    CHECK(expected[3] > 0);
    CHECK(expected[32] > 0);
    if (pivot) CHECK(expected[3] == bb::reference_gbsv(h, rhs, 1).info[3]);
    auto ab = band_in<bl::row, double, mem>(h);
    auto b = rhs_in<bl::row, double, mem, false>(rhs, nsys, n, 1);
    auto info = bstest::make_info<mem>(nsys);
    bandsolve::solve(exec, alg, ab, b, info, device_tag{});
    CHECK(bstest::info_to_host(info) == expected);
    auto f = bandsolve::factorize(exec, alg, ab, device_tag{});
    CHECK(bstest::info_to_host(f.info()) == expected);
  }
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, mem>;
  using V2 = Kokkos::View<double**, Kokkos::LayoutRight, mem>;
  const V3 ab("ab", 5, 8, 4);
  const V2 b("b", 5, 8), b7("b7", 5, 7);
  const auto info = bstest::make_info<mem>(5);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::solve(exec, bandsolve::algo::banded_lu{1, 1}, ab, b7, info,
                                     device_tag{}),
                    StartsWith("bandsolve::solve(banded_lu)"));
  CHECK_THROWS_AS(bandsolve::solve(exec, bandsolve::algo::banded_lu{2, 1}, ab, b, info,
                                   device_tag{}),
                  std::invalid_argument);
  CHECK_THROWS_WITH(bandsolve::factorize(exec, bandsolve::algo::banded_lu{1, 2}, ab, device_tag{}),
                    StartsWith("bandsolve::factorize(banded_lu)"));
  const auto f = bandsolve::factorize(exec, bandsolve::algo::banded_lu{1, 1}, ab, device_tag{});
  CHECK_THROWS_WITH(f.solve(exec, b7), StartsWith("bandsolve::banded_lu_factorization::solve"));
}

// ---------------------------------------------------------------------------------------------
// PCR and CR: diagonally dominant batches against ?gtsv and the host path (within
// bstest::reduction_tol); info codes and argument checks as on the host.

namespace {

template <class Algo, class T>
std::vector<T> host_reduction(const bstest::host_batch<T>& p, std::vector<int>& info) {
  using mem = Kokkos::HostSpace;
  auto a = bstest::to_device<bl::row, T, mem>("a", p.a, p.nsys, p.n);
  auto b = bstest::to_device<bl::row, T, mem>("b", p.b, p.nsys, p.n);
  auto c = bstest::to_device<bl::row, T, mem>("c", p.c, p.nsys, p.n);
  auto d = bstest::to_device<bl::row, T, mem>("d", p.d, p.nsys, p.n);
  auto inf = bstest::make_info<mem>(p.nsys);
  bandsolve::solve(host_exec(), Algo{}, a, b, c, d, inf);
  host_exec().fence();
  info = bstest::info_to_host(inf);
  return bstest::to_host(d, p.nsys);
}

// The device solve of p in Layout; returns x, info into `info`, whether the gaps of strided
// Views are intact into `gaps`.
template <class Algo, class Layout, class T, class Exec>
std::vector<T> device_reduction(const Exec& exec, const bstest::host_batch<T>& p, strides kind,
                                std::vector<int>& info, bool& gaps) {
  using mem = typename Exec::memory_space;
  auto a = store<Layout, T, mem>(p.a, p.nsys, p.n, kind);
  auto b = store<Layout, T, mem>(p.b, p.nsys, p.n, kind);
  auto c = store<Layout, T, mem>(p.c, p.nsys, p.n, kind);
  auto d = store<Layout, T, mem>(p.d, p.nsys, p.n, kind);
  auto inf = bstest::make_info<mem>(p.nsys);
  bandsolve::solve(exec, Algo{}, a.view, b.view, c.view, d.view, inf, device_tag{});
  exec.fence();
  info = bstest::info_to_host(inf);
  return fetch(d, p.nsys, p.n, &gaps);
}

template <class Algo, class Layout, class T, class Exec>
void check_reduction_sizes(const Exec& exec, strides kind = strides::plain) {
  for (std::size_t n : {1, 2, 3, 17, 64, 1001})
    for (std::size_t nsys : {1, 31, 33}) {
      if (n == 1001 && nsys == 31) continue;
      const auto p = bstest::random_dominant<T>(nsys, n, static_cast<std::uint32_t>(nsys * 31 + n));
      INFO(Algo::name << " " << Exec::name() << " " << bstest::layout_name<Layout>()
                      << " strides kind " << static_cast<int>(kind) << ", " << nsys
                      << " systems of n = " << n << ", sizeof(T) = " << sizeof(T));
      std::vector<int> info, host_info;
      bool gaps = false;
      const auto x = device_reduction<Algo, Layout>(exec, p, kind, info, gaps);
      CHECK(gaps);
      CHECK(info == std::vector<int>(nsys, 0));
      const auto y = host_reduction<Algo>(p, host_info);
      CHECK(bstest::max_rel_diff(x, y, nsys, n) <= bstest::reduction_tol<T>(n));
      CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), nsys, n) <=
            bstest::reduction_tol<T>(n));
    }
}

template <class Algo, class T, class Exec>
void check_reduction_layouts(const Exec& exec) {
  check_reduction_sizes<Algo, bl::row, T>(exec);
  check_reduction_sizes<Algo, bl::strided, T>(exec, strides::padded_rows);
  check_reduction_sizes<Algo, bl::strided, T>(exec, strides::neither_unit);
  if constexpr (std::is_same_v<T, double>) {
    check_reduction_sizes<Algo, bl::column, T>(exec);
    check_reduction_sizes<Algo, bl::interleaved<4>, T>(exec);
    check_reduction_sizes<Algo, bl::strided, T>(exec, strides::unit_system_stride);
  }
}

// Singular systems (a zero column, a zero row), NaN in b and in a: the host path's codes.
template <class Algo, class Layout, class T, class Exec>
void check_reduction_info(const Exec& exec, strides kind) {
  const std::size_t nsys = 40, n = 30;
  auto p = bstest::random_dominant<T>(nsys, n, 11);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  auto zero_column = [&](std::size_t s, std::size_t j) {
    p.b[s * n + j] = T(0);
    if (j + 1 < n) p.a[s * n + j + 1] = T(0);
    if (j > 0) p.c[s * n + j - 1] = T(0);
  };
  zero_column(0, 0);
  zero_column(3, 12);
  zero_column(31, n - 1);
  p.a[32 * n + 5] = p.b[32 * n + 5] = p.c[32 * n + 5] = T(0);  // a zero row
  p.b[33 * n + 9] = nan;
  p.a[39 * n + 20] = nan;
  INFO(Algo::name << " " << Exec::name() << " " << bstest::layout_name<Layout>()
                  << " strides kind " << static_cast<int>(kind) << ", sizeof(T) = " << sizeof(T));
  std::vector<int> host_info, info;
  const auto y = host_reduction<Algo>(p, host_info);
  std::vector<int> expected(nsys, 0);
  expected[0] = 1, expected[3] = 13, expected[31] = int(n), expected[32] = 6, expected[33] = 10,
  expected[39] = 21;
  CHECK(host_info == expected);
  bool gaps = false;
  const auto x = device_reduction<Algo, Layout>(exec, p, kind, info, gaps);
  CHECK(info == host_info);
  CHECK(gaps);
  for (std::size_t s = 0; s < nsys; ++s)
    if (host_info[s] == 0) CHECK(bstest::rel_diff(x, y, n, s) <= bstest::reduction_tol<T>(n));
}

// Labels of the parallel_for kernels launched while a recorder is alive.
std::vector<std::string> recorded_kernels;
struct kernel_recorder {
  kernel_recorder() {
    recorded_kernels.clear();
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(
        [](const char* name, std::uint32_t, std::uint64_t*) { recorded_kernels.push_back(name); });
  }
  ~kernel_recorder() { Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr); }
  static bool saw(const std::string& label) {
    return std::find(recorded_kernels.begin(), recorded_kernels.end(), label) !=
           recorded_kernels.end();
  }
};

// Whatever the backend, the same messages: those of the host path.
template <class Algo>
void check_reduction_arguments() {
  using mem = Kokkos::DefaultExecutionSpace::memory_space;
  const Kokkos::DefaultExecutionSpace exec;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, mem>;
  using HV = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const V a("a", 5, 8), b("b", 5, 8), c("c", 5, 8), d("d", 5, 8), d7("d7", 5, 7);
  const HV ha("a", 5, 8), hb("b", 5, 8), hc("c", 5, 8), hd("d", 5, 8), hd7("d7", 5, 7);
  const auto info = bstest::make_info<mem>(5), info4 = bstest::make_info<mem>(4);
  const auto hinfo = bstest::make_info<Kokkos::HostSpace>(5);
  const auto hinfo4 = bstest::make_info<Kokkos::HostSpace>(4);
  const auto message = [](const auto& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  const std::string fn = std::string("bandsolve::solve(") + Algo::name + ")";
  using Catch::Matchers::StartsWith;
  const auto shape =
      message([&] { bandsolve::solve(exec, Algo{}, a, b, c, d7, info, device_tag{}); });
  CHECK_THAT(shape, StartsWith(fn));
  CHECK(shape == message([&] { bandsolve::solve(host_exec(), Algo{}, ha, hb, hc, hd7, hinfo); }));
  const auto count =
      message([&] { bandsolve::solve(exec, Algo{}, a, b, c, d, info4, device_tag{}); });
  CHECK_THAT(count, StartsWith(fn));
  CHECK(count == message([&] { bandsolve::solve(host_exec(), Algo{}, ha, hb, hc, hd, hinfo4); }));
  const auto overlap =
      message([&] { bandsolve::solve(exec, Algo{}, a, b, c, a, info, device_tag{}); });
  // (The addresses in the overlap message differ: compare what comes before them.)
  const auto head = [](const std::string& m) { return m.substr(0, m.find(" (")); };
  CHECK(head(overlap) == fn + ": d overlaps a in memory");
  CHECK(head(overlap) ==
        head(message([&] { bandsolve::solve(host_exec(), Algo{}, ha, hb, hc, ha, hinfo); })));
  // n = 0 writes info (every system solved).
  const V z("z", 5, 0);
  bandsolve::solve(exec, Algo{}, z, z, z, V("dz", 5, 0), info, device_tag{});
  CHECK(bstest::info_to_host(info) == std::vector<int>(5, 0));
}

}  // namespace

TEST_CASE("device PCR and CR: every layout against LAPACK and the host path",
          "[device][pcr]") {
  for_each_device_exec([](const auto& exec) {
    check_reduction_layouts<bandsolve::algo::pcr, double>(exec);
    check_reduction_layouts<bandsolve::algo::cr, double>(exec);
  });
  const Kokkos::DefaultExecutionSpace exec;
  check_reduction_layouts<bandsolve::algo::pcr, float>(exec);
  check_reduction_layouts<bandsolve::algo::cr, float>(exec);
}

TEST_CASE("device PCR and CR: rows in a buffer per call when over the level 1 limit",
          "[device][pcr]") {
  namespace dv = bandsolve::detail::device;
  const std::size_t kept = dv::device_row_scratch_max;
  dv::device_row_scratch_max = 4096;  // 4 KiB: n = 1001 then takes a slice of one buffer
  const Kokkos::DefaultExecutionSpace exec;
  const std::size_t nsys = 33, n = 1001;
  const auto p = bstest::random_dominant<double>(nsys, n, 3);
  const auto reference = bstest::reference_solve(p);
  std::vector<int> info;
  bool gaps = false;
  using bandsolve::algo::cr;
  using bandsolve::algo::pcr;
  const auto x = device_reduction<pcr, bl::row>(exec, p, strides::plain, info, gaps);
  CHECK(info == std::vector<int>(nsys, 0));
  const auto y = device_reduction<cr, bl::row>(exec, p, strides::plain, info, gaps);
  dv::device_row_scratch_max = kept;
  CHECK(info == std::vector<int>(nsys, 0));
  CHECK(bstest::max_rel_diff(x, reference, nsys, n) <= bstest::reduction_tol<double>(n));
  CHECK(bstest::max_rel_diff(y, reference, nsys, n) <= bstest::reduction_tol<double>(n));
}

TEST_CASE("device PCR and CR: info codes of singular and NaN systems as on the host",
          "[device][pcr]") {
  using bandsolve::algo::cr;
  using bandsolve::algo::pcr;
  for_each_device_exec([](const auto& exec) {
    check_reduction_info<pcr, bl::row, double>(exec, strides::plain);
    check_reduction_info<cr, bl::row, double>(exec, strides::plain);
    check_reduction_info<pcr, bl::interleaved<4>, double>(exec, strides::plain);
    check_reduction_info<cr, bl::strided, double>(exec, strides::neither_unit);
  });
  const Kokkos::DefaultExecutionSpace exec;
  check_reduction_info<pcr, bl::row, float>(exec, strides::plain);
  check_reduction_info<cr, bl::strided, float>(exec, strides::padded_rows);
}

TEST_CASE("device PCR and CR: argument checks throw as on the host", "[device][pcr]") {
  check_reduction_arguments<bandsolve::algo::pcr>();
  check_reduction_arguments<bandsolve::algo::cr>();
}

TEST_CASE("device PCR and CR: calls without a backend take the execution space's own",
          "[device][pcr]") {
  constexpr bool device_default =
      std::is_same_v<bandsolve::backend::default_for_t<Kokkos::DefaultExecutionSpace>, device_tag>;
  const auto p = bstest::random_dominant<double>(3, 40, 8);
  std::vector<int> info;
  {
    const kernel_recorder recorder;
    host_reduction<bandsolve::algo::pcr>(p, info);
    CHECK(kernel_recorder::saw("bandsolve::solve(pcr)"));
    CHECK_FALSE(kernel_recorder::saw("bandsolve::solve(pcr, device)"));
  }
  using mem = Kokkos::DefaultExecutionSpace::memory_space;
  auto a = store<bl::row, double, mem>(p.a, p.nsys, p.n, strides::plain);
  auto b = store<bl::row, double, mem>(p.b, p.nsys, p.n, strides::plain);
  auto c = store<bl::row, double, mem>(p.c, p.nsys, p.n, strides::plain);
  auto d = store<bl::row, double, mem>(p.d, p.nsys, p.n, strides::plain);
  auto inf = bstest::make_info<mem>(p.nsys);
  const kernel_recorder recorder;
  bandsolve::solve(Kokkos::DefaultExecutionSpace(), bandsolve::algo::cr{}, a.view, b.view,
                   c.view, d.view, inf);
  Kokkos::fence();
  CHECK(kernel_recorder::saw("bandsolve::solve(cr, device)") == device_default);
  CHECK(kernel_recorder::saw("bandsolve::solve(cr)") == !device_default);
  CHECK(bstest::info_to_host(inf) == std::vector<int>(p.nsys, 0));
  CHECK(bstest::max_rel_diff(fetch(d, p.nsys, p.n), bstest::reference_solve(p), p.nsys, p.n) <=
        bstest::reduction_tol<double>(p.n));
}

}  // namespace test_families_device
