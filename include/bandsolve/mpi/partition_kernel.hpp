#pragma once
// The local passes of the partitioned Thomas algorithm (modified Thomas, as in the partition
// method and PaScaL_TDMA), one system per work item on the host execution spaces.
//
// A rank holds rows 0 .. m-1 of a line (global rows offset .. offset+m-1); x_{-1} and x_m belong
// to the neighbouring ranks. reduce_parts rewrites every local row in terms of the part's two
// interface unknowns x_0 and x_{m-1}:
//   forward   rows 0 and 1 divided by their diagonal; for i >= 2, with p_i = b_i - a_i c'_{i-1}:
//             c'_i = c_i/p_i, d'_i = (d_i - a_i d'_{i-1})/p_i, a'_i = -a_i a'_{i-1}/p_i
//             (a'_i: the coefficient of x_0 in row i; for row 0 that of x_{-1});
//   backward  for i = m-3 .. 1: d'_i -= c'_i d'_{i+1}, a'_i -= c'_i a'_{i+1}, c'_i = -c'_i c'_{i+1}
//             (c'_i: now the coefficient of x_{m-1});
//   row 0     (m >= 3) x_1 eliminated with row 1, divided by 1 - c'_0 a'_1.
// Rows 0 and m-1 are then a'_0 x_{-1} + x_0 + c'_0 x_{m-1} = d'_0 and
// a'_{m-1} x_0 + x_{m-1} + c'_{m-1} x_m = d'_{m-1}: two rows of the reduced system, which has unit
// diagonal and 2 rows per rank (one for a rank of one row: its own row divided by b_0).
// finish_parts then sets x_i = d'_i - a'_i x_0 - c'_i x_{m-1} for 0 < i < m-1.
//
// Info codes: the global 1-based row of the first bad pivot (core/pivot.hpp) the elimination meets
// in this order: b_0, b_1, p_2 .. p_{m-1}, then 1 - c'_0 a'_1 (counted as row 0). The pivots differ
// from those of one Thomas sweep over the whole line, so a line that Thomas solves with a tiny
// pivot may be flagged at another row here; a zero row is flagged at its own row by both.
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/layout/layout_of.hpp>

#include <Kokkos_Core.hpp>

namespace bandsolve::mpi::detail {

// This rank's part of the lines: m rows from global row offset; the first rank ignores a_0 and
// the last c_{m-1} (read as 0), as the single-process solves do.
struct local_part {
  index_t m = 0, offset = 0;
  bool first = false, last = false;
  // Reduced rows of this rank per line (1 or 2).
  KOKKOS_INLINE_FUNCTION int reduced_rows() const { return m == 1 ? 1 : 2; }
};

// Reduced rows of line s: row j (0: x_0, 1: x_{m-1}) at red[(s*k + j)*3 + w], w = 0: coefficient
// of the previous interface unknown, 1: of the next, 2: right-hand side (the diagonal is 1).
// d's rows 1 .. m-2 are overwritten with d', ap and cp (nsys x m) receive a' and c' there;
// codes(s): the info code of this part of line s.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Scratch, class Reduced, class Codes>
void reduce_parts(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                  const DView& d, const Scratch& ap, const Scratch& cp, const Reduced& red,
                  const Codes& codes, index_t nsys, local_part part) {
  using T = typename DView::non_const_value_type;
  using bandsolve::detail::reciprocal;
  using bandsolve::detail::update_info;
  Kokkos::parallel_for(
      "bandsolve::mpi::solve(reduce)", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, nsys),
      KOKKOS_LAMBDA(const index_t s) {
        const index_t m = part.m, off = part.offset;
        const int k = part.reduced_rows();
        const auto a_at = [&](index_t i) { return part.first && i == 0 ? T(0) : at(a, s, i); };
        const auto c_at = [&](index_t i) { return part.last && i == m - 1 ? T(0) : at(c, s, i); };
        T* out = red.data() + s * k * 3;
        int info = 0;
        if (m == 1) {
          const T b0 = at(b, s, 0);
          info = update_info(0, b0, off);
          const T r = reciprocal(b0);
          out[0] = r * a_at(0);
          out[1] = r * c_at(0);
          out[2] = r * at(d, s, 0);
          codes(s) = info;
          return;
        }
        const T b0 = at(b, s, 0), b1 = at(b, s, 1);
        info = update_info(info, b0, off);
        info = update_info(info, b1, off + 1);
        const T r0 = reciprocal(b0), r1 = reciprocal(b1);
        T ap0 = r0 * a_at(0), cp0 = r0 * c_at(0), dp0 = r0 * at(d, s, 0);
        T ap_i = r1 * a_at(1), cp_i = r1 * c_at(1), dp_i = r1 * at(d, s, 1);
        if (m > 2) ap(s, 1) = ap_i, cp(s, 1) = cp_i, at(d, s, 1) = dp_i;
        for (index_t i = 2; i < m; ++i) {
          const T ai = a_at(i);
          const T pivot = at(b, s, i) - ai * cp_i;
          info = update_info(info, pivot, off + i);
          const T r = reciprocal(pivot);
          dp_i = r * (at(d, s, i) - ai * dp_i);
          cp_i = r * c_at(i);
          ap_i = -r * ai * ap_i;
          if (i < m - 1) ap(s, i) = ap_i, cp(s, i) = cp_i, at(d, s, i) = dp_i;
        }
        out[3] = ap_i;  // row m-1
        out[4] = cp_i;
        out[5] = dp_i;
        if (m > 2) {
          T ap_n = ap(s, m - 2), cp_n = cp(s, m - 2), dp_n = at(d, s, m - 2);  // row i+1
          for (index_t i = m - 3; i >= 1; --i) {
            const T ci = cp(s, i);
            dp_n = at(d, s, i) - ci * dp_n;
            ap_n = ap(s, i) - ci * ap_n;
            cp_n = -ci * cp_n;
            ap(s, i) = ap_n, cp(s, i) = cp_n, at(d, s, i) = dp_n;
          }
          const T den = T(1) - cp0 * ap_n;  // row 1 is now a'_1 x_0 + x_1 + c'_1 x_{m-1} = d'_1
          info = update_info(info, den, off);
          const T r = reciprocal(den);
          ap0 = r * ap0;
          dp0 = r * (dp0 - cp0 * dp_n);
          cp0 = -r * cp0 * cp_n;
        }
        out[0] = ap0;
        out[1] = cp0;
        out[2] = dp0;
        codes(s) = info;
      });
}

// x from the interface values (line s: x_0 at iface[s*k], x_{m-1} at iface[s*k + k-1]).
template <class ExecutionSpace, class DView, class Scratch, class Interface>
void finish_parts(const ExecutionSpace& exec, const DView& d, const Scratch& ap,
                  const Scratch& cp, const Interface& iface, index_t nsys, local_part part) {
  using T = typename DView::non_const_value_type;
  Kokkos::parallel_for(
      "bandsolve::mpi::solve(finish)", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, nsys),
      KOKKOS_LAMBDA(const index_t s) {
        const index_t m = part.m;
        const int k = part.reduced_rows();
        const T x0 = iface(s * k), xm = iface(s * k + k - 1);
        at(d, s, 0) = x0;
        if (m > 1) at(d, s, m - 1) = xm;
        for (index_t i = 1; i < m - 1; ++i) at(d, s, i) = at(d, s, i) - ap(s, i) * x0 - cp(s, i) * xm;
      });
}

}  // namespace bandsolve::mpi::detail
