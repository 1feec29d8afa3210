#pragma once
// Per-pack kernels for solves along an axis that thomas_kernel.hpp does not provide:
//  - coefficients shared by every line (1-D a, b, c of length n): the matrix is factored once per
//    pack in scalars (r = 1/pivot, l = a r, c' = c r) and only d streams through the lanes;
//  - the increment variant: u += x with d read only (d' lives in the pack's scratch), one-shot
//    and with stored factors.
// Lane-contiguous packs (lane_rows) and gathered packs (gathered_lanes, tiles transposed) as in
// thomas_kernel.hpp; the same pivot tests and info codes. Coefficients and factors are of type
// C, right-hand sides and solutions of type D (C, or Kokkos::complex over real C). Valid in
// device code.
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/tridiag/thomas_kernel.hpp>

#include <type_traits>

namespace bandsolve::detail {

struct no_prefetch {
  KOKKOS_FORCEINLINE_FUNCTION void operator()(index_t) const {}
};

// Rows of complex D over real shared factors C run as two real values per lane (lane_parts_v and
// parts_of, thomas_kernel.hpp): every part is multiplied by the same real factor.

// Factorization of the matrix shared by all lines: r_i = 1/pivot_i, l_i = a_i r_i, c'_i = c_i r_i
// (a_0 and c_{n-1} ignored). Returns 0 or the 1-based row of the first bad pivot.
template <class T, class AView, class BView, class CView>
KOKKOS_INLINE_FUNCTION int factor_shared(index_t n, const AView& a, const BView& b,
                                         const CView& c, T* r, T* lo, T* cp) {
  int info = 0;
  T cp_prev = T(0);
  for (index_t i = 0; i < n; ++i) {
    const T ai = i == 0 ? T(0) : static_cast<T>(a(i));
    const T pivot = static_cast<T>(b(i)) - ai * cp_prev;
    info = update_info(info, pivot, i);
    const T ri = T(1) / pivot;
    r[i] = ri;
    lo[i] = ai * ri;
    cp_prev = (i + 1 < n ? static_cast<T>(c(i)) : T(0)) * ri;
    cp[i] = cp_prev;
  }
  return info;
}

// ---------------------------------------------------------------------------------------------
// Lane-contiguous packs.

// d'_i = r_i d_i - l_i d'_{i-1} with shared factors; dp may be d itself (in place).
template <int W, bool Full, class C, class D>
KOKKOS_INLINE_FUNCTION void shared_forward_lanes(index_t n, int nl, const C* r, const C* lo,
                                                 lane_rows<const D> d, lane_rows<D> dp) {
  const int lanes = (Full ? W : nl) * lane_parts_v<C, D>;
  {
    const C r0 = r[0];
    const auto* d0 = parts_of<C, D>(d.row(0));
    auto* x0 = parts_of<C, D>(dp.row(0));
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) x0[l] = r0 * d0[l];
  }
  for (index_t i = 1; i < n; ++i) {
    const C ri = r[i], li = lo[i];
    const auto* di = parts_of<C, D>(d.row(i));
    const auto* prev = parts_of<C, D>(dp.row(i - 1));
    auto* xi = parts_of<C, D>(dp.row(i));
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) xi[l] = ri * di[l] - li * prev[l];
  }
}

// x_i = d'_i - c'_i x_{i+1} in place, c' shared by the lanes.
template <int W, bool Full, class C, class D, class Prefetch = no_prefetch>
KOKKOS_INLINE_FUNCTION void shared_backward_lanes(index_t n, int nl, const C* cp, lane_rows<D> x,
                                                  const Prefetch& prefetch = Prefetch{}) {
  const int lanes = (Full ? W : nl) * lane_parts_v<C, D>;
  for (index_t i = n - 2; i >= 0; --i) {
    prefetch(n - 2 - i);
    const C ci = cp[i];
    auto* xi = parts_of<C, D>(x.row(i));
    const auto* next = parts_of<C, D>(x.row(i + 1));
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) xi[l] -= ci * next[l];
  }
}

// Backward sweep over d' (rows of W lanes at x, scratch) that adds each x_i into u as it goes.
// c' per lane (rows of W at cp) or shared (cp[i]).
template <int W, bool Full, bool SharedCp, class C, class D>
KOKKOS_INLINE_FUNCTION void backward_add_lanes(index_t n, int nl, const C* cp, D* x,
                                               lane_rows<D> u) {
  const int lanes = Full ? W : nl;
  {
    const D* xl = x + (n - 1) * W;
    D* ul = u.row(n - 1);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) ul[l] += xl[l];
  }
  for (index_t i = n - 2; i >= 0; --i) {
    D* xi = x + i * W;
    const D* next = xi + W;
    D* ui = u.row(i);
    if constexpr (SharedCp) {
      const C ci = cp[i];
      auto* const xp = parts_of<C, D>(xi);
      const auto* const np = parts_of<C, D>(next);
      auto* const up = parts_of<C, D>(ui);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes * lane_parts_v<C, D>; ++l) {
        xp[l] -= ci * np[l];
        up[l] += xp[l];
      }
    } else {
      const C* ci = cp + i * W;
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) {
        xi[l] -= ci[l] * next[l];
        ui[l] += xi[l];
      }
    }
  }
}

// Full coefficients, u += x: the one-shot forward sweep of thomas_solve_lanes with d' in scratch
// (cp, dp: n*W each), so d is only read.
template <int W, bool Full, class C, class D>
KOKKOS_INLINE_FUNCTION void thomas_add_lanes(index_t n, int nl, lane_rows<const C> a,
                                             lane_rows<const C> b, lane_rows<const C> c,
                                             lane_rows<const D> d, lane_rows<D> u, C* cp, D* dp,
                                             int* info) {
  real_type_t<C> risk[static_cast<std::size_t>(W)];
  forward_carry<W, C, D> carry;
  thomas_first_row<W, Full>(nl, b.row(0), c.row(0), d.row(0), cp, dp, risk);
  carry.template start<W, Full>(nl, 0, cp, dp);
  for (index_t i = 1; i < n; ++i)
    carry.template next_row<W, Full>(nl, 0, a.row(i), b.row(i), c.row(i), d.row(i),
                                     cp + (i - 1) * W, dp + (i - 1) * W, cp + i * W, dp + i * W,
                                     risk);
  resolve_info_lanes<W, 1, Full>(n, nl, 1, a, b, cp, risk, info);
  backward_add_lanes<W, Full, false>(n, nl, cp, dp, u);
}

// Shared factors (r, l, c' at f, f + n, f + 2n), u += x: d' in x (rows of W lanes, scratch),
// then the backward sweep adds each x_i into u.
template <int W, class C, class D>
KOKKOS_INLINE_FUNCTION void shared_add_lanes(index_t n, int nl, const C* f, lane_rows<const D> d,
                                             lane_rows<D> u, D* x) {
  if (nl == W) {
    shared_forward_lanes<W, true>(n, W, f, f + n, d, lane_rows<D>{x, W});
    backward_add_lanes<W, true, true>(n, W, f + 2 * n, x, u);
  } else {
    shared_forward_lanes<W, false>(n, nl, f, f + n, d, lane_rows<D>{x, W});
    backward_add_lanes<W, false, true>(n, nl, f + 2 * n, x, u);
  }
}

// Stored factors (r, l in rows of W lanes), d only read: x_i = r_i d_i - l_i x_{i-1} into x
// (rows of W lanes, scratch), the forward sweep of a factored solve that adds into u.
template <int W, bool Full, class C, class D>
KOKKOS_INLINE_FUNCTION void factored_forward_lanes(index_t n, int nl, const C* r, const C* lo,
                                                   lane_rows<const D> d, D* x) {
  const int lanes = Full ? W : nl;
  const D* const d0 = d.row(0);
  BANDSOLVE_SIMD_IF((simd_lanes_v<C, D>))
  for (int l = 0; l < lanes; ++l) x[l] = r[l] * d0[l];
  for (index_t i = 1; i < n; ++i)
    factored_row<W, Full>(nl, r + i * W, lo + i * W, d.row(i), x + (i - 1) * W, x + i * W);
}

// ---------------------------------------------------------------------------------------------
// Gathered packs (lines contiguous along the rows, or general strides). Scratch rows of L lanes.

// row(i, v) for every row i of a gathered pack in order, v its L lanes of type D (tiles of TR
// rows transposed into lanes).
template <int TR, int L, class D, class U, class Row>
KOKKOS_INLINE_FUNCTION void for_each_gathered_row(index_t n, int nl, gathered_lanes<U> d,
                                                  const Row& row) {
  const lane_offsets<L> od(nl, d.system_stride);
  gather_tile<TR, L, D> td;
  for (index_t i0 = 0; i0 < n; i0 += TR) {
    const int rows = tile_rows(n, i0, TR);
    td.load(d, od, i0, rows);
    for (int j = 0; j < rows; ++j) row(i0 + j, td.v[j]);
  }
}

// factored_forward_lanes for a gathered pack: d read in tiles transposed into lanes.
template <int TR, int L, class C, class D>
KOKKOS_INLINE_FUNCTION void factored_forward_gather(index_t n, int nl, const C* r, const C* lo,
                                                    gathered_lanes<const D> d, D* x) {
  for_each_gathered_row<TR, L, D>(n, nl, d, [&](index_t i, const D* di) {
    if (i == 0) {
      BANDSOLVE_SIMD_IF((simd_lanes_v<C, D>))
      for (int l = 0; l < L; ++l) x[l] = r[l] * di[l];
    } else {
      factored_row<L, true>(L, r + i * L, lo + i * L, di, x + (i - 1) * L, x + i * L);
    }
  });
}

// u += x for the nl lines that exist: x (rows of L at x, overwritten with u + x) scattered into u.
template <int TR, int L, class T>
KOKKOS_INLINE_FUNCTION void add_scatter_gather(index_t n, int nl, T* x, gathered_lanes<T> u) {
  const lane_offsets<L> ou(nl, u.system_stride);
  gather_tile<TR, L, T> tu;
  for (index_t i0 = 0; i0 < n; i0 += TR) {
    const int rows = tile_rows(n, i0, TR);
    tu.load(u, ou, i0, rows);
    for (int j = 0; j < rows; ++j) {
      T* xi = x + (i0 + j) * L;
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) xi[l] += tu.v[j][l];
    }
  }
  scatter_rows<TR, L>(x, n, u, ou, nl);
}

// Shared factors: d'_i = r_i d_i - l_i d'_{i-1} into dp (rows of L lanes).
template <int TR, int L, class C, class D, class U>
KOKKOS_INLINE_FUNCTION void shared_forward_gather(index_t n, int nl, const C* r, const C* lo,
                                                  gathered_lanes<U> d, D* dp) {
  for_each_gathered_row<TR, L, D>(n, nl, d, [&](index_t i, const D* row) {
    constexpr int lanes = L * lane_parts_v<C, D>;
    const C ri = r[i];
    const auto* di = parts_of<C, D>(row);
    auto* xi = parts_of<C, D>(dp + i * L);
    if (i == 0) {
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) xi[l] = ri * di[l];
    } else {
      const C li = lo[i];
      const auto* prev = parts_of<C, D>(dp + (i - 1) * L);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) xi[l] = ri * di[l] - li * prev[l];
    }
  });
}

}  // namespace bandsolve::detail
