// Batched banded LU on strided Views (layout::strided): subviews of larger arrays, with the
// systems side by side (system stride 1: lane-contiguous packs) or apart (every other system of
// a row-major array with a padded leading dimension), against LAPACK ?gbsv / ?gbtrf. The entries
// of the larger arrays outside the subviews must stay untouched.
#include "banded_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <utility>
#include <vector>

namespace test_banded_lu_strided {  // units compile in groups: tests/CMakeLists.txt

namespace {

using bandsolve::algo::banded_lu;

template <class T>
using strided3 = Kokkos::View<T***, Kokkos::LayoutStride, Kokkos::HostSpace>;
template <class T>
using strided2 = Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace>;

constexpr double sentinel = -7.25;

// Normwise difference to LAPACK (same pivots, operations in another order): cond(A) times the
// backward error bound 16 (kl + ku + 2) eps of banded_lu_cases.hpp, cond(A) < 1e3 for these
// random matrices.
template <class T>
double lapack_tol(int kl, int ku) {
  return 1000.0 * 16.0 * (kl + ku + 2) * bstest::band_eps<T>;
}

// The larger arrays and the strided Views into them. Side by side: LayoutLeft arrays with two
// spare systems and a spare band row, viewed from system 1 and band row 1 (system stride 1).
// Apart: LayoutRight arrays of 2 nsys systems and ldab + 2 band rows, every other system.
template <class T>
struct strided_case {
  Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace> ab_left;
  Kokkos::View<T***, Kokkos::LayoutLeft, Kokkos::HostSpace> b_left;
  Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> ab_right;
  Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> b_right;
  strided3<T> ab;
  strided3<T> b;  // (nsys, n, nrhs)

  strided_case(bool side_by_side, std::size_t nsys, std::size_t n, std::size_t ldab,
               std::size_t nrhs) {
    if (side_by_side) {
      ab_left = decltype(ab_left)("ab", nsys + 2, n, ldab + 1);
      b_left = decltype(b_left)("b", nsys + 2, n, nrhs);
      Kokkos::deep_copy(ab_left, T(sentinel));
      Kokkos::deep_copy(b_left, T(sentinel));
      ab = Kokkos::subview(ab_left, std::make_pair(std::size_t(1), nsys + 1), Kokkos::ALL,
                           std::make_pair(std::size_t(1), ldab + 1));
      b = Kokkos::subview(b_left, std::make_pair(std::size_t(1), nsys + 1), Kokkos::ALL,
                          Kokkos::ALL);
    } else {
      ab_right = decltype(ab_right)("ab", 2 * nsys, n, ldab + 2);
      b_right = decltype(b_right)("b", 2 * nsys, nrhs, n);
      Kokkos::deep_copy(ab_right, T(sentinel));
      Kokkos::deep_copy(b_right, T(sentinel));
      ab = strided3<T>(ab_right.data(), Kokkos::LayoutStride(nsys, 2 * n * (ldab + 2), n,
                                                              ldab + 2, ldab, 1));
      b = strided3<T>(b_right.data(), Kokkos::LayoutStride(nsys, 2 * nrhs * n, n, 1, nrhs, n));
    }
  }
  // Entries of the larger arrays outside the Views that still hold the sentinel.
  std::size_t untouched_outside() const {
    std::size_t count = 0;
    auto scan = [&](const auto& big, const auto& view) {
      std::vector<bool> inside(big.span(), false);
      for (std::size_t s = 0; s < view.extent(0); ++s)
        for (std::size_t i = 0; i < view.extent(1); ++i)
          for (std::size_t r = 0; r < view.extent(2); ++r)
            inside[static_cast<std::size_t>(&view(s, i, r) - big.data())] = true;
      for (std::size_t k = 0; k < big.span(); ++k)
        if (!inside[k] && big.data()[k] == T(sentinel)) ++count;
    };
    if (ab_left.data()) {
      scan(ab_left, ab);
      scan(b_left, b);
    } else {
      scan(ab_right, ab);
      scan(b_right, b);
    }
    return count;
  }
  std::size_t outside_entries() const {
    return ab_left.data() ? ab_left.span() + b_left.span() - ab.size() - b.size()
                          : ab_right.span() + b_right.span() - ab.size() - b.size();
  }
};

template <class T>
void fill(const strided_case<T>& c, const bstest::host_band<T>& h, const std::vector<T>& rhs,
          std::size_t nrhs) {
  for (std::size_t s = 0; s < h.nsys; ++s)
    for (std::size_t j = 0; j < h.n; ++j) {
      for (std::size_t r = 0; r < h.ldab; ++r) c.ab(s, j, r) = h.ab[s * h.n * h.ldab + j * h.ldab + r];
      for (std::size_t k = 0; k < nrhs; ++k) c.b(s, j, k) = rhs[(s * nrhs + k) * h.n + j];
    }
}

template <class T>
void check_solution(const strided_case<T>& c, const bstest::host_band<T>& h,
                    const std::vector<T>& rhs, std::size_t nrhs, const std::vector<int>& info) {
  const auto ref = bstest::reference_gbsv(h, rhs, static_cast<int>(nrhs));
  std::vector<T> x(h.nsys * nrhs * h.n);
  for (std::size_t s = 0; s < h.nsys; ++s)
    for (std::size_t k = 0; k < nrhs; ++k)
      for (std::size_t i = 0; i < h.n; ++i) x[(s * nrhs + k) * h.n + i] = c.b(s, i, k);
  double worst = 0;
  for (std::size_t s = 0; s < h.nsys; ++s) {
    REQUIRE(info[s] == ref.info[s]);
    for (std::size_t k = 0; k < nrhs; ++k)
      worst = std::max(worst, bstest::vec_rel_diff(x, ref.x, (s * nrhs + k) * h.n, h.n));
  }
  CHECK(worst <= lapack_tol<T>(h.kl, h.ku));
}

}  // namespace

TEMPLATE_TEST_CASE("banded_lu on strided subviews matches LAPACK gbsv", "[banded][strided][lapack]",
                   double, float) {
  using T = TestType;
  Kokkos::DefaultHostExecutionSpace exec;
  std::uint32_t seed = 7000;
  for (bool side_by_side : {true, false})
    for (const auto& bw : std::vector<std::pair<int, int>>{{2, 2}, {4, 4}, {3, 1}})
      for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(33)})
        for (bool pivoting : {true, false}) {
          const int kl = bw.first, ku = bw.second;
          const std::size_t nsys = 19, ldab = bandsolve::banded::ldab_for(kl, ku), nrhs = 2;
          INFO("side_by_side=" << side_by_side << " kl=" << kl << " ku=" << ku << " n=" << n
                               << " pivoting=" << pivoting);
          const auto h = bstest::random_band<T>(nsys, n, kl, ku, ++seed, pivoting ? -0.1 : 1.0);
          const auto rhs = bstest::random_values<T>(nsys * n * nrhs, ++seed);

          // One right-hand side per system, one-shot solve: a rank-2 strided View (k = 0).
          strided_case<T> one(side_by_side, nsys, n, ldab, nrhs);
          fill(one, h, rhs, nrhs);
          const strided2<T> b0 = Kokkos::subview(one.b, Kokkos::ALL, Kokkos::ALL, 0);
          Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
          bandsolve::solve(exec, banded_lu{kl, ku, pivoting}, one.ab, b0, info);
          exec.fence();
          std::vector<T> rhs0(nsys * n);
          for (std::size_t s = 0; s < nsys; ++s)
            for (std::size_t i = 0; i < n; ++i) rhs0[s * n + i] = rhs[s * nrhs * n + i];
          {
            const auto ref = bstest::reference_gbsv(h, rhs0, 1);
            std::vector<T> x(nsys * n);
            for (std::size_t s = 0; s < nsys; ++s)
              for (std::size_t i = 0; i < n; ++i) x[s * n + i] = b0(s, i);
            double worst = 0;
            for (std::size_t s = 0; s < nsys; ++s) {
              REQUIRE(info(s) == ref.info[s]);
              worst = std::max(worst, bstest::vec_rel_diff(x, ref.x, s * n, n));
            }
            CHECK(worst <= lapack_tol<T>(kl, ku));
          }
          CHECK(one.untouched_outside() == one.outside_entries());

          // Several right-hand sides through a factorization of the strided band.
          strided_case<T> several(side_by_side, nsys, n, ldab, nrhs);
          fill(several, h, rhs, nrhs);
          const auto f = bandsolve::factorize(exec, banded_lu{kl, ku, pivoting}, several.ab);
          f.solve(exec, several.b);
          exec.fence();
          check_solution(several, h, rhs, nrhs, bstest::info_to_host(f.info()));
          const auto piv = bstest::to_host(f.pivots(), nsys);
          const auto ref = bstest::reference_gbsv(h, rhs, static_cast<int>(nrhs));
          if (pivoting) CHECK(piv == ref.ipiv);
          CHECK(several.untouched_outside() == several.outside_entries());
        }
}

TEST_CASE("banded_lu strided: a strided band needs strided right-hand sides of its size",
          "[banded][strided][errors]") {
  Kokkos::DefaultHostExecutionSpace exec;
  Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> big("ab", 8, 6, 7);
  const strided3<double> ab(big.data(), Kokkos::LayoutStride(4, 2 * 6 * 7, 6, 7, 7, 1));
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> bbig("b", 8, 5);
  const strided2<double> b(bbig.data(), Kokkos::LayoutStride(4, 10, 5, 1));
  Kokkos::View<int*, Kokkos::HostSpace> info("info", 4);
  CHECK_THROWS_WITH(bandsolve::solve(exec, banded_lu{2, 2}, ab, b, info),
                    Catch::Matchers::Equals(
                        "bandsolve::solve(banded_lu): b has 5 rows but ab has n = 6 columns"));
}

}  // namespace test_banded_lu_strided
