// Batched Thomas: one-shot solve and factorize/solve against LAPACK ?gtsv, residuals, a closed
// form, strided subviews, bad pivots, interleaved padding, ignored a[0]/c[n-1], untouched inputs.
// Every check runs for each layout x scalar type on the tests' host space
// (bstest::for_each_exec).
#include "test_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace test_thomas {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::algo::thomas;
using bstest::host_batch;

namespace {

// Layout x scalar combinations of the typed tests. The layouts' pack widths in the solver:
// row one-shot items of 8 (double) / 64 (float; 16 past 256 rows, and for n a multiple of 16
// where the register sweeps are built) gathered systems, 32 / 64 for
// the factorization; column blocks of 64 / 128 systems; interleaved<W> packs of W.
// Builds that change how doubles are packed (test_thomas_avx2_packing.cpp,
// test_thomas_register_sweep.cpp) define BSTEST_DOUBLES_ONLY: they rerun the cases those packs
// reach, row-layout and strided doubles, and leave the other combinations to this file's build.
#if defined(BSTEST_DOUBLES_ONLY)
using layout_scalar_list = std::tuple<std::tuple<bl::row, double>>;
#define BSTEST_SCALARS double
#else
using layout_scalar_list =
    std::tuple<std::tuple<bl::row, float>, std::tuple<bl::row, double>,
               std::tuple<bl::column, float>, std::tuple<bl::column, double>,
               std::tuple<bl::interleaved<1>, double>, std::tuple<bl::interleaved<4>, float>,
               std::tuple<bl::interleaved<4>, double>, std::tuple<bl::interleaved<8>, float>,
               std::tuple<bl::interleaved<8>, double>>;
#define BSTEST_SCALARS float, double
#endif

using bstest::device_batch;
using bstest::upload;
using bstest::exec_name;

std::vector<bool> failed_mask(const std::vector<int>& info) {
  std::vector<bool> m(info.size());
  for (std::size_t s = 0; s < info.size(); ++s) m[s] = info[s] != 0;
  return m;
}

// One-shot Thomas of p uploaded in Layout: the info codes and the solution, on the host.
template <class Layout, class Exec, class T>
std::pair<std::vector<int>, std::vector<T>> solve_on(const Exec& exec, const host_batch<T>& p) {
  auto D = upload<Layout, Exec>(p);
  auto info = bstest::make_info<typename Exec::memory_space>(p.nsys);
  bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
  exec.fence();
  return {bstest::info_to_host(info), bstest::to_host(D.d, p.nsys)};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Against LAPACK on random diagonally dominant batches.

TEMPLATE_LIST_TEST_CASE("thomas solve matches LAPACK gtsv on random diagonally dominant batches",
                        "[thomas][lapack]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::vector<std::size_t> ns = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 255, 1000};
  // nsys: 0, 1, not multiples of W = 4, 8 nor of the pack widths 8/16/32/64 (2, 7, 9, 17, 33,
  // 100), multiples of them (8, 64). n = 1, 2, 3 run with every nsys; every other n with four of
  // them, rotating so that each nsys meets several n, one of the four always >= 33 (several packs).
  const std::vector<std::size_t> nsys_all = {0, 1, 2, 7, 8, 9, 17, 33, 64, 100};
  auto nsys_for = [&](std::size_t k) -> std::vector<std::size_t> {
    if (ns[k] <= 3) return nsys_all;
    std::vector<std::size_t> v = {nsys_all[k % 10], nsys_all[(k + 3) % 10],
                                  nsys_all[(k + 6) % 10]};
    for (std::size_t big : {k % 2 ? 33 : 100, k % 2 ? 100 : 33, 64})
      if (std::find(v.begin(), v.end(), big) == v.end()) {
        v.push_back(big);
        break;
      }
    return v;
  };
  const double res_tol = bstest::residual_tol<T>(), cmp_tol = bstest::lapack_tol<T>();

  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    std::uint32_t seed = 1;
    double worst_res = 0, worst_cmp = 0;
    for (std::size_t k = 0; k < ns.size(); ++k) {
      const std::size_t n = ns[k];
      for (std::size_t nsys : nsys_for(k)) {
        INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", n = " << n
                                           << ", nsys = " << nsys << ", seed = " << seed);
        const auto p = bstest::random_dominant<T>(nsys, n, seed++);
        auto D = upload<Layout, Exec>(p);
        const auto a0 = bstest::raw_copy(D.a), b0 = bstest::raw_copy(D.b),
                   c0 = bstest::raw_copy(D.c);
        auto info = bstest::make_info<typename Exec::memory_space>(nsys);
        bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        const auto x = bstest::to_host(D.d, nsys);
        const auto ref = bstest::reference_solve(p);
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        const double res = bstest::max_residual(p, x);
        const double cmp = bstest::max_rel_diff(x, ref, nsys, n);
        CHECK(res <= res_tol);
        CHECK(cmp <= cmp_tol);
        worst_res = std::max(worst_res, res);
        worst_cmp = std::max(worst_cmp, cmp);
        // a, b and c are read only (padding lanes included).
        CHECK(bstest::bitwise_equal(bstest::raw_copy(D.a), a0));
        CHECK(bstest::bitwise_equal(bstest::raw_copy(D.b), b0));
        CHECK(bstest::bitwise_equal(bstest::raw_copy(D.c), c0));
      }
    }
    // How close the worst case came to the tolerances (shown on failure or with -s).
    UNSCOPED_INFO(bstest::layout_name<Layout>() << " " << exec_name<Exec>() << ": worst residual "
                                                << worst_res / bstest::eps<T> << " eps, worst "
                                                << "difference to LAPACK "
                                                << worst_cmp / bstest::eps<T> << " eps");
    CHECK(worst_res > 0);  // the measures see rounding at all (x is not trivially exact)
  });
}

// ---------------------------------------------------------------------------------------------
// Closed form: A = tridiag(-1, 2, -1) of size n.
//   d = (1, ..., 1)           -> x_i = (i+1)(n-i)/2
//   d = (0, ..., 0, n+1)      -> x_i = i + 1
//   d = (n+1, 0, ..., 0)      -> x_i = n - i
// All exact in binary for the n used. ||A||_inf = 4 and ||A^-1||_inf = (n+1)^2/8 (n odd; a bit
// less for n even), so cond_inf(A) <= (n+1)^2/2 and the forward error bound is cond * 12u =
// 6 (n+1)^2 u. The errors do grow like n^2 (measured: at most 0.075 n^2 u, n = 3..1000, float
// and double), so the check uses C (n+1)^2 u with C = 0.5 = cond_inf(A) / (n+1)^2 (one unit of
// backward error): 12x tighter than the proven bound, ~7x above the worst measured case.

namespace {

template <class T>
host_batch<T> laplacian_1d(std::size_t nsys, std::size_t n) {
  host_batch<T> p(nsys, n);
  for (std::size_t k = 0; k < nsys * n; ++k) {
    p.a[k] = T(-1);
    p.b[k] = T(2);
    p.c[k] = T(-1);
  }
  for (std::size_t s = 0; s < nsys; ++s) {
    p.a[p.idx(s, 0)] = T(0);
    p.c[p.idx(s, n - 1)] = T(0);
  }
  return p;
}

// The three right-hand sides above and their exact solutions, for every system.
template <class T>
void laplacian_rhs(std::size_t nsys, std::size_t n, int which, std::vector<T>& d,
                   std::vector<T>& x) {
  d.assign(nsys * n, T(0));
  x.assign(nsys * n, T(0));
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = s * n + i;
      if (which == 0) {
        d[k] = T(1);
        x[k] = T(double(i + 1) * double(n - i) / 2.0);
      } else if (which == 1) {
        d[k] = i + 1 == n ? T(n + 1) : T(0);
        x[k] = T(i + 1);
      } else {
        d[k] = i == 0 ? T(n + 1) : T(0);
        x[k] = T(n - i);
      }
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("thomas solves tridiag(-1, 2, -1) to its closed form", "[thomas][exact]",
                        layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  constexpr std::size_t nsys = 9;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    for (std::size_t n : {1, 2, 3, 5, 16, 17, 100, 1000}) {
      auto p = laplacian_1d<T>(nsys, n);
      auto D = upload<Layout, Exec>(p);
      auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, nsys);
      for (int which = 0; which < 3; ++which) {
        INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", n = " << n
                                           << ", rhs " << which);
        std::vector<T> d, exact;
        laplacian_rhs(nsys, n, which, d, exact);
        bstest::fill(D.d, d, nsys);
        auto d2 = bstest::to_device<Layout, T, typename Exec::memory_space>("d2", d, nsys, n);
        auto info = bstest::make_info<typename Exec::memory_space>(nsys);
        bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
        f.solve(exec, d2);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        const auto x = bstest::to_host(D.d, nsys), xf = bstest::to_host(d2, nsys);
        const double tol = bstest::scaled_tol<T>(0.5, n + 1, 2);
        CHECK(bstest::max_rel_diff(x, exact, nsys, n) <= tol);
        CHECK(bstest::max_rel_diff(xf, exact, nsys, n) <= tol);
        CHECK(bstest::max_residual(p, x, &d) <= bstest::residual_tol<T>());
      }
      exec.fence();
      CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Factorize once, solve many times.

TEMPLATE_LIST_TEST_CASE("factorized solves agree with one-shot solves for several right-hand sides",
                        "[thomas][factorize]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {2, 7}, {3, 9}, {17, 33}, {64, 17}, {100, 100}, {1000, 13}, {5, 0}};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 100;
    for (const auto& shape : shapes) {
      const std::size_t n = shape.first, nsys = shape.second;
      INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", n = " << n
                                         << ", nsys = " << nsys);
      auto p = bstest::random_dominant<T>(nsys, n, seed++);
      auto D = upload<Layout, Exec>(p);
      const auto a0 = bstest::raw_copy(D.a), b0 = bstest::raw_copy(D.b),
                 c0 = bstest::raw_copy(D.c);
      auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, nsys);
      exec.fence();
      CHECK(f.nsys() == nsys);
      CHECK(f.n() == n);
      REQUIRE(f.info().extent(0) == nsys);
      CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
      CHECK(bstest::bitwise_equal(bstest::raw_copy(D.a), a0));
      CHECK(bstest::bitwise_equal(bstest::raw_copy(D.b), b0));
      CHECK(bstest::bitwise_equal(bstest::raw_copy(D.c), c0));
      // One-shot solves need the coefficients; the factorization must not: garble a, b, c.
      auto Dkeep = upload<Layout, Exec>(p);
      Kokkos::deep_copy(D.a, std::numeric_limits<T>::quiet_NaN());
      Kokkos::deep_copy(D.b, std::numeric_limits<T>::quiet_NaN());
      Kokkos::deep_copy(D.c, std::numeric_limits<T>::quiet_NaN());
      for (int k = 0; k < 3; ++k) {
        INFO("right-hand side " << k);
        const auto rhs = bstest::random_rhs<T>(nsys, n, 1000u + seed * 3u + unsigned(k));
        auto df = bstest::to_device<Layout, T, Mem>("df", rhs, nsys, n);
        bstest::fill(Dkeep.d, rhs, nsys);
        auto info = bstest::make_info<Mem>(nsys);
        f.solve(exec, df);
        bandsolve::solve(exec, thomas{}, Dkeep.a, Dkeep.b, Dkeep.c, Dkeep.d, info);
        exec.fence();
        const auto xf = bstest::to_host(df, nsys), x1 = bstest::to_host(Dkeep.d, nsys);
        CHECK(bstest::max_rel_diff(xf, x1, nsys, n) <= bstest::factored_tol<T>());
        CHECK(bstest::max_residual(p, xf, &rhs) <= bstest::residual_tol<T>());
        const auto ref = bstest::reference_solve(p, &rhs);
        CHECK(bstest::max_rel_diff(xf, ref, nsys, n) <= bstest::lapack_tol<T>());
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Strided views: subviews of larger arrays. Every element outside the views is NaN: reading one
// would spoil a solution, writing one would replace the NaN.

namespace {

template <class T, class Exec, class Big, class Sub, class MakeSub>
void check_strided(const Exec& exec, std::size_t nsys, std::size_t n, std::uint32_t seed,
                   MakeSub&& make_sub, Big big_a, Big big_b, Big big_c, Big big_d) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (auto* v : {&big_a, &big_b, &big_c, &big_d}) Kokkos::deep_copy(*v, nan);
  Sub a = make_sub(big_a), b = make_sub(big_b), c = make_sub(big_c), d = make_sub(big_d);
  REQUIRE(bandsolve::capacity(d) == nsys);
  REQUIRE(bandsolve::rows(d) == n);
  const auto p = bstest::random_dominant<T>(nsys, n, seed);
  bstest::fill(a, p.a, nsys);
  bstest::fill(b, p.b, nsys);
  bstest::fill(c, p.c, nsys);
  bstest::fill(d, p.d, nsys);
  const auto big_a0 = bstest::raw_copy(big_a), big_b0 = bstest::raw_copy(big_b),
             big_c0 = bstest::raw_copy(big_c), big_d0 = bstest::raw_copy(big_d);
  auto info = bstest::make_info<typename Exec::memory_space>(nsys);
  bandsolve::solve(exec, thomas{}, a, b, c, d, info);
  exec.fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  const auto x = bstest::to_host(d, nsys);
  const auto ref = bstest::reference_solve(p);
  CHECK(bstest::max_rel_diff(x, ref, nsys, n) <= bstest::lapack_tol<T>());
  CHECK(bstest::max_residual(p, x) <= bstest::residual_tol<T>());
  CHECK(bstest::bitwise_equal(bstest::raw_copy(big_a), big_a0));
  CHECK(bstest::bitwise_equal(bstest::raw_copy(big_b), big_b0));
  CHECK(bstest::bitwise_equal(bstest::raw_copy(big_c), big_c0));
  // Outside d: still NaN, bit for bit; inside: the solution.
  const auto big_d1 = bstest::raw_copy(big_d);
  std::size_t changed_outside = 0, inside = 0;
  for (std::size_t k = 0; k < big_d1.size(); ++k) {
    const bool was_nan = std::isnan(big_d0[k]);
    if (!was_nan) {
      ++inside;
      continue;
    }
    if (std::memcmp(&big_d1[k], &big_d0[k], sizeof(T)) != 0) ++changed_outside;
  }
  CHECK(inside == nsys * n);
  CHECK(changed_outside == 0);

  // Factorization of the strided coefficients, solved into a strided d.
  auto f = bandsolve::factorize(exec, thomas{}, a, b, c);
  const auto rhs = bstest::random_rhs<T>(nsys, n, seed + 7);
  bstest::fill(d, rhs, nsys);
  f.solve(exec, d);
  exec.fence();
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
  const auto xf = bstest::to_host(d, nsys);
  CHECK(bstest::max_rel_diff(xf, bstest::reference_solve(p, &rhs), nsys, n) <=
        bstest::lapack_tol<T>());
  std::size_t changed_outside_f = 0;
  const auto big_d2 = bstest::raw_copy(big_d);
  for (std::size_t k = 0; k < big_d2.size(); ++k)
    if (std::isnan(big_d0[k]) && std::memcmp(&big_d2[k], &big_d0[k], sizeof(T)) != 0)
      ++changed_outside_f;
  CHECK(changed_outside_f == 0);

  // The factors do not depend on how d is strided: solve into unit-system-stride (lane rows) and
  // row-major (gathered) strided Views too.
  using Mem = typename Exec::memory_space;
  Kokkos::View<T**, Kokkos::LayoutLeft, Mem> dl("dl", nsys, n);
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> dr("dr", nsys, n);
  Sub dls = dl, drs = dr;
  bstest::fill(dls, rhs, nsys);
  bstest::fill(drs, rhs, nsys);
  f.solve(exec, dls);
  f.solve(exec, drs);
  exec.fence();
  CHECK(bstest::bitwise_equal(bstest::to_host(dls, nsys), xf));
  CHECK(bstest::bitwise_equal(bstest::to_host(drs, nsys), xf));
}

// Sets a library tuning variable for one test and restores it on the way out, failures included.
template <class T>
struct set_for_scope {
  T& target;
  T saved;
  set_for_scope(T& variable, T value) : target(variable), saved(variable) { variable = value; }
  ~set_for_scope() { target = saved; }
  set_for_scope(const set_for_scope&) = delete;
  set_for_scope& operator=(const set_for_scope&) = delete;
};

// check_strided on every other system of a row-major array whose rows are padded on both sides:
// big(s, k, j), slot k = 1 of pair s holds system s in rows j = 1..n.
template <class T, class Exec>
void check_padded_rows(const Exec& exec, std::size_t nsys, std::size_t n, std::uint32_t seed) {
  using Mem = typename Exec::memory_space;
  using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
  using Big = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
  auto make = [&](const Big& big) -> Sub {
    return Kokkos::subview(big, Kokkos::ALL, 1, std::make_pair(std::size_t(1), n + 1));
  };
  check_strided<T, Exec, Big, Sub>(exec, nsys, n, seed, make, Big("A", nsys, 2, n + 2),
                                   Big("B", nsys, 2, n + 2), Big("C", nsys, 2, n + 2),
                                   Big("D", nsys, 2, n + 2));
}

}  // namespace

TEMPLATE_TEST_CASE("thomas on strided subviews reads and writes only the view",
                   "[thomas][strided]", BSTEST_SCALARS) {
  using T = TestType;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {1, 9}, {2, 17}, {5, 33}, {17, 7}, {33, 70}, {100, 3}};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
    std::uint32_t seed = 500;
    for (const auto& shape : shapes) {
      const std::size_t n = shape.first, nsys = shape.second;
      {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys
                               << ": every other system of a row array, rows padded on both sides");
        check_padded_rows<T>(exec, nsys, n, seed++);
      }
      {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys
                               << ": every other system of a column array");
        using Big = Kokkos::View<T***, Kokkos::LayoutLeft, Mem>;
        auto make = [&](const Big& big) -> Sub {
          return Kokkos::subview(big, 0, Kokkos::ALL, Kokkos::ALL);
        };
        check_strided<T, Exec, Big, Sub>(exec, nsys, n, seed++, make, Big("A", 2, nsys, n),
                                         Big("B", 2, nsys, n), Big("C", 2, nsys, n),
                                         Big("D", 2, nsys, n));
      }
      {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys
                               << ": a range of systems and rows of a column array (unit system "
                                  "stride)");
        using Big = Kokkos::View<T**, Kokkos::LayoutLeft, Mem>;
        auto make = [&](const Big& big) -> Sub {
          return Kokkos::subview(big, std::make_pair(std::size_t(2), nsys + 2),
                                 std::make_pair(std::size_t(1), n + 1));
        };
        check_strided<T, Exec, Big, Sub>(exec, nsys, n, seed++, make, Big("A", nsys + 5, n + 3),
                                         Big("B", nsys + 5, n + 3), Big("C", nsys + 5, n + 3),
                                         Big("D", nsys + 5, n + 3));
      }
      {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys
                               << ": View<T**, LayoutStride> with explicit strides, gaps between "
                                  "systems");
        // System s at offset 3*s*(n+1), rows at unit stride.
        using Big = Kokkos::View<T*, Mem>;
        auto make = [&](const Big& big) -> Sub {
          return Sub(big.data(), Kokkos::LayoutStride(nsys, 3 * (n + 1), n, 1));
        };
        const std::size_t len = 3 * (n + 1) * nsys;
        check_strided<T, Exec, Big, Sub>(exec, nsys, n, seed++, make, Big("A", len),
                                         Big("B", len), Big("C", len), Big("D", len));
      }
    }
  });
}

// The factored solve of gathered packs (row layout, strided Views without unit system stride)
// takes systems whose d' rows outgrow its scratch limit in blocks (thomas.hpp,
// factored_gather_whole_bytes): with the limit at 0, systems of one block, of several with a
// partial last block, and a partial last pack, solved into row and strided Views whose
// surroundings must stay untouched, real and complex right-hand sides.
TEMPLATE_TEST_CASE("the factored solve of long gathered packs goes block by block",
                   "[thomas][factorize][strided]", BSTEST_SCALARS) {
  using T = TestType;
  const set_for_scope<std::size_t> limit(bandsolve::detail::factored_gather_whole_bytes, 0);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
    std::uint32_t seed = 2600;
    // Up to 256 rows a wide pack holds whole rows; longer real rows take tiles of 8 doubles or
    // 16 floats, whose blocks hold 1024 rows; complex values keep wide packs, blocks of 256 rows.
    for (const auto& shape : std::vector<std::pair<std::size_t, std::size_t>>{
             {200, 70}, {256, 33}, {257, 40}, {600, 65}, {1501, 70}}) {
      const std::size_t n = shape.first, nsys = shape.second;
      {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys << ": row layout");
        const auto p = bstest::random_dominant<T>(nsys, n, seed++);
        auto D = upload<bl::row, Exec>(p);
        auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c);
        f.solve(exec, D.d);
        exec.fence();
        CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
        CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), bstest::reference_solve(p), nsys,
                                   n) <= bstest::lapack_tol<T>());
        // Complex right-hand sides over the real factors: the real and imaginary parts solve
        // as two real right-hand sides.
        using Z = Kokkos::complex<T>;
        const auto im = bstest::random_rhs<T>(nsys, n, seed++);
        std::vector<Z> z(nsys * n);
        for (std::size_t k = 0; k < z.size(); ++k) z[k] = Z(p.d[k], im[k]);
        auto dz = bstest::to_device<bl::row, Z, Mem>("dz", z, nsys, n);
        f.solve(exec, dz);
        exec.fence();
        const auto xz = bstest::to_host(dz, nsys);
        const auto x_re = bstest::reference_solve(p), x_im = bstest::reference_solve(p, &im);
        std::vector<T> got_re(z.size()), got_im(z.size());
        for (std::size_t k = 0; k < z.size(); ++k) {
          got_re[k] = xz[k].real();
          got_im[k] = xz[k].imag();
        }
        CHECK(bstest::max_rel_diff(got_re, x_re, nsys, n) <= bstest::lapack_tol<T>());
        CHECK(bstest::max_rel_diff(got_im, x_im, nsys, n) <= bstest::lapack_tol<T>());
      }
      {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys
                               << ": every other system of a row array, rows padded");
        check_padded_rows<T>(exec, nsys, n, seed++);
      }
      {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys
                               << ": rows at stride 2, systems 2n + 3 apart");
        using Big = Kokkos::View<T*, Mem>;
        auto make = [&](const Big& big) -> Sub {
          return Sub(big.data(), Kokkos::LayoutStride(nsys, 2 * n + 3, n, 2));
        };
        const std::size_t len = (2 * n + 3) * nsys;
        check_strided<T, Exec, Big, Sub>(exec, nsys, n, seed++, make, Big("A", len),
                                         Big("B", len), Big("C", len), Big("D", len));
      }
    }
  });
}

// Gathered floats of more than 256 rows factor in packs of one tile of 16 systems, as the
// one-shot solve takes them (thomas_factorization::factor_pack_width), and doubles in tiles of 8
// where a wide pack would go block by block (here from 257 rows, with the whole-rows limit at
// 0): fewer systems than a tile one per pack, a tile, partial last packs, and batches between a
// tile and a wide pack, which store one system per pack below 256 rows; solved in row layout and
// in strided Views (check_strided solves the same factors into lane-contiguous and row-major
// Views too). Both choices of hosts with and without register tiles of doubles run on any host,
// and 64 rows, which no tile takes (wide packs in registers where the host takes no tiles).
TEMPLATE_TEST_CASE("factored gathered floats and doubles of long rows take packs of one tile",
                   "[thomas][factorize][strided]", float, double) {
  using T = TestType;
  const set_for_scope<std::size_t> limit(bandsolve::detail::factored_gather_whole_bytes, 0);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using F = bandsolve::thomas_factorization<T, bl::row, Exec>;
    std::uint32_t seed = 2700;
    for (const bool host_tiles : {false, true}) {
      const set_for_scope<bool> tiles_here(bandsolve::detail::register_double_tiles, host_tiles);
      for (const std::size_t n : {64, 256, 300}) {
        for (const std::size_t nsys : {15, 16, 20, 33, 64, 65}) {
          INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys
                                 << ", register tiles: " << host_tiles);
          // Tiles of 16 floats or 8 doubles on x86; the pack widths are the build's. Doubles take
          // tiles from 256 rows where the register sweeps are built (whether the host takes them
          // or not: the whole-rows limit is 0).
          const bool tile = F::has_long_packs &&
                            (n > 256 || (bandsolve::detail::has_register_double_tiles_v<T> &&
                                         n == 256));
          const std::size_t tile_width = F::long_pack_width, wide = F::pack_width;
          const std::size_t width = tile ? (nsys < tile_width ? 1 : tile_width)
                                         : (nsys < wide ? 1 : wide);
          const auto p = bstest::random_dominant<T>(nsys, n, seed++);
          auto D = upload<bl::row, Exec>(p);
          auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c);
          CHECK(f.storage_bytes() == 3 * ((nsys + width - 1) / width) * width * n * sizeof(T));
          f.solve(exec, D.d);
          exec.fence();
          CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
          CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), bstest::reference_solve(p), nsys,
                                     n) <= bstest::lapack_tol<T>());
          check_padded_rows<T>(exec, nsys, n, seed++);
        }
      }
    }
  });
}

// Unit-system-stride subviews starting 0 .. 2L-1 systems into a column array (L: the column
// block width): the blocks' runs at every offset from a block-sized boundary in memory, each
// solved, factored and checked for writes outside the View; info codes land on their systems.
TEMPLATE_TEST_CASE("thomas on column subviews starting at every offset from a block boundary",
                   "[thomas][strided]", BSTEST_SCALARS) {
  using T = TestType;
  constexpr std::size_t block = 128 * 4 / sizeof(T);  // twice the column block width
  const std::size_t n = 4, nsys = 150;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
    using Big = Kokkos::View<T**, Kokkos::LayoutLeft, Mem>;
    std::uint32_t seed = 900;
    for (std::size_t first = 0; first < block; ++first) {
      INFO(exec_name<Exec>() << ": systems start " << first << " into the column array");
      auto make = [&](const Big& big) -> Sub {
        return Kokkos::subview(big, std::make_pair(first, first + nsys),
                               std::make_pair(std::size_t(1), n + 1));
      };
      const std::size_t rows = nsys + block + 1;
      const Big A("A", rows, n + 2), B("B", rows, n + 2), C("C", rows, n + 2), D("D", rows, n + 2);
      check_strided<T, Exec, Big, Sub>(exec, nsys, n, seed++, make, A, B, C, D);
      // Info codes land on their systems: zero pivots in the first system (row 1), a middle one
      // (row 3) and the last (row 4).
      auto p = bstest::random_dominant<T>(nsys, n, seed++);
      const std::vector<int> expected = bstest::zero_pivots_first_middle_last(p);
      Sub a = make(A), b = make(B), c = make(C), d = make(D);
      bstest::fill(a, p.a, nsys);
      bstest::fill(b, p.b, nsys);
      bstest::fill(c, p.c, nsys);
      bstest::fill(d, p.d, nsys);
      auto info = bstest::make_info<Mem>(nsys);
      bandsolve::solve(exec, thomas{}, a, b, c, d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == expected);
      CHECK(bstest::max_rel_diff(bstest::to_host(d, nsys), bstest::reference_solve(p), nsys, n,
                                 failed_mask(expected)) <= bstest::lapack_tol<T>());
    }
  });
}

TEMPLATE_TEST_CASE("thomas on an array of structures: a, b, c, d interleaved in one array",
                   "[thomas][strided]", double) {
  // big(s, i, k), k = 0..3 holds a, b, c, d of row i of system s: four strided Views over one
  // allocation that share no element. The solve must accept them (d overlaps none of a, b, c).
  using T = TestType;
  constexpr std::size_t nsys = 9, n = 12;
  using Mem = Kokkos::HostSpace;
  using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
  Kokkos::View<T***, Kokkos::LayoutRight, Mem> big("big", nsys, n, 4);
  Sub a = Kokkos::subview(big, Kokkos::ALL, Kokkos::ALL, 0);
  Sub b = Kokkos::subview(big, Kokkos::ALL, Kokkos::ALL, 1);
  Sub c = Kokkos::subview(big, Kokkos::ALL, Kokkos::ALL, 2);
  Sub d = Kokkos::subview(big, Kokkos::ALL, Kokkos::ALL, 3);
  const auto p = bstest::random_dominant<T>(nsys, n, 4242);
  bstest::fill(a, p.a, nsys);
  bstest::fill(b, p.b, nsys);
  bstest::fill(c, p.c, nsys);
  bstest::fill(d, p.d, nsys);
  Kokkos::Serial exec;
  auto info = bstest::make_info(nsys);
  REQUIRE_NOTHROW(bandsolve::solve(exec, thomas{}, a, b, c, d, info));
  exec.fence();
  CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
  CHECK(bstest::max_rel_diff(bstest::to_host(d, nsys), bstest::reference_solve(p), nsys, n) <=
        bstest::lapack_tol<T>());
}

// ---------------------------------------------------------------------------------------------
// Bad pivots: reported per system; the other systems are still solved.

TEMPLATE_LIST_TEST_CASE("b[0] = 0 in system 3: info(3) = 1, every other system solved",
                        "[thomas][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  constexpr std::size_t nsys = 9, n = 6;
  auto p = bstest::random_dominant<T>(nsys, n, 31);
  p.b[p.idx(3, 0)] = T(0);
  std::vector<int> expected(nsys, 0);
  expected[3] = 1;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>());
    auto D = upload<Layout, Exec>(p);
    auto info = bstest::make_info<typename Exec::memory_space>(nsys);
    bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
    exec.fence();
    CHECK(bstest::info_to_host(info) == expected);
    CHECK(bandsolve::count_failed(info) == 1);
    CHECK_THROWS_WITH(bandsolve::throw_if_failed("solve", info),
                      Catch::Matchers::StartsWith("solve: system 3 of 9 failed: ") &&
                          Catch::Matchers::ContainsSubstring("(info = 1); 1 of 9 systems failed"));
    std::vector<bool> skip(nsys, false);
    skip[3] = true;
    const auto x = bstest::to_host(D.d, nsys);
    CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), nsys, n, skip) <=
          bstest::lapack_tol<T>());
  });
}

// Large batches go through chains of consecutive packs, two packs in flight (about 8 chains per
// thread, so at least 16 packs per chain here): every system, the last partial pack included,
// must match LAPACK and report its own info code.
TEMPLATE_LIST_TEST_CASE("long chains of packs: every system solved, every info code in place",
                        "[thomas][chain]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  for (const std::size_t n : {1, 2, 5, 18}) {
    // 4099 systems: 17 or more packs per chain for every pack width <= 128 on up to 2 threads,
    // and a last pack that is not full. Bad pivots in the first, a middle and the last system.
    constexpr std::size_t nsys = 4099;
    auto p = bstest::random_dominant<T>(nsys, n, static_cast<std::uint32_t>(7 + n));
    std::vector<int> expected(nsys, 0);
    for (const std::size_t s : {std::size_t(0), nsys / 2 + 3, nsys - 1}) {
      const std::size_t row = s % n;
      p.b[p.idx(s, row)] = T(0);
      if (row > 0) p.a[p.idx(s, row)] = T(0);  // keeps the pivot of that row exactly 0
      expected[s] = static_cast<int>(row + 1);
    }
    bstest::for_each_exec([&](auto exec) {
      using Exec = decltype(exec);
      INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", n = " << n);
      const auto [codes, x] = solve_on<Layout>(exec, p);
      CHECK(codes == expected);
      CHECK(bstest::max_rel_diff(x, bstest::reference_solve(p), nsys, n,
                                 failed_mask(expected)) <= bstest::lapack_tol<T>());
    });
  }
}

TEMPLATE_LIST_TEST_CASE("zero, tiny and non-finite pivots give the LAPACK-style info code",
                        "[thomas][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  constexpr std::size_t nsys = 13, n = 5;
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  auto p = bstest::random_dominant<T>(nsys, n, 42);
  std::vector<int> expected(nsys, 0);
  auto set = [&](std::size_t s, std::size_t i, T a, T b, T c) {
    p.a[p.idx(s, i)] = a;
    p.b[p.idx(s, i)] = b;
    p.c[p.idx(s, i)] = c;
  };
  // System 3: b[0] = 0 -> info 1.
  p.b[p.idx(3, 0)] = T(0);
  expected[3] = 1;
  // System 5: pivots 2, 2.5 - 1 * 0.5 = 2, 3 - 3 * (2 / 2) = 0 exactly -> info 3.
  set(5, 0, T(0), T(2), T(1));
  set(5, 1, T(1), T(2.5), T(2));
  set(5, 2, T(3), T(3), T(0.5));
  expected[5] = 3;
  // System 0: a subnormal first pivot (1 / pivot overflows) -> info 1.
  p.b[p.idx(0, 0)] = std::numeric_limits<T>::denorm_min();
  expected[0] = 1;
  // System 8: NaN diagonal at row 4 (0-based) -> info 5.
  p.b[p.idx(8, 4)] = nan;
  expected[8] = 5;
  // System 9: infinite a[1] with c'[0] = 0.5 / 2 -> infinite pivot at row 1 -> info 2.
  set(9, 0, T(0), T(2), T(0.5));
  p.a[p.idx(9, 1)] = inf;
  expected[9] = 2;
  // System 10: NaN c[1] -> c'[1] = NaN -> NaN pivot at row 2 -> info 3.
  p.c[p.idx(10, 1)] = nan;
  expected[10] = 3;
  // System 12 (the last, in a partial pack for every layout but interleaved<1>): +inf on the
  // diagonal of the last row -> info 5.
  p.b[p.idx(12, 4)] = inf;
  expected[12] = 5;
  const auto failed = failed_mask(expected);

  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>());
    auto D = upload<Layout, Exec>(p);
    auto info = bstest::make_info<Mem>(nsys);
    auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, nsys);
    auto df = bstest::to_device<Layout, T, Mem>("df", p.d, nsys, n);
    f.solve(exec, df);
    bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
    exec.fence();
    CHECK(bstest::info_to_host(info) == expected);
    CHECK(bstest::info_to_host(f.info()) == expected);
    CHECK(bandsolve::count_failed(info) == 7);
    const auto ref = bstest::reference_solve(p);
    const auto x = bstest::to_host(D.d, nsys), xf = bstest::to_host(df, nsys);
    CHECK(bstest::max_rel_diff(x, ref, nsys, n, failed) <= bstest::lapack_tol<T>());
    CHECK(bstest::max_rel_diff(xf, ref, nsys, n, failed) <= bstest::lapack_tol<T>());
    CHECK(bstest::max_residual(p, x, nullptr, failed) <= bstest::residual_tol<T>());
  });
}

TEMPLATE_LIST_TEST_CASE("the singular 2x2 [[1, 1], [1, 1]] has a zero pivot at row 2",
                        "[thomas][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  constexpr std::size_t nsys = 4, n = 2;
  auto p = bstest::random_dominant<T>(nsys, n, 3);
  p.b[p.idx(1, 0)] = T(1);
  p.c[p.idx(1, 0)] = T(1);
  p.a[p.idx(1, 1)] = T(1);
  p.b[p.idx(1, 1)] = T(1);
  const std::vector<int> expected = {0, 2, 0, 0};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>());
    const auto [codes, x] = solve_on<Layout>(exec, p);
    CHECK(codes == expected);
    std::vector<int> lapack_info;
    const auto ref = bstest::reference_solve(p, nullptr, &lapack_info);
    CHECK(lapack_info == expected);  // LAPACK agrees on the code
    CHECK(bstest::max_rel_diff(x, ref, nsys, n, failed_mask(expected)) <=
          bstest::lapack_tol<T>());
  });
}

// ---------------------------------------------------------------------------------------------
// Interleaved padding lanes.

TEMPLATE_TEST_CASE("interleaved packs with padding lanes: 13 systems report 13 info codes",
                   "[thomas][interleaved]", BSTEST_SCALARS) {
  using T = TestType;
  constexpr std::size_t nsys = 13;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    for (std::size_t n : {1, 5, 64}) {
      auto p = bstest::random_dominant<T>(nsys, n, 77 + std::uint32_t(n));
      const auto ref = bstest::reference_solve(p);
      auto run = [&](auto layout_tag, bool nan_padding) {
        using Layout = decltype(layout_tag);
        INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", n = " << n
                                           << (nan_padding ? ", NaN padding" : ", zero padding"));
        auto D = upload<Layout, Exec>(p);
        REQUIRE(bandsolve::capacity(D.d) == 16);
        if (nan_padding) {
          // Padding lanes may hold anything: lanes are independent systems.
          std::vector<T> all(16 * n, std::numeric_limits<T>::quiet_NaN());
          for (auto* v : {&D.a, &D.b, &D.c, &D.d}) {
            auto h = bstest::to_host(*v, nsys);
            std::copy(h.begin(), h.end(), all.begin());
            bstest::fill(*v, all, 16);
          }
        }
        // info for 13 systems, inside a larger array whose tail must stay untouched.
        Kokkos::View<int*, Mem> info_big("info_big", 16);
        Kokkos::deep_copy(info_big, -99);
        auto info = Kokkos::subview(info_big, std::make_pair(0, 13));
        bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
        auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, nsys);
        auto df = bstest::to_device<Layout, T, Mem>("df", p.d, nsys, n);
        f.solve(exec, df);
        exec.fence();
        std::vector<int> expected(16, 0);
        expected[13] = expected[14] = expected[15] = -99;
        CHECK(bstest::info_to_host(info_big) == expected);
        CHECK(f.info().extent(0) == nsys);
        CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
        const auto x = bstest::to_host(D.d, nsys), xf = bstest::to_host(df, nsys);
        CHECK(bstest::max_rel_diff(x, ref, nsys, n) <= bstest::lapack_tol<T>());
        CHECK(bstest::max_rel_diff(xf, ref, nsys, n) <= bstest::lapack_tol<T>());
      };
      run(bl::interleaved<8>{}, false);
      run(bl::interleaved<8>{}, true);
      run(bl::interleaved<4>{}, false);
      run(bl::interleaved<4>{}, true);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// a[0] and c[n-1] are ignored.

TEMPLATE_LIST_TEST_CASE("thomas: a[0] and c[n-1] are ignored, even when NaN",
                        "[thomas][edges]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  constexpr std::size_t nsys = 9;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    for (std::size_t n : {1, 2, 17}) {
      INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", n = " << n);
      auto p = bstest::random_dominant<T>(nsys, n, 900 + std::uint32_t(n));
      const auto ref = bstest::reference_solve(p);  // LAPACK never sees a[0], c[n-1]
      for (std::size_t s = 0; s < nsys; ++s) {
        p.a[p.idx(s, 0)] = nan;
        p.c[p.idx(s, n - 1)] = nan;
      }
      auto D = upload<Layout, Exec>(p);
      auto info = bstest::make_info<Mem>(nsys);
      auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, nsys);
      auto df = bstest::to_device<Layout, T, Mem>("df", p.d, nsys, n);
      f.solve(exec, df);
      bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
      CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
      const auto x = bstest::to_host(D.d, nsys), xf = bstest::to_host(df, nsys);
      CHECK(bstest::max_rel_diff(x, ref, nsys, n) <= bstest::lapack_tol<T>());
      CHECK(bstest::max_rel_diff(xf, ref, nsys, n) <= bstest::lapack_tol<T>());
      CHECK(bstest::max_residual(p, x) <= bstest::residual_tol<T>());
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Scaling. Multiplying row i (a_i, b_i, c_i, d_i) by s_i leaves x unchanged and scales the pivot
// p_i by s_i. Row-layout doubles sweep four rows per step through products of four pivots, which
// overflow (or underflow) for pivots beyond about 1e+-77; those systems must be recomputed row by
// row, with the same result and info 0, and a tiny or huge but good pivot is not an error.

TEMPLATE_LIST_TEST_CASE("rows scaled by huge or tiny factors solve like the unscaled system",
                        "[thomas][scaling]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  constexpr std::size_t nsys = 13;
  // Every row by `big`, every row by 1 / big, alternating, and a ramp from 1 / big to big, with
  // big = 1e150 (products of four pivots overflow, or underflow to 0) and 1e78 (products at the
  // edges of the double range), 1e30 and 1e9 for float.
  const std::vector<double> bigs =
      std::is_same_v<T, double> ? std::vector<double>{1e150, 1e78} : std::vector<double>{1e30, 1e9};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    for (double big : bigs)
    for (std::size_t n : {5, 37, 256})
      for (int scaling = 0; scaling < 4; ++scaling) {
        INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", n = " << n
                                           << ", scaling " << scaling << ", big = " << big);
        auto p = bstest::random_dominant<T>(nsys, n, 1300 + std::uint32_t(n));
        const auto ref = bstest::reference_solve(p);
        for (std::size_t s = 0; s < nsys; ++s)
          for (std::size_t i = 0; i < n; ++i) {
            const double ramp = std::pow(big, 2.0 * double(i) / double(n - 1) - 1.0);
            const double f = scaling == 0   ? big
                             : scaling == 1 ? 1 / big
                             : scaling == 2 ? (i % 2 ? big : 1 / big)
                                            : ramp;
            const std::size_t k = p.idx(s, i);
            p.a[k] = T(p.a[k] * f);
            p.b[k] = T(p.b[k] * f);
            p.c[k] = T(p.c[k] * f);
            p.d[k] = T(p.d[k] * f);
          }
        auto D = upload<Layout, Exec>(p);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
        exec.fence();
        CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
        CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), ref, nsys, n) <=
              bstest::lapack_tol<T>());
      }
  });
}

// ---------------------------------------------------------------------------------------------
// Empty batches.

TEMPLATE_LIST_TEST_CASE("thomas: empty batches: no systems, or systems of no rows",
                        "[thomas][edges]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>());
    {  // n = 0: every system is trivially solved, info = 0.
      host_batch<T> p(6, 0);
      auto D = upload<Layout, Exec>(p);
      auto info = bstest::make_info<Mem>(6, 7);
      bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
      auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, 6);
      f.solve(exec, D.d);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>(6, 0));
      CHECK(f.info().extent(0) == 6);
      CHECK(f.n() == 0);
    }
    {  // nsys = 0.
      host_batch<T> p(0, 4);
      auto D = upload<Layout, Exec>(p);
      auto info = bstest::make_info<Mem>(0);
      bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
      auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, 0);
      f.solve(exec, D.d);
      exec.fence();
      CHECK(f.nsys() == 0);
      CHECK(f.info().extent(0) == 0);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Work items whose scratch exceeds Kokkos' team scratch (a few very long systems) run on
// buffers from one allocation: forced here by lowering the limit for one solve per layout.

TEMPLATE_LIST_TEST_CASE("scratch beyond the team scratch limit comes from an allocation",
                        "[thomas][scratch]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const set_for_scope<std::size_t> limit(bandsolve::detail::max_team_scratch_bytes, 256);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    // 3 x 1501 and 70 x 1501 unknowns: above the size solved on the calling thread
    // (inline_solve_unknowns), so the work items run in a parallel launch (nsys = 1: inline).
    for (std::size_t nsys : {1, 3, 70}) {
      const std::size_t n = 1501;
      INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", nsys = " << nsys);
      const auto p = bstest::random_dominant<T>(nsys, n, 900 + static_cast<std::uint32_t>(nsys));
      auto D = upload<Layout, Exec>(p);
      auto info = bstest::make_info<typename Exec::memory_space>(nsys);
      bandsolve::solve(exec, thomas{}, D.a, D.b, D.c, D.d, info);
      auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, nsys);
      auto d2 = bstest::to_device<Layout, T, typename Exec::memory_space>("d2", p.d, nsys, n);
      f.solve(exec, d2);
      exec.fence();
      const auto ref = bstest::reference_solve(p);
      CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
      CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), ref, nsys, n) <=
            bstest::lapack_tol<T>());
      CHECK(bstest::max_rel_diff(bstest::to_host(d2, nsys), ref, nsys, n) <=
            bstest::lapack_tol<T>());
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Tiny systems (n <= 7) stored back to back run through their own kernel (tiny_thomas.hpp) in
// work items of 256 systems; strided Views with other system strides take the gathered packs.
// Batches across item boundaries, zero pivots at every row of some systems (the info code
// checked against LAPACK's), the factored solve, and strided Views of both kinds.

TEMPLATE_TEST_CASE("tiny row systems back to back: LAPACK's solution and info codes",
                   "[thomas][tiny]", BSTEST_SCALARS) {
  using T = TestType;
  using row = bl::row;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 7000;
    for (std::size_t n = 1; n <= 8; ++n) {
      for (std::size_t nsys : {std::size_t(3), std::size_t(255), std::size_t(257),
                               std::size_t(700)}) {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys);
        auto p = bstest::random_dominant<T>(nsys, n, seed++);
        // A zero pivot at row i (a_i = b_i = 0, and a_{i+1} = 0 so that LAPACK's pivoting
        // finds it too) of systems spread over the items, one row per system.
        std::vector<int> expected(nsys, 0);
        for (std::size_t s = 0; s < nsys; s += 37) {
          const std::size_t i = s % n;
          p.a[p.idx(s, i)] = T(0);
          p.b[p.idx(s, i)] = T(0);
          if (i + 1 < n) p.a[p.idx(s, i + 1)] = T(0);
          expected[s] = static_cast<int>(i + 1);
        }
        const auto failed = failed_mask(expected);
        std::vector<int> lapack_info;
        const auto ref = bstest::reference_solve(p, nullptr, &lapack_info);
        REQUIRE(lapack_info == expected);

        const auto [codes, x] = solve_on<row>(exec, p);
        CHECK(codes == expected);
        CHECK(bstest::max_rel_diff(x, ref, nsys, n, failed) <= bstest::lapack_tol<T>());
        CHECK(bstest::max_residual(p, x, nullptr, failed) <= bstest::residual_tol<T>());

        auto D = upload<row, Exec>(p);
        auto f = bandsolve::factorize(exec, thomas{}, D.a, D.b, D.c, nsys);
        f.solve(exec, D.d);
        exec.fence();
        CHECK(bstest::info_to_host(f.info()) == expected);
        CHECK(bstest::max_rel_diff(bstest::to_host(D.d, nsys), ref, nsys, n, failed) <=
              bstest::lapack_tol<T>());

        // Strided Views over one array: systems `pitch` apart, rows at unit stride; pitch n is
        // back to back (the tiny kernel), n + 1 leaves a NaN gap after each system (the gathered
        // packs), which must stay untouched.
        for (std::size_t pitch : {n, n + 1}) {
          INFO("strided, system stride " << pitch);
          using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
          using Flat = Kokkos::View<T*, Mem>;
          const std::size_t len = pitch * nsys;
          Flat fa("fa", len), fb("fb", len), fc("fc", len), fd("fd", len);
          for (auto* v : {&fa, &fb, &fc, &fd}) Kokkos::deep_copy(*v, nan);
          const auto sub = [&](const Flat& f) {
            return Sub(f.data(), Kokkos::LayoutStride(nsys, pitch, n, 1));
          };
          const Sub sa = sub(fa), sb = sub(fb), sc = sub(fc), sd = sub(fd);
          bstest::fill(sa, p.a, nsys);
          bstest::fill(sb, p.b, nsys);
          bstest::fill(sc, p.c, nsys);
          bstest::fill(sd, p.d, nsys);
          auto info = bstest::make_info<Mem>(nsys);
          bandsolve::solve(exec, thomas{}, sa, sb, sc, sd, info);
          exec.fence();
          CHECK(bstest::info_to_host(info) == expected);
          CHECK(bstest::max_rel_diff(bstest::to_host(sd, nsys), ref, nsys, n, failed) <=
                bstest::lapack_tol<T>());
          const auto raw = bstest::raw_copy(fd);
          std::size_t gaps_written = 0;
          for (std::size_t k = 0; k < len; ++k)
            gaps_written += k % pitch >= n && !std::isnan(static_cast<double>(raw[k]));
          CHECK(gaps_written == 0);
        }
      }
    }
  });
}

#undef BSTEST_SCALARS

// ---------------------------------------------------------------------------------------------
// New matrices of the same shape factored in place.

// refactor: the new matrices' factors in the factorization's own storage (a copy made before
// sees them), the same packs and kernels as a fresh factorization of them (bitwise the same
// solutions), info codes of a zero pivot set and cleared again.
TEMPLATE_LIST_TEST_CASE("refactor factors new matrices into the factorization's storage",
                        "[thomas][factorize][refactor]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {2, 7}, {3, 9}, {17, 33}, {64, 17}, {300, 65}, {5, 0}};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 4100;
    for (const auto& shape : shapes) {
      const std::size_t n = shape.first, nsys = shape.second;
      INFO(bstest::layout_name<Layout>() << ", " << exec_name<Exec>() << ", n = " << n
                                         << ", nsys = " << nsys);
      const auto p1 = bstest::random_dominant<T>(nsys, n, seed++);
      auto p2 = bstest::random_dominant<T>(nsys, n, seed++);
      std::vector<int> codes2(nsys, 0);
      if (nsys > 1) {
        p2.b[1 * n] = T(0);  // system 1's first pivot
        codes2[1] = 1;
      }
      auto D1 = upload<Layout, Exec>(p1);
      auto D2 = upload<Layout, Exec>(p2);
      auto f = bandsolve::factorize(exec, thomas{}, D1.a, D1.b, D1.c, nsys);
      const auto shared = f;  // shares f's storage
      f.refactor(exec, D2.a, D2.b, D2.c);
      const auto g = bandsolve::factorize(exec, thomas{}, D2.a, D2.b, D2.c, nsys);
      exec.fence();
      CHECK(shared.storage_bytes() == g.storage_bytes());
      CHECK(bstest::info_to_host(shared.info()) == codes2);
      const auto rhs = bstest::random_rhs<T>(nsys, n, 5000u + seed);
      auto d_shared = bstest::to_device<Layout, T, Mem>("d_shared", rhs, nsys, n);
      auto d_fresh = bstest::to_device<Layout, T, Mem>("d_fresh", rhs, nsys, n);
      shared.solve(exec, d_shared);
      g.solve(exec, d_fresh);
      exec.fence();
      CHECK(bstest::bitwise_equal(bstest::to_host(d_shared, nsys), bstest::to_host(d_fresh, nsys)));
      // Back to the first matrices: the zero pivot's code cleared, LAPACK's solution.
      f.refactor(exec, D1.a, D1.b, D1.c);
      f.solve(exec, D1.d);
      exec.fence();
      CHECK(bstest::info_to_host(shared.info()) == std::vector<int>(nsys, 0));
      CHECK(bstest::max_rel_diff(bstest::to_host(D1.d, nsys), bstest::reference_solve(p1), nsys,
                                 n) <= bstest::lapack_tol<T>());
    }
  });
}

// Gathered packs of one tile (long rows) and strided Views whose strides differ from the ones
// factored: refactor keeps the stored packs, which read rows of any stride.
TEMPLATE_TEST_CASE("refactor keeps the stored packs for Views of other strides",
                   "[thomas][factorize][refactor][strided]", float, double) {
  using T = TestType;
  const set_for_scope<std::size_t> limit(bandsolve::detail::factored_gather_whole_bytes, 0);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
    std::uint32_t seed = 4300;
    for (const std::size_t n : {3, 300}) {
      for (const std::size_t nsys : {5, 20, 65}) {
        INFO(exec_name<Exec>() << ", n = " << n << ", nsys = " << nsys);
        const auto p1 = bstest::random_dominant<T>(nsys, n, seed++);
        const auto p2 = bstest::random_dominant<T>(nsys, n, seed++);
        // Factored from rows at unit stride (a row array as a strided View) ...
        using Rows = Kokkos::View<T**, Kokkos::LayoutRight, Mem>;
        Rows ra("ra", nsys, n), rb("rb", nsys, n), rc("rc", nsys, n);
        bstest::fill(ra, p1.a, nsys);
        bstest::fill(rb, p1.b, nsys);
        bstest::fill(rc, p1.c, nsys);
        const auto whole = std::make_pair(std::size_t(0), nsys);
        const auto all_rows = std::make_pair(std::size_t(0), n);
        auto f = bandsolve::factorize(exec, thomas{}, Sub(Kokkos::subview(ra, whole, all_rows)),
                                      Sub(Kokkos::subview(rb, whole, all_rows)),
                                      Sub(Kokkos::subview(rc, whole, all_rows)));
        // ... refactored from every other system of column arrays (rows at stride 2 nsys).
        using Big = Kokkos::View<T***, Kokkos::LayoutLeft, Mem>;
        Big A("A", 2, nsys, n), B("B", 2, nsys, n), C("C", 2, nsys, n), D("D", 2, nsys, n);
        const Sub a(Kokkos::subview(A, 0, Kokkos::ALL, Kokkos::ALL)),
            b(Kokkos::subview(B, 0, Kokkos::ALL, Kokkos::ALL)),
            c(Kokkos::subview(C, 0, Kokkos::ALL, Kokkos::ALL)),
            d(Kokkos::subview(D, 0, Kokkos::ALL, Kokkos::ALL));
        bstest::fill(a, p2.a, nsys);
        bstest::fill(b, p2.b, nsys);
        bstest::fill(c, p2.c, nsys);
        bstest::fill(d, p2.d, nsys);
        const std::size_t bytes = f.storage_bytes();
        f.refactor(exec, a, b, c);
        f.solve(exec, d);
        exec.fence();
        CHECK(f.storage_bytes() == bytes);
        CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nsys, 0));
        CHECK(bstest::max_rel_diff(bstest::to_host(d, nsys), bstest::reference_solve(p2), nsys,
                                   n) <= bstest::lapack_tol<T>());
      }
    }
  });
}

TEST_CASE("refactor checks its arguments against what was factored", "[thomas][refactor][errors]") {
  using Catch::Matchers::Equals;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace exec;
  V a("a", 4, 9), b("b", 4, 9), c("c", 4, 9);
  Kokkos::deep_copy(b, 4.0);
  auto f = bandsolve::factorize(exec, thomas{}, a, b, c);
  V a8("a8", 4, 8), b8("b8", 4, 8), c8("c8", 4, 8);
  CHECK_THROWS_WITH(f.refactor(exec, a8, b8, c8),
                    Equals("bandsolve::thomas_factorization::refactor: b has 8 rows but the "
                           "factorization has 9"));
  V a5("a5", 5, 9), b5("b5", 5, 9), c5("c5", 5, 9);
  CHECK_THROWS_WITH(f.refactor(exec, a5, b5, c5),
                    Equals("bandsolve::thomas_factorization::refactor: b holds 5 systems but the "
                           "factorization has 4"));
  CHECK_THROWS_WITH(f.refactor(exec, a8, b, c),
                    Catch::Matchers::StartsWith("bandsolve::thomas_factorization::refactor: "));
  bandsolve::thomas_factorization<double, bandsolve::layout::row,
                                  Kokkos::DefaultHostExecutionSpace>
      empty;
  CHECK_THROWS_WITH(empty.refactor(exec, a, b, c),
                    Equals("bandsolve::thomas_factorization::refactor: this factorization is "
                           "empty (default-constructed)"));
  // After the refused calls the factorization still holds the first matrices.
  V d("d", 4, 9);
  Kokkos::deep_copy(d, 8.0);
  f.solve(exec, d);
  exec.fence();
  CHECK(d(3, 4) == 2.0);
}

}  // namespace test_thomas
