// algo::symmetric (LDL^H of symmetric / Hermitian positive definite tridiagonal matrices) on the
// device backend: the kernels that run on GPUs, here on Kokkos::DefaultExecutionSpace
// (and Kokkos::Serial when that is a device). In a CUDA build the same file runs on the GPU.
// Compared with LAPACK ?ptsv and with the host symmetric solve (row layout, host space): n = 1,
// 2, 3, 17, 300; batches of 1, 31, 33 and 100 systems (not multiples of the 32-system tiles); row,
// column, interleaved<4> and three kinds of strided Views (padded rows, unit system stride,
// neither stride 1); float, double, complex Hermitian and real coefficients with complex
// right-hand sides; info codes of indefinite, singular, NaN and Inf pivots at known rows, as
// ?pttrf reports them; a factorization solved twice; argument checks; the default backend.
#include "device_support.hpp"

#include <bandsolve/tridiag/symmetric.hpp>

#include <catch2/catch_all.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

extern "C" {
void dptsv_(const int* n, const int* nrhs, double* d, double* e, double* b, const int* ldb,
            int* info);
void sptsv_(const int* n, const int* nrhs, float* d, float* e, float* b, const int* ldb,
            int* info);
void zptsv_(const int* n, const int* nrhs, double* d, std::complex<double>* e,
            std::complex<double>* b, const int* ldb, int* info);
void cptsv_(const int* n, const int* nrhs, float* d, std::complex<float>* e,
            std::complex<float>* b, const int* ldb, int* info);
}

namespace test_symmetric_device {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::algo::symmetric;

namespace {

using namespace devtest;

template <class T>
using real_t = bandsolve::real_type_t<T>;

// A batch in plain row order: diagonal b (real), off-diagonal e (e[n-1] NaN: never used), d.
template <class C, class D>
struct batch {
  std::size_t nsys = 0, n = 0;
  std::vector<real_t<C>> b;
  std::vector<C> e;
  std::vector<D> d;
};

// Positive definite with a margin: b_i = |e_{i-1}| + |e_i| + m, m ~ U(0.5, 1.5).
template <class C, class D>
batch<C, D> random_batch(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  using R = real_t<C>;
  batch<C, D> p{nsys, n, std::vector<R>(nsys * n), std::vector<C>(nsys * n),
                std::vector<D>(nsys * n)};
  std::mt19937 gen(seed);
  bstest::uniform_real m(0.5, 1.5);
  for (std::size_t k = 0; k < nsys * n; ++k) {
    p.e[k] = k % n + 1 == n ? C(std::numeric_limits<R>::quiet_NaN()) : random_scalar<C>(gen);
    p.d[k] = random_scalar<D>(gen);
  }
  for (std::size_t k = 0; k < nsys * n; ++k) {
    const std::size_t i = k % n;
    p.b[k] = static_cast<R>((i > 0 ? mag(p.e[k - 1]) : 0.0) + (i + 1 < n ? mag(p.e[k]) : 0.0) +
                            m(gen));
  }
  return p;
}

template <class T>
std::complex<real_t<T>> to_std(const T& x) {
  if constexpr (bandsolve::is_complex_v<T>)
    return {x.real(), x.imag()};
  else
    return {x, 0};
}

// LAPACK ?ptsv per system; info gets its codes.
template <class C, class D>
std::vector<D> lapack_ptsv(const batch<C, D>& p, const std::vector<D>& rhs, std::vector<int>& info) {
  using R = real_t<C>;
  using SC = std::complex<R>;
  std::vector<D> x(rhs);
  info.assign(p.nsys, 0);
  const int n = static_cast<int>(p.n), one = 1;
  for (std::size_t s = 0; s < p.nsys; ++s) {
    const auto at = [&](std::size_t i) { return s * p.n + i; };
    std::vector<R> dd(p.b.begin() + long(at(0)), p.b.begin() + long(at(p.n)));
    if constexpr (!bandsolve::is_complex_v<C> && !bandsolve::is_complex_v<D>) {
      std::vector<R> e(p.e.begin() + long(at(0)), p.e.begin() + long(at(p.n)));
      if constexpr (sizeof(R) == 8) dptsv_(&n, &one, dd.data(), e.data(), &x[at(0)], &n, &info[s]);
      else sptsv_(&n, &one, dd.data(), e.data(), &x[at(0)], &n, &info[s]);
    } else {
      // ?ptsv's e is the sub-diagonal of A = L D L^H: A(i+1, i) = e(i); here A(i, i+1) = e_i.
      std::vector<SC> e(p.n), r(p.n);
      for (std::size_t i = 0; i < p.n; ++i) e[i] = std::conj(to_std(p.e[at(i)])), r[i] = to_std(x[at(i)]);
      if constexpr (sizeof(R) == 8) zptsv_(&n, &one, dd.data(), e.data(), r.data(), &n, &info[s]);
      else cptsv_(&n, &one, dd.data(), e.data(), r.data(), &n, &info[s]);
      for (std::size_t i = 0; i < p.n; ++i) x[at(i)] = D(r[i].real(), r[i].imag());
    }
  }
  return x;
}

// The host symmetric solve (row layout, host space, the execution space's own backend).
template <class C, class D>
std::vector<D> host_symmetric(const batch<C, D>& p, const std::vector<D>& rhs,
                              std::vector<int>& info) {
  using mem = Kokkos::HostSpace;
  auto b = bstest::to_device<bl::row, real_t<C>, mem>("b", p.b, p.nsys, p.n);
  auto e = bstest::to_device<bl::row, C, mem>("e", p.e, p.nsys, p.n);
  auto d = bstest::to_device<bl::row, D, mem>("d", rhs, p.nsys, p.n);
  auto inf = bstest::make_info<mem>(p.nsys);
  bandsolve::solve(host_exec(), symmetric{}, b, e, d, inf);
  host_exec().fence();
  info = bstest::info_to_host(inf);
  return bstest::to_host(d, p.nsys);
}

// max over systems whose info is 0 of max_i |x_i - y_i| / max_i |y_i|.
template <class D>
double diff_solved(const std::vector<D>& x, const std::vector<D>& y, std::size_t nsys,
                   std::size_t n, const std::vector<int>& info) {
  double worst = 0;
  for (std::size_t s = 0; s < nsys; ++s)
    if (info[s] == 0) {
      const std::vector<D> xs(x.begin() + long(s * n), x.begin() + long((s + 1) * n));
      const std::vector<D> ys(y.begin() + long(s * n), y.begin() + long((s + 1) * n));
      worst = std::max(worst, max_rel_diff(xs, ys, 1, n));
    }
  return worst;
}

// ---------------------------------------------------------------------------------------------
// One batch through the one-shot and the factored device solves, against ?ptsv and the host.

template <class Layout, class C, class D, class Exec>
void check_batch(const Exec& exec, std::size_t nsys, std::size_t n, strides kind) {
  using mem = typename Exec::memory_space;
  using R = real_t<C>;
  const auto p = random_batch<C, D>(nsys, n, static_cast<std::uint32_t>(nsys * 7919 + n));
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                    << static_cast<int>(kind) << ", " << nsys << " systems of n = " << n
                    << ", sizeof(C) = " << sizeof(C) << ", sizeof(D) = " << sizeof(D));
  auto b = store<Layout, R, mem>(p.b, nsys, n, kind);
  auto e = store<Layout, C, mem>(p.e, nsys, n, kind);
  auto d = store<Layout, D, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, symmetric{}, b.view, e.view, d.view, info, device_tag{});
  exec.fence();
  bool gaps_intact = false;
  const auto x = fetch(d, nsys, n, &gaps_intact);
  CHECK(gaps_intact);
  const std::vector<int> ok(nsys, 0);
  CHECK(bstest::info_to_host(info) == ok);
  std::vector<int> host_info, ref_info;
  // Same arithmetic in another order of operations (SIMD, contractions): a few ulps of ||x||.
  CHECK(max_rel_diff(x, host_symmetric(p, p.d, host_info), nsys, n) <= 16 * eps_of<C>());
  CHECK(max_rel_diff(x, lapack_ptsv(p, p.d, ref_info), nsys, n) <= 160 * eps_of<C>());
  CHECK(ref_info == ok);

  auto f = bandsolve::factorize(exec, symmetric{}, b.view, e.view, nsys, device_tag{});
  static_assert(std::is_same_v<typename decltype(f)::scalar_type, C>);
  CHECK(f.nsys() == nsys);
  CHECK(f.n() == n);
  CHECK(f.storage_bytes() == ((nsys + 31) / 32) * 32 * n * (sizeof(R) + sizeof(C)));
  CHECK(bstest::info_to_host(f.info()) == ok);
  for (std::uint32_t round = 0; round < 2; ++round) {
    const auto q = random_batch<C, D>(nsys, n, 1000 + round);
    auto d2 = store<Layout, D, mem>(q.d, nsys, n, kind);
    f.solve(exec, d2.view);
    exec.fence();
    const auto x2 = fetch(d2, nsys, n, &gaps_intact);
    CHECK(gaps_intact);
    CHECK(max_rel_diff(x2, host_symmetric(p, q.d, host_info), nsys, n) <= 16 * eps_of<C>());
    CHECK(max_rel_diff(x2, lapack_ptsv(p, q.d, ref_info), nsys, n) <= 160 * eps_of<C>());
  }
}

template <class Layout, class C, class D, class Exec>
void check_sizes(const Exec& exec, strides kind = strides::plain) {
  for (std::size_t n : {1, 2, 3, 17})
    for (std::size_t nsys : {1, 31, 33, 100}) check_batch<Layout, C, D>(exec, nsys, n, kind);
  check_batch<Layout, C, D>(exec, 33, 300, kind);
}

template <class C, class D, class Exec>
void check_every_layout(const Exec& exec) {
  check_sizes<bl::row, C, D>(exec);
  check_sizes<bl::column, C, D>(exec);
  check_sizes<bl::interleaved<4>, C, D>(exec);
  check_sizes<bl::strided, C, D>(exec, strides::padded_rows);
  check_sizes<bl::strided, C, D>(exec, strides::unit_system_stride);
  check_sizes<bl::strided, C, D>(exec, strides::neither_unit);
}

}  // namespace

TEST_CASE("device symmetric: double in every layout against ?ptsv and the host path",
          "[device][symmetric]") {
  for_each_device_exec([](const auto& exec) { check_every_layout<double, double>(exec); });
}

TEST_CASE("device symmetric: float, Hermitian and complex right-hand sides in every layout",
          "[device][symmetric]") {
  const Kokkos::DefaultExecutionSpace exec;
  check_every_layout<float, float>(exec);
  check_every_layout<cplx<double>, cplx<double>>(exec);
  check_every_layout<double, cplx<double>>(exec);
  check_sizes<bl::row, cplx<float>, cplx<float>>(exec);
  check_sizes<bl::column, cplx<float>, cplx<float>>(exec);
}

// ---------------------------------------------------------------------------------------------
// Info codes: ?pttrf's (and the host path's) at the rows where the matrices were spoiled.

namespace {

template <class Layout, class C, class Exec>
void check_info(const Exec& exec, strides kind) {
  using mem = typename Exec::memory_space;
  using R = real_t<C>;
  const std::size_t nsys = 70, n = 40;
  auto p = random_batch<C, C>(nsys, n, 7);
  const R nan = std::numeric_limits<R>::quiet_NaN(), inf = std::numeric_limits<R>::infinity();
  std::vector<int> expected(nsys, 0);
  // System, row (0-based), what: 0 negative b (indefinite), 1 b = 0 and e_{i-1} = 0 (singular),
  // 2 NaN in b, 3 Inf in b, 4 Inf in e_{i-1} (the pivot is -Inf), 5 b so small that the
  // pivot is negative (|e_{i-1}|^2 / p_{i-1} exceeds it).
  const int spoil[][3] = {{0, 0, 0}, {1, 5, 1}, {31, 39, 2}, {32, 20, 3}, {33, 1, 4},
                          {64, 17, 5}, {69, 39, 0}};
  for (const auto& w : spoil) {
    const std::size_t k = std::size_t(w[0]) * n + std::size_t(w[1]);
    if (w[2] == 0) p.b[k] = R(-1);
    if (w[2] == 1) p.b[k] = R(0), p.e[k - 1] = C(0);
    if (w[2] == 2) p.b[k] = nan;
    if (w[2] == 3) p.b[k] = inf;
    if (w[2] == 4) p.e[k - 1] = C(inf);
    if (w[2] == 5) p.b[k] = R(1e-3), p.e[k - 1] = C(R(0.9));
    expected[std::size_t(w[0])] = w[1] + 1;
  }
  INFO(Exec::name() << " " << bstest::layout_name<Layout>() << " strides kind "
                    << static_cast<int>(kind) << ", sizeof(C) = " << sizeof(C));
  std::vector<int> host_info, ref_info;
  const auto y = host_symmetric(p, p.d, host_info);
  REQUIRE(host_info == expected);
  const auto ref = lapack_ptsv(p, p.d, ref_info);
  // ?pttrf screens pivots with <= 0 only: it agrees where the pivot is a finite number.
  for (std::size_t s = 0; s < nsys; ++s)
    if (expected[s] != 0 && s != 31 && s != 32 && s != 33) CHECK(ref_info[s] == expected[s]);

  auto b = store<Layout, R, mem>(p.b, nsys, n, kind);
  auto e = store<Layout, C, mem>(p.e, nsys, n, kind);
  auto d = store<Layout, C, mem>(p.d, nsys, n, kind);
  auto info = bstest::make_info<mem>(nsys);
  bandsolve::solve(exec, symmetric{}, b.view, e.view, d.view, info, device_tag{});
  CHECK(bstest::info_to_host(info) == expected);
  // Systems with good pivots are still solved.
  CHECK(diff_solved(fetch(d, nsys, n), y, nsys, n, expected) <= 16 * eps_of<C>());
  CHECK(diff_solved(fetch(d, nsys, n), ref, nsys, n, expected) <= 160 * eps_of<C>());

  auto f = bandsolve::factorize(exec, symmetric{}, b.view, e.view, nsys, device_tag{});
  CHECK(bstest::info_to_host(f.info()) == expected);
  auto d2 = store<Layout, C, mem>(p.d, nsys, n, kind);
  f.solve(exec, d2.view);
  CHECK(diff_solved(fetch(d2, nsys, n), y, nsys, n, expected) <= 16 * eps_of<C>());
}

}  // namespace

TEST_CASE("device symmetric: info codes of indefinite, singular, NaN and Inf pivots",
          "[device][symmetric]") {
  for_each_device_exec([](const auto& exec) {
    check_info<bl::row, double>(exec, strides::plain);
    check_info<bl::column, double>(exec, strides::plain);
    check_info<bl::interleaved<4>, double>(exec, strides::plain);
    check_info<bl::strided, double>(exec, strides::padded_rows);
    check_info<bl::strided, double>(exec, strides::neither_unit);
  });
  const Kokkos::DefaultExecutionSpace exec;
  check_info<bl::row, float>(exec, strides::plain);
  check_info<bl::column, cplx<double>>(exec, strides::plain);
  check_info<bl::row, cplx<float>>(exec, strides::plain);
}

TEST_CASE("device symmetric: argument checks throw as on the host", "[device][symmetric]") {
  using mem = Kokkos::DefaultExecutionSpace::memory_space;
  const Kokkos::DefaultExecutionSpace exec;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, mem>;
  const V b("b", 5, 8), e("e", 5, 8), d("d", 5, 8), d7("d7", 5, 7), d4("d4", 4, 8);
  const auto info = bstest::make_info<mem>(5);
  const auto info4 = bstest::make_info<mem>(4);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::solve(exec, symmetric{}, b, e, d7, info, device_tag{}),
                    StartsWith("bandsolve::solve(symmetric): diag has 8 rows"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, symmetric{}, b, e, d, info4, device_tag{}),
                    StartsWith("bandsolve::solve(symmetric): info.extent(0) = 4"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, symmetric{}, b, e, e, info, device_tag{}),
                    StartsWith("bandsolve::solve(symmetric): d overlaps offdiag"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, symmetric{}, b, d7, device_tag{}),
                    StartsWith("bandsolve::factorize(symmetric): offdiag has 7"));
  CHECK_THROWS_AS(bandsolve::factorize(exec, symmetric{}, b, e, 4, device_tag{}),
                  std::invalid_argument);
  const auto f = bandsolve::factorize(exec, symmetric{}, b, e, device_tag{});
  CHECK_THROWS_WITH(f.solve(exec, d7),
                    StartsWith("bandsolve::symmetric_factorization::solve: d has 7 rows"));
  CHECK_THROWS_AS(f.solve(exec, d4), std::invalid_argument);
  const decltype(f) empty;
  CHECK_THROWS_AS(empty.solve(exec, d), std::invalid_argument);
  // n = 0 writes info (every system solved); nsys = 0 does nothing.
  const V z("z", 5, 0);
  bandsolve::solve(exec, symmetric{}, z, z, V("dz", 5, 0), info, device_tag{});
  CHECK(bstest::info_to_host(info) == std::vector<int>(5, 0));
}

TEST_CASE("device symmetric: calls without a backend take the execution space's own",
          "[device][symmetric]") {
  // On a GPU that is the device backend; on host spaces the host one. Either way the
  // results agree with the explicit device backend.
  using exec_type = Kokkos::DefaultExecutionSpace;
  using mem = exec_type::memory_space;
  const exec_type exec;
  const std::size_t nsys = 33, n = 65;
  const auto p = random_batch<double, double>(nsys, n, 5);
  for (const strides kind : {strides::padded_rows, strides::unit_system_stride}) {
    auto b = store<bl::strided, double, mem>(p.b, nsys, n, kind);
    auto e = store<bl::strided, double, mem>(p.e, nsys, n, kind);
    auto d1 = store<bl::strided, double, mem>(p.d, nsys, n, kind);
    auto d2 = store<bl::strided, double, mem>(p.d, nsys, n, kind);
    auto info = bstest::make_info<mem>(nsys);
    bandsolve::solve(exec, symmetric{}, b.view, e.view, d1.view, info);
    bandsolve::solve(exec, symmetric{}, b.view, e.view, d2.view, info, device_tag{});
    CHECK(max_rel_diff(fetch(d1, nsys, n), fetch(d2, nsys, n), nsys, n) <= 16 * eps_of<double>());
    const auto f = bandsolve::factorize(exec, symmetric{}, b.view, e.view);
    auto d3 = store<bl::strided, double, mem>(p.d, nsys, n, kind);
    f.solve(exec, d3.view);
    CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
    std::vector<int> ref_info;
    CHECK(max_rel_diff(fetch(d3, nsys, n), lapack_ptsv(p, p.d, ref_info), nsys, n) <=
          160 * eps_of<double>());
  }
}

}  // namespace test_symmetric_device
