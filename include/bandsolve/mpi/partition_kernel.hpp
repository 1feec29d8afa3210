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

#include <type_traits>

namespace bandsolve::mpi::detail {

// This rank's part of the lines: m rows from global row offset; the first rank ignores a_0 and
// the last c_{m-1} (read as 0), as the single-process solves do.
struct local_part {
  index_t m = 0, offset = 0;
  bool first = false, last = false;
  // Reduced rows of this rank per line (1 or 2).
  KOKKOS_INLINE_FUNCTION int reduced_rows() const { return m == 1 ? 1 : 2; }
};

// The local passes take the systems of lane-contiguous layouts (column, interleaved) in blocks
// of a cache line of T and step every lane of a block through row i before row i+1, with their
// scratch (a', c') stored the same way (LayoutLeft): each row of a block is one cache line. Row
// and strided batches go one system per work item, their scratch row by row (LayoutRight): a
// block there reads a stream per system and array (measured 1.4-2.3x slower). Alternated runs
// at 2 ranks (16384 lines of 256 rows, double, a busy machine: ratios only): blocks took column
// batches from 74 to 61 ns per unknown one-shot and from 54 to 21 factored.
template <class Layout>
inline constexpr bool part_blocks_v =
    !std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::strided>;
template <class Layout, class T>
inline constexpr int part_lanes_v = part_blocks_v<Layout> ? static_cast<int>(64 / sizeof(T)) : 1;
template <class Layout>
using part_scratch_layout_t =
    std::conditional_t<part_blocks_v<Layout>, Kokkos::LayoutLeft, Kokkos::LayoutRight>;

// f(s0, nl) for blocks of L systems s0 .. s0 + nl - 1 (nl = L but for the last block).
template <int L, class ExecutionSpace, class F>
void for_each_block(const ExecutionSpace& exec, const char* label, index_t nsys, const F& f) {
  const index_t blocks = (nsys + L - 1) / L;
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecutionSpace>(exec, 0, blocks), KOKKOS_LAMBDA(const index_t blk) {
        const index_t s0 = blk * L;
        f(s0, static_cast<int>(nsys - s0 < L ? nsys - s0 : L));
      });
}

// Reduced rows of line s: row j (0: x_0, 1: x_{m-1}) at red[(s*k + j)*3 + w], w = 0: coefficient
// of the previous interface unknown, 1: of the next, 2: right-hand side (the diagonal is 1).
// d's rows 1 .. m-2 are overwritten with d', ap and cp (nsys x m, part_scratch_layout_t) receive
// a' and c' there; codes(s): the info code of this part of line s.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Scratch, class Reduced, class Codes>
void reduce_parts(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                  const DView& d, const Scratch& ap, const Scratch& cp, const Reduced& red,
                  const Codes& codes, index_t nsys, local_part part) {
  using T = typename DView::non_const_value_type;
  constexpr int L = part_lanes_v<layout_of_t<DView>, T>;
  for_each_block<L>(exec, "bandsolve::mpi::solve(reduce)", nsys, KOKKOS_LAMBDA(const index_t s0, const int nl) {
    using bandsolve::detail::reciprocal;
    using bandsolve::detail::update_info;
    const index_t m = part.m, off = part.offset;
    const int k = part.reduced_rows();
    const auto a_at = [&](index_t s, index_t i) { return part.first && i == 0 ? T(0) : at(a, s, i); };
    const auto c_at = [&](index_t s, index_t i) { return part.last && i == m - 1 ? T(0) : at(c, s, i); };
    int info[L] = {};
    if (m == 1) {
      for (int l = 0; l < nl; ++l) {
        const index_t s = s0 + l;
        const T b0 = at(b, s, 0);
        const T r = reciprocal(b0);
        T* out = red.data() + s * k * 3;
        out[0] = r * a_at(s, 0);
        out[1] = r * c_at(s, 0);
        out[2] = r * at(d, s, 0);
        codes(s) = update_info(0, b0, off);
      }
      return;
    }
    T ap0[L] = {}, cp0[L] = {}, dp0[L] = {}, ap_i[L] = {}, cp_i[L] = {}, dp_i[L] = {};
    for (int l = 0; l < nl; ++l) {
      const index_t s = s0 + l;
      const T b0 = at(b, s, 0), b1 = at(b, s, 1);
      info[l] = update_info(update_info(0, b0, off), b1, off + 1);
      const T r0 = reciprocal(b0), r1 = reciprocal(b1);
      ap0[l] = r0 * a_at(s, 0), cp0[l] = r0 * c_at(s, 0), dp0[l] = r0 * at(d, s, 0);
      ap_i[l] = r1 * a_at(s, 1), cp_i[l] = r1 * c_at(s, 1), dp_i[l] = r1 * at(d, s, 1);
      if (m > 2) ap(s, 1) = ap_i[l], cp(s, 1) = cp_i[l], at(d, s, 1) = dp_i[l];
    }
    for (index_t i = 2; i < m; ++i)
      for (int l = 0; l < nl; ++l) {
        const index_t s = s0 + l;
        const T ai = a_at(s, i);
        const T pivot = at(b, s, i) - ai * cp_i[l];
        info[l] = update_info(info[l], pivot, off + i);
        const T r = reciprocal(pivot);
        dp_i[l] = r * (at(d, s, i) - ai * dp_i[l]);
        cp_i[l] = r * c_at(s, i);
        ap_i[l] = -r * ai * ap_i[l];
        if (i < m - 1) ap(s, i) = ap_i[l], cp(s, i) = cp_i[l], at(d, s, i) = dp_i[l];
      }
    for (int l = 0; l < nl; ++l) {  // row m-1
      T* out = red.data() + (s0 + l) * k * 3;
      out[3] = ap_i[l];
      out[4] = cp_i[l];
      out[5] = dp_i[l];
    }
    if (m > 2) {
      T ap_n[L] = {}, cp_n[L] = {}, dp_n[L] = {};  // row i+1
      for (int l = 0; l < nl; ++l)
        ap_n[l] = ap(s0 + l, m - 2), cp_n[l] = cp(s0 + l, m - 2), dp_n[l] = at(d, s0 + l, m - 2);
      for (index_t i = m - 3; i >= 1; --i)
        for (int l = 0; l < nl; ++l) {
          const index_t s = s0 + l;
          const T ci = cp(s, i);
          dp_n[l] = at(d, s, i) - ci * dp_n[l];
          ap_n[l] = ap(s, i) - ci * ap_n[l];
          cp_n[l] = -ci * cp_n[l];
          ap(s, i) = ap_n[l], cp(s, i) = cp_n[l], at(d, s, i) = dp_n[l];
        }
      for (int l = 0; l < nl; ++l) {
        // Row 1 is now a'_1 x_0 + x_1 + c'_1 x_{m-1} = d'_1.
        const T den = T(1) - cp0[l] * ap_n[l];
        info[l] = update_info(info[l], den, off);
        const T r = reciprocal(den);
        ap0[l] = r * ap0[l];
        dp0[l] = r * (dp0[l] - cp0[l] * dp_n[l]);
        cp0[l] = -r * cp0[l] * cp_n[l];
      }
    }
    for (int l = 0; l < nl; ++l) {
      T* out = red.data() + (s0 + l) * k * 3;
      out[0] = ap0[l];
      out[1] = cp0[l];
      out[2] = dp0[l];
      codes(s0 + l) = info[l];
    }
  });
}

// x from the interface values (line s: x_0 at iface[s*k], x_{m-1} at iface[s*k + k-1]).
template <class ExecutionSpace, class DView, class Scratch, class Interface>
void finish_parts(const ExecutionSpace& exec, const DView& d, const Scratch& ap,
                  const Scratch& cp, const Interface& iface, index_t nsys, local_part part) {
  using T = typename DView::non_const_value_type;
  constexpr int L = part_lanes_v<layout_of_t<DView>, T>;
  for_each_block<L>(exec, "bandsolve::mpi::solve(finish)", nsys, KOKKOS_LAMBDA(const index_t s0, const int nl) {
    const index_t m = part.m;
    const int k = part.reduced_rows();
    T x0[L] = {}, xm[L] = {};
    for (int l = 0; l < nl; ++l) {
      const index_t s = s0 + l;
      x0[l] = iface(s * k), xm[l] = iface(s * k + k - 1);
      at(d, s, 0) = x0[l];
      if (m > 1) at(d, s, m - 1) = xm[l];
    }
    for (index_t i = 1; i < m - 1; ++i)
      for (int l = 0; l < nl; ++l) {
        const index_t s = s0 + l;
        at(d, s, i) = at(d, s, i) - ap(s, i) * x0[l] - cp(s, i) * xm[l];
      }
  });
}

}  // namespace bandsolve::mpi::detail
