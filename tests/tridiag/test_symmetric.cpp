// algo::symmetric (LDL^T of symmetric / Hermitian positive definite tridiagonal matrices) against
// LAPACK ?ptsv: one-shot and factored solves in every layout and strided Views, float, double,
// complex Hermitian and complex right-hand sides over real coefficients; info codes of indefinite,
// singular and non-finite systems; argument checks; one long system; long rows solved as scans;
// column runs; algo::automatic{true}; refactor (host and device backends).
//
// The register sweeps (row-layout double packs of 8 systems, n a multiple of 8) are switched on
// whatever the CPU, as in test_thomas_register_sweep.cpp: by default they are compiled only where
// AVX-512 is enabled, which the test builds are not. Float, partial packs, other n, strided Views
// and flagged pivots still take the gathered sweeps.
#define BANDSOLVE_REGISTER_SWEEPS 1
#include "column_runs.hpp"
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace test_symmetric {  // units compile in groups: tests/CMakeLists.txt

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

namespace {

namespace bl = bandsolve::layout;
using bandsolve::algo::symmetric;

template <class T>
using real_t = bandsolve::real_type_t<T>;

template <class T>
std::complex<real_t<T>> to_std(const T& x) {
  if constexpr (bandsolve::is_complex_v<T>)
    return {x.real(), x.imag()};
  else
    return {x, 0};
}
template <class T>
T from_std(const std::complex<real_t<T>>& x) {
  if constexpr (bandsolve::is_complex_v<T>)
    return T(x.real(), x.imag());
  else
    return x.real();
}

// A symmetric batch: diagonal b (real), off-diagonal e (C; e[n-1] is ignored), rhs d (D).
template <class C, class D = C>
struct sym_batch {
  using R = real_t<C>;
  std::size_t nsys = 0, n = 0;
  std::vector<R> b;
  std::vector<C> e;
  std::vector<D> d;
  sym_batch(std::size_t ns, std::size_t nn) : nsys(ns), n(nn), b(ns * nn), e(ns * nn), d(ns * nn) {}
};

template <class T>
T random_value(std::mt19937& g, bstest::uniform_real& u) {
  if constexpr (bandsolve::is_complex_v<T>)
    return T(static_cast<real_t<T>>(u(g)), static_cast<real_t<T>>(u(g)));
  else
    return static_cast<T>(u(g));
}

// Positive definite with a margin: e ~ U(-1, 1) (both parts), b_i = |e_{i-1}| + |e_i| + m_i,
// m_i ~ U(0.5, 1.5); e[n-1] holds a NaN, which the solvers must not read.
template <class C, class D = C>
sym_batch<C, D> random_spd(std::size_t nsys, std::size_t n, std::uint32_t seed) {
  using R = real_t<C>;
  sym_batch<C, D> p(nsys, n);
  std::mt19937 g(seed);
  bstest::uniform_real u(-1, 1), m(0.5, 1.5);
  for (std::size_t s = 0; s < nsys; ++s) {
    for (std::size_t i = 0; i < n; ++i) {
      p.e[s * n + i] = random_value<C>(g, u);
      p.d[s * n + i] = random_value<D>(g, u);
    }
    p.e[s * n + n - 1] = C(std::numeric_limits<R>::quiet_NaN());
    for (std::size_t i = 0; i < n; ++i) {
      const double left = i > 0 ? std::abs(to_std(p.e[s * n + i - 1])) : 0.0;
      const double right = i + 1 < n ? std::abs(to_std(p.e[s * n + i])) : 0.0;
      p.b[s * n + i] = static_cast<R>(left + right + m(g));
    }
  }
  return p;
}

// LAPACK ?ptsv on every system (rhs: p.d). Returns x; info gets LAPACK's codes.
template <class C, class D>
std::vector<D> lapack_ptsv(const sym_batch<C, D>& p, std::vector<int>& info) {
  using R = real_t<C>;
  using SC = std::complex<R>;
  std::vector<D> x(p.d);
  info.assign(p.nsys, 0);
  const int n = static_cast<int>(p.n), one = 1;
  for (std::size_t s = 0; s < p.nsys; ++s) {
    std::vector<R> dd(p.b.begin() + static_cast<std::ptrdiff_t>(s * p.n),
                      p.b.begin() + static_cast<std::ptrdiff_t>((s + 1) * p.n));
    if constexpr (!bandsolve::is_complex_v<C> && !bandsolve::is_complex_v<D>) {
      std::vector<R> e(p.n), rhs(p.n);
      for (std::size_t i = 0; i < p.n; ++i) e[i] = p.e[s * p.n + i], rhs[i] = x[s * p.n + i];
      if constexpr (sizeof(R) == 8) dptsv_(&n, &one, dd.data(), e.data(), rhs.data(), &n, &info[s]);
      else sptsv_(&n, &one, dd.data(), e.data(), rhs.data(), &n, &info[s]);
      for (std::size_t i = 0; i < p.n; ++i) x[s * p.n + i] = rhs[i];
    } else {
      // zptsv's e is the sub-diagonal of A = L D L^H: A(i+1, i) = e(i); here A(i, i+1) = e_i.
      std::vector<SC> e(p.n), rhs(p.n);
      for (std::size_t i = 0; i < p.n; ++i)
        e[i] = std::conj(to_std(p.e[s * p.n + i])), rhs[i] = to_std(x[s * p.n + i]);
      if constexpr (sizeof(R) == 8) zptsv_(&n, &one, dd.data(), e.data(), rhs.data(), &n, &info[s]);
      else cptsv_(&n, &one, dd.data(), e.data(), rhs.data(), &n, &info[s]);
      for (std::size_t i = 0; i < p.n; ++i) x[s * p.n + i] = from_std<D>(rhs[i]);
    }
  }
  return x;
}

// max over systems with info 0 of max_i |x_i - y_i| / max(||y||_inf, tiny).
template <class D>
double max_diff(const std::vector<D>& x, const std::vector<D>& y, std::size_t nsys, std::size_t n,
                const std::vector<int>& info) {
  double worst = 0;
  for (std::size_t s = 0; s < nsys; ++s) {
    if (info[s] != 0) continue;
    double diff = 0, norm = 1e-300;
    for (std::size_t i = 0; i < n; ++i) {
      const double dx = std::abs(std::complex<double>(to_std(x[s * n + i])) -
                                 std::complex<double>(to_std(y[s * n + i])));
      diff = std::isfinite(dx) ? std::max(diff, dx) : INFINITY;
      norm = std::max(norm, std::abs(std::complex<double>(to_std(y[s * n + i]))));
    }
    worst = std::max(worst, diff / norm);
  }
  return worst;
}

// Both solvers are backward stable on these matrices (cond_inf <= 2 / 0.5 * 2 = 8 for the margin);
// a few hundred eps bounds the forward difference for any n.
template <class C>
double tol() {
  return 400 * bstest::eps<real_t<C>>;
}

template <class Layout, class Exec, class T>
auto device_of(const std::vector<T>& h, std::size_t nsys, std::size_t n) {
  return bstest::to_device<Layout, T, typename Exec::memory_space>("v", h, nsys, n);
}

// One-shot, then factored (twice, the second time on other right-hand sides) against ?ptsv.
template <class Layout, class C, class D, class Exec>
void check_against_lapack(const Exec& exec, const sym_batch<C, D>& p, const std::string& what) {
  INFO(what << " " << bstest::layout_name<Layout>() << " nsys = " << p.nsys << " n = " << p.n
            << " " << exec.name());
  std::vector<int> ref_info;
  const auto ref = lapack_ptsv(p, ref_info);
  const auto b = device_of<Layout, Exec>(p.b, p.nsys, p.n);
  const auto e = device_of<Layout, Exec>(p.e, p.nsys, p.n);
  auto d = device_of<Layout, Exec>(p.d, p.nsys, p.n);
  auto info = bstest::make_info<typename Exec::memory_space>(p.nsys);
  bandsolve::solve(exec, symmetric{}, b, e, d, info);
  exec.fence();
  CHECK(bstest::info_to_host(info) == ref_info);
  CHECK(max_diff(bstest::to_host(d, p.nsys), ref, p.nsys, p.n, ref_info) <= tol<C>());

  const auto f = bandsolve::factorize(exec, symmetric{}, b, e, p.nsys);
  auto d2 = device_of<Layout, Exec>(p.d, p.nsys, p.n);
  f.solve(exec, d2);
  exec.fence();
  CHECK(bstest::info_to_host(f.info()) == ref_info);
  CHECK(max_diff(bstest::to_host(d2, p.nsys), ref, p.nsys, p.n, ref_info) <= tol<C>());
  auto q = p;
  for (auto& v : q.d) v = v * real_t<C>(-2) + D(real_t<C>(0.25));
  std::vector<int> info2;
  const auto ref2 = lapack_ptsv(q, info2);
  bstest::fill(d2, q.d, p.nsys);
  f.solve(exec, d2);
  exec.fence();
  CHECK(max_diff(bstest::to_host(d2, p.nsys), ref2, p.nsys, p.n, ref_info) <= tol<C>());
}

template <class Layout, class C, class D = C>
void check_shapes(std::uint32_t seed) {
  bstest::for_each_exec([&](auto exec) {
    for (std::size_t n : {1, 2, 3, 7, 64, 100, 300})
      for (std::size_t nsys : {1, 5, 37, 70})
        check_against_lapack<Layout>(exec, random_spd<C, D>(nsys, n, seed++), "random SPD");
  });
}

}  // namespace

TEMPLATE_TEST_CASE("symmetric matches ?ptsv in every layout, double and float",
                   "[symmetric]", bl::row, bl::column, bl::interleaved<8>, bl::interleaved<4>) {
  check_shapes<TestType, double>(1);
  check_shapes<TestType, float>(1000);
}

TEMPLATE_TEST_CASE("symmetric matches ?ptsv: Hermitian and complex right-hand sides",
                   "[symmetric][complex]", bl::row, bl::column, bl::interleaved<4>) {
  check_shapes<TestType, Kokkos::complex<double>>(2000);
  check_shapes<TestType, Kokkos::complex<float>>(3000);
  check_shapes<TestType, double, Kokkos::complex<double>>(4000);
}

TEST_CASE("symmetric: full register-swept packs and chains of several work items",
          "[symmetric]") {
  bstest::for_each_exec([&](auto exec) {
    for (std::size_t n : {8, 64, 256}) {
      check_against_lapack<bl::row>(exec, random_spd<double>(64, n, 77), "register packs");
      // Floats: tiles of 16 where n fills them (three tiles of 53 systems; five gathered).
      check_against_lapack<bl::row>(exec, random_spd<float>(53, n * 2, 81), "register tiles");
    }
    // Several full work items per chain (two in flight), then a partial one.
    check_against_lapack<bl::column>(exec, random_spd<double>(1000, 24, 78), "chains");
    check_against_lapack<bl::interleaved<8>>(exec, random_spd<double>(1000, 24, 79), "chains");
    check_against_lapack<bl::column>(exec, random_spd<float>(1000, 24, 80), "chains");
  });
}

// Indefinite systems (a negative diagonal entry at row k of some systems), singular ones (a zero
// pivot) and non-finite entries: info = k+1 as ?pttrf (NaN and Inf, which ?pttrf does not screen,
// likewise); the other systems are solved.
TEMPLATE_TEST_CASE("symmetric reports the first pivot that is not positive and finite",
                   "[symmetric][info]", bl::row, bl::column, bl::interleaved<8>) {
  using Layout = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    for (std::size_t n : {4, 64, 129}) {
      const std::size_t nsys = 67;
      auto p = random_spd<double>(nsys, n, 5);
      // Indefinite, checked against dptsv: rows 1, the middle and the last.
      p.b[3 * n + 0] = -1;
      p.b[10 * n + n / 2] = -3;
      p.b[20 * n + n - 1] = -0.5;
      p.b[21 * n + n / 2] = 0;  // exactly singular leading minor: b = 0 and e_{k-1} = 0
      p.e[21 * n + n / 2 - 1] = 0;
      check_against_lapack<Layout>(exec, p, "indefinite");

      auto q = random_spd<double>(nsys, n, 6);
      const double inf = std::numeric_limits<double>::infinity();
      q.b[2 * n + n - 1] = std::numeric_limits<double>::quiet_NaN();
      q.b[9 * n + 1] = inf;
      q.e[30 * n + n / 2 - 1] = inf;  // pivot n/2 becomes -inf
      const auto b = device_of<Layout, Exec>(q.b, nsys, n);
      const auto e = device_of<Layout, Exec>(q.e, nsys, n);
      auto d = device_of<Layout, Exec>(q.d, nsys, n);
      auto info = bstest::make_info<typename Exec::memory_space>(nsys);
      bandsolve::solve(exec, symmetric{}, b, e, d, info);
      const auto f = bandsolve::factorize(exec, symmetric{}, b, e, nsys);
      exec.fence();
      std::vector<int> expected(nsys, 0);
      expected[2] = static_cast<int>(n);
      expected[9] = 2;
      expected[30] = static_cast<int>(n / 2 + 1);
      INFO(bstest::layout_name<Layout>() << " n = " << n << " " << exec.name());
      CHECK(bstest::info_to_host(info) == expected);
      CHECK(bstest::info_to_host(f.info()) == expected);
    }
  });
}

// Near-singular: the 1-D Laplacian tridiag(-1, 2, -1) with its last diagonal entry 1 + 1e-9
// (the Neumann end, almost singular: cond ~ 1e9 n). Both solvers are backward stable, so the
// residuals are small though the solutions differ by up to cond * eps.
TEST_CASE("symmetric on near-singular positive definite systems", "[symmetric]") {
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    const std::size_t n = 50, nsys = 9;
    sym_batch<double> p(nsys, n);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        p.b[s * n + i] = i + 1 < n ? 2 : 1 + 1e-9;
        if (i == 0) p.b[s * n + i] = 1 + 1e-9 * static_cast<double>(s);  // a little different each
        p.e[s * n + i] = -1;
        p.d[s * n + i] = std::sin(static_cast<double>(s * n + i));
      }
    for (std::size_t s = 1; s < nsys; ++s) p.b[s * n] = 2;
    std::vector<int> ref_info;
    const auto ref = lapack_ptsv(p, ref_info);
    const auto b = device_of<bl::column, Exec>(p.b, nsys, n);
    const auto e = device_of<bl::column, Exec>(p.e, nsys, n);
    auto d = device_of<bl::column, Exec>(p.d, nsys, n);
    auto info = bstest::make_info<typename Exec::memory_space>(nsys);
    bandsolve::solve(exec, symmetric{}, b, e, d, info);
    exec.fence();
    CHECK(bstest::info_to_host(info) == ref_info);
    const auto x = bstest::to_host(d, nsys);
    for (std::size_t s = 0; s < nsys; ++s) {
      if (ref_info[s] != 0) continue;
      double r = 0, xn = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = s * n + i;
        double ax = p.b[k] * x[k] - p.d[k];
        if (i > 0) ax += p.e[k - 1] * x[k - 1];
        if (i + 1 < n) ax += p.e[k] * x[k + 1];
        r = std::max(r, std::abs(ax));
        xn = std::max(xn, std::abs(x[k]));
      }
      INFO("system " << s);
      CHECK(r / (4 * xn + 1) <= 64 * bstest::eps<double>);
      CHECK(max_diff(x, ref, nsys, n, ref_info) <= 1e9 * n * 1e3 * bstest::eps<double>);
    }
  });
}

// Strided Views: rows two apart (gathered), and unit system stride (lane rows) with a gap
// between rows; the elements between are NaN and must stay so.
TEST_CASE("symmetric on strided Views", "[symmetric][strided]") {
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Sub = Kokkos::View<double**, Kokkos::LayoutStride, Mem>;
    for (std::size_t n : {3, 64})
      for (std::size_t nsys : {5, 70}) {
        const auto p = random_spd<double>(nsys, n, 9);
        std::vector<int> ref_info;
        const auto ref = lapack_ptsv(p, ref_info);
        for (int kind = 0; kind < 2; ++kind) {
          INFO("n = " << n << " nsys = " << nsys << (kind ? " unit system stride" : " gathered")
                      << " " << exec.name());
          const Kokkos::LayoutStride shape =
              kind == 0 ? Kokkos::LayoutStride(nsys, 2 * n + 3, n, 2)
                        : Kokkos::LayoutStride(nsys, 1, n, nsys + 5);
          const std::size_t span = kind == 0 ? nsys * (2 * n + 3) : n * (nsys + 5);
          std::vector<Kokkos::View<double*, Mem>> store;
          std::vector<Sub> v;
          for (int k = 0; k < 3; ++k) {
            store.emplace_back("big", span);
            Kokkos::deep_copy(store.back(), std::numeric_limits<double>::quiet_NaN());
            v.emplace_back(store.back().data(), shape);
          }
          bstest::fill(v[0], p.b, nsys);
          bstest::fill(v[1], p.e, nsys);
          bstest::fill(v[2], p.d, nsys);
          auto info = bstest::make_info<Mem>(nsys);
          bandsolve::solve(exec, symmetric{}, v[0], v[1], v[2], info);
          exec.fence();
          CHECK(bstest::info_to_host(info) == ref_info);
          CHECK(max_diff(bstest::to_host(v[2], nsys), ref, nsys, n, ref_info) <= tol<double>());
          const auto f = bandsolve::factorize(exec, symmetric{}, v[0], v[1]);
          bstest::fill(v[2], p.d, nsys);
          f.solve(exec, v[2]);
          exec.fence();
          CHECK(max_diff(bstest::to_host(v[2], nsys), ref, nsys, n, ref_info) <= tol<double>());
          const auto raw = bstest::raw_copy(store[2]);
          std::size_t finite = 0;
          for (double x : raw) finite += std::isfinite(x) ? 1 : 0;
          CHECK(finite == nsys * n);
        }
      }
  });
}

TEST_CASE("symmetric: one long system, its storage and scratch", "[symmetric][scratch]") {
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    const std::size_t n = 100000;
    const auto p = random_spd<double>(1, n, 21);
    check_against_lapack<bl::row>(exec, p, "long");
    const auto b = device_of<bl::row, Exec>(p.b, 1, n);
    const auto e = device_of<bl::row, Exec>(p.e, 1, n);
    const auto f = bandsolve::factorize(exec, symmetric{}, b, e);
    CHECK(f.storage_bytes() == 2 * n * sizeof(double));
    // One row of n values per thread (below 1 MiB the scratch is Kokkos's team scratch, which
    // every thread holds), or two rows on fewer than two threads.
    const int threads = static_cast<int>(exec.concurrency());
    CHECK(bandsolve::solve_scratch_bytes<bl::row, double>(symmetric{}, n, 1, threads) <=
          static_cast<std::size_t>(std::max(threads, 2)) * (n * sizeof(double) + 64));
  });
}

// Column batches of many systems: the one-shot solve takes Thomas's runs of 2 KiB of every row
// (detail::symmetric_max_run_bytes), not its 8 KiB ones. Which shapes take them (through the
// scratch each holds), and every system of a dense batch and of a strided View of unit system
// stride (whose other systems stay untouched) against ?ptsv, with indefinite systems in the
// first and the last, partial run.
TEMPLATE_TEST_CASE("symmetric: column runs of 2 KiB for many systems", "[symmetric][column_runs]",
                   float, double) {
  using T = TestType;
  namespace bd = bandsolve::detail;
  constexpr int short_runs = bd::column_short_run_bytes;
  constexpr std::size_t lanes = short_runs / sizeof(T);
  const std::size_t long_below = bstest::short_runs_from_rows<T>;
  const int threads = 2;
  const std::size_t runs_nsys = (2 * threads + 1) * lanes + 5;
  // Short runs: c' rows of two runs per thread, as Thomas.
  const auto sym_scratch = [&](std::size_t n, std::size_t systems) {
    return bandsolve::solve_scratch_bytes<bl::column, T>(symmetric{}, n, systems, threads);
  };
  const auto thomas_scratch = [&](std::size_t n, std::size_t systems) {
    return bandsolve::solve_scratch_bytes<bl::column, T>(bandsolve::algo::thomas{}, n, systems,
                                                         threads);
  };
  using bandsolve::index_t;
  REQUIRE(bd::column_run_bytes<T, T>(static_cast<index_t>(runs_nsys),
                                     static_cast<index_t>(long_below), threads) == short_runs);
  CHECK(sym_scratch(long_below, runs_nsys) >= 2 * threads * long_below * std::size_t(short_runs));
  CHECK(sym_scratch(long_below, runs_nsys) == thomas_scratch(long_below, runs_nsys));
  // Where Thomas takes runs of 8 KiB the symmetric solve keeps its packs, with less scratch.
  const std::size_t wide = (2 * threads + 1) * (bd::column_long_run_bytes / sizeof(T));
  REQUIRE(bd::column_run_bytes<T, T>(static_cast<index_t>(wide), 256, threads) ==
          bd::column_long_run_bytes);
  CHECK(sym_scratch(256, wide) < thomas_scratch(256, wide));

  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    if (!bstest::runs_fill_threads_of(exec)) return;
    // Two runs per thread and a partial last run.
    const int t = exec.concurrency();
    const std::size_t n = long_below + 1, nsys = 2 * std::size_t(t) * lanes + 5;
    REQUIRE(bd::column_run_bytes<T, T>(static_cast<index_t>(nsys), static_cast<index_t>(n), t) ==
            short_runs);
    auto p = random_spd<T>(nsys, n, static_cast<std::uint32_t>(90 + n));
    p.b[1 * n + 0] = -1;                 // first run, row 1
    p.b[(nsys - 2) * n + n / 2] = -3;    // last, partial run
    p.b[(nsys - 1) * n + n - 1] = -0.5;  // last system, last row
    std::vector<int> ref_info;
    const auto ref = lapack_ptsv(p, ref_info);
    {
      INFO("dense column batch, " << exec.name());
      const auto b = device_of<bl::column, Exec>(p.b, nsys, n);
      const auto e = device_of<bl::column, Exec>(p.e, nsys, n);
      auto d = device_of<bl::column, Exec>(p.d, nsys, n);
      auto info = bstest::make_info<Mem>(nsys);
      bandsolve::solve(exec, symmetric{}, b, e, d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == ref_info);
      CHECK(max_diff(bstest::to_host(d, nsys), ref, nsys, n, ref_info) <= tol<T>());
    }

    INFO("strided, unit system stride, " << exec.name());
    using Big = Kokkos::View<T**, Kokkos::LayoutLeft, Mem>;
    using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
    const auto systems = std::make_pair(std::size_t(3), nsys + 3);
    Big B("B", nsys + 7, n), E("E", nsys + 7, n), D("D", nsys + 7, n);
    Kokkos::deep_copy(D, T(7));
    const auto sub = [&](const Big& big) {
      return Sub(Kokkos::subview(big, systems, Kokkos::ALL));
    };
    const Sub b = sub(B), e = sub(E), d = sub(D);
    bstest::fill(b, p.b, nsys);
    bstest::fill(e, p.e, nsys);
    bstest::fill(d, p.d, nsys);
    auto info = bstest::make_info<Mem>(nsys);
    bandsolve::solve(exec, symmetric{}, b, e, d, info);
    exec.fence();
    CHECK(bstest::info_to_host(info) == ref_info);
    CHECK(max_diff(bstest::to_host(d, nsys), ref, nsys, n, ref_info) <= tol<T>());
    auto h = Kokkos::create_mirror_view(D);
    Kokkos::deep_copy(h, D);
    std::size_t touched = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (const std::size_t s : {std::size_t(0), std::size_t(2), nsys + 3, nsys + 6})
        touched += h(s, i) != T(7);
    CHECK(touched == 0);
  });
}

// The scans of symmetric_scan_sweep.hpp against the row-by-row sweeps (y_i = d_i - c'_{i-1}
// y_{i-1}, z_i = r_i y_i, x_i = z_i - c'_i x_{i+1}) at every length around their blocks; c'_{n-1}
// NaN, which neither may read; guards after d stay untouched.
TEMPLATE_TEST_CASE("symmetric: the scans agree with the row-by-row sweeps at every length",
                   "[symmetric][scan]", float, double) {
  using T = TestType;
  if constexpr (!bandsolve::detail::thomas_scan_sweep_available) {
    SUCCEED("no vector extension in this build: the scans are not built");
  } else {
    constexpr bandsolve::index_t V = bandsolve::detail::scan_lanes_v<T>;
    std::mt19937 gen(43);
    std::uniform_real_distribution<double> u(-1.0, 1.0), m(0.25, 0.9);
    for (bandsolve::index_t n = 1; n <= 5 * V + 3; ++n) {
      INFO("n = " << n << ", " << V << " lanes");
      std::vector<T> r(n), cp(n), d(n + V), x(n);
      for (bandsolve::index_t i = 0; i < n; ++i) {
        r[i] = static_cast<T>(1.0 / (2.0 + u(gen)));
        cp[i] = static_cast<T>(m(gen) * (u(gen) < 0 ? -1 : 1));
        d[i] = x[i] = static_cast<T>(u(gen));
      }
      cp[n - 1] = std::numeric_limits<T>::quiet_NaN();
      for (bandsolve::index_t i = n; i < n + V; ++i) d[i] = T(7);
      bandsolve::detail::symmetric_scan_factored_solve<T>(n, r.data(), cp.data(), d.data());
      T y = x[0];
      x[0] = r[0] * y;
      for (bandsolve::index_t i = 1; i < n; ++i) {
        y = x[i] - cp[i - 1] * y;
        x[i] = r[i] * y;
      }
      for (bandsolve::index_t i = n - 2; i >= 0; --i) x[i] -= cp[i] * x[i + 1];
      double diff = 0, norm = 0;
      for (bandsolve::index_t i = 0; i < n; ++i) {
        const double dx = std::abs(double(d[i]) - double(x[i]));
        diff = std::isfinite(double(d[i])) ? std::max(diff, dx) : INFINITY;
        norm = std::max(norm, std::abs(double(x[i])));
      }
      CHECK(diff / norm <= 64 * bstest::eps<T>);
      for (bandsolve::index_t i = n; i < n + V; ++i) CHECK(d[i] == T(7));
    }
  }
}

// Real rows with unit stride from thomas_scan_min_rows rows factor one system per pack at any
// number of systems (2 n values per system) and solve as scans: row layout, strided rows (padded,
// unit row stride; d also without it, gathered), float and double, symmetric{} and
// automatic{true} against ?ptsv.
TEMPLATE_TEST_CASE("symmetric: long rows with unit stride solve as scans", "[symmetric][scan]",
                   float, double) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using F = bandsolve::symmetric_factorization<T, bl::row, Exec>;
    const bool scans = bandsolve::detail::thomas_scan_sweep_available;
    const std::size_t n = static_cast<std::size_t>(bandsolve::detail::thomas_scan_min_rows) + 3;
    const auto rows = static_cast<bandsolve::index_t>(n);
    CHECK((F::factor_pack_width(1000, rows, false) == 1) == scans);
    CHECK(F::factor_pack_width(1000, rows - 4, false) > 1);
    for (const std::size_t nsys : {std::size_t(1), std::size_t(3)}) {
      const auto p = random_spd<T>(nsys, n, static_cast<std::uint32_t>(50 + nsys));
      std::vector<int> ref_info;
      const auto ref = lapack_ptsv(p, ref_info);
      check_against_lapack<bl::row>(exec, p, "long rows");
      {
        INFO("automatic{true}, row layout, nsys = " << nsys << " " << exec.name());
        std::vector<T> a(nsys * n, T(0));
        for (std::size_t s = 0; s < nsys; ++s)
          for (std::size_t i = 1; i < n; ++i) a[s * n + i] = p.e[s * n + i - 1];
        const auto f = bandsolve::factorize(exec, bandsolve::algo::automatic{true},
                                            device_of<bl::row, Exec>(a, nsys, n),
                                            device_of<bl::row, Exec>(p.b, nsys, n),
                                            device_of<bl::row, Exec>(p.e, nsys, n));
        CHECK(f.symmetric());
        CHECK(f.storage_bytes() == 2 * nsys * n * sizeof(T));
        auto d = device_of<bl::row, Exec>(p.d, nsys, n);
        f.solve(exec, d);
        exec.fence();
        CHECK(max_diff(bstest::to_host(d, nsys), ref, nsys, n, ref_info) <= tol<T>());
      }
      using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
      using Big = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
      // Every other system of a row array, rows padded: unit row stride.
      const auto padded = [&](const char* name) -> Sub {
        return Kokkos::subview(Big(std::string(name), nsys, std::size_t(2), n + 2), Kokkos::ALL,
                               1, std::make_pair(std::size_t(1), n + 1));
      };
      const Sub b = padded("B"), e = padded("E");
      bstest::fill(b, p.b, nsys);
      bstest::fill(e, p.e, nsys);
      const auto f = bandsolve::factorize(exec, symmetric{}, b, e);
      CHECK(f.storage_bytes() == 2 * nsys * n * sizeof(T));
      for (const bool unit_d : {true, false}) {
        INFO("strided, d " << (unit_d ? "padded rows" : "every other value of a row")
                           << ", nsys = " << nsys << " " << exec.name());
        const Sub d = unit_d ? padded("D")
                             : Sub(Kokkos::subview(Big("D", nsys, n, std::size_t(2)), Kokkos::ALL,
                                                   Kokkos::ALL, 0));
        bstest::fill(d, p.d, nsys);
        f.solve(exec, d);
        exec.fence();
        CHECK(bstest::info_to_host(f.info()) == ref_info);
        CHECK(max_diff(bstest::to_host(d, nsys), ref, nsys, n, ref_info) <= tol<T>());
      }
    }
  });
}

// Gathered floats of more than 256 rows factor in packs of one tile of 16 systems (as Thomas's
// factorization, thomas_factor_pack_width): fewer systems than a tile one per pack, partial
// last packs; below 257 rows the wide pack of 64.
TEST_CASE("symmetric: gathered floats of long rows factor in packs of one tile",
          "[symmetric][scratch]") {
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    for (const std::size_t n : {256, 300, 320})  // 320: full tiles through the register sweeps
      for (const std::size_t nsys : {15, 20, 40, 65}) {
        INFO("n = " << n << " nsys = " << nsys);
        const auto p = random_spd<float>(nsys, n, static_cast<std::uint32_t>(31 * nsys + n));
        check_against_lapack<bl::row>(exec, p, "long rows");
        const auto b = device_of<bl::row, Exec>(p.b, nsys, n);
        const auto e = device_of<bl::row, Exec>(p.e, nsys, n);
        const auto f = bandsolve::factorize(exec, symmetric{}, b, e);
        // Tiles of 16 and packs of 64 on x86; the widths are the build's.
        using F = bandsolve::symmetric_factorization<float, bl::row, Exec>;
        const std::size_t tile = F::long_pack_width, wide = F::pack_width;
        const std::size_t width = F::has_long_packs && n > 256 ? (nsys < tile ? 1 : tile)
                                                               : (nsys < wide ? 1 : wide);
        CHECK(f.storage_bytes() == 2 * ((nsys + width - 1) / width) * width * n * sizeof(float));
      }
  });
}

TEST_CASE("symmetric argument checks", "[symmetric][checks]") {
  const Kokkos::Serial exec;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  V b("b", 4, 6), e("e", 4, 6), d("d", 4, 6), d5("d5", 4, 5);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", 4), info3("info3", 3);
  CHECK_THROWS_WITH(bandsolve::solve(exec, symmetric{}, b, e, d5, info),
                    Catch::Matchers::StartsWith("bandsolve::solve(symmetric): diag has 6 rows"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, symmetric{}, b, e, d, info3),
                    Catch::Matchers::StartsWith("bandsolve::solve(symmetric): info.extent(0) = 3"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, symmetric{}, b, d, d, info),
                    Catch::Matchers::StartsWith("bandsolve::solve(symmetric): d overlaps offdiag"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, symmetric{}, b, d5),
                    Catch::Matchers::StartsWith("bandsolve::factorize(symmetric): offdiag has 5"));
  const auto f = bandsolve::factorize(exec, symmetric{}, b, e);
  CHECK_THROWS_WITH(f.solve(exec, d5),
                    Catch::Matchers::StartsWith(
                        "bandsolve::symmetric_factorization::solve: d has 5 rows"));
  bandsolve::symmetric_factorization<double, bl::row, Kokkos::Serial> empty;
  CHECK_THROWS_AS(empty.solve(exec, d), std::invalid_argument);
}

// automatic{true} takes the symmetric path on (b, c) of a symmetric (a, b, c) batch; the general
// path stays correct on the same data; the (diag, offdiag) form solves as symmetric.
TEST_CASE("automatic on symmetric batches", "[symmetric][automatic]") {
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    const std::size_t n = 33, nsys = 300;
    const auto p = random_spd<double>(nsys, n, 31);
    std::vector<int> ref_info;
    const auto ref = lapack_ptsv(p, ref_info);
    std::vector<double> a(nsys * n, 0.0);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 1; i < n; ++i) a[s * n + i] = p.e[s * n + i - 1];
    const auto va = device_of<bl::column, Exec>(a, nsys, n);
    const auto vb = device_of<bl::column, Exec>(p.b, nsys, n);
    const auto vc = device_of<bl::column, Exec>(p.e, nsys, n);
    for (int mode = 0; mode < 3; ++mode) {
      INFO("mode " << mode << " " << exec.name());
      auto d = device_of<bl::column, Exec>(p.d, nsys, n);
      auto info = bstest::make_info<typename Exec::memory_space>(nsys);
      if (mode == 0) bandsolve::solve(exec, bandsolve::algo::automatic{true}, va, vb, vc, d, info);
      if (mode == 1) bandsolve::solve(exec, bandsolve::algo::automatic{}, va, vb, vc, d, info);
      if (mode == 2) bandsolve::solve(exec, bandsolve::algo::automatic{}, vb, vc, d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == ref_info);
      CHECK(max_diff(bstest::to_host(d, nsys), ref, nsys, n, ref_info) <= tol<double>());
    }
  });
}

// ---------------------------------------------------------------------------------------------
// solve_along(symmetric): every axis of 2-D, 3-D and 4-D arrays in LayoutRight, LayoutLeft and
// padded LayoutStride subviews (padding NaN, never read nor written), full and shared (rank-1)
// coefficients, n = 1, 2, 3 and odd n, against ?ptsv line by line; info codes of indefinite
// lines at the documented system numbers.

namespace {

using ext4 = std::array<std::size_t, 4>;

template <class T, int R>
struct nd_of;
template <class T>
struct nd_of<T, 2> {
  using type = T**;
};
template <class T>
struct nd_of<T, 3> {
  using type = T***;
};
template <class T>
struct nd_of<T, 4> {
  using type = T****;
};

enum class nd_kind { right, left, strided };

template <nd_kind K>
using nd_layout = std::conditional_t<K == nd_kind::right, Kokkos::LayoutRight,
                                     std::conditional_t<K == nd_kind::left, Kokkos::LayoutLeft,
                                                        Kokkos::LayoutStride>>;

// An array of extents e in kind K, inside a NaN-filled buffer: strided arrays are subviews
// [1, 1 + e_r) of a LayoutLeft array padded by 2 + r on every axis r.
template <class T, int R, nd_kind K>
struct nd_array {
  using view_type = Kokkos::View<typename nd_of<T, R>::type, nd_layout<K>, Kokkos::HostSpace>;
  using full_type = std::conditional_t<K == nd_kind::strided,
                                       Kokkos::View<typename nd_of<T, R>::type, Kokkos::LayoutLeft,
                                                    Kokkos::HostSpace>,
                                       view_type>;
  full_type full;
  view_type view;
  ext4 e{};

  explicit nd_array(const ext4& ext) : e(ext) {
    const std::size_t pad = K == nd_kind::strided ? 2 : 0;
    const auto p = [&](int r) { return e[static_cast<std::size_t>(r)] + (pad ? pad + r : 0); };
    if constexpr (R == 2) full = full_type("full", p(0), p(1));
    if constexpr (R == 3) full = full_type("full", p(0), p(1), p(2));
    if constexpr (R == 4) full = full_type("full", p(0), p(1), p(2), p(3));
    Kokkos::deep_copy(full, std::numeric_limits<T>::quiet_NaN());
    if constexpr (K == nd_kind::strided) {
      const auto rg = [&](int r) {
        return std::make_pair(std::size_t(1), 1 + e[static_cast<std::size_t>(r)]);
      };
      if constexpr (R == 2) view = Kokkos::subview(full, rg(0), rg(1));
      if constexpr (R == 3) view = Kokkos::subview(full, rg(0), rg(1), rg(2));
      if constexpr (R == 4) view = Kokkos::subview(full, rg(0), rg(1), rg(2), rg(3));
    } else {
      view = full;
    }
  }
  T& at(const ext4& i) const {
    if constexpr (R == 2) return view(i[0], i[1]);
    else if constexpr (R == 3) return view(i[0], i[1], i[2]);
    else return view(i[0], i[1], i[2], i[3]);
  }
  std::size_t nan_count() const {
    std::size_t c = 0;
    for (std::size_t k = 0; k < full.span(); ++k) c += std::isnan(full.data()[k]) ? 1 : 0;
    return c;
  }
};

// Row i of line s along `axis`: batch indices in axis order, last fastest.
template <int R>
ext4 along_index(const ext4& e, int axis, std::size_t s, std::size_t i) {
  ext4 idx{};
  for (int r = R - 1; r >= 0; --r) {
    if (r == axis) continue;
    idx[std::size_t(r)] = s % e[std::size_t(r)];
    s /= e[std::size_t(r)];
  }
  idx[std::size_t(axis)] = i;
  return idx;
}

// One shape, one axis: lines of a random SPD batch (indefinite rows given by `bad`: line, row)
// written into the arrays, solved (Device: through the device backend's kernels), compared with
// ?ptsv. Add: solve_along_add with d a View of const and u of kind KU (u0 = 0.25 + a ramp):
// x = u - u0, d unchanged, u's padding untouched.
template <class T, int R, nd_kind K, bool Shared, class Exec, bool Device = false,
          bool Add = false, nd_kind KU = K>
void check_along(const Exec& exec, const ext4& e, int axis,
                 const std::vector<std::pair<std::size_t, std::size_t>>& bad = {}) {
  nd_array<T, R, KU> u(e);
  const auto u0 = [](std::size_t s, std::size_t i) {
    return T(0.25) + T(0.001) * T((s + 3 * i) % 100);
  };
  const auto along = [&](const auto& b, const auto& off, const auto& d, const auto& info) {
    if constexpr (Add) {
      const typename std::remove_reference_t<decltype(d)>::const_type d_in = d;
      if constexpr (Device)
        bandsolve::solve_along_add(exec, symmetric{}, axis, b, off, d_in, u.view, info,
                                   bandsolve::backend::device{});
      else
        bandsolve::solve_along_add(exec, symmetric{}, axis, b, off, d_in, u.view, info);
    } else if constexpr (Device) {
      bandsolve::solve_along(exec, symmetric{}, axis, b, off, d, info,
                             bandsolve::backend::device{});
    } else {
      bandsolve::solve_along(exec, symmetric{}, axis, b, off, d, info);
    }
  };
  const std::size_t n = e[std::size_t(axis)];
  std::size_t nsys = 1;
  for (int r = 0; r < R; ++r)
    if (r != axis) nsys *= e[std::size_t(r)];
  INFO("rank " << R << " kind " << static_cast<int>(K) << (Shared ? " shared" : " full")
               << " extents " << e[0] << " " << e[1] << " " << e[2] << " " << e[3] << " axis "
               << axis << " sizeof(T) " << sizeof(T) << " " << exec.name()
               << (Device ? " device backend" : ""));
  auto p = random_spd<T>(nsys, n, static_cast<std::uint32_t>(n * 31 + nsys));
  if (Shared)  // one matrix for every line: the first line's
    for (std::size_t s = 1; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i)
        p.b[s * n + i] = p.b[i], p.e[s * n + i] = p.e[i];
  for (const auto& [s, i] : bad)
    for (std::size_t t = 0; t < nsys; ++t)
      if (Shared || t == s) p.b[t * n + i] = -1;
  std::vector<int> ref_info;
  const auto ref = lapack_ptsv(p, ref_info);

  nd_array<T, R, K> d(e);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      d.at(along_index<R>(e, axis, s, i)) = p.d[s * n + i];
      u.at(along_index<R>(e, axis, s, i)) = u0(s, i);
    }
  const std::size_t padding = d.nan_count(), u_padding = u.nan_count();
  Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
  if constexpr (Shared) {
    Kokkos::View<T*, Kokkos::HostSpace> b("b", n), off("e", n);
    for (std::size_t i = 0; i < n; ++i) b(i) = p.b[i], off(i) = p.e[i];
    along(b, off, d.view, info);
  } else {
    nd_array<T, R, K> b(e), off(e);
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        b.at(along_index<R>(e, axis, s, i)) = p.b[s * n + i];
        off.at(along_index<R>(e, axis, s, i)) = p.e[s * n + i];  // NaN at n - 1: not read
      }
    along(b.view, off.view, d.view, info);
  }
  exec.fence();
  std::vector<int> got(nsys);
  std::vector<T> x(nsys * n);
  std::size_t d_changed = 0;
  for (std::size_t s = 0; s < nsys; ++s) {
    got[s] = info(s);
    for (std::size_t i = 0; i < n; ++i) {
      const ext4 at = along_index<R>(e, axis, s, i);
      x[s * n + i] = Add ? u.at(at) - u0(s, i) : d.at(at);
      if (Add && !(d.at(at) == p.d[s * n + i])) ++d_changed;
    }
  }
  CHECK(got == ref_info);
  CHECK(max_diff(x, ref, nsys, n, ref_info) <= tol<T>());
  CHECK(d.nan_count() - padding == 0);
  CHECK(u.nan_count() - u_padding == 0);
  CHECK(d_changed == 0);
}

template <class T, int R, nd_kind K, bool Shared, bool Device = false>
void check_along_shapes(const std::vector<ext4>& shapes) {
  bstest::for_each_exec([&](auto exec) {
    for (const auto& e : shapes)
      for (int axis = 0; axis < R; ++axis)
        check_along<T, R, K, Shared, decltype(exec), Device>(exec, e, axis);
  });
}

template <class T, nd_kind K, bool Shared>
void check_along_ranks() {
  check_along_shapes<T, 2, K, Shared>({{3, 37}, {37, 2}, {1, 9}, {20, 7}, {64, 33}});
  check_along_shapes<T, 3, K, Shared>({{5, 3, 17}, {2, 9, 1}, {7, 16, 11}});
  check_along_shapes<T, 4, K, Shared>({{3, 4, 5, 6}, {2, 1, 7, 3}});
}

}  // namespace

TEST_CASE("solve_along(symmetric) matches ?ptsv along every axis, double", "[symmetric][axis]") {
  check_along_ranks<double, nd_kind::right, false>();
  check_along_ranks<double, nd_kind::left, false>();
  check_along_ranks<double, nd_kind::strided, false>();
  check_along_ranks<double, nd_kind::right, true>();
  check_along_ranks<double, nd_kind::left, true>();
  check_along_ranks<double, nd_kind::strided, true>();
}

TEST_CASE("solve_along(symmetric) matches ?sptsv along every axis, float", "[symmetric][axis]") {
  // {17, 3, 32}: float lines along the unit-stride axis in register tiles of 16 (three full).
  check_along_shapes<float, 3, nd_kind::right, false>({{5, 3, 17}, {7, 16, 11}, {17, 3, 32}});
  check_along_shapes<float, 3, nd_kind::strided, false>({{5, 3, 17}, {7, 16, 11}, {17, 3, 32}});
  check_along_shapes<float, 3, nd_kind::left, true>({{5, 3, 17}, {7, 16, 11}});
}

// The device backend's kernels on the host spaces: lines a thread each, lines in row tiles
// (unit-stride axis), rank-4 batch axes that fold and (strided) that do not.
#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("solve_along(symmetric) on the device backend matches ?ptsv along every axis",
          "[symmetric][axis][device]") {
  check_along_shapes<double, 2, nd_kind::right, false, true>({{3, 37}, {64, 33}});
  check_along_shapes<double, 3, nd_kind::left, false, true>({{5, 3, 17}, {7, 16, 11}});
  check_along_shapes<double, 3, nd_kind::strided, true, true>({{5, 3, 17}});
  check_along_shapes<double, 4, nd_kind::right, false, true>({{3, 4, 5, 6}});
  check_along_shapes<double, 4, nd_kind::strided, false, true>({{3, 4, 5, 6}, {2, 1, 7, 3}});
  check_along_shapes<float, 3, nd_kind::right, true, true>({{7, 16, 11}});
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    check_along<double, 3, nd_kind::right, false, Exec, true>(exec, {6, 9, 5, 0}, 1,
                                                              {{0, 0}, {7, 4}, {29, 8}});
    check_along<double, 3, nd_kind::left, true, Exec, true>(exec, {6, 9, 5, 0}, 2, {{0, 3}});
  });
}
#endif

// solve_along_add: u in d's kind and in another, full and shared coefficients, on both backends;
// lines that fill whole packs (64 doubles or 128 floats along the lane axis) and partial ones.
template <class T, nd_kind K, nd_kind KU, bool Shared, bool Device>
void check_along_add(const std::vector<ext4>& shapes) {
  bstest::for_each_exec([&](auto exec) {
    for (const auto& e : shapes)
      for (int axis = 0; axis < 3; ++axis)
        check_along<T, 3, K, Shared, decltype(exec), Device, true, KU>(exec, e, axis);
  });
}

TEST_CASE("solve_along_add(symmetric) adds ?ptsv's solution into u along every axis",
          "[symmetric][axis][add]") {
  const std::vector<ext4> shapes{{5, 3, 17}, {7, 16, 11}, {3, 4, 150}, {2, 150, 3}};
  check_along_add<double, nd_kind::right, nd_kind::right, false, false>(shapes);
  check_along_add<double, nd_kind::right, nd_kind::left, false, false>(shapes);
  check_along_add<double, nd_kind::strided, nd_kind::right, true, false>(shapes);
  check_along_add<double, nd_kind::left, nd_kind::left, true, false>(shapes);
  check_along_add<float, nd_kind::right, nd_kind::right, false, false>(shapes);
  check_along_add<float, nd_kind::left, nd_kind::strided, true, false>(shapes);
  check_along_add<double, nd_kind::right, nd_kind::left, false, true>({{5, 3, 17}, {7, 16, 11}});
  check_along_add<double, nd_kind::strided, nd_kind::right, true, true>({{5, 3, 17}});
  bstest::for_each_exec([&](auto exec) {  // indefinite lines keep their codes
    using Exec = decltype(exec);
    check_along<double, 3, nd_kind::right, false, Exec, false, true, nd_kind::left>(
        exec, {6, 9, 5, 0}, 1, {{0, 0}, {7, 4}, {29, 8}});
  });
}

// Many long lines along x of a contiguous LayoutRight cube: solve_along_add sweeps them in packs
// of one column run (8 KiB of every row from 256 rows, 2 KiB from 512 doubles or 2048 floats),
// the last of each lane row partial; indefinite lines keep their codes.
TEMPLATE_TEST_CASE("solve_along_add(symmetric) in column runs adds ?ptsv's solution into u",
                   "[symmetric][axis][add][column_runs]", float, double) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    if (!bstest::runs_fill_threads_of(exec)) return;
    // Floats of 2 KiB runs (2049 rows) left out: the doubles' 2 KiB code with twice the lanes
    // (test_axis.cpp solves such float lines one-shot).
    const std::size_t long_below = bstest::short_runs_from_rows<T>;
    for (const std::size_t n : {std::size_t(300), long_below + 1}) {
      if (n > long_below && sizeof(T) < 8) continue;
      const auto [runs, row] = bstest::lines_in_runs_of<T>(n, exec.concurrency());
      check_along<T, 3, nd_kind::right, false, Exec, false, true, nd_kind::right>(
          exec, {n, runs, row, 0}, 0, {{0, 0}, {row + 3, n / 2}, {runs * row - 1, n - 1}});
    }
  });
}

TEST_CASE("solve_along(symmetric) reports indefinite lines at their system numbers",
          "[symmetric][axis][info]") {
  bstest::for_each_exec([&](auto exec) {
    const ext4 e{6, 9, 5, 0};
    // Lines (system number, row): first row, middle, last.
    const std::vector<std::pair<std::size_t, std::size_t>> bad1{{0, 0}, {7, 4}, {29, 8}};
    check_along<double, 3, nd_kind::right, false>(exec, e, 1, bad1);
    check_along<double, 3, nd_kind::strided, false>(exec, e, 1, bad1);
    const std::vector<std::pair<std::size_t, std::size_t>> bad0{{3, 5}, {44, 2}};
    check_along<double, 3, nd_kind::left, false>(exec, e, 0, bad0);
    check_along<double, 3, nd_kind::left, true>(exec, e, 2, {{0, 3}});  // every line: row 4
  });
}

TEST_CASE("solve_along(symmetric) argument checks", "[symmetric][axis][checks]") {
  const Kokkos::Serial exec;
  using V3 = Kokkos::View<double***, Kokkos::HostSpace>;
  using V1 = Kokkos::View<double*, Kokkos::HostSpace>;
  const V3 b("b", 4, 5, 6), e("e", 4, 5, 6), d("d", 4, 5, 6), e2("e2", 4, 5, 7);
  Kokkos::View<int*, Kokkos::HostSpace> info("info", 24), info5("info5", 5);
  using Catch::Matchers::StartsWith;
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, symmetric{}, 3, b, e, d, info),
                    StartsWith("bandsolve::solve_along(symmetric): axis = 3 but d has rank 3"));
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, symmetric{}, 1, b, e, d, info5),
                    StartsWith("bandsolve::solve_along(symmetric): info.extent(0) = 5"));
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, symmetric{}, 1, b, e2, d, info),
                    StartsWith("bandsolve::solve_along(symmetric): offdiag.extent(2) = 7"));
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, symmetric{}, 1, b, d, d, info),
                    StartsWith("bandsolve::solve_along(symmetric): d overlaps offdiag"));
  CHECK_THROWS_WITH(bandsolve::solve_along(exec, symmetric{}, 1, V1("b", 5), V1("e", 4), d, info),
                    StartsWith("bandsolve::solve_along(symmetric): offdiag.extent(0) = 4"));
  const std::string add = "bandsolve::solve_along_add(symmetric): ";
  const V3 u("u", 4, 5, 6);
  CHECK_THROWS_WITH(bandsolve::solve_along_add(exec, symmetric{}, 1, b, e, d, e2, info),
                    StartsWith(add + "u.extent(2) = 7 but d.extent(2) = 6"));
  CHECK_THROWS_WITH(bandsolve::solve_along_add(exec, symmetric{}, 1, b, e, d, d, info),
                    StartsWith(add + "u overlaps d"));
  CHECK_THROWS_WITH(bandsolve::solve_along_add(exec, symmetric{}, 1, b, e, d, b, info),
                    StartsWith(add + "u overlaps diag"));
  CHECK_THROWS_WITH(bandsolve::solve_along_add(exec, symmetric{}, 1, b, e, d, u, info5),
                    StartsWith(add + "info.extent(0) = 5"));
}


// ---------------------------------------------------------------------------------------------
// refactor: new matrices factored into the factorization's own storage (a copy made before sees
// them), with the info codes and bitwise the solutions of a fresh factorization; refactoring back
// to the first matrices clears the code of an indefinite system.

namespace {

template <class Layout, class C, bool Device>
void check_refactor(std::uint32_t seed) {
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {2, 7}, {3, 9}, {17, 33}, {300, 65}, {5, 0}};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    const auto make = [&](const auto& b, const auto& e, std::size_t nsys) {
      if constexpr (Device)
        return bandsolve::factorize(exec, symmetric{}, b, e, nsys, bandsolve::backend::device{});
      else
        return bandsolve::factorize(exec, symmetric{}, b, e, nsys);
    };
    for (const auto& shape : shapes) {
      const std::size_t n = shape.first, nsys = shape.second;
      INFO(bstest::layout_name<Layout>() << " n = " << n << " nsys = " << nsys << " "
                                         << exec.name() << (Device ? " device" : ""));
      const auto p1 = random_spd<C>(nsys, n, seed++);
      auto p2 = random_spd<C>(nsys, n, seed++);
      std::vector<int> codes2(nsys, 0);
      if (nsys > 1) {
        p2.b[1 * n + n - 1] = -1;  // system 1's last pivot is negative
        codes2[1] = static_cast<int>(n);
      }
      const auto b1 = device_of<Layout, Exec>(p1.b, nsys, n);
      const auto e1 = device_of<Layout, Exec>(p1.e, nsys, n);
      const auto b2 = device_of<Layout, Exec>(p2.b, nsys, n);
      const auto e2 = device_of<Layout, Exec>(p2.e, nsys, n);
      auto f = make(b1, e1, nsys);
      const auto shared = f;  // shares f's storage
      const std::size_t bytes = f.storage_bytes();
      f.refactor(exec, b2, e2);
      const auto g = make(b2, e2, nsys);
      exec.fence();
      CHECK(shared.storage_bytes() == bytes);
      CHECK(bstest::info_to_host(shared.info()) == codes2);
      CHECK(bstest::info_to_host(g.info()) == codes2);
      auto d_shared = device_of<Layout, Exec>(p2.d, nsys, n);
      auto d_fresh = device_of<Layout, Exec>(p2.d, nsys, n);
      shared.solve(exec, d_shared);
      g.solve(exec, d_fresh);
      exec.fence();
      CHECK(bstest::bitwise_equal(bstest::to_host(d_shared, nsys), bstest::to_host(d_fresh, nsys)));
      // Back to the first matrices: the code cleared, ?ptsv's solution.
      f.refactor(exec, b1, e1);
      auto d1 = device_of<Layout, Exec>(p1.d, nsys, n);
      f.solve(exec, d1);
      exec.fence();
      std::vector<int> ref_info;
      const auto ref = lapack_ptsv(p1, ref_info);
      CHECK(ref_info == std::vector<int>(nsys, 0));
      CHECK(bstest::info_to_host(shared.info()) == ref_info);
      CHECK(max_diff(bstest::to_host(d1, nsys), ref, nsys, n, ref_info) <= tol<C>());
    }
  });
}

// Refused refactor calls name the values; the factorization keeps its first matrices.
template <class F, bool Device>
void check_refactor_errors(const std::string& fn) {
  using Catch::Matchers::Equals;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace exec;
  V b("b", 4, 9), e("e", 4, 9);
  Kokkos::deep_copy(b, 4.0);
  const auto f0 = [&] {
    if constexpr (Device)
      return bandsolve::factorize(exec, symmetric{}, b, e, bandsolve::backend::device{});
    else
      return bandsolve::factorize(exec, symmetric{}, b, e);
  }();
  F f = f0;
  V b8("b8", 4, 8), e8("e8", 4, 8), b5("b5", 5, 9), e5("e5", 5, 9);
  CHECK_THROWS_WITH(f.refactor(exec, b8, e8),
                    Equals(fn + ": diag has 8 rows but the factorization has 9"));
  CHECK_THROWS_WITH(f.refactor(exec, b5, e5),
                    Equals(fn + ": diag holds 5 systems but the factorization has 4"));
  CHECK_THROWS_WITH(f.refactor(exec, b, e8),
                    Catch::Matchers::StartsWith(fn + ": offdiag has 8 rows"));
  F empty;
  CHECK_THROWS_WITH(empty.refactor(exec, b, e),
                    Equals(fn + ": this factorization is empty (default-constructed)"));
  V d("d", 4, 9);
  Kokkos::deep_copy(d, 8.0);
  f.solve(exec, d);
  exec.fence();
  CHECK(d(3, 4) == 2.0);
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(4, 0));
}

}  // namespace

// Float rows of 300 are stored in packs of one tile, doubles in columns in narrow packs; the
// interleaved case is Hermitian.
TEMPLATE_TEST_CASE("symmetric refactor factors new matrices into the factorization's storage",
                   "[symmetric][factorize][refactor]", (std::tuple<bl::row, float>),
                   (std::tuple<bl::column, double>),
                   (std::tuple<bl::interleaved<4>, Kokkos::complex<double>>)) {
  using Layout = std::tuple_element_t<0, TestType>;
  using C = std::tuple_element_t<1, TestType>;
  check_refactor<Layout, C, false>(6000);
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  check_refactor<Layout, C, true>(7000);
#endif
}

// Factored from rows at unit stride (long rows: one system per pack), refactored from every other
// system of column arrays: refactor keeps the stored packs, which read rows of any stride.
TEST_CASE("symmetric refactor keeps the stored packs for Views of other strides",
          "[symmetric][factorize][refactor][strided]") {
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Sub = Kokkos::View<double**, Kokkos::LayoutStride, Mem>;
    for (const std::size_t n : {3, 300}) {
      const std::size_t nsys = 5;
      INFO("n = " << n << " " << exec.name());
      const auto p1 = random_spd<double>(nsys, n, 8000);
      const auto p2 = random_spd<double>(nsys, n, 8001);
      using Rows = Kokkos::View<double**, Kokkos::LayoutRight, Mem>;
      Rows rb("rb", nsys, n), re("re", nsys, n);
      bstest::fill(rb, p1.b, nsys);
      bstest::fill(re, p1.e, nsys);
      const auto whole = std::make_pair(std::size_t(0), nsys);
      const auto all_rows = std::make_pair(std::size_t(0), n);
      auto f = bandsolve::factorize(exec, symmetric{}, Sub(Kokkos::subview(rb, whole, all_rows)),
                                    Sub(Kokkos::subview(re, whole, all_rows)));
      using Big = Kokkos::View<double***, Kokkos::LayoutLeft, Mem>;
      Big B("B", 2, nsys, n), E("E", 2, nsys, n), D("D", 2, nsys, n);
      const Sub b(Kokkos::subview(B, 0, Kokkos::ALL, Kokkos::ALL)),
          e(Kokkos::subview(E, 0, Kokkos::ALL, Kokkos::ALL)),
          d(Kokkos::subview(D, 0, Kokkos::ALL, Kokkos::ALL));
      bstest::fill(b, p2.b, nsys);
      bstest::fill(e, p2.e, nsys);
      bstest::fill(d, p2.d, nsys);
      const std::size_t bytes = f.storage_bytes();
      f.refactor(exec, b, e);
      f.solve(exec, d);
      exec.fence();
      std::vector<int> ref_info;
      const auto ref = lapack_ptsv(p2, ref_info);
      CHECK(f.storage_bytes() == bytes);
      CHECK(bstest::info_to_host(f.info()) == ref_info);
      CHECK(max_diff(bstest::to_host(d, nsys), ref, nsys, n, ref_info) <= tol<double>());
    }
  });
}

TEST_CASE("symmetric refactor checks its arguments against what was factored",
          "[symmetric][refactor][errors]") {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  check_refactor_errors<bandsolve::symmetric_factorization<double, bl::row, Exec>, false>(
      "bandsolve::symmetric_factorization::refactor");
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  check_refactor_errors<bandsolve::symmetric_device_factorization<double, bl::row, Exec>, true>(
      "bandsolve::symmetric_device_factorization::refactor");
#endif
}

}  // namespace test_symmetric
