#pragma once
// Symmetric (Hermitian) positive definite tridiagonal systems on a pack of L systems at once, one
// SIMD lane per system: the arithmetic of LAPACK ?pttrf / ?pttrs on the packs, lane access,
// prefetch and backward sweeps of the Thomas kernels (thomas_kernel.hpp). Valid in device code.
//
// The matrix of a system is its real diagonal b and its off-diagonal e (e_i couples rows i and
// i+1: A(i, i+1) = e_i, A(i+1, i) = conj(e_i); e_{n-1} is not read). Elimination without
// pivoting is Thomas with a_i = conj(e_{i-1}), c_i = e_i, so the pivots are real:
//   p_0 = b_0, p_i = b_i - Re(conj(e_{i-1}) c'_{i-1}), c'_i = e_i / p_i,
//   d'_i = (d_i - conj(e_{i-1}) d'_{i-1}) / p_i;  x_{n-1} = d'_{n-1}, x_i = d'_i - c'_i x_{i+1}.
// Row i reads e twice (rows i-1 and i), the second time from cache: a one-shot solve streams b, e
// and d in and x out, 4 values per unknown against Thomas's 5.
// The stored factorization A = L D L^H keeps r_i = 1/p_i (real) and c'_i (L's sub-diagonal is
// conj(c'_i)); a solve is y_i = d_i - conj(c'_{i-1}) y_{i-1}, x_i = r_i y_i - c'_i x_{i+1}.
//
// Pivots must be positive and finite (info as ?pttrf: the 1-based row of the first pivot that is
// not): the per-row screen is Thomas's pivot_risk plus a term that is >= 1 for a negative pivot.
#include <bandsolve/backend/host_simd/lane_loop.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/tridiag/thomas_kernel.hpp>
#include <bandsolve/tridiag/thomas_register_sweep.hpp>

#include <type_traits>

namespace bandsolve::detail {

template <class T>
KOKKOS_FORCEINLINE_FUNCTION T conj_of(const T& x) {
  if constexpr (is_complex_v<T>)
    return T(x.real(), -x.imag());
  else
    return x;
}

// Re(conj(x) y): |e_{i-1}|^2 / p_{i-1} when y = c'_{i-1} = e_{i-1} / p_{i-1}.
template <class C>
KOKKOS_FORCEINLINE_FUNCTION real_type_t<C> re_conj_mul(const C& x, const C& y) {
  if constexpr (is_complex_v<C>)
    return x.real() * y.real() + x.imag() * y.imag();
  else
    return x * y;
}

// A positive pivot: finite, positive, its reciprocal finite (the ?pttrf test plus Thomas's).
template <class R>
KOKKOS_FORCEINLINE_FUNCTION bool spd_pivot_is_good(R pivot) {
  return static_cast<bool>((pivot >= pivot_limits<R>::tiny) & (pivot <= pivot_limits<R>::huge));
}

// pivot_risk for positive pivots: (|r| - r) huge huge is 0 for r >= 0 and inf for any finite
// r < 0 (|r| >= 1/huge once the pivot is finite), above risk_limit.
template <class R>
KOKKOS_FORCEINLINE_FUNCTION R spd_risk(R pivot, R r, R risk) {
  const R m = abs_real(r);
  return (m - r) * pivot_limits<R>::huge * pivot_limits<R>::huge +
         (m * pivot_limits<R>::risk_scale + (pivot * R(0) + risk));
}

// The exact info code of one lane: pivots recomputed from b (b_at(i)), e (e_at(i)) and the
// stored c'_i at cp[i * cp_stride].
template <class C, class BAt, class EAt>
KOKKOS_INLINE_FUNCTION int first_bad_spd_pivot(index_t n, const BAt& b_at, const EAt& e_at,
                                               const C* cp, index_t cp_stride) {
  if (!spd_pivot_is_good(b_at(0))) return 1;
  for (index_t i = 1; i < n; ++i)
    if (!spd_pivot_is_good(b_at(i) - re_conj_mul(e_at(i - 1), cp[(i - 1) * cp_stride])))
      return static_cast<int>(i + 1);
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Row operations on lanes (runs of L values, `nl` of them when not Full).

template <int L, bool Full, class R, class C, class D>
KOKKOS_FORCEINLINE_FUNCTION void sym_first_row(int nl, const R* b, const C* e, const D* d, C* cp,
                                               D* dp, R* risk) {
  const int lanes = Full ? L : nl;
  BANDSOLVE_FOR_LANES(l, lanes, L, (simd_lanes_v<C, D>)) {
    const R r = R(1) / b[l];
    risk[l] = spd_risk(b[l], r, R(0));
    cp[l] = r * e[l];
    dp[l] = r * d[l];
  };
}

// Row i from row i-1 (e_prev = e_{i-1}; cp_prev, dp_prev) into cp, dp, and, with Keep, into
// cp_keep, dp_keep (the carried copy; see carry_rows_v).
template <int L, bool Full, bool Keep, class R, class C, class D>
KOKKOS_FORCEINLINE_FUNCTION void sym_next_row(int nl, const R* b, const C* e_prev, const C* e,
                                              const D* d, const C* cp_prev, const D* dp_prev,
                                              C* cp, D* dp, R* risk, C* cp_keep, D* dp_keep) {
  const int lanes = Full ? L : nl;
  BANDSOLVE_FOR_LANES(l, lanes, L, (simd_lanes_v<C, D>)) {
    const C ep = e_prev[l];
    const R pivot = b[l] - re_conj_mul(ep, cp_prev[l]);
    const R r = R(1) / pivot;
    risk[l] = spd_risk(pivot, r, risk[l]);
    const C cp_l = r * e[l];
    const D dp_l = r * (d[l] - conj_of(ep) * dp_prev[l]);
    cp[l] = cp_l;
    dp[l] = dp_l;
    if constexpr (Keep) {
      cp_keep[l] = cp_l;
      dp_keep[l] = dp_l;
    }
  };
}

// The forward sweep's previous rows, carried in registers where carry_rows_v allows.
template <int Lanes, class C, class D,
          bool Carry = carry_rows_v<Lanes, D> && carry_rows_v<Lanes, C>>
struct sym_carry {
  C cp[static_cast<std::size_t>(Carry ? Lanes : 1)] = {};
  D dp[static_cast<std::size_t>(Carry ? Lanes : 1)] = {};

  template <int W, bool Full>
  KOKKOS_FORCEINLINE_FUNCTION void start(int nl, int g, const C* cp_row, const D* dp_row) {
    if constexpr (Carry) {
      copy_row<W, Full>(nl, cp_row, cp + g * W);
      copy_row<W, Full>(nl, dp_row, dp + g * W);
    } else {
      (void)nl, (void)g, (void)cp_row, (void)dp_row;
    }
  }

  template <int W, bool Full, class R>
  KOKKOS_FORCEINLINE_FUNCTION void next_row(int nl, int g, const R* b, const C* e_prev,
                                            const C* e, const D* d, const C* cp_prev,
                                            const D* dp_prev, C* cp_row, D* dp_row, R* risk) {
    if constexpr (Carry)
      sym_next_row<W, Full, true>(nl, b, e_prev, e, d, cp + g * W, dp + g * W, cp_row, dp_row,
                                  risk, cp + g * W, dp + g * W);
    else
      sym_next_row<W, Full, false>(nl, b, e_prev, e, d, cp_prev, dp_prev, cp_row, dp_row, risk,
                                   static_cast<C*>(nullptr), static_cast<D*>(nullptr));
  }
};

// ---------------------------------------------------------------------------------------------
// Lane-contiguous packs (interleaved, column blocks, unit-system-stride strided Views): G groups
// of W lanes, as in thomas_kernel.hpp.

template <class R, class C, class D>
struct sym_lane_item {
  lane_rows<const R> b;
  lane_rows<const C> e;
  lane_rows<D> d;
};

template <int W, int G, bool Full, class R, class C>
KOKKOS_INLINE_FUNCTION void resolve_spd_info_lanes(index_t n, int nl, int ng,
                                                   lane_rows<const R> b, lane_rows<const C> e,
                                                   const C* cp, const R* risk, int* info) {
  const int lanes = Full ? W : nl;
  for (int g = 0; g < ng; ++g)
    for (int l = 0; l < lanes; ++l) {
      const int k = g * W + l;
      info[k] = risk_is_low(risk[k]) ? 0
                                     : first_bad_spd_pivot(n, lane_element<R>{b, g, l},
                                                           lane_element<C>{e, g, l}, cp + k, G * W);
    }
}

// Forward sweep of ng <= G groups: d becomes d', c' into cp (n rows of G*W), info resolved.
template <int W, int G, bool Full, class Ahead, class R, class C, class D>
KOKKOS_INLINE_FUNCTION void sym_forward_lanes(index_t n, int nl, int ng,
                                              const sym_lane_item<R, C, D>& f, C* cp, int* info) {
  constexpr int GW = G * W;
  const int lanes = Full ? W : nl;
  R risk[static_cast<std::size_t>(GW)] = {};
  sym_carry<GW, C, D> carry;
  for (int g = 0; g < G; ++g) {
    if (g >= ng) break;
    sym_first_row<W, Full>(nl, f.b.row(0, g), f.e.row(0, g), f.d.row(0, g), cp + g * W,
                           f.d.row(0, g), risk + g * W);
    carry.template start<W, Full>(nl, g, cp + g * W, f.d.row(0, g));
  }
  for (index_t i = 1; i < n; ++i) {
    prefetch_rows_ahead<Ahead, G>(i, n, ng, lanes, f.b);
    prefetch_rows_ahead<Ahead, G>(i, n, ng, lanes, f.e);
    prefetch_rows_ahead<Ahead, G>(i, n, ng, lanes,
                                  lane_rows<const D>{f.d.base, f.d.stride, f.d.group_stride});
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      carry.template next_row<W, Full>(nl, g, f.b.row(i, g), f.e.row(i - 1, g), f.e.row(i, g),
                                       f.d.row(i, g), cp + (i - 1) * GW + g * W,
                                       f.d.row(i - 1, g), cp + i * GW + g * W, f.d.row(i, g),
                                       risk + g * W);
    }
  }
  resolve_spd_info_lanes<W, G, Full>(n, nl, ng, f.b, f.e, cp, risk, info);
}

// One-shot solve of one work item (ng groups, nl lanes each when not Full); cp: n*G*W scratch.
template <int W, int G, bool Full, class R, class C, class D, class Prefetch>
KOKKOS_INLINE_FUNCTION void sym_solve_lanes(index_t n, int nl, int ng,
                                            const sym_lane_item<R, C, D>& f, C* cp, int* info,
                                            const Prefetch& prefetch) {
  sym_forward_lanes<W, G, Full, no_rows_ahead>(n, nl, ng, f, cp, info);
  thomas_backward<W, G, Full>(nl, ng, n, cp, f.d, prefetch);
}

// Full work items q_begin .. q_end-1, two in flight: the forward sweep of item q and the backward
// sweep of item q-1 share each row step (as thomas_solve_lanes_chain, whose measurements apply).
// cp2: 2*n*G*W scratch; done(q, info) receives item q's G*W info codes.
template <int W, int G, class Ahead, class C, class Item, class Done>
KOKKOS_INLINE_FUNCTION void sym_solve_lanes_chain(index_t n, index_t q_begin, index_t q_end,
                                                  const Item& item, C* cp2, const Done& done) {
  constexpr int GW = G * W;
  for (index_t q = q_begin; q <= q_end; ++q) {
    const bool forward = q < q_end, backward = q > q_begin;
    C* cpf = cp2 + ((q - q_begin) % 2) * n * GW;
    C* cpb = cp2 + ((q - q_begin + 1) % 2) * n * GW;
    const auto f = item(forward ? q : q - 1);
    const auto bk = item(backward ? q - 1 : q);
    using D = std::remove_pointer_t<decltype(f.d.row(0, 0))>;
    using R = std::remove_const_t<std::remove_pointer_t<decltype(f.b.row(0, 0))>>;
    constexpr bool carry_x = carry_rows_v<GW, D>;
    R risk[static_cast<std::size_t>(GW)] = {};
    sym_carry<GW, C, D> carry;
    D x_carry[static_cast<std::size_t>(carry_x ? GW : 1)] = {};
    if (forward)
      for (int g = 0; g < G; ++g) {
        sym_first_row<W, true>(W, f.b.row(0, g), f.e.row(0, g), f.d.row(0, g), cpf + g * W,
                               f.d.row(0, g), risk + g * W);
        carry.template start<W, true>(W, g, cpf + g * W, f.d.row(0, g));
      }
    if constexpr (carry_x)
      if (backward)
        for (int g = 0; g < G; ++g) copy_row<W, true>(W, bk.d.row(n - 1, g), x_carry + g * W);
    for (index_t i = 1; i < n; ++i) {
      if (forward) {
        prefetch_rows_ahead<Ahead, G>(i, n, G, W, f.b);
        prefetch_rows_ahead<Ahead, G>(i, n, G, W, f.e);
        prefetch_rows_ahead<Ahead, G>(i, n, G, W, f.d);
        for (int g = 0; g < G; ++g)
          carry.template next_row<W, true>(W, g, f.b.row(i, g), f.e.row(i - 1, g), f.e.row(i, g),
                                           f.d.row(i, g), cpf + (i - 1) * GW + g * W,
                                           f.d.row(i - 1, g), cpf + i * GW + g * W,
                                           f.d.row(i, g), risk + g * W);
      }
      if (backward) {
        const index_t k = n - 1 - i;
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
      resolve_spd_info_lanes<W, G, true>(n, W, G, f.b, f.e, cpf, risk, info);
      done(q, info);
    }
  }
}

// Factorization into lane-contiguous rows of G*W lanes (row i of r at r + i*G*W, same for c').
// Exact info per row, as ?pttrf (the factorization is not the hot path of repeated solves).
template <int W, int G, bool Full, class R, class C>
KOKKOS_INLINE_FUNCTION void sym_factor_lanes(index_t n, int nl, int ng, lane_rows<const R> b,
                                             lane_rows<const C> e, R* r, C* cp, int* info) {
  constexpr int GW = G * W;
  const int lanes = Full ? W : nl;
  for (int g = 0; g < G; ++g) {
    if (g >= ng) break;
    const R* b0 = b.row(0, g);
    const C* e0 = e.row(0, g);
    BANDSOLVE_FOR_LANES(l, lanes, W, (simd_lanes_v<C>)) {
      const R rl = R(1) / b0[l];
      info[g * W + l] = spd_pivot_is_good(b0[l]) ? 0 : 1;
      r[g * W + l] = rl;
      cp[g * W + l] = rl * e0[l];
    };
  }
  for (index_t i = 1; i < n; ++i)
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      const index_t o = i * GW + g * W;
      const R* bi = b.row(i, g);
      const C* ep = e.row(i - 1, g);
      const C* ei = e.row(i, g);
      int* inf = info + g * W;
      BANDSOLVE_FOR_LANES(l, lanes, W, (simd_lanes_v<C>)) {
        const R pivot = bi[l] - re_conj_mul(ep[l], cp[o - GW + l]);
        const int candidate = spd_pivot_is_good(pivot) ? 0 : static_cast<int>(i + 1);
        inf[l] = inf[l] != 0 ? inf[l] : candidate;
        const R rl = R(1) / pivot;
        r[o + l] = rl;
        cp[o + l] = rl * ei[l];
      };
    }
}

// Solve with stored factors (rows of G*W lanes), d in groups, in place. The forward sweep carries
// y_i = d_i - conj(c'_{i-1}) y_{i-1} in registers and stores z_i = r_i y_i, so the backward sweep
// is Thomas's, x_i = z_i - c'_i x_{i+1}: r and c' cross memory once each, as r, l and c' do in
// the Thomas factored solve.
// The forward sweep of the factored solve: z_i = r_i y_i from the rows of d into the rows of out
// (the same rows for a solve in place, scratch where d is only read).
template <int W, int G, bool Full, class R, class C, class D>
KOKKOS_INLINE_FUNCTION void sym_factored_forward_lanes(index_t n, int nl, int ng, const R* r,
                                                       const C* cp, lane_rows<const D> d,
                                                       lane_rows<D> out) {
  constexpr int GW = G * W;
  const int lanes = Full ? W : nl;
  D y[carried_lanes(GW)] = {};
  for (int g = 0; g < G; ++g) {
    if (g >= ng) break;
    const D* d0 = d.row(0, g);
    D* o0 = out.row(0, g);
    BANDSOLVE_FOR_LANES(l, lanes, W, (simd_lanes_v<C, D>)) {
      y[g * W + l] = d0[l];
      o0[l] = r[g * W + l] * d0[l];
    };
  }
  for (index_t i = 1; i < n; ++i)
    for (int g = 0; g < G; ++g) {
      if (g >= ng) break;
      const index_t o = i * GW + g * W;
      const C* c_prev = cp + o - GW;
      const D* di = d.row(i, g);
      D* oi = out.row(i, g);
      D* yg = y + g * W;
      BANDSOLVE_FOR_LANES(l, lanes, W, (simd_lanes_v<C, D>)) {
        const D yl = di[l] - conj_of(c_prev[l]) * yg[l];
        yg[l] = yl;
        oi[l] = r[o + l] * yl;
      };
    }
}

template <int W, int G, bool Full, class R, class C, class D, class Prefetch>
KOKKOS_INLINE_FUNCTION void sym_factored_solve_lanes(index_t n, int nl, int ng, const R* r,
                                                     const C* cp, lane_rows<D> d,
                                                     const Prefetch& prefetch) {
  sym_factored_forward_lanes<W, G, Full>(
      n, nl, ng, r, cp, lane_rows<const D>{d.base, d.stride, d.group_stride}, d);
  thomas_backward<W, G, Full>(nl, ng, n, cp, d, prefetch);
}

// The factored solve of full work items q_begin .. q_end-1, two in flight as in
// sym_solve_lanes_chain: the forward sweep of item q (r, c' and d from memory) shares each row step
// with the backward sweep of item q-1 (its c' and z rows from cache), so the input streams never
// pause. item(q) gives {r, c', d rows} of item q (factor rows of G*W lanes).
template <int W, int G, class Item>
KOKKOS_INLINE_FUNCTION void sym_factored_solve_chain(index_t n, index_t q_begin, index_t q_end,
                                                     const Item& item) {
  constexpr int GW = G * W;
  for (index_t q = q_begin; q <= q_end; ++q) {
    const bool forward = q < q_end, backward = q > q_begin;
    const auto f = item(forward ? q : q - 1);
    const auto bk = item(backward ? q - 1 : q);
    using D = std::remove_pointer_t<decltype(f.d.row(0, 0))>;
    using C = std::remove_const_t<std::remove_pointer_t<decltype(f.cp)>>;
    D y[carried_lanes(GW)] = {};
    D x[static_cast<std::size_t>(GW)] = {};
    if (forward)
      for (int g = 0; g < G; ++g) {
        D* d0 = f.d.row(0, g);
        BANDSOLVE_FOR_LANES(l, W, W, (simd_lanes_v<C, D>)) {
          y[g * W + l] = d0[l];
          d0[l] = f.r[g * W + l] * d0[l];
        };
      }
    if (backward)
      for (int g = 0; g < G; ++g) copy_row<W, true>(W, bk.d.row(n - 1, g), x + g * W);
    for (index_t i = 1; i < n; ++i) {
      if (forward)
        for (int g = 0; g < G; ++g) {
          const index_t o = i * GW + g * W;
          const C* c_prev = f.cp + o - GW;
          D* di = f.d.row(i, g);
          D* yg = y + g * W;
          BANDSOLVE_FOR_LANES(l, W, W, (simd_lanes_v<C, D>)) {
            const D yl = di[l] - conj_of(c_prev[l]) * yg[l];
            yg[l] = yl;
            di[l] = f.r[o + l] * yl;
          };
        }
      if (backward) {
        const index_t k = n - 1 - i;
        for (int g = 0; g < G; ++g)
          backward_row<W, true, true>(W, bk.cp + k * GW + g * W, bk.d.row(k, g), x + g * W);
      }
    }
  }
}

template <class R, class C, class D>
struct sym_factored_item {
  const R* r;
  const C* cp;
  lane_rows<D> d;
};

// ---------------------------------------------------------------------------------------------
// Gathered packs (row layout, general strides): tiles of TR rows by L lanes through the stack,
// as thomas_forward_gather. e_{i-1} of a tile's first row is the previous tile's last row, kept.

template <int TR, int L, class R, class C, class D>
KOKKOS_INLINE_FUNCTION void sym_forward_gather(index_t n, int nl, gathered_lanes<const R> b,
                                               gathered_lanes<const C> e,
                                               gathered_lanes<const D> d, C* cp, D* dp,
                                               int* info) {
  const lane_offsets<L> ob(nl, b.system_stride), oe(nl, e.system_stride),
      od(nl, d.system_stride);
  gather_tile<TR, L, R> tb;
  gather_tile<TR, L, C> te;
  gather_tile<TR, L, D> td;
  R risk[static_cast<std::size_t>(L)];
  C e_last[static_cast<std::size_t>(L)] = {};
  sym_carry<L, C, D> carry;
  for (index_t i0 = 0; i0 < n; i0 += TR) {
    const int rows = tile_rows(n, i0, TR);
    tb.load(b, ob, i0, rows);
    te.load(e, oe, i0, rows);
    td.load(d, od, i0, rows);
    for (int j = 0; j < rows; ++j) {
      const index_t i = i0 + j;
      if (i == 0) {
        sym_first_row<L, true>(L, tb.v[0], te.v[0], td.v[0], cp, dp, risk);
        carry.template start<L, true>(L, 0, cp, dp);
      } else {
        carry.template next_row<L, true>(L, 0, tb.v[j], j == 0 ? e_last : te.v[j - 1], te.v[j],
                                         td.v[j], cp + (i - 1) * L, dp + (i - 1) * L, cp + i * L,
                                         dp + i * L, risk);
      }
    }
    copy_row<L, true>(L, te.v[rows - 1], e_last);
  }
  for (int l = 0; l < nl; ++l)
    info[l] = risk_is_low(risk[l]) ? 0
                                   : first_bad_spd_pivot(n, gathered_element<R>{b, l},
                                                         gathered_element<C>{e, l}, cp + l, L);
}

// One-shot solve; cp and dp are scratch of n*L values each; x ends up in d.
template <int TR, int L, class R, class C, class D, class Prefetch>
KOKKOS_INLINE_FUNCTION void sym_solve_gather(index_t n, int nl, gathered_lanes<const R> b,
                                             gathered_lanes<const C> e, gathered_lanes<D> d,
                                             C* cp, D* dp, int* info, const Prefetch& prefetch) {
  sym_forward_gather<TR, L>(n, nl, b, e,
                            gathered_lanes<const D>{d.base, d.system_stride, d.row_stride}, cp,
                            dp, info);
  thomas_backward<L, 1, true>(L, 1, n, cp, lane_rows<D>{dp, L}, prefetch);
  scatter_rows<TR, L>(dp, n, d, lane_offsets<L>(nl, d.system_stride), nl);
}

template <int TR, int L, class R, class C>
KOKKOS_INLINE_FUNCTION void sym_factor_gather(index_t n, int nl, gathered_lanes<const R> b,
                                              gathered_lanes<const C> e, R* r, C* cp, int* info) {
  const lane_offsets<L> ob(nl, b.system_stride), oe(nl, e.system_stride);
  gather_tile<TR, L, R> tb;
  gather_tile<TR, L, C> te;
  C e_last[static_cast<std::size_t>(L)] = {};
  for (int l = 0; l < L; ++l) info[l] = 0;
  for (index_t i0 = 0; i0 < n; i0 += TR) {
    const int rows = tile_rows(n, i0, TR);
    tb.load(b, ob, i0, rows);
    te.load(e, oe, i0, rows);
    for (int j = 0; j < rows; ++j) {
      const index_t i = i0 + j;
      const C* ep = j == 0 ? e_last : te.v[j - 1];
      BANDSOLVE_FOR_LANES(l, L, L, (simd_lanes_v<C>)) {
        const R pivot = i == 0 ? tb.v[j][l] : tb.v[j][l] - re_conj_mul(ep[l], cp[(i - 1) * L + l]);
        const int candidate = spd_pivot_is_good(pivot) ? 0 : static_cast<int>(i + 1);
        info[l] = info[l] != 0 ? info[l] : candidate;
        const R rl = R(1) / pivot;
        r[i * L + l] = rl;
        cp[i * L + l] = rl * te.v[j][l];
      };
    }
    copy_row<L, true>(L, te.v[rows - 1], e_last);
  }
}

// Solve with stored factors; y is scratch of n*L values.
template <int TR, int L, class R, class C, class D, class Prefetch>
KOKKOS_INLINE_FUNCTION void sym_factored_solve_gather(index_t n, int nl, const R* r, const C* cp,
                                                      gathered_lanes<D> d, D* y,
                                                      const Prefetch& prefetch) {
  const lane_offsets<L> od(nl, d.system_stride);
  gather_tile<TR, L, D> td;
  D y_carry[static_cast<std::size_t>(L)] = {};
  for (index_t i0 = 0; i0 < n; i0 += TR) {
    const int rows = tile_rows(n, i0, TR);
    td.load(d, od, i0, rows);
    for (int j = 0; j < rows; ++j) {
      const index_t i = i0 + j;
      const C* c_prev = cp + (i > 0 ? i - 1 : 0) * L;
      const R* ri = r + i * L;
      D* zi = y + i * L;
      BANDSOLVE_FOR_LANES(l, L, L, (simd_lanes_v<C, D>)) {
        const D yl = i == 0 ? td.v[j][l] : td.v[j][l] - conj_of(c_prev[l]) * y_carry[l];
        y_carry[l] = yl;
        zi[l] = ri[l] * yl;
      };
    }
  }
  thomas_backward<L, 1, true>(L, 1, n, cp, lane_rows<D>{y, L}, prefetch);
  scatter_rows<TR, L>(y, n, d, od, nl);
}

}  // namespace bandsolve::detail
