#pragma once
// Thomas algorithm on a pack of L systems at once, one SIMD lane per system. Valid in device
// code (no exceptions, no std:: calls, no allocation): CPU backends vectorize the lane loops,
// a GPU backend can run the same routines with L = 1 per thread.
//
// Two ways to reach the rows of a pack:
//  - lanes contiguous (interleaved packs, column blocks): row i of the pack is a run of L values
//    at base + i*row_stride, read in place;
//  - gathered (row layout, general strides): lane l of row i is at base + l*ss + i*si; tiles of
//    L rows are transposed through a small stack buffer so the arithmetic is the same SIMD code.
//
// Forward:  c'0 = c0/b0, d'0 = d0/b0; p_i = b_i - a_i c'_{i-1}, c'_i = c_i/p_i,
//           d'_i = (d_i - a_i d'_{i-1})/p_i.  Backward: x_{n-1} = d'_{n-1}, x_i = d'_i - c'_i x_{i+1}.
// The stored factorization keeps r_i = 1/p_i, l_i = a_i r_i and c'_i, so a later solve is
// d'_i = r_i d_i - l_i d'_{i-1} plus the same backward sweep: no division on the solve path.
//
// Coefficients (a, b, c and the factors) are of type C, right-hand sides and solutions of type D:
// the same type, or D = Kokkos::complex<C> over real C. Pivot screening runs in real_type_t<C>.
#include <bandsolve/backend/host_simd/lane_loop.hpp>
#include <bandsolve/backend/host_simd/lanes.hpp>
#include <bandsolve/backend/host_simd/prefetch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <type_traits>

namespace bandsolve::detail {

// Lanes of Kokkos::complex values are left scalar: forcing SIMD across them measured 5x slower
// than scalar code (shuffles around every product and reciprocal). The row steps below that
// matter most (complex_parts_v, lane_parts_v) work on the lanes' real and imaginary parts
// instead, which vectorizes.
template <class... Scalars>
inline constexpr bool simd_lanes_v = (!is_complex_v<Scalars> && ...);

// ---------------------------------------------------------------------------------------------
// Row operations on lane-contiguous rows. `lanes` is L for full packs, fewer for a last column
// block; the compiler sees a constant when Full is true.

// Complex d over real coefficients C: each lane's value as its two real parts (lane_parts_v,
// parts_of), so the row steps run in real SIMD arithmetic instead of one complex value per
// 128-bit operation (along x and y of a 256^3 cube, full coefficients: 3.2-3.7 -> 1.9-2.3 ns per
// unknown).

// Complex coefficients and d of the same type: the row steps read and write each lane's two parts
// as real values and multiply on them, so that GCC vectorizes the lane loops (with
// Kokkos::complex values it kept them scalar: the complex one-shot solve of n = 256, 32768
// systems took 5.9-6.6 ns per unknown in every layout; on the parts 2.8-2.9 in column and
// interleaved<8>, 5.1 in row layout, whose tiles go through the stack value by value).
template <class C, class D>
inline constexpr bool complex_parts_v = is_complex_v<C> && std::is_same_v<C, D>;

// `risk` accumulates pivot_risk per lane; lanes whose risk is not low get their exact info code
// from a rescan (first_bad_pivot) after the sweep.
template <int L, bool Full, class C, class D, class R>
KOKKOS_FORCEINLINE_FUNCTION void thomas_first_row(int nl, const C* b, const C* c, const D* d,
                                                  C* cp, D* dp, R* risk) {
  const int lanes = Full ? L : nl;
  if constexpr (is_complex_over_real_v<C, D>) {
    const C* const dv = parts_of<C, D>(d);
    C* const out = parts_of<C, D>(dp);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const C pivot = b[l];
      const C r = reciprocal(pivot);
      risk[l] = pivot_risk(pivot, r, R(0));
      cp[l] = r * c[l];
      out[2 * l] = r * dv[2 * l];
      out[2 * l + 1] = r * dv[2 * l + 1];
    }
  } else if constexpr (complex_parts_v<C, D>) {
    using P = real_type_t<C>;
    const P *bv = real_parts(b), *cv = real_parts(c), *dv = real_parts(d);
    P *cpv = real_parts(cp), *dpv = real_parts(dp);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const C pivot(bv[2 * l], bv[2 * l + 1]);
      const C r = reciprocal(pivot);
      risk[l] = pivot_risk(pivot, r, R(0));
      const P rr = r.real(), ri = r.imag(), dr = dv[2 * l], di = dv[2 * l + 1];  // dp may be d
      cpv[2 * l] = rr * cv[2 * l] - ri * cv[2 * l + 1];
      cpv[2 * l + 1] = rr * cv[2 * l + 1] + ri * cv[2 * l];
      dpv[2 * l] = rr * dr - ri * di;
      dpv[2 * l + 1] = rr * di + ri * dr;
    }
  } else {
    BANDSOLVE_FOR_LANES(l, lanes, L, (simd_lanes_v<C, D>)) {
      const C pivot = b[l];
      const C r = reciprocal(pivot);
      risk[l] = pivot_risk(pivot, r, R(0));
      cp[l] = r * c[l];
      dp[l] = r * d[l];
    };
  }
}

// Row i from row i-1 (cp_prev, dp_prev) into cp, dp. With Keep, also into cp_keep, dp_keep: the
// carried copy of the row (see carry_rows_v), which callers pass as cp_prev, dp_prev as well.
template <int L, bool Full, bool Keep = false, class C, class D, class R>
KOKKOS_FORCEINLINE_FUNCTION void thomas_next_row(int nl, const C* a, const C* b, const C* c,
                                                 const D* d, const C* cp_prev, const D* dp_prev,
                                                 C* cp, D* dp, R* risk, C* cp_keep = nullptr,
                                                 D* dp_keep = nullptr) {
  const int lanes = Full ? L : nl;
  if constexpr (is_complex_over_real_v<C, D>) {
    const C* const dv = parts_of<C, D>(d);
    const C* const prev = parts_of<C, D>(dp_prev);
    C* const out = parts_of<C, D>(dp);
    C* const keep = parts_of<C, D>(dp_keep);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const C pivot = b[l] - a[l] * cp_prev[l];
      const C r = reciprocal(pivot);
      risk[l] = pivot_risk(pivot, r, risk[l]);
      const C cp_l = r * c[l];
      const C re = r * (dv[2 * l] - a[l] * prev[2 * l]);
      const C im = r * (dv[2 * l + 1] - a[l] * prev[2 * l + 1]);
      cp[l] = cp_l;
      out[2 * l] = re;
      out[2 * l + 1] = im;
      if constexpr (Keep) {
        cp_keep[l] = cp_l;
        keep[2 * l] = re;
        keep[2 * l + 1] = im;
      }
    }
  } else if constexpr (complex_parts_v<C, D>) {
    using P = real_type_t<C>;
    const P *av = real_parts(a), *bv = real_parts(b), *cv = real_parts(c), *dv = real_parts(d);
    const P *cq = real_parts(cp_prev), *dq = real_parts(dp_prev);
    P *cpv = real_parts(cp), *dpv = real_parts(dp), *ck = real_parts(cp_keep),
      *dk = real_parts(dp_keep);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const P ar = av[2 * l], ai = av[2 * l + 1];
      const C pivot(bv[2 * l] - (ar * cq[2 * l] - ai * cq[2 * l + 1]),
                    bv[2 * l + 1] - (ar * cq[2 * l + 1] + ai * cq[2 * l]));
      const C r = reciprocal(pivot);
      risk[l] = pivot_risk(pivot, r, risk[l]);
      const P rr = r.real(), ri = r.imag();
      const P cr = rr * cv[2 * l] - ri * cv[2 * l + 1], ci = rr * cv[2 * l + 1] + ri * cv[2 * l];
      const P ur = dv[2 * l] - (ar * dq[2 * l] - ai * dq[2 * l + 1]);
      const P ui = dv[2 * l + 1] - (ar * dq[2 * l + 1] + ai * dq[2 * l]);
      const P xr = rr * ur - ri * ui, xi = rr * ui + ri * ur;
      cpv[2 * l] = cr;
      cpv[2 * l + 1] = ci;
      dpv[2 * l] = xr;
      dpv[2 * l + 1] = xi;
      if constexpr (Keep) {
        ck[2 * l] = cr;
        ck[2 * l + 1] = ci;
        dk[2 * l] = xr;
        dk[2 * l + 1] = xi;
      }
    }
  } else {
    BANDSOLVE_FOR_LANES(l, lanes, L, (simd_lanes_v<C, D>)) {
      const C pivot = b[l] - a[l] * cp_prev[l];
      const C r = reciprocal(pivot);
      risk[l] = pivot_risk(pivot, r, risk[l]);
      const C cp_l = r * c[l];
      const D dp_l = r * (d[l] - a[l] * dp_prev[l]);
      cp[l] = cp_l;
      dp[l] = dp_l;
      if constexpr (Keep) {
        cp_keep[l] = cp_l;
        dp_keep[l] = dp_l;
      }
    };
  }
}

template <int L, bool Full, class T>
KOKKOS_FORCEINLINE_FUNCTION void factor_first_row(int nl, const T* b, const T* c, T* r_out,
                                                  T* l_out, T* cp, int* info) {
  const int lanes = Full ? L : nl;
  BANDSOLVE_FOR_LANES(l, lanes, L, (simd_lanes_v<T>)) {
    const T pivot = b[l];
    info[l] = update_info(0, pivot, 0);
    const T r = reciprocal(pivot);
    r_out[l] = r;
    l_out[l] = T(0);
    cp[l] = r * c[l];
  };
}

template <int L, bool Full, class T>
KOKKOS_FORCEINLINE_FUNCTION void factor_next_row(int nl, index_t i, const T* a, const T* b,
                                                 const T* c, const T* cp_prev, T* r_out,
                                                 T* l_out, T* cp, int* info) {
  const int lanes = Full ? L : nl;
  BANDSOLVE_FOR_LANES(l, lanes, L, (simd_lanes_v<T>)) {
    const T pivot = b[l] - a[l] * cp_prev[l];
    info[l] = update_info(info[l], pivot, i);
    const T r = reciprocal(pivot);
    r_out[l] = r;
    l_out[l] = r * a[l];
    cp[l] = r * c[l];
  };
}

template <int L, bool Full, class C, class D>
KOKKOS_FORCEINLINE_FUNCTION void factored_row(int nl, const C* r, const C* lo, const D* d,
                                              const D* dp_prev, D* dp) {
  const int lanes = Full ? L : nl;
  if constexpr (complex_parts_v<C, D>) {
    using P = real_type_t<C>;
    const P *rv = real_parts(r), *lv = real_parts(lo), *dv = real_parts(d),
            *qv = real_parts(dp_prev);
    P* const out = real_parts(dp);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const P rr = rv[2 * l], ri = rv[2 * l + 1], lr = lv[2 * l], li = lv[2 * l + 1];
      const P dr = dv[2 * l], di = dv[2 * l + 1], qr = qv[2 * l], qi = qv[2 * l + 1];
      out[2 * l] = (rr * dr - ri * di) - (lr * qr - li * qi);  // dp may be d
      out[2 * l + 1] = (rr * di + ri * dr) - (lr * qi + li * qr);
    }
  } else {
    BANDSOLVE_FOR_LANES(l, lanes, L, (simd_lanes_v<C, D>)) {
      dp[l] = r[l] * d[l] - lo[l] * dp_prev[l];
    };
  }
}

// Carried rows: the previous row kept in registers where carry_rows_v allows
// (backend/host_simd/work_shape.hpp).

template <int L, bool Full, class T, class U>
KOKKOS_FORCEINLINE_FUNCTION void copy_row(int nl, const T* from, U* to) {
  const int lanes = Full ? L : nl;
  for (int l = 0; l < lanes; ++l) to[l] = from[l];
}

// ---------------------------------------------------------------------------------------------
// Lane-contiguous packs (backend/host_simd/lanes.hpp): G groups of W lanes per work item; scratch
// rows (c') hold the G*W lanes contiguously.

// The exact info code of one lane whose risk was not low: the 1-based row of its first bad pivot,
// recomputed from a, b and the stored c' (element i of the lane's a and b: a_at(i), b_at(i);
// c'_i at cp[i * cp_stride]), or 0 if the screening raised a false alarm.
template <class T, class AAt, class BAt>
KOKKOS_INLINE_FUNCTION int first_bad_pivot(index_t n, const AAt& a_at, const BAt& b_at,
                                           const T* cp, index_t cp_stride) {
  if (!pivot_is_good(b_at(0))) return 1;
  for (index_t i = 1; i < n; ++i)
    if (!pivot_is_good(b_at(i) - a_at(i) * cp[(i - 1) * cp_stride]))
      return static_cast<int>(i + 1);
  return 0;
}

// info of the lanes of ng groups from their risk; c' rows of G*W lanes.
template <int W, int G, bool Full, class T>
KOKKOS_INLINE_FUNCTION void resolve_info_lanes(index_t n, int nl, int ng, lane_rows<const T> a,
                                               lane_rows<const T> b, const T* cp,
                                               const real_type_t<T>* risk, int* info) {
  const int lanes = Full ? W : nl;
  for (int g = 0; g < ng; ++g)
    for (int l = 0; l < lanes; ++l) {
      const int k = g * W + l;
      info[k] = risk_is_low(risk[k]) ? 0
                                     : first_bad_pivot(n, lane_element<T>{a, g, l},
                                                       lane_element<T>{b, g, l}, cp + k, G * W);
    }
}

// x_i = d'_i - c'_i x_{i+1} for one row of a group; x_next is x_{i+1} (the row itself, or the
// carried copy, then updated to x_i).
template <int W, bool Full, bool Carry, class C, class D, class X>
KOKKOS_FORCEINLINE_FUNCTION void backward_row(int nl, const C* c_i, D* x_i, X* x_next) {
  const int lanes = Full ? W : nl;
  if constexpr (is_complex_over_real_v<C, D> && is_complex_over_real_v<C, X>) {
    C* const x = parts_of<C, D>(x_i);
    C* const next = parts_of<C, X>(x_next);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const C re = x[2 * l] - c_i[l] * next[2 * l];
      const C im = x[2 * l + 1] - c_i[l] * next[2 * l + 1];
      x[2 * l] = re;
      x[2 * l + 1] = im;
      if constexpr (Carry) next[2 * l] = re, next[2 * l + 1] = im;
    }
  } else if constexpr (complex_parts_v<C, D> && std::is_same_v<D, std::remove_const_t<X>>) {
    using P = real_type_t<C>;
    const P* const cv = real_parts(c_i);
    P* const x = real_parts(x_i);
    P* const next = real_parts(x_next);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const P cr = cv[2 * l], ci = cv[2 * l + 1], nr = next[2 * l], ni = next[2 * l + 1];
      const P re = x[2 * l] - (cr * nr - ci * ni), im = x[2 * l + 1] - (cr * ni + ci * nr);
      x[2 * l] = re;
      x[2 * l + 1] = im;
      if constexpr (Carry) next[2 * l] = re, next[2 * l + 1] = im;
    }
  } else {
    BANDSOLVE_FOR_LANES(l, lanes, W, (simd_lanes_v<C, D>)) {
      const D x = x_i[l] - c_i[l] * x_next[l];
      x_i[l] = x;
      if constexpr (Carry) x_next[l] = x;
    };
  }
}

// x_i = d'_i - c'_i x_{i+1}, in place over the d' rows of each group.
template <int W, int G, bool Full, class C, class D, class Prefetch>
KOKKOS_FORCEINLINE_FUNCTION void thomas_backward(int nl, int ng, index_t n, const C* cp,
                                                 lane_rows<D> dp, const Prefetch& prefetch) {
  constexpr bool carry = carry_rows_v<G * W, D>;
  D x_carry[carried_lanes(carry ? G * W : 1)] = {};
  if constexpr (carry)
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      copy_row<W, Full>(nl, dp.row(n - 1, g), x_carry + g * W);
    }
  for (index_t i = n - 2; i >= 0; --i) {
    prefetch(n - 2 - i);
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      const C* c_i = cp + i * (G * W) + g * W;
      if constexpr (carry)
        backward_row<W, Full, true>(nl, c_i, dp.row(i, g), x_carry + g * W);
      else
        backward_row<W, Full, false>(nl, c_i, dp.row(i, g), dp.row(i + 1, g));
    }
  }
}

// The forward sweep's previous rows (c', d') of a work item of Lanes lanes: carried in registers
// where carry_rows_v allows, else read back from the rows stored for row i-1.
template <int Lanes, class C, class D, bool Carry = carry_rows_v<Lanes, D> && carry_rows_v<Lanes, C>>
struct forward_carry {
  C cp[static_cast<std::size_t>(Carry ? Lanes : 1)] = {};
  D dp[static_cast<std::size_t>(Carry ? Lanes : 1)] = {};

  // After the first row of group g (lanes g*W ..), stored at cp_row, dp_row.
  template <int W, bool Full>
  KOKKOS_FORCEINLINE_FUNCTION void start(int nl, int g, const C* cp_row, const D* dp_row) {
    if constexpr (Carry) {
      copy_row<W, Full>(nl, cp_row, cp + g * W);
      copy_row<W, Full>(nl, dp_row, dp + g * W);
    } else {
      (void)nl, (void)g, (void)cp_row, (void)dp_row;
    }
  }

  // Row i of group g into cp_row, dp_row; cp_prev, dp_prev are row i-1 as stored.
  template <int W, bool Full, class R>
  KOKKOS_FORCEINLINE_FUNCTION void next_row(int nl, int g, const C* a, const C* b, const C* c,
                                            const D* d, const C* cp_prev, const D* dp_prev,
                                            C* cp_row, D* dp_row, R* risk) {
    if constexpr (Carry) {
      (void)cp_prev, (void)dp_prev;
      thomas_next_row<W, Full, true>(nl, a, b, c, d, cp + g * W, dp + g * W, cp_row, dp_row,
                                     risk, cp + g * W, dp + g * W);
    } else {
      thomas_next_row<W, Full>(nl, a, b, c, d, cp_prev, dp_prev, cp_row, dp_row, risk);
    }
  }
};

// One-shot solve of ng <= G groups. d is overwritten with d' then x; cp is scratch of n*G*W.
template <int W, int G, bool Full, class Ahead = no_rows_ahead, class C, class D, class Prefetch>
KOKKOS_INLINE_FUNCTION void thomas_solve_lanes(index_t n, int nl, int ng, lane_rows<const C> a,
                                               lane_rows<const C> b, lane_rows<const C> c,
                                               lane_rows<D> d, C* cp, int* info,
                                               const Prefetch& prefetch) {
  constexpr int GW = G * W;
  const int lanes = Full ? W : nl;
  // zero: the compiler cannot see that ng >= 1
  real_type_t<C> risk[static_cast<std::size_t>(GW)] = {};
  forward_carry<GW, C, D> carry;
  for (int g = 0; g < G; ++g) {
    if (g >= ng) break;
    thomas_first_row<W, Full>(nl, b.row(0, g), c.row(0, g), d.row(0, g), cp + g * W, d.row(0, g),
                              risk + g * W);
    carry.template start<W, Full>(nl, g, cp + g * W, d.row(0, g));
  }
  for (index_t i = 1; i < n; ++i) {
    prefetch_rows_ahead<Ahead, G>(i, n, ng, lanes, a);
    prefetch_rows_ahead<Ahead, G>(i, n, ng, lanes, b);
    prefetch_rows_ahead<Ahead, G>(i, n, ng, lanes, c);
    prefetch_rows_ahead<Ahead, G>(i, n, ng, lanes, lane_rows<const D>{d.base, d.stride, d.group_stride});
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      carry.template next_row<W, Full>(nl, g, a.row(i, g), b.row(i, g), c.row(i, g), d.row(i, g),
                                       cp + (i - 1) * GW + g * W, d.row(i - 1, g),
                                       cp + i * GW + g * W, d.row(i, g), risk + g * W);
    }
  }
  resolve_info_lanes<W, G, Full>(n, nl, ng, a, b, cp, risk, info);
  thomas_backward<W, G, Full>(nl, ng, n, cp, d, prefetch);
}

// One-shot solve of the full work items q_begin .. q_end-1 in turn, two at a time: the forward
// sweep of item q and the backward sweep of item q-1 share each row step. A lone forward sweep
// leaves the memory bus idle during every backward sweep (its rows are in cache), and a lone
// backward sweep is one latency-bound chain per lane; paired, the input streams never pause.
// Measured on interleaved<8> doubles, n = 256: 0.77-0.84 of STREAM against 0.70 for one item
// at a time. item(q) gives {a, b, c, d} rows of item q (G groups of W lanes, all present); done(q,
// info) receives the item's G*W info codes once its forward sweep is over. cp2 is scratch of
// 2*n*G*W values (the c' rows of the two items in flight; n*G*W for a chain of one item).
template <int W, int G, class Ahead, class C, class Item, class Done>
KOKKOS_INLINE_FUNCTION void thomas_solve_lanes_chain(index_t n, index_t q_begin, index_t q_end,
                                                     const Item& item, C* cp2,
                                                     const Done& done) {
  constexpr int GW = G * W;
  for (index_t q = q_begin; q <= q_end; ++q) {
    const bool forward = q < q_end, backward = q > q_begin;
    C* cpf = cp2 + ((q - q_begin) % 2) * n * GW;      // c' of the item swept forward
    C* cpb = cp2 + ((q - q_begin + 1) % 2) * n * GW;  // c' of the item swept backward
    const auto f = item(forward ? q : q - 1);
    const auto bk = item(backward ? q - 1 : q);
    using D = std::remove_pointer_t<decltype(f.d.row(0, 0))>;
    constexpr bool carry_x = carry_rows_v<GW, D>;
    real_type_t<C> risk[static_cast<std::size_t>(GW)] = {};
    forward_carry<GW, C, D> carry;
    D x_carry[carried_lanes(carry_x ? GW : 1)] = {};
    if (forward)
      for (int g = 0; g < G; ++g) {
        thomas_first_row<W, true>(W, f.b.row(0, g), f.c.row(0, g), f.d.row(0, g), cpf + g * W,
                                  f.d.row(0, g), risk + g * W);
        carry.template start<W, true>(W, g, cpf + g * W, f.d.row(0, g));
      }
    if constexpr (carry_x)
      if (backward)
        for (int g = 0; g < G; ++g) copy_row<W, true>(W, bk.d.row(n - 1, g), x_carry + g * W);
    for (index_t i = 1; i < n; ++i) {
      if (forward) {
        prefetch_rows_ahead<Ahead, G>(i, n, G, W, f.a);
        prefetch_rows_ahead<Ahead, G>(i, n, G, W, f.b);
        prefetch_rows_ahead<Ahead, G>(i, n, G, W, f.c);
        prefetch_rows_ahead<Ahead, G>(i, n, G, W, f.d);
        for (int g = 0; g < G; ++g)
          carry.template next_row<W, true>(W, g, f.a.row(i, g), f.b.row(i, g), f.c.row(i, g),
                                           f.d.row(i, g), cpf + (i - 1) * GW + g * W,
                                           f.d.row(i - 1, g), cpf + i * GW + g * W,
                                           f.d.row(i, g), risk + g * W);
      }
      if (backward) {
        const index_t k = n - 1 - i;  // rows n-2 .. 0 of the previous item
        for (int g = 0; g < G; ++g) {
          const C* c_k = cpb + k * GW + g * W;
          if constexpr (carry_x)
            backward_row<W, true, true>(W, c_k, bk.d.row(k, g), x_carry + g * W);
          else
            backward_row<W, true, false>(W, c_k, bk.d.row(k, g), bk.d.row(k + 1, g));
        }
      }
    }
    if (forward) {
      int info[static_cast<std::size_t>(GW)];
      resolve_info_lanes<W, G, true>(n, W, G, f.a, f.b, cpf, risk, info);
      done(q, info);
    }
  }
}

// Factorization into lane-contiguous factor rows of G*W lanes (row i at r + i*G*W, ...).
template <int W, int G, bool Full, class T>
KOKKOS_INLINE_FUNCTION void thomas_factor_lanes(index_t n, int nl, int ng, lane_rows<const T> a,
                                                lane_rows<const T> b, lane_rows<const T> c,
                                                T* r, T* lo, T* cp, int* info) {
  constexpr int GW = G * W;
  for (int g = 0; g < G; ++g) {
    if (g >= ng) break;
    factor_first_row<W, Full>(nl, b.row(0, g), c.row(0, g), r + g * W, lo + g * W, cp + g * W,
                              info + g * W);
  }
  for (index_t i = 1; i < n; ++i)
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      const index_t o = i * GW + g * W;
      factor_next_row<W, Full>(nl, i, a.row(i, g), b.row(i, g), c.row(i, g), cp + o - GW, r + o,
                               lo + o, cp + o, info + g * W);
    }
}

// Solve with a stored factorization (rows of G*W lanes), d in groups, in place.
template <int W, int G, bool Full, class C, class D, class Prefetch>
KOKKOS_INLINE_FUNCTION void thomas_factored_solve_lanes(index_t n, int nl, int ng, const C* r,
                                                        const C* lo, const C* cp, lane_rows<D> d,
                                                        const Prefetch& prefetch) {
  constexpr int GW = G * W;
  const int lanes = Full ? W : nl;
  for (int g = 0; g < G; ++g) {
    if (g >= ng) break;
    D* d0 = d.row(0, g);
    const C* r0 = r + g * W;
    BANDSOLVE_FOR_LANES(l, lanes, W, (simd_lanes_v<C, D>)) { d0[l] = r0[l] * d0[l]; };
  }
  for (index_t i = 1; i < n; ++i)
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      const index_t o = i * GW + g * W;
      factored_row<W, Full>(nl, r + o, lo + o, d.row(i, g), d.row(i - 1, g), d.row(i, g));
    }
  thomas_backward<W, G, Full>(nl, ng, n, cp, d, prefetch);
}

// ---------------------------------------------------------------------------------------------
// Gathered packs (backend/host_simd/lanes.hpp): tiles of TR rows by L = G*TR lanes transposed
// into lane-contiguous rows.

// info of the nl real lanes of a gathered pack from their risk; c' rows of L lanes.
template <int L, class T>
KOKKOS_INLINE_FUNCTION void resolve_info_gather(index_t n, int nl, gathered_lanes<const T> a,
                                                gathered_lanes<const T> b, const T* cp,
                                                const real_type_t<T>* risk, int* info) {
  for (int l = 0; l < nl; ++l)
    info[l] = risk_is_low(risk[l]) ? 0
                                   : first_bad_pivot(n, gathered_element<T>{a, l},
                                                     gathered_element<T>{b, l}, cp + l, L);
}

// Four rows per step, for work items of one SIMD register of double lanes. Row by row, the
// recurrence is one chain of latency per row: c'_{i-1} -> p_i -> 1/p_i -> c'_i (a multiply-add,
// a division and a product: 20 cycles on Zen 5, 13 of them the division). The products of the
// pivots, q_k = p_i ... p_{i+k}, follow q_k = b q_{k-1} - (a c) q_{k-2} without a division, so the
// chain over four rows is four multiply-adds, one division and one product (32 cycles, not 80);
// the other reciprocals (p_{i+k} = q_k / q_{k-1}) hang off the chain. Each step reads rows
// i .. i+3 at a[k], b[k], ...; cp_carry, dp_carry hold row i-1 on entry and row i+3 on exit.
// The q_k can overflow or underflow where the pivots do not (pivots beyond about 1e+-77): the
// risk then flags the lane (an infinite q_k makes a pivot infinite, a q_k of 0 an infinite
// reciprocal), and the caller recomputes it row by row (thomas_forward_lane). A q_k that lands
// just below the normal range, where 1/q_k is still finite (|q_k| in [1/DBL_MAX, DBL_MIN)), is
// not flagged and loses at most 2 bits there; the hybrid's register sweeps
// (backend/host_simd/chunk_lanes.hpp) also screen the q_k themselves and fall back in that case
// too.
template <int L, class C, class D, class R>
KOKKOS_FORCEINLINE_FUNCTION void thomas_four_rows(const C* const* a, const C* const* b,
                                                  const C* const* c, const D* const* d,
                                                  C* cp_carry, D* dp_carry, C* const* cp,
                                                  D* const* dp, R* risk) {
  BANDSOLVE_FOR_LANES(l, L, L, (simd_lanes_v<C, D>)) {
    const C q0 = b[0][l] - a[0][l] * cp_carry[l];
    const C q1 = b[1][l] * q0 - a[1][l] * c[0][l];
    const C q2 = b[2][l] * q1 - (a[2][l] * c[1][l]) * q0;
    const C q3 = b[3][l] * q2 - (a[3][l] * c[2][l]) * q1;
    const C i0 = reciprocal(q0), i1 = reciprocal(q1), i2 = reciprocal(q2), i3 = reciprocal(q3);
    const C r1 = q0 * i1, r2 = q1 * i2, r3 = q2 * i3;  // 1/p_{i+k}
    R k = pivot_risk(q0, i0, risk[l]);
    k = pivot_risk(q1 * i0, r1, k);
    k = pivot_risk(q2 * i1, r2, k);
    risk[l] = pivot_risk(q3 * i2, r3, k);
    const C cp3 = (c[3][l] * q2) * i3;  // the chain's end: no wait for r3
    const D dp0 = i0 * d[0][l] - (i0 * a[0][l]) * dp_carry[l];
    const D dp1 = r1 * d[1][l] - (r1 * a[1][l]) * dp0;
    const D dp2 = r2 * d[2][l] - (r2 * a[2][l]) * dp1;
    const D dp3 = r3 * d[3][l] - (r3 * a[3][l]) * dp2;
    cp[0][l] = i0 * c[0][l];
    cp[1][l] = r1 * c[1][l];
    cp[2][l] = r2 * c[2][l];
    cp[3][l] = cp3;
    dp[0][l] = dp0;
    dp[1][l] = dp1;
    dp[2][l] = dp2;
    dp[3][l] = dp3;
    cp_carry[l] = cp3;
    dp_carry[l] = dp3;
  };
}

// The forward sweep of one lane, row by row (c'_i, d'_i at cp[i*stride], dp[i*stride]), and
// its info code: the exact recomputation of a lane that thomas_four_rows flagged.
template <class C, class D, class AAt, class BAt, class CAt, class DAt>
KOKKOS_INLINE_FUNCTION int thomas_forward_lane(index_t n, const AAt& a_at, const BAt& b_at,
                                               const CAt& c_at, const DAt& d_at, C* cp, D* dp,
                                               index_t stride) {
  int info = update_info(0, b_at(0), 0);
  C r = reciprocal(b_at(0));
  cp[0] = r * c_at(0);
  dp[0] = r * d_at(0);
  for (index_t i = 1; i < n; ++i) {
    const C pivot = b_at(i) - a_at(i) * cp[(i - 1) * stride];
    info = update_info(info, pivot, i);
    r = reciprocal(pivot);
    cp[i * stride] = r * c_at(i);
    dp[i * stride] = r * (d_at(i) - a_at(i) * dp[(i - 1) * stride]);
  }
  return info;
}

// Whether a gathered forward sweep of L lanes goes four rows per step (thomas_four_rows): one
// register of double lanes, where the row-by-row chain is the bound. Wider items already keep
// the divider busy (one division per register per row); floats would overflow the q_k sooner.
template <int TR, int L, class C, class D>
inline constexpr bool four_rows_v = std::is_same_v<C, double> && std::is_same_v<D, double> &&
                                    L <= cache_line_lanes_v<C> && TR % 4 == 0;

// Forward sweep with d only read: c' into cp and d' into dp (rows of L lanes), info resolved.
template <int TR, int L, class C, class D>
KOKKOS_INLINE_FUNCTION void thomas_forward_gather(index_t n, int nl, gathered_lanes<const C> a,
                                                  gathered_lanes<const C> b,
                                                  gathered_lanes<const C> c,
                                                  gathered_lanes<const D> d, C* cp, D* dp,
                                                  int* info) {
  const lane_offsets<L> oa(nl, a.system_stride), ob(nl, b.system_stride), oc(nl, c.system_stride),
      od(nl, d.system_stride);
  gather_tile<TR, L, C> ta, tb, tc;
  gather_tile<TR, L, D> td;
  const auto load_tiles = [&](index_t i0, int rows) {
    ta.load(a, oa, i0, rows);
    tb.load(b, ob, i0, rows);
    tc.load(c, oc, i0, rows);
    td.load(d, od, i0, rows);
  };
  real_type_t<C> risk[static_cast<std::size_t>(L)];
  if constexpr (four_rows_v<TR, L, C, D>) {
    // Row 0 is the first row of a step, with c'_{-1} = d'_{-1} = 0 and a_0 (not part of the
    // system, maybe not even finite) read as 0. The last rows of a short last tile go one by one.
    C cp_carry[static_cast<std::size_t>(L)] = {};
    D dp_carry[static_cast<std::size_t>(L)] = {};
    for (int l = 0; l < L; ++l) risk[l] = 0;
    for (index_t i0 = 0; i0 < n; i0 += TR) {
      const int rows = tile_rows(n, i0, TR);
      load_tiles(i0, rows);
      if (i0 == 0)
        for (int l = 0; l < L; ++l) ta.v[0][l] = C(0);
      int j = 0;
      for (; j + 4 <= rows; j += 4) {
        const index_t i = i0 + j;
        const C* ar[4] = {ta.v[j], ta.v[j + 1], ta.v[j + 2], ta.v[j + 3]};
        const C* br[4] = {tb.v[j], tb.v[j + 1], tb.v[j + 2], tb.v[j + 3]};
        const C* cr[4] = {tc.v[j], tc.v[j + 1], tc.v[j + 2], tc.v[j + 3]};
        const D* dr[4] = {td.v[j], td.v[j + 1], td.v[j + 2], td.v[j + 3]};
        C* cp_out[4] = {cp + i * L, cp + (i + 1) * L, cp + (i + 2) * L, cp + (i + 3) * L};
        D* dp_out[4] = {dp + i * L, dp + (i + 1) * L, dp + (i + 2) * L, dp + (i + 3) * L};
        thomas_four_rows<L>(ar, br, cr, dr, cp_carry, dp_carry, cp_out, dp_out, risk);
      }
      for (; j < rows; ++j) {
        const index_t i = i0 + j;
        thomas_next_row<L, true, true>(L, ta.v[j], tb.v[j], tc.v[j], td.v[j], cp_carry, dp_carry,
                                       cp + i * L, dp + i * L, risk, cp_carry, dp_carry);
      }
    }
    for (int l = 0; l < nl; ++l)
      info[l] = risk_is_low(risk[l])
                    ? 0
                    : thomas_forward_lane(n, gathered_element<C>{a, l}, gathered_element<C>{b, l},
                                          gathered_element<C>{c, l}, gathered_element<D>{d, l},
                                          cp + l, dp + l, L);
    return;
  }
  forward_carry<L, C, D> carry;
  for (index_t i0 = 0; i0 < n; i0 += TR) {
    const int rows = tile_rows(n, i0, TR);
    load_tiles(i0, rows);
    for (int j = 0; j < rows; ++j) {
      const index_t i = i0 + j;
      if (i == 0) {
        thomas_first_row<L, true>(L, tb.v[0], tc.v[0], td.v[0], cp, dp, risk);
        carry.template start<L, true>(L, 0, cp, dp);
      } else {
        carry.template next_row<L, true>(L, 0, ta.v[j], tb.v[j], tc.v[j], td.v[j],
                                         cp + (i - 1) * L, dp + (i - 1) * L, cp + i * L,
                                         dp + i * L, risk);
      }
    }
  }
  resolve_info_gather<L>(n, nl, a, b, cp, risk, info);
}

// One-shot solve. cp and dp are scratch of n*L values each; x ends up in d.
template <int TR, int L, class C, class D, class Prefetch>
KOKKOS_INLINE_FUNCTION void thomas_solve_gather(index_t n, int nl, gathered_lanes<const C> a,
                                                gathered_lanes<const C> b,
                                                gathered_lanes<const C> c, gathered_lanes<D> d,
                                                C* cp, D* dp, int* info,
                                                const Prefetch& prefetch) {
  thomas_forward_gather<TR, L>(n, nl, a, b, c,
                               gathered_lanes<const D>{d.base, d.system_stride, d.row_stride}, cp,
                               dp, info);
  thomas_backward<L, 1, true>(L, 1, n, cp, lane_rows<D>{dp, L}, prefetch);
  scatter_rows<TR, L>(dp, n, d, lane_offsets<L>(nl, d.system_stride), nl);
}

template <int TR, int L, class T>
KOKKOS_INLINE_FUNCTION void thomas_factor_gather(index_t n, int nl, gathered_lanes<const T> a,
                                                 gathered_lanes<const T> b,
                                                 gathered_lanes<const T> c, T* r, T* lo, T* cp,
                                                 int* info) {
  const lane_offsets<L> oa(nl, a.system_stride), ob(nl, b.system_stride), oc(nl, c.system_stride);
  gather_tile<TR, L, T> ta, tb, tc;
  for (index_t i0 = 0; i0 < n; i0 += TR) {
    const int rows = tile_rows(n, i0, TR);
    ta.load(a, oa, i0, rows);
    tb.load(b, ob, i0, rows);
    tc.load(c, oc, i0, rows);
    for (int j = 0; j < rows; ++j) {
      const index_t i = i0 + j;
      if (i == 0)
        factor_first_row<L, true>(L, tb.v[0], tc.v[0], r, lo, cp, info);
      else
        factor_next_row<L, true>(L, i, ta.v[j], tb.v[j], tc.v[j], cp + (i - 1) * L, r + i * L,
                                 lo + i * L, cp + i * L, info);
    }
  }
}

// Rows per block of the factored solve of a gathered pack whose d' rows go block by block
// (thomas_factored_solve_gather): 64 KiB of lanes, a whole number of tiles.
template <int TR, int L, class D>
inline constexpr index_t factored_gather_block_rows =
    (65536 / (L * static_cast<index_t>(sizeof(D))) / TR < 1
         ? 1
         : 65536 / (L * static_cast<index_t>(sizeof(D))) / TR) *
    TR;

// Solve with a stored factorization; dp is scratch of block*L values. Where block >= n, the d'
// rows of the whole system stay in dp and x is written once. Else the system goes block by
// block: the forward sweep writes each block's d' back to d while d's lines are still in cache,
// and the backward sweep reads them back block by block (the last block is still in dp) and
// writes x. That moves 7 words per unknown, where d' rows of the whole system in scratch, swept
// back and then copied to d, move 11 once they outgrow the caches (the factor rows and d read,
// d' written and read twice, d written); blocks cost two more transposes per row.
template <int TR, int L, class C, class D, class Prefetch>
KOKKOS_INLINE_FUNCTION void thomas_factored_solve_gather(index_t n, int nl, const C* r,
                                                         const C* lo, const C* cp,
                                                         gathered_lanes<D> d, D* dp,
                                                         index_t block,
                                                         const Prefetch& prefetch) {
  const lane_offsets<L> od(nl, d.system_stride);
  const auto rows_from = [&](index_t k0) {
    return gathered_lanes<D>{d.base + k0 * d.row_stride, d.system_stride, d.row_stride};
  };
  gather_tile<TR, L, D> td;
  // Forward: d' of block [k0, k0 + rows_k) into dp; row 0 of a block follows the previous
  // block's last row, still in dp at (block - 1) * L.
  index_t k0 = 0, rows_k = 0;
  for (;; k0 += block) {
    rows_k = n - k0 < block ? n - k0 : block;
    for (index_t t0 = 0; t0 < rows_k; t0 += TR) {
      const int rows = tile_rows(rows_k, t0, TR);
      td.load(d, od, k0 + t0, rows);
      for (int j = 0; j < rows; ++j) {
        const index_t i = k0 + t0 + j, row = t0 + j;
        if (i == 0) {
          BANDSOLVE_FOR_LANES(l, L, L, (simd_lanes_v<C, D>)) { dp[l] = r[l] * td.v[0][l]; };
        } else {
          const D* prev = row == 0 ? dp + (block - 1) * L : dp + (row - 1) * L;
          factored_row<L, true>(L, r + i * L, lo + i * L, td.v[j], prev, dp + row * L);
        }
      }
    }
    if (k0 + rows_k >= n) break;
    scatter_rows<TR, L>(dp, rows_k, rows_from(k0), od, nl);
  }
  if (k0 == 0) {  // the whole system in one block
    thomas_backward<L, 1, true>(L, 1, n, cp, lane_rows<D>{dp, L}, prefetch);
    scatter_rows<TR, L>(dp, n, d, od, nl);
    return;
  }
  // Backward, from the last block (in dp) down; x_next is x of the row after the block.
  D x_next[static_cast<std::size_t>(L)] = {};
  for (;; k0 -= block) {
    if (k0 + rows_k < n) {  // not the last block: its d' rows come back from d
      for (index_t t0 = 0; t0 < rows_k; t0 += TR) {
        td.load(d, od, k0 + t0, TR);
        for (int j = 0; j < TR; ++j)
          for (int l = 0; l < L; ++l) dp[(t0 + j) * L + l] = td.v[j][l];
      }
    }
    for (index_t row = rows_k - 1; row >= 0; --row) {
      const index_t i = k0 + row;
      prefetch(n - 1 - i);
      if (i == n - 1) continue;
      D* x_after = row + 1 < rows_k ? dp + (row + 1) * L : x_next;
      backward_row<L, true, false>(L, cp + i * L, dp + row * L, x_after);
    }
    scatter_rows<TR, L>(dp, rows_k, rows_from(k0), od, nl);
    if (k0 == 0) break;
    for (int l = 0; l < L; ++l) x_next[l] = dp[l];
    rows_k = block;
  }
}

}  // namespace bandsolve::detail
