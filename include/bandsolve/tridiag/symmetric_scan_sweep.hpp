#pragma once
// The symmetric factored solve of one long real system with unit row stride, its recurrences run
// as linear scans across SIMD lanes (the method of thomas_scan_sweep.hpp). With the LDL^T factors
// r = 1/pivot and c' = e/pivot (symmetric_factorization) the forward sweep
//
//   y_i = d_i - c'_{i-1} y_{i-1},  stored as z_i = r_i y_i      backward   x_i = z_i - c'_i x_{i+1}
//
// is affine in the previous row, and the backward sweep is Thomas's. 7 words per unknown (c', d,
// r in, z out; c', z in, x out), as Thomas's scans, from two stored arrays instead of three.
#include <bandsolve/tridiag/thomas_scan_sweep.hpp>

#include <type_traits>
#include <utility>

namespace bandsolve::detail {

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
namespace scan {
// Lane 0 of out holds lane V-1 of prev, lane j >= 1 lane j-1 of v: the values one row back.
template <int V, class Vec, int... J>
BANDSOLVE_SIMD_INLINE void one_row_back(Vec& out, const Vec& prev, const Vec& v,
                                        std::integer_sequence<int, J...>) {
  out = __builtin_shufflevector(prev, v, (J == 0 ? V - 1 : V + J - 1)...);
}
}  // namespace scan

// Solves one system of n rows in place in d (unit stride) with its factors r and c' (unit stride,
// as one_system_packing stores them). T is float or double.
template <class T>
KOKKOS_INLINE_FUNCTION void symmetric_scan_factored_solve(index_t n, const T* r, const T* cp,
                                                          T* d) {
  constexpr int V = scan_lanes_v<T>;
  using Vec = simd::vec<T, V>;
  constexpr auto lanes = std::make_integer_sequence<int, V>{};
  const Vec zero = Vec{}, one = zero + T(1);
  if (n <= 0) return;
  // Each block reads its own rows of c' (aligned as r and d) and takes row i-1's from the
  // previous block's last lane (row 0's multiplier meets a zero carry). The carry is y, not the
  // z stored.
  Vec carry = zero, prev = zero;
  index_t i = 0;
  for (; i + V <= n; i += V) {
    Vec c, alpha, beta, last, ri;
    scan::load(c, cp + i);
    scan::one_row_back<V>(alpha, prev, c, lanes);
    alpha = -alpha;
    scan::load(beta, d + i);
    prev = c;
    scan::compose<V, false>(alpha, beta, zero, one);
    scan::broadcast<V - 1>(last, carry, lanes);
    carry = beta + alpha * last;
    scan::load(ri, r + i);
    scan::store(d + i, ri * carry);
  }
  T y = i > 0 ? carry[V - 1] : T(0);
  for (; i < n; ++i) {
    y = i > 0 ? d[i] - cp[i - 1] * y : d[i];
    d[i] = r[i] * y;
  }
  scan_backward<T>(n, cp, d);
}
#else
template <class T>
KOKKOS_INLINE_FUNCTION void symmetric_scan_factored_solve(index_t, const T*, const T*, T*) {}
#endif

// One system of the symmetric factors (one_system_packing: r(s, 0, 0) .. r(s, n-1, 0)) by the
// scans.
template <class T, class RView, class CView>
struct symmetric_scan_system {
  RView r;
  CView cp;
  index_t n;
  KOKKOS_INLINE_FUNCTION void operator()(index_t s, T* x) const {
    symmetric_scan_factored_solve<T>(n, &r(s, 0, 0), &cp(s, 0, 0), x);
  }
};

// symmetric_factorization::solve with the scans, on real factors of one system per pack: d of
// the factors' type, whatever its strides (thomas_scan_solves decides who comes here).
template <class ExecutionSpace, class DView, class RView, class CView>
void symmetric_scan_solve_launch(const ExecutionSpace& exec, const DView& d, const RView& r,
                                 const CView& cp, index_t n, index_t nsys) {
  using T = typename DView::non_const_value_type;
  // Instantiated for every right-hand side the factored solve takes; runs for the solvable ones.
  if constexpr (DView::rank == 2 && std::is_same_v<T, typename CView::non_const_value_type> &&
                std::is_same_v<T, typename RView::non_const_value_type> &&
                (std::is_same_v<T, float> || std::is_same_v<T, double>))
    scan_solve_launch(exec, "bandsolve::symmetric_factorization::solve", d, n, nsys,
                      symmetric_scan_system<T, RView, CView>{r, cp, n});
}

}  // namespace bandsolve::detail
