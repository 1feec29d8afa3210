#pragma once
// Helpers of the PCR / CR / Thomas-PCR tests: the tolerances of the reductions, and a batch as
// every other row of padded arrays.
#include "test_support.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace bstest {

// f(algo) for each solver that works inside a system: PCR, CR, the hybrid, and automatic.
template <class F>
void for_each_reduction_algo(F&& f) {
  f(bandsolve::algo::pcr{});
  f(bandsolve::algo::cr{});
  f(bandsolve::algo::thomas_pcr{});
  f(bandsolve::algo::automatic{});
}

// Forward difference to LAPACK for PCR, CR and the hybrid on random_dominant systems. After
// normalisation every row has |a| + |c| <= 2/3 (|b| >= |a| + |c| + 1 with |a|, |c| <= 1), and a
// reduction step keeps the rows diagonally dominant (the off-diagonal ratio does not grow: Heller,
// SIAM J. Numer. Anal. 13, 1976), so each of the log2(n) steps is backward stable with a few
// roundings per row. Bound used: lapack_tol (cond <= 6, 12u per elimination) per step,
// (1 + log2 n) steps.
template <class T>
double reduction_tol(std::size_t n) {
  return lapack_tol<T>() * (1.0 + std::log2(static_cast<double>(std::max<std::size_t>(n, 1))));
}

// p with a[0] and c[n-1] of every system set to values that a solver must ignore.
template <class T>
host_batch<T> with_ignored_ends(host_batch<T> q) {
  for (std::size_t s = 0; s < q.nsys; ++s) {
    q.a[q.idx(s, 0)] = T(7);
    q.c[q.idx(s, q.n - 1)] = T(-9);
  }
  return q;
}

// The checks of a reduction's solve d of p: info as expected and, where every system is clean,
// x within reduction_tol of the reference ref and its residual within residual_tol.
template <class T, class DView, class InfoView>
void check_reduction_solve(const host_batch<T>& p, const std::vector<T>& ref,
                           const std::vector<int>& expected, const DView& d,
                           const InfoView& info) {
  const auto x = to_host(d, p.nsys);
  CHECK(info_to_host(info) == expected);
  if (expected == std::vector<int>(p.nsys, 0)) {
    CHECK(max_rel_diff(x, ref, p.nsys, p.n) <= reduction_tol<T>(p.n));
    CHECK(max_residual(p, x) <= residual_tol<T>());
  }
}

// The systems of p as unit-row-stride subviews: system s is row 1 (of 2) of slab s of a padded
// (nsys, 2, n + 2) array, at columns 1 .. n; everything else holds a sentinel, so that
// written_outside() counts the entries of d's array that a solve wrote outside the view.
template <class T, class Mem>
struct padded_rows {
  using Big = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
  using Sub = Kokkos::View<T**, Kokkos::LayoutStride, Mem>;
  static constexpr double sentinel = -777;
  std::size_t nsys, n;
  Big A, B, C, D;
  Sub a, b, c, d;

  explicit padded_rows(const host_batch<T>& p)
      : nsys(p.nsys), n(p.n), A("A", nsys, 2, n + 2), B("B", nsys, 2, n + 2),
        C("C", nsys, 2, n + 2), D("D", nsys, 2, n + 2) {
    for (const auto& v : {A, B, C, D}) Kokkos::deep_copy(v, T(sentinel));
    const auto sub = [&](const Big& big) -> Sub {
      return Kokkos::subview(big, Kokkos::ALL, 1, std::make_pair(std::size_t(1), n + 1));
    };
    a = sub(A), b = sub(B), c = sub(C), d = sub(D);
    fill(a, p.a, nsys);
    fill(b, p.b, nsys);
    fill(c, p.c, nsys);
    fill(d, p.d, nsys);
  }

  std::size_t written_outside() const {
    const auto raw = raw_copy(D);
    std::size_t outside = 0;
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t k = 0; k < 2; ++k)
        for (std::size_t j = 0; j < n + 2; ++j)
          if (k != 1 || j == 0 || j == n + 1)
            outside += raw[(s * 2 + k) * (n + 2) + j] == T(sentinel) ? 0 : 1;
    return outside;
  }
};

}  // namespace bstest
