// Tridiagonal solver with partial pivoting: one-shot solve and factorize/solve against LAPACK
// ?gtsv / ?gttrf (solutions, ipiv, info) on non-dominant, singular and Thomas-breaking matrices,
// in every layout, float, double, complex<float> and complex<double>, Serial and OpenMP; refactor
// (host and device backends).
#include "pivoting_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace test_pivoting {  // units compile in groups: tests/CMakeLists.txt

namespace bl = bandsolve::layout;
using bandsolve::index_t;
using bandsolve::algo::partial_pivoting;
using bstest::host_batch;
using cfloat = Kokkos::complex<float>;
using cdouble = Kokkos::complex<double>;

namespace {

// Work items hold 16 doubles / 32 floats / 8 complex doubles / 16 complex floats (row, column,
// strided) or whole interleaved packs: the nsys below are not multiples of any of them.
using layout_scalar_list =
    std::tuple<std::tuple<bl::row, float>, std::tuple<bl::row, double>,
               std::tuple<bl::row, cdouble>, std::tuple<bl::column, double>,
               std::tuple<bl::column, cfloat>, std::tuple<bl::column, float>,
               std::tuple<bl::interleaved<1>, double>, std::tuple<bl::interleaved<1>, cdouble>,
               std::tuple<bl::interleaved<4>, float>,
               std::tuple<bl::interleaved<4>, cfloat>, std::tuple<bl::interleaved<8>, double>,
               std::tuple<bl::interleaved<8>, cdouble>>;

using bstest::device_batch;
using bstest::upload;

// Backward error of Gaussian elimination with partial pivoting on a tridiagonal matrix: the
// growth factor is at most 2 and every entry of L and U comes from O(1) operations (Higham,
// Accuracy and Stability of Numerical Algorithms, 2nd ed., Sec. 9.5 and Thm. 9.11), so the
// normwise relative residual is C u with C independent of n; complex arithmetic adds a few
// roundings per operation. Measured: below 3 u. C = 32.
template <class T>
double residual_tol() {
  return 32 * bstest::eps_of<T>();
}

// Against LAPACK: the same pivots and the same eliminations (ours multiply by a reciprocal where
// LAPACK divides), both backward stable: |x - x_lapack| / |x| <= 2 C u cond(A). cond from ?gtcon
// (an estimate within a small factor). C = 64.
template <class T>
double lapack_tol(double cond) {
  return 64 * bstest::eps_of<T>() * std::max(cond, 1.0);
}

template <class T>
double worst_residual(const host_batch<T>& p, const std::vector<T>& x,
                    const std::vector<T>* rhs = nullptr, const std::vector<int>* skip = nullptr) {
  double r = 0;
  for (std::size_t s = 0; s < p.nsys; ++s)
    if (!skip || (*skip)[s] == 0) r = std::max(r, bstest::residual_any(p, x, s, rhs));
  return r;
}

// Largest |x - ref| / (tolerance of the system), over the systems not skipped: <= 1 passes.
template <class T>
double worst_vs_tol(const std::vector<T>& x, const std::vector<T>& ref, std::size_t n,
                    const std::vector<double>& cond, const std::vector<int>* skip = nullptr) {
  double w = 0;
  for (std::size_t s = 0; s < cond.size(); ++s)
    if (!skip || (*skip)[s] == 0)
      w = std::max(w, bstest::rel_diff_any(x, ref, n, s) / lapack_tol<T>(cond[s]));
  return w;
}

template <class View>
std::vector<int> ipiv_rows(const View& ipiv) {
  std::vector<int> v(ipiv.extent(0) * ipiv.extent(1));
  for (std::size_t s = 0; s < ipiv.extent(0); ++s)
    for (std::size_t i = 0; i < ipiv.extent(1); ++i) v[s * ipiv.extent(1) + i] = ipiv(s, i);
  return v;
}

// One batch through the one-shot solve and the factorization, checked against LAPACK: info
// codes, ipiv, solutions (systems LAPACK calls singular are only checked for their info code).
template <class Layout, class Exec, class T>
void check_against_lapack(const Exec& exec, const host_batch<T>& p, const std::string& what) {
  using Mem = typename Exec::memory_space;
  const std::size_t nsys = p.nsys, n = p.n;
  INFO(what << ": " << bstest::layout_name<Layout>() << ", " << bstest::type_name<T>() << ", "
            << Exec::name() << ", n = " << n << ", nsys = " << nsys);
  std::vector<int> gtsv_info, trf_info, ipiv;
  std::vector<double> cond;
  const auto ref = bstest::gtsv_reference(p, &gtsv_info);
  bstest::gttrf_reference(p, ipiv, trf_info, cond);
  CHECK(trf_info == gtsv_info);  // LAPACK's two routines agree on the first zero U(i, i)

  auto D = upload<Layout, Exec>(p);
  const auto a0 = bstest::raw_copy(D.a), b0 = bstest::raw_copy(D.b), c0 = bstest::raw_copy(D.c);
  auto info = bstest::make_info<Mem>(nsys);
  bandsolve::solve(exec, partial_pivoting{}, D.a, D.b, D.c, D.d, info);
  auto f = bandsolve::factorize(exec, partial_pivoting{}, D.a, D.b, D.c, nsys);
  auto df = bstest::to_device<Layout, T, Mem>("df", p.d, nsys, n);
  f.solve(exec, df);
  exec.fence();
  CHECK(bstest::info_to_host(info) == gtsv_info);
  CHECK(bstest::info_to_host(f.info()) == gtsv_info);
  CHECK(ipiv_rows(f.ipiv()) == ipiv);
  const auto x = bstest::to_host(D.d, nsys), xf = bstest::to_host(df, nsys);
  CHECK(worst_vs_tol(x, ref, n, cond, &gtsv_info) <= 1.0);
  CHECK(worst_vs_tol(xf, ref, n, cond, &gtsv_info) <= 1.0);
  CHECK(worst_residual<T>(p, x, nullptr, &gtsv_info) <= residual_tol<T>());
  CHECK(worst_residual<T>(p, xf, nullptr, &gtsv_info) <= residual_tol<T>());
  CHECK(bstest::bitwise_equal(bstest::raw_copy(D.a), a0));
  CHECK(bstest::bitwise_equal(bstest::raw_copy(D.b), b0));
  CHECK(bstest::bitwise_equal(bstest::raw_copy(D.c), c0));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Non-dominant random batches.

TEMPLATE_LIST_TEST_CASE("partial pivoting matches LAPACK gtsv/gttrf on non-dominant batches",
                        "[pivoting][lapack]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::vector<std::size_t> ns = {1, 2, 3, 4, 5, 7, 16, 17, 33, 100, 257};
  const std::vector<std::size_t> nsys_all = {1, 2, 7, 9, 13, 17, 33, 70};
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 11;
    for (std::size_t k = 0; k < ns.size(); ++k)
      for (std::size_t j : {k % 8, (k + 3) % 8, (k + 5) % 8}) {
        const auto p = bstest::random_general<T>(nsys_all[j], ns[k], seed++);
        check_against_lapack<Layout>(exec, p, "random non-dominant");
      }
  });
}

TEMPLATE_LIST_TEST_CASE("the solution reaches the rounding level of the residual",
                        "[pivoting][residual]", layout_scalar_list) {
  // The measure must see rounding at all (so it could fail): the worst residual is above 0.
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const auto p = bstest::random_general<T>(33, 64, 4711);
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    auto D = upload<Layout, Exec>(p);
    auto info = bstest::make_info<typename Exec::memory_space>(p.nsys);
    bandsolve::solve(exec, partial_pivoting{}, D.a, D.b, D.c, D.d, info);
    exec.fence();
    const double r = worst_residual(p, bstest::to_host(D.d, p.nsys));
    UNSCOPED_INFO(bstest::layout_name<Layout>() << " " << bstest::type_name<T>()
                                                << ": worst residual "
                                                << r / bstest::eps_of<T>() << " eps");
    CHECK(r > 0);
    CHECK(r <= residual_tol<T>());
  });
}

// ---------------------------------------------------------------------------------------------
// Matrices that break Thomas: zero and tiny leading pivots, zero diagonals.

namespace {

// System 0: b = 0 everywhere (n even: nonsingular, det = prod(-a c) over row pairs); system 1:
// b[0] = 0; system 2: 2x2 blocks [[delta, 1], [1, 1]] on the diagonal, delta = 10 eps, joined by
// 0.01 couplings: cond(A) < 10, but Thomas' pivots delta and 1 - 1/delta lose all but about
// one digit (error ~ eps/delta); system 3: random non-dominant.
template <class T>
host_batch<T> thomas_breakers(std::size_t n) {
  auto p = bstest::random_general<T>(4, n, 99);
  const T delta = T(10 * bstest::eps_of<T>());
  for (std::size_t i = 0; i < n; ++i) {
    p.b[p.idx(0, i)] = T(0);
    const bool first = i % 2 == 0;
    p.b[p.idx(2, i)] = first && i + 1 < n ? delta : T(1);
    p.c[p.idx(2, i)] = i + 1 == n ? T(0) : (first ? T(1) : T(0.01));
    p.a[p.idx(2, i)] = i == 0 ? T(0) : (first ? T(0.01) : T(1));
  }
  p.b[p.idx(1, 0)] = T(0);
  return p;
}

}  // namespace

TEMPLATE_TEST_CASE("partial pivoting solves the systems where Thomas fails", "[pivoting][thomas]",
                   float, double) {
  using T = TestType;
  using Layout = bl::interleaved<4>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    for (std::size_t n : {2, 4, 10, 64}) {
      INFO(Exec::name() << ", n = " << n);
      const auto p = thomas_breakers<T>(n);
      std::vector<int> lapack_info;
      std::vector<int> ipiv, trf_info;
      std::vector<double> cond;
      const auto ref = bstest::gtsv_reference(p, &lapack_info);
      bstest::gttrf_reference(p, ipiv, trf_info, cond);
      REQUIRE(lapack_info == std::vector<int>(4, 0));

      auto D = upload<Layout, Exec>(p);
      auto d_thomas = bstest::to_device<Layout, T, Mem>("dt", p.d, p.nsys, n);
      auto info = bstest::make_info<Mem>(p.nsys), info_thomas = bstest::make_info<Mem>(p.nsys);
      bandsolve::solve(exec, partial_pivoting{}, D.a, D.b, D.c, D.d, info);
      bandsolve::solve(exec, bandsolve::algo::thomas{}, D.a, D.b, D.c, d_thomas, info_thomas);
      exec.fence();
      const auto ti = bstest::info_to_host(info_thomas);
      const auto xt = bstest::to_host(d_thomas, p.nsys), x = bstest::to_host(D.d, p.nsys);
      // Thomas: a zero first pivot in systems 0 and 1 (its info contract). System 2 is well
      // conditioned; how far Thomas lands from it depends on the compiler's contractions (FMA),
      // so only the method under test is held to a bound.
      CHECK(ti[0] == 1);
      CHECK(ti[1] == 1);
      CHECK(cond[2] < 10);
      (void)xt;
      // Partial pivoting: every system solved to LAPACK's accuracy.
      CHECK(bstest::info_to_host(info) == std::vector<int>(4, 0));
      CHECK(worst_vs_tol(x, ref, n, cond) <= 1.0);
      CHECK(worst_residual(p, x) <= residual_tol<T>());
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Singular matrices: LAPACK's info code.

TEMPLATE_LIST_TEST_CASE("singular matrices give LAPACK's info code", "[pivoting][info]",
                        layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    for (std::size_t n : {1, 2, 3, 6, 20}) {
      // System s (s > 1) has column (s-2) % n zeroed: a[j+1], b[j], c[j-1] = 0. System 0 is the
      // zero matrix (info 1), system 1 is regular.
      const std::size_t nsys = n + 3;
      auto p = bstest::random_general<T>(nsys, n, 300 + std::uint32_t(n));
      for (std::size_t i = 0; i < n; ++i)
        p.a[p.idx(0, i)] = p.b[p.idx(0, i)] = p.c[p.idx(0, i)] = T(0);
      for (std::size_t s = 2; s < nsys; ++s) {
        const std::size_t j = (s - 2) % n;
        p.b[p.idx(s, j)] = T(0);
        if (j + 1 < n) p.a[p.idx(s, j + 1)] = T(0);
        if (j > 0) p.c[p.idx(s, j - 1)] = T(0);
      }
      std::vector<int> lapack_info;
      bstest::gtsv_reference(p, &lapack_info);
      CHECK(lapack_info[0] == 1);
      CHECK(lapack_info[1] == 0);
      CHECK(std::count(lapack_info.begin(), lapack_info.end(), 0) == 1);
      check_against_lapack<Layout>(exec, p, "singular");
    }
    {  // [[1, 1], [1, 1]]: a tie keeps the first row; U(2, 2) = 0 -> info 2.
      host_batch<T> p(3, 2);
      for (std::size_t k = 0; k < 6; ++k) p.a[k] = p.b[k] = p.c[k] = p.d[k] = T(1);
      p.b[p.idx(1, 0)] = T(2);  // system 1: [[2, 1], [1, 1]], regular
      check_against_lapack<Layout>(exec, p, "[[1, 1], [1, 1]]");
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Strided subviews: only the view is read and written.

TEMPLATE_TEST_CASE("partial pivoting on strided subviews reads and writes only the view",
                   "[pivoting][strided]", double, cdouble, float) {
  using T = TestType;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
    for (const auto& shape : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 3}, {2, 17}, {9, 33}, {40, 5}}) {
      const std::size_t n = shape.first, nsys = shape.second;
      for (int kind = 0; kind < 2; ++kind) {
        INFO(Exec::name() << ", n = " << n << ", nsys = " << nsys
                          << (kind == 0 ? ": every other system of a row array, padded rows"
                                        : ": a block of a column array (unit system stride)"));
        const T nan = bstest::from_cd<T>(bstest::cd(std::nan(""), 0));
        using RowBig = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
        using ColumnBig = Kokkos::View<T**, Kokkos::LayoutLeft, Mem>;
        // Built in place: no View is default-constructed (docs/development.md, Kokkos and GCC 12).
        std::vector<RowBig> rbig;
        std::vector<ColumnBig> cbig;
        std::vector<Sub> v;
        for (int k = 0; k < 4; ++k) {
          if (kind == 0) {
            rbig.emplace_back("big", nsys, 2, n + 2);
            Kokkos::deep_copy(rbig[k], nan);
            v.emplace_back(
                Kokkos::subview(rbig[k], Kokkos::ALL, 1, std::make_pair(std::size_t(1), n + 1)));
          } else {
            cbig.emplace_back("big", nsys + 5, n + 3);
            Kokkos::deep_copy(cbig[k], nan);
            v.emplace_back(Kokkos::subview(cbig[k], std::make_pair(std::size_t(2), nsys + 2),
                                           std::make_pair(std::size_t(1), n + 1)));
          }
        }
        const auto p = bstest::random_general<T>(nsys, n, 555 + std::uint32_t(n + kind));
        bstest::fill(v[0], p.a, nsys);
        bstest::fill(v[1], p.b, nsys);
        bstest::fill(v[2], p.c, nsys);
        bstest::fill(v[3], p.d, nsys);
        auto info = bstest::make_info<Mem>(nsys);
        bandsolve::solve(exec, partial_pivoting{}, v[0], v[1], v[2], v[3], info);
        exec.fence();
        std::vector<int> lapack_info, ipiv, trf_info;
        std::vector<double> cond;
        const auto ref = bstest::gtsv_reference(p, &lapack_info);
        bstest::gttrf_reference(p, ipiv, trf_info, cond);
        CHECK(bstest::info_to_host(info) == lapack_info);
        CHECK(worst_vs_tol(bstest::to_host(v[3], nsys), ref, n, cond) <= 1.0);
        // Outside the view d still holds NaN everywhere: count the non-NaN elements.
        const auto all = kind == 0 ? bstest::raw_copy(rbig[3]) : bstest::raw_copy(cbig[3]);
        std::size_t finite = 0;
        for (const T& e : all) finite += std::isnan(bstest::to_cd(e).real()) ? 0 : 1;
        CHECK(finite == nsys * n);
        // The factorization of strided coefficients, solved into the strided d.
        auto f = bandsolve::factorize(exec, partial_pivoting{}, v[0], v[1], v[2]);
        bstest::fill(v[3], p.d, nsys);
        f.solve(exec, v[3]);
        exec.fence();
        CHECK(worst_vs_tol(bstest::to_host(v[3], nsys), ref, n, cond) <= 1.0);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Interleaved padding, ignored corners, several right-hand sides, empty batches.

TEMPLATE_TEST_CASE("interleaved padding lanes: 13 systems report 13 info codes",
                   "[pivoting][interleaved]", double, cfloat) {
  using T = TestType;
  constexpr std::size_t nsys = 13;
  using Layout = bl::interleaved<8>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    for (std::size_t n : {1, 5, 40}) {
      INFO(Exec::name() << ", n = " << n);
      auto p = bstest::random_general<T>(nsys, n, 77 + std::uint32_t(n));
      std::vector<int> lapack_info, ipiv, trf_info;
      std::vector<double> cond;
      const auto ref = bstest::gtsv_reference(p, &lapack_info);
      bstest::gttrf_reference(p, ipiv, trf_info, cond);
      auto D = upload<Layout, Exec>(p);
      // Padding lanes hold NaN: lanes are independent systems.
      const T nan = bstest::from_cd<T>(bstest::cd(std::nan(""), 0));
      for (auto* v : {&D.a, &D.b, &D.c, &D.d}) {
        auto h = bstest::to_host(*v, nsys);
        h.resize(16 * n, nan);
        std::vector<T> all(16 * n, nan);
        std::copy(h.begin(), h.begin() + nsys * n, all.begin());
        bstest::fill(*v, all, 16);
      }
      Kokkos::View<int*, Mem> info_big("info_big", 16);
      Kokkos::deep_copy(info_big, -99);
      auto info = Kokkos::subview(info_big, std::make_pair(0, 13));
      bandsolve::solve(exec, partial_pivoting{}, D.a, D.b, D.c, D.d, info);
      exec.fence();
      std::vector<int> expected(16, 0);
      expected[13] = expected[14] = expected[15] = -99;
      CHECK(bstest::info_to_host(info_big) == expected);
      CHECK(worst_vs_tol(bstest::to_host(D.d, nsys), ref, n, cond) <= 1.0);
    }
  });
}

TEMPLATE_LIST_TEST_CASE("pivoting: a[0] and c[n-1] are ignored, even when NaN",
                        "[pivoting][edges]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const T nan = bstest::from_cd<T>(bstest::cd(std::nan(""), std::nan("")));
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    for (std::size_t n : {1, 2, 17}) {
      auto p = bstest::random_general<T>(9, n, 900 + std::uint32_t(n));
      std::vector<int> lapack_info, ipiv, trf_info;
      std::vector<double> cond;
      const auto ref = bstest::gtsv_reference(p, &lapack_info);
      bstest::gttrf_reference(p, ipiv, trf_info, cond);
      for (std::size_t s = 0; s < 9; ++s) {
        p.a[p.idx(s, 0)] = nan;
        p.c[p.idx(s, n - 1)] = nan;
      }
      INFO(bstest::layout_name<Layout>() << ", " << Exec::name() << ", n = " << n);
      auto D = upload<Layout, Exec>(p);
      auto info = bstest::make_info<typename Exec::memory_space>(9);
      auto f = bandsolve::factorize(exec, partial_pivoting{}, D.a, D.b, D.c, 9);
      bandsolve::solve(exec, partial_pivoting{}, D.a, D.b, D.c, D.d, info);
      exec.fence();
      CHECK(bstest::info_to_host(info) == lapack_info);
      CHECK(bstest::info_to_host(f.info()) == lapack_info);
      CHECK(worst_vs_tol(bstest::to_host(D.d, 9), ref, n, cond) <= 1.0);
    }
  });
}

TEMPLATE_LIST_TEST_CASE("one factorization, several right-hand sides, coefficients garbled",
                        "[pivoting][factorize]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    const std::size_t n = 31, nsys = 21;
    auto p = bstest::random_general<T>(nsys, n, 2024);
    auto D = upload<Layout, Exec>(p);
    auto f = bandsolve::factorize(exec, partial_pivoting{}, D.a, D.b, D.c, nsys);
    exec.fence();
    CHECK(f.nsys() == nsys);
    CHECK(f.n() == n);
    // The factorization must not read the coefficients again.
    const T nan = bstest::from_cd<T>(bstest::cd(std::nan(""), 0));
    Kokkos::deep_copy(D.a, nan);
    Kokkos::deep_copy(D.b, nan);
    Kokkos::deep_copy(D.c, nan);
    std::vector<int> ipiv, trf_info;
    std::vector<double> cond;
    bstest::gttrf_reference(p, ipiv, trf_info, cond);
    for (std::uint32_t k = 0; k < 3; ++k) {
      INFO(bstest::layout_name<Layout>() << ", " << Exec::name() << ", right-hand side " << k);
      std::vector<T> rhs(nsys * n);
      std::mt19937 gen(70 + k);
      for (auto& v : rhs) v = bstest::uniform11<T>(gen);
      auto d = bstest::to_device<Layout, T, Mem>("d", rhs, nsys, n);
      f.solve(exec, d);
      exec.fence();
      const auto ref = bstest::gtsv_reference(p, nullptr, &rhs);
      const auto x = bstest::to_host(d, nsys);
      CHECK(worst_vs_tol(x, ref, n, cond) <= 1.0);
      CHECK(worst_residual(p, x, &rhs) <= residual_tol<T>());
    }
  });
}

TEMPLATE_LIST_TEST_CASE("pivoting: empty batches: no systems, or systems of no rows",
                        "[pivoting][edges]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    {
      host_batch<T> p(6, 0);
      auto D = upload<Layout, Exec>(p);
      auto info = bstest::make_info<Mem>(6, 7);
      bandsolve::solve(exec, partial_pivoting{}, D.a, D.b, D.c, D.d, info);
      auto f = bandsolve::factorize(exec, partial_pivoting{}, D.a, D.b, D.c, 6);
      f.solve(exec, D.d);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>(6, 0));
      CHECK(f.info().extent(0) == 6);
      CHECK(f.n() == 0);
    }
    {
      host_batch<T> p(0, 4);
      auto D = upload<Layout, Exec>(p);
      auto info = bstest::make_info<Mem>(0);
      bandsolve::solve(exec, partial_pivoting{}, D.a, D.b, D.c, D.d, info);
      auto f = bandsolve::factorize(exec, partial_pivoting{}, D.a, D.b, D.c, 0);
      f.solve(exec, D.d);
      exec.fence();
      CHECK(f.nsys() == 0);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Bad arguments.

TEST_CASE("partial pivoting: bad shapes throw messages that name the values",
          "[pivoting][errors]") {
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using I = Kokkos::View<double**[4], Kokkos::LayoutRight, Kokkos::HostSpace>;
  Kokkos::Serial exec;
  V a("a", 5, 9), b("b", 5, 9), c("c", 5, 9), d("d", 5, 9), d7("d7", 5, 7), b6("b6", 6, 9);
  auto info = bstest::make_info(5);
  auto info4 = bstest::make_info(4);
  using Catch::Matchers::Equals;
  CHECK_THROWS_WITH(bandsolve::solve(exec, partial_pivoting{}, a, b, c, d7, info),
                    Equals("bandsolve::solve(partial_pivoting): a has 9 rows but d has 7"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, partial_pivoting{}, a, b6, c, d, info),
                    Equals("bandsolve::solve(partial_pivoting): b holds 6 systems but d holds 5"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, partial_pivoting{}, a, b, c, d, info4),
                    Equals("bandsolve::solve(partial_pivoting): info.extent(0) = 4 but d holds 5 "
                           "systems"));
  CHECK_THROWS_WITH(bandsolve::solve(exec, partial_pivoting{}, a, b, c, b, info),
                    Catch::Matchers::StartsWith(
                        "bandsolve::solve(partial_pivoting): d overlaps b in memory"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, partial_pivoting{}, a, b6, c),
                    Equals("bandsolve::factorize(partial_pivoting): b holds 6 systems but b "
                           "holds 5") ||
                        Equals("bandsolve::factorize(partial_pivoting): a holds 5 systems but b "
                               "holds 6"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, partial_pivoting{}, a, b, c, 4),
                    Equals("bandsolve::factorize(partial_pivoting): nsys = 4 does not match the 5 "
                           "system slots of b (row layout)"));
  auto f = bandsolve::factorize(exec, partial_pivoting{}, a, b, c);
  CHECK_THROWS_WITH(f.solve(exec, d7),
                    Equals("bandsolve::pivoting_factorization::solve: d has 7 rows but the "
                           "factorization has 9"));
  V d4("d4", 4, 9);
  CHECK_THROWS_WITH(f.solve(exec, d4),
                    Equals("bandsolve::pivoting_factorization::solve: d holds 4 systems but the "
                           "factorization has 5"));
  bandsolve::pivoting_factorization<double, bandsolve::layout::row, Kokkos::Serial> empty;
  CHECK_THROWS_WITH(empty.solve(exec, d),
                    Equals("bandsolve::pivoting_factorization::solve: this factorization is "
                           "empty (default-constructed)"));
  // Interleaved: 9 systems need 3 packs of 4.
  I ia("a", 2, 6), ib("b", 2, 6), ic("c", 2, 6), id("d", 2, 6);
  auto info9 = bstest::make_info(9);
  CHECK_THROWS_WITH(bandsolve::solve(exec, partial_pivoting{}, ia, ib, ic, id, info9),
                    Equals("bandsolve::solve(partial_pivoting): info.extent(0) = 9 systems need 3 "
                           "packs of 4 but d has 2 packs"));
  CHECK_THROWS_WITH(bandsolve::factorize(exec, partial_pivoting{}, ia, ib, ic, 9),
                    Equals("bandsolve::factorize(partial_pivoting): nsys = 9 does not match the 8 "
                           "system slots of b (interleaved layout)"));
}


// ---------------------------------------------------------------------------------------------
// refactor: new matrices factored into the factorization's own storage (a copy made before sees
// them), with the info codes, ipiv and bitwise the solutions of a fresh factorization;
// refactoring back to the first matrices clears the code of a singular system.

namespace {

template <class Layout, class T, bool Device>
void check_refactor(std::uint32_t seed) {
  const std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {1, 1}, {2, 7}, {3, 9}, {17, 33}, {64, 37}, {5, 0}};
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    const auto make = [&](const auto& D, std::size_t nsys) {
      if constexpr (Device)
        return bandsolve::factorize(exec, partial_pivoting{}, D.a, D.b, D.c, nsys,
                                    bandsolve::backend::device{});
      else
        return bandsolve::factorize(exec, partial_pivoting{}, D.a, D.b, D.c, nsys);
    };
    for (const auto& shape : shapes) {
      const std::size_t n = shape.first, nsys = shape.second;
      INFO(bstest::layout_name<Layout>() << ", " << bstest::type_name<T>() << ", "
                                         << Exec::name() << (Device ? ", device" : "")
                                         << ", n = " << n << ", nsys = " << nsys);
      const auto p1 = bstest::random_general<T>(nsys, n, seed++);
      auto p2 = bstest::random_general<T>(nsys, n, seed++);
      std::vector<int> codes2(nsys, 0);
      if (nsys > 1) {  // system 1 is the zero matrix
        for (std::size_t i = 0; i < n; ++i)
          p2.a[p2.idx(1, i)] = p2.b[p2.idx(1, i)] = p2.c[p2.idx(1, i)] = T(0);
        codes2[1] = 1;
      }
      auto D1 = upload<Layout, Exec>(p1);
      auto D2 = upload<Layout, Exec>(p2);
      auto f = make(D1, nsys);
      const auto shared = f;  // shares f's storage
      f.refactor(exec, D2.a, D2.b, D2.c);
      const auto g = make(D2, nsys);
      exec.fence();
      CHECK(bstest::info_to_host(shared.info()) == codes2);
      CHECK(bstest::info_to_host(g.info()) == codes2);
      CHECK(ipiv_rows(shared.ipiv()) == ipiv_rows(g.ipiv()));
      auto d_shared = bstest::to_device<Layout, T, Mem>("d_shared", p2.d, nsys, n);
      auto d_fresh = bstest::to_device<Layout, T, Mem>("d_fresh", p2.d, nsys, n);
      shared.solve(exec, d_shared);
      g.solve(exec, d_fresh);
      exec.fence();
      CHECK(bstest::bitwise_equal(bstest::to_host(d_shared, nsys), bstest::to_host(d_fresh, nsys)));
      // Back to the first matrices: the code cleared, LAPACK's factors and solution.
      f.refactor(exec, D1.a, D1.b, D1.c);
      f.solve(exec, D1.d);
      exec.fence();
      std::vector<int> gtsv_info, trf_info, ipiv;
      std::vector<double> cond;
      const auto ref = bstest::gtsv_reference(p1, &gtsv_info);
      bstest::gttrf_reference(p1, ipiv, trf_info, cond);
      CHECK(gtsv_info == std::vector<int>(nsys, 0));
      CHECK(bstest::info_to_host(shared.info()) == gtsv_info);
      CHECK(ipiv_rows(shared.ipiv()) == ipiv);
      CHECK(worst_vs_tol(bstest::to_host(D1.d, nsys), ref, n, cond) <= 1.0);
    }
  });
}

// Refused refactor calls name the values; the factorization keeps its first matrices.
template <class F, bool Device>
void check_refactor_errors(const std::string& fn) {
  using Catch::Matchers::Equals;
  using V = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace exec;
  V a("a", 4, 9), b("b", 4, 9), c("c", 4, 9);
  Kokkos::deep_copy(b, 4.0);
  const auto f0 = [&] {
    if constexpr (Device)
      return bandsolve::factorize(exec, partial_pivoting{}, a, b, c, bandsolve::backend::device{});
    else
      return bandsolve::factorize(exec, partial_pivoting{}, a, b, c);
  }();
  F f = f0;
  V a8("a8", 4, 8), b8("b8", 4, 8), c8("c8", 4, 8);
  CHECK_THROWS_WITH(f.refactor(exec, a8, b8, c8),
                    Equals(fn + ": b has 8 rows but the factorization has 9"));
  V a5("a5", 5, 9), b5("b5", 5, 9), c5("c5", 5, 9);
  CHECK_THROWS_WITH(f.refactor(exec, a5, b5, c5),
                    Equals(fn + ": b holds 5 systems but the factorization has 4"));
  CHECK_THROWS_WITH(f.refactor(exec, a8, b, c), Catch::Matchers::StartsWith(fn + ": a has 8 rows"));
  F empty;
  CHECK_THROWS_WITH(empty.refactor(exec, a, b, c),
                    Equals(fn + ": this factorization is empty (default-constructed)"));
  V d("d", 4, 9);
  Kokkos::deep_copy(d, 8.0);
  f.solve(exec, d);
  exec.fence();
  CHECK(d(3, 4) == 2.0);
  CHECK(bstest::info_to_host(f.info()) == std::vector<int>(4, 0));
}

}  // namespace

TEMPLATE_TEST_CASE("pivoting refactor factors new matrices into the factorization's storage",
                   "[pivoting][factorize][refactor]", (std::tuple<bl::row, float>),
                   (std::tuple<bl::column, double>), (std::tuple<bl::interleaved<4>, cdouble>)) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  check_refactor<Layout, T, false>(9000);
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  check_refactor<Layout, T, true>(9500);
#endif
}

TEST_CASE("pivoting refactor checks its arguments against what was factored",
          "[pivoting][refactor][errors]") {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  check_refactor_errors<bandsolve::pivoting_factorization<double, bl::row, Exec>, false>(
      "bandsolve::pivoting_factorization::refactor");
#if BANDSOLVE_TESTS_DEVICE_BACKEND
  check_refactor_errors<bandsolve::pivoting_device_factorization<double, bl::row, Exec>, true>(
      "bandsolve::pivoting_device_factorization::refactor");
#endif
}

}  // namespace test_pivoting
