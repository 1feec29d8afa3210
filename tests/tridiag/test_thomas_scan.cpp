// Thomas's sweeps as linear scans across SIMD lanes (tridiag/thomas_scan_sweep.hpp): the kernel
// against the row-by-row sweep at every length around its blocks, and the factorizations that
// store one system per pack for it (long rows with unit stride at any number of systems, short
// rows of fewer systems than a pack) against LAPACK ?gtsv, in row layout and strided Views.
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace test_thomas_scan {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::tridiag_choice;

namespace {

// The row-by-row factored sweeps of thomas_factored_solve_lanes, one system.
template <class T>
void scalar_sweep(index_t n, const T* r, const T* lo, const T* cp, T* d) {
  d[0] = r[0] * d[0];
  for (index_t i = 1; i < n; ++i) d[i] = r[i] * d[i] - lo[i] * d[i - 1];
  for (index_t i = n - 2; i >= 0; --i) d[i] = d[i] - cp[i] * d[i + 1];
}

template <class T>
double max_rel(const std::vector<T>& x, const std::vector<T>& y, std::size_t n) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(double(x[i]))) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::abs(double(x[i]) - double(y[i])));
    norm = std::max(norm, std::abs(double(y[i])));
  }
  return diff / norm;
}

// Factors with thomas{} and automatic{}, checks the factor packs (one system each: 3 n nsys
// values) and the automatic pick, solves against LAPACK. (automatic{true}, which stores the
// symmetric factors, is tested on symmetric data in test_symmetric.cpp.)
template <class T, class Exec, class View>
void check_factored(const Exec& exec, const bstest::host_batch<T>& p, const View& a,
                    const View& b, const View& c, const View& d, bool one_per_pack) {
  bstest::fill(a, p.a, p.nsys);
  bstest::fill(b, p.b, p.nsys);
  bstest::fill(c, p.c, p.nsys);
  for (const bool automatic : {false, true}) {
    INFO((automatic ? "factorize(automatic)" : "factorize(thomas)"));
    bstest::fill(d, p.d, p.nsys);
    if (automatic) {
      const auto f = bandsolve::factorize(exec, bandsolve::algo::automatic{}, a, b, c);
      CHECK(f.choice() == tridiag_choice::thomas);
      CHECK_FALSE(f.symmetric());
      f.solve(exec, d);
      exec.fence();
      CHECK(bstest::info_to_host(f.info()) == std::vector<int>(p.nsys, 0));
    } else {
      const auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, a, b, c);
      if (one_per_pack) CHECK(f.storage_bytes() == 3 * p.nsys * p.n * sizeof(T));
      f.solve(exec, d);
      exec.fence();
      CHECK(bstest::info_to_host(f.info()) == std::vector<int>(p.nsys, 0));
    }
    CHECK(bstest::max_rel_diff(bstest::to_host(d, p.nsys), bstest::reference_solve(p), p.nsys,
                               p.n) <= bstest::lapack_tol<T>());
  }
}

}  // namespace

TEMPLATE_TEST_CASE("the scans agree with the row-by-row sweep at every length around a block",
                   "[thomas][scan]", float, double) {
  using T = TestType;
  if constexpr (!bandsolve::detail::thomas_scan_sweep_available) {
    SUCCEED("no vector extension in this build: the scans are not built");
  } else {
    constexpr index_t V = bandsolve::detail::scan_lanes_v<T>;
    std::mt19937 gen(41);
    std::uniform_real_distribution<double> u(-1.0, 1.0), m(0.25, 0.9);
    for (index_t n = 1; n <= 5 * V + 3; ++n) {
      INFO("n = " << n << ", " << V << " lanes");
      // Factors of a dominant matrix (|l|, |c'| < 1); l_0 = 0 as factorize stores it; c'_{n-1}
      // NaN, which neither sweep may read; guards after the right-hand side stay untouched.
      std::vector<T> r(n), lo(n), cp(n), d(n + V), x(n);
      for (index_t i = 0; i < n; ++i) {
        r[i] = static_cast<T>(1.0 / (2.0 + u(gen)));
        lo[i] = i == 0 ? T(0) : static_cast<T>(m(gen) * (u(gen) < 0 ? -1 : 1));
        cp[i] = static_cast<T>(m(gen) * u(gen));
        d[i] = x[i] = static_cast<T>(u(gen));
      }
      cp[n - 1] = std::numeric_limits<T>::quiet_NaN();
      for (index_t i = n; i < n + V; ++i) d[i] = T(7);
      bandsolve::detail::thomas_scan_factored_solve<T>(n, r.data(), lo.data(), cp.data(),
                                                       d.data());
      scalar_sweep<T>(n, r.data(), lo.data(), cp.data(), x.data());
      CHECK(max_rel(d, x, n) <= bstest::scaled_tol<T>(64.0, 1, 0));
      for (index_t i = n; i < n + V; ++i) CHECK(d[i] == T(7));
    }
  }
}

TEMPLATE_TEST_CASE("long rows with unit stride factor one system per pack at any batch size",
                   "[thomas][scan][factorize]", float, double) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    const bool scans = bandsolve::detail::thomas_scan_sweep_available;
    const std::size_t n = static_cast<std::size_t>(bandsolve::detail::thomas_scan_min_rows) + 3;
    std::uint32_t seed = 4100;
    for (const std::size_t nsys : {std::size_t(1), std::size_t(3)}) {
      const auto p = bstest::random_dominant<T>(nsys, n, seed++);
      INFO(bstest::exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys);
      {
        INFO("row layout");
        using V = Kokkos::View<T**, Kokkos::LayoutRight, Mem>;
        check_factored<T>(exec, p, V("a", nsys, n), V("b", nsys, n), V("c", nsys, n),
                          V("d", nsys, n), scans);
      }
      using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
      using Big = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
      {
        INFO("strided: every other system of a row array, rows padded (unit row stride)");
        auto sub = [&](const char* name) -> Sub {
          return Kokkos::subview(Big(std::string(name), nsys, std::size_t(2), n + 2), Kokkos::ALL, 1,
                                 std::make_pair(std::size_t(1), n + 1));
        };
        check_factored<T>(exec, p, sub("A"), sub("B"), sub("C"), sub("D"), scans);
      }
      {
        INFO("strided: every other value of a row (no unit stride: packs, not the scans)");
        auto sub = [&](const char* name) -> Sub {
          return Kokkos::subview(Big(std::string(name), nsys, n, std::size_t(2)), Kokkos::ALL, Kokkos::ALL, 0);
        };
        const Sub a = sub("A"), b = sub("B"), c = sub("C"), d = sub("D");
        bstest::fill(a, p.a, nsys);
        bstest::fill(b, p.b, nsys);
        bstest::fill(c, p.c, nsys);
        bstest::fill(d, p.d, nsys);
        const auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, a, b, c);
        f.solve(exec, d);
        exec.fence();
        CHECK(bstest::max_rel_diff(bstest::to_host(d, nsys), bstest::reference_solve(p), nsys,
                                   n) <= bstest::lapack_tol<T>());
      }
    }
    // The rule: from thomas_scan_min_rows rows Thomas at any number of systems; lane-contiguous
    // rows (strided systems side by side) keep the partition method for few systems.
    if (scans) {
      const std::size_t rows = static_cast<std::size_t>(bandsolve::detail::thomas_scan_min_rows);
      CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(1, rows, 2) == tridiag_choice::thomas);
      CHECK(bandsolve::choose_factored_tridiag<bl::strided, T>(3, rows, 2, false) ==
            tridiag_choice::thomas);
      CHECK(bandsolve::choose_factored_tridiag<bl::strided, T>(1, rows, 2, true) ==
            tridiag_choice::thomas_pcr);
      CHECK(bandsolve::choose_factored_tridiag<bl::row, T>(1, rows / 2, 2) ==
            tridiag_choice::thomas_pcr);
    }
  });
}

TEMPLATE_TEST_CASE("short rows of fewer systems than a pack go through the scans",
                   "[thomas][scan][factorize]", float, double) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using V = Kokkos::View<T**, Kokkos::LayoutRight, typename Exec::memory_space>;
    std::uint32_t seed = 4200;
    for (const std::size_t n : {16, 17, 100, 1001}) {
      for (const std::size_t nsys : {1, 2, 3}) {
        INFO(bstest::exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys);
        const auto p = bstest::random_dominant<T>(nsys, n, seed++);
        const V a("a", nsys, n), b("b", nsys, n), c("c", nsys, n), d("d", nsys, n);
        bstest::fill(a, p.a, nsys);
        bstest::fill(b, p.b, nsys);
        bstest::fill(c, p.c, nsys);
        bstest::fill(d, p.d, nsys);
        const auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, a, b, c);
        CHECK(f.storage_bytes() == 3 * nsys * n * sizeof(T));
        f.solve(exec, d);
        exec.fence();
        CHECK(bstest::max_rel_diff(bstest::to_host(d, nsys), bstest::reference_solve(p), nsys,
                                   n) <= bstest::lapack_tol<T>());
      }
    }
  });
}

}  // namespace test_thomas_scan
