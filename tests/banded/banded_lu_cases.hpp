#pragma once
// Test cases of the batched banded LU, typed over `layout_scalar_list`, which the including file
// defines before including this header (test_banded_lu.cpp: real types, test_banded_lu_complex.cpp:
// complex types; two executables so that they compile in parallel).
#include "banded_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <tuple>
#include <vector>

namespace bl = bandsolve::layout;
using bandsolve::algo::banded_lu;
using bstest::host_band;

namespace {

struct bands {
  int kl, ku;
};
// Compiled (1,1), (2,2), (4,4) and run-time bandwidths, zero ones included.
const std::vector<bands> all_bands = {{1, 1}, {2, 2}, {4, 4}, {3, 1}, {1, 3},
                                      {0, 2}, {2, 0}, {0, 0}, {5, 6}};

// Backward error of LU with partial pivoting on a band (Higham, Thm. 9.3 with at most kl+ku+1
// terms per inner product): |dA| <= gamma_{kl+ku+1} |L||U|, and ||L||U|| <= (1 + kl) rho ||A||
// with growth rho small for these random matrices. C = 16 (kl + ku + 2) covers it with margin,
// independent of n.
template <class T>
double residual_tol(int kl, int ku) {
  return 16.0 * (kl + ku + 2) * bstest::band_eps<T>;
}

// Against LAPACK: the same pivots and operations in another order, so the difference is the
// forward error of two backward-stable solves: cond(A) * residual. The random matrices below have
// cond_inf well under 1e3 (dominant: <= 6); C = 1e3 * residual_tol for pivoted random
// matrices, 100 * residual_tol for dominant ones.
template <class T>
double lapack_tol(int kl, int ku, bool dominant) {
  return (dominant ? 100.0 : 1000.0) * residual_tol<T>(kl, ku);
}

// Pivoting cases get small diagonals (interchanges happen) where a row has entries on both sides
// of the diagonal; a triangular band with small diagonals would be ill-conditioned instead, so
// those and the no-pivoting cases get dominant rows.
double dominance_for(bands b, bool pivoting) {
  return pivoting && b.kl > 0 && b.ku > 0 ? -0.1 : 1.0;
}

template <class T>
std::string case_name(std::size_t nsys, std::size_t n, bands b, bool pivoting) {
  return "nsys=" + std::to_string(nsys) + " n=" + std::to_string(n) + " kl=" +
         std::to_string(b.kl) + " ku=" + std::to_string(b.ku) +
         (pivoting ? " pivoting" : " no pivoting");
}

// One-shot solve of (h, rhs) with nrhs right-hand sides per system in layout Layout; returns
// x in host order and fills info.
template <class Layout, bool Several, class Exec, class T>
std::vector<T> device_solve(const Exec& exec, const host_band<T>& h, const std::vector<T>& rhs,
                            std::size_t nrhs, banded_lu alg, std::vector<int>& info) {
  using Mem = typename Exec::memory_space;
  auto ab = bstest::band_to_device<Layout, T, Mem>(h);
  auto b = bstest::rhs_to_device<Layout, T, Mem, Several>(rhs, h.nsys, h.n, nrhs);
  auto inf = bstest::make_info<Mem>(h.nsys);
  bandsolve::solve(exec, alg, ab, b, inf);
  exec.fence();
  info = bstest::info_to_host(inf);
  REQUIRE(bstest::bitwise_equal(bstest::band_to_host(ab, h.nsys), h.ab));  // ab is read only
  return bstest::rhs_to_host(b, h.nsys, h.n, nrhs);
}

template <class T>
void check_against_lapack(const host_band<T>& h, const std::vector<T>& rhs, std::size_t nrhs,
                          const std::vector<T>& x, const std::vector<int>& info,
                          bool dominant) {
  const auto ref = bstest::reference_gbsv(h, rhs, static_cast<int>(nrhs));
  double worst_res = 0, worst_diff = 0;
  for (std::size_t s = 0; s < h.nsys; ++s) {
    REQUIRE(info[s] == 0);
    REQUIRE(ref.info[s] == 0);
    for (std::size_t k = 0; k < nrhs; ++k) {
      worst_res = std::max(worst_res, bstest::band_residual(h, x, rhs, s, k, nrhs));
      worst_diff = std::max(worst_diff, bstest::vec_rel_diff(x, ref.x, (s * nrhs + k) * h.n, h.n));
    }
  }
  CHECK(worst_res <= residual_tol<T>(h.kl, h.ku));
  CHECK(worst_diff <= lapack_tol<T>(h.kl, h.ku, dominant));
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("banded_lu solve matches LAPACK gbsv", "[banded][lapack]",
                        layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  const std::vector<std::size_t> ns = {1, 2, 3, 4, 7, 12, 33};
  const std::vector<std::size_t> nsyss = {1, 3, 9, 17};
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 100;
    for (const bands bw : all_bands)
      for (std::size_t n : ns)
        for (bool pivoting : {true, false}) {
          const std::size_t nsys = nsyss[(n + bw.kl + 2 * bw.ku + pivoting) % nsyss.size()];
          const double dom = dominance_for(bw, pivoting);
          const auto h = bstest::random_band<T>(nsys, n, bw.kl, bw.ku, ++seed, dom);
          const auto rhs = bstest::random_values<T>(nsys * n, ++seed);
          INFO(case_name<T>(nsys, n, bw, pivoting) << " " << exec.name());
          std::vector<int> info;
          const auto x = device_solve<Layout, false>(exec, h, rhs, 1,
                                                     banded_lu{bw.kl, bw.ku, pivoting}, info);
          check_against_lapack(h, rhs, 1, x, info, dom > 0);
        }
  });
}

TEMPLATE_LIST_TEST_CASE("banded_lu factorize gives LAPACK gbtrf's pivots and factors; factored "
                        "solves with several right-hand sides match gbsv",
                        "[banded][lapack][factorize]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    using Exec = decltype(exec);
    using Mem = typename Exec::memory_space;
    std::uint32_t seed = 900;
    for (const bands bw : all_bands)
      for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(6), std::size_t(40)})
        for (bool pivoting : {true, false}) {
          const std::size_t nsys = 11, nrhs = 3;
          const double dom = dominance_for(bw, pivoting);
          const auto h = bstest::random_band<T>(nsys, n, bw.kl, bw.ku, ++seed, dom);
          const auto rhs = bstest::random_values<T>(nsys * n * nrhs, ++seed);
          INFO(case_name<T>(nsys, n, bw, pivoting) << " " << exec.name());
          const auto ab = bstest::band_to_device<Layout, T, Mem>(h);
          const auto f = bandsolve::factorize(exec, banded_lu{bw.kl, bw.ku, pivoting}, ab, nsys);
          auto b = bstest::rhs_to_device<Layout, T, Mem, true>(rhs, nsys, n, nrhs);
          f.solve(exec, b);
          exec.fence();
          const auto x = bstest::rhs_to_host(b, nsys, n, nrhs);
          const auto info = bstest::info_to_host(f.info());
          check_against_lapack(h, rhs, nrhs, x, info, dom > 0);
          REQUIRE(bstest::bitwise_equal(bstest::band_to_host(ab, nsys), h.ab));

          // Pivots and factors: LAPACK's with pivoting; the identity and plain LU without.
          const auto ref = bstest::reference_gbsv(h, rhs, static_cast<int>(nrhs));
          const auto lu = bstest::band_to_host(f.lu(), nsys);
          const auto piv = bstest::to_host(f.pivots(), nsys);
          double worst = 0;
          for (std::size_t s = 0; s < nsys; ++s)
            for (std::size_t j = 0; j < n; ++j) {
              if (pivoting) REQUIRE(piv[s * n + j] == ref.ipiv[s * n + j]);
              else REQUIRE(piv[s * n + j] == int(j) + 1);
              // Valid entries: U rows 0..kl+ku of column j (row index >= 0), L rows below.
              const int kv = bw.kl + bw.ku;
              for (int r = 0; r <= kv + bw.kl; ++r) {
                const long i = long(j) + r - kv;  // matrix row of U(i, j) or L(i, j)
                if (i < 0 || i >= long(n)) continue;
                if (!pivoting && r < bw.kl) continue;  // no fill without interchanges
                const std::size_t k = s * n * h.ldab + j * h.ldab + r;
                worst = std::max(worst, bstest::magnitude(T(lu[k] - ref.lu[k])));
              }
            }
          if (pivoting) CHECK(worst <= lapack_tol<T>(bw.kl, bw.ku, false));
        }
  });
}

// ---------------------------------------------------------------------------------------------
// Matrices that need interchanges: a zero diagonal. Without pivoting the first pivot is zero
// (info = 1); with pivoting the result is LAPACK's, info included (tridiagonal ones of odd n are
// singular).

TEMPLATE_LIST_TEST_CASE("banded_lu: zero diagonals fail without pivoting and match LAPACK with it",
                        "[banded][lapack][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 3000;
    for (const bands bw : std::vector<bands>{{1, 1}, {2, 2}, {4, 4}, {2, 3}})
      for (std::size_t n : {std::size_t(2), std::size_t(5), std::size_t(10), std::size_t(31)}) {
        const std::size_t nsys = 13;
        auto h = bstest::random_band<T>(nsys, n, bw.kl, bw.ku, ++seed);
        for (std::size_t s = 0; s < nsys; ++s)
          for (std::size_t i = 0; i < n; ++i) h.at(s, i, i) = T(0);
        const auto rhs = bstest::random_values<T>(nsys * n, ++seed);
        INFO(case_name<T>(nsys, n, bw, true) << " " << exec.name());
        std::vector<int> info_nopiv, info;
        device_solve<Layout, false>(exec, h, rhs, 1, banded_lu{bw.kl, bw.ku, false}, info_nopiv);
        CHECK(info_nopiv == std::vector<int>(nsys, 1));
        const auto x = device_solve<Layout, false>(exec, h, rhs, 1, banded_lu{bw.kl, bw.ku}, info);
        const auto ref = bstest::reference_gbsv(h, rhs, 1);
        CHECK(info == ref.info);
        double worst_res = 0;
        for (std::size_t s = 0; s < nsys; ++s)
          if (ref.info[s] == 0) worst_res = std::max(worst_res, bstest::band_residual(h, x, rhs, s, 0, 1));
        CHECK(worst_res <= residual_tol<T>(bw.kl, bw.ku));
      }
  });
}

// Exactly singular matrices: column k of system s zeroed (k = s mod n) keeps U(k, k) exactly zero
// whatever the interchanges; a 2x2 leading block [1 2; 2 4] gives U(2, 2) = 4 - 2*2 = 0 after the
// interchange. info is LAPACK's in both modes (the matrices are dominant otherwise).
TEMPLATE_LIST_TEST_CASE("banded_lu: singular matrices give LAPACK's info", "[banded][lapack][info]",
                        layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    std::uint32_t seed = 4000;
    for (const bands bw : std::vector<bands>{{1, 1}, {2, 2}, {4, 4}, {3, 2}})
      for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(9)}) {
        const std::size_t nsys = 10;
        auto h = bstest::random_band<T>(nsys, n, bw.kl, bw.ku, ++seed, 1.0);
        std::vector<int> expected(nsys);
        for (std::size_t s = 0; s < nsys; ++s) {
          if (s == 9 && n >= 2) {  // the 2x2 block
            h.at(s, 0, 0) = T(1);
            h.at(s, 0, 1) = T(2);
            h.at(s, 1, 0) = T(2);
            h.at(s, 1, 1) = T(4);
            for (std::size_t i = 0; i < n; ++i)
              for (std::size_t j = 0; j < n; ++j)
                if ((i < 2) != (j < 2) && h.in_band(i, j)) h.at(s, i, j) = T(0);
            expected[s] = 2;
            continue;
          }
          const std::size_t k = s % n;
          for (std::size_t i = 0; i < n; ++i)
            if (h.in_band(i, k)) h.at(s, i, k) = T(0);
          expected[s] = static_cast<int>(k) + 1;
        }
        const auto rhs = bstest::random_values<T>(nsys * n, ++seed);
        INFO(case_name<T>(nsys, n, bw, true) << " " << exec.name());
        const auto ref = bstest::reference_gbsv(h, rhs, 1);
        REQUIRE(ref.info == expected);
        std::vector<int> info;
        device_solve<Layout, false>(exec, h, rhs, 1, banded_lu{bw.kl, bw.ku}, info);
        CHECK(info == expected);
        using Mem = typename decltype(exec)::memory_space;
        const auto f = bandsolve::factorize(exec, banded_lu{bw.kl, bw.ku}, bstest::band_to_device<Layout, T, Mem>(h), nsys);
        exec.fence();
        CHECK(bstest::info_to_host(f.info()) == expected);
        // Without pivoting: the zero column gives the same row; the 2x2 block fails at row 2 too
        // (4 - 2*2 = 0).
        device_solve<Layout, false>(exec, h, rhs, 1, banded_lu{bw.kl, bw.ku, false}, info);
        CHECK(info == expected);
      }
  });
}

// Without pivoting, tiny (reciprocal overflows) and non-finite pivots are flagged as by Thomas;
// with pivoting only exact zeros count (LAPACK), so a tiny diagonal entry is simply not chosen.
TEMPLATE_LIST_TEST_CASE("banded_lu without pivoting flags tiny and non-finite pivots",
                        "[banded][info]", layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  using R = bstest::real_t<T>;
  const std::size_t nsys = 5, n = 7;
  auto h = bstest::random_band<T>(nsys, n, 2, 2, 77, 1.0);
  h.at(1, 3, 3) = T(std::numeric_limits<R>::denorm_min());
  h.at(1, 3, 1) = h.at(1, 3, 2) = T(0);  // so that the pivot of row 3 is A(3, 3) itself
  h.at(2, 0, 0) = T(std::numeric_limits<R>::quiet_NaN());
  h.at(3, 6, 6) = T(std::numeric_limits<R>::infinity());
  const auto rhs = bstest::random_values<T>(nsys * n, 78);
  bstest::for_each_exec([&](auto exec) {
    std::vector<int> info;
    device_solve<Layout, false>(exec, h, rhs, 1, banded_lu{2, 2, false}, info);
    CHECK(info == std::vector<int>{0, 4, 1, 7, 0});
  });
}

// n = 0 and nsys = 0: nothing to solve, info all 0.
TEMPLATE_LIST_TEST_CASE("banded_lu: empty batches and zero-size systems", "[banded]",
                        layout_scalar_list) {
  using Layout = std::tuple_element_t<0, TestType>;
  using T = std::tuple_element_t<1, TestType>;
  bstest::for_each_exec([&](auto exec) {
    using Mem = typename decltype(exec)::memory_space;
    for (std::size_t nsys : {std::size_t(0), std::size_t(3)}) {
      auto ab = bandsolve::banded::make_band<Layout, T, Mem>("ab", nsys, 0, 2, 2);
      auto b = bandsolve::make_batch<Layout, T, Mem>("b", nsys, 0);
      auto info = bstest::make_info<Mem>(nsys);
      bandsolve::solve(exec, banded_lu{2, 2}, ab, b, info);
      const auto f = bandsolve::factorize(exec, banded_lu{2, 2}, ab, nsys);
      f.solve(exec, b);
      exec.fence();
      CHECK(bstest::info_to_host(info) == std::vector<int>(nsys, 0));
      CHECK(f.nsys() == nsys);
    }
  });
}
