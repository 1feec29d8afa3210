#pragma once
// The local passes of the partitioned Thomas algorithm (modified Thomas, as in the partition
// method and PaScaL_TDMA), packs of systems in SIMD lanes on the host execution spaces.
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
// The backward sweep runs on the forward rows kept in the pack's scratch, so reduce_parts reads
// a, b, c, d once and writes only the reduced rows. finish_parts sweeps forward again and sets
// x_i = d'_i - a'_i x_0 - c'_i x_{i+1} for i = m-2 .. 1 (forward a', c', d'): 9 words per unknown
// in all (a, b, c, d read twice, x written once).
//
// Info codes: the global 1-based row of the first bad pivot (core/pivot.hpp) the elimination meets
// in this order: b_0, b_1, p_2 .. p_{m-1}, then 1 - c'_0 a'_1 (counted as row 0). The pivots differ
// from those of one Thomas sweep over the whole line, so a line that Thomas solves with a tiny
// pivot may be flagged at another row here; a zero row is flagged at its own row by both.
#include <bandsolve/backend/host_simd/lanes.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/host_simd/prefetch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/layout/layout_of.hpp>
#include <bandsolve/mpi/reduced_rows.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
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

// The local passes take packs of L systems per work item and step every lane of a pack through
// row i before row i+1, with the pack's intermediate rows in its scratch (cache): column packs of
// 512 bytes (64 doubles, as the single-process Thomas: each row of each array is a run in another
// page, prefetched a row ahead since the hardware prefetchers do not follow such strides), other
// layouts a cache line of real systems (interleaved rows are consecutive; row batches are
// transposed into the scratch tile by tile, strided ones read in place); complex systems as many
// lanes as real ones, two cache lines, so that a row step has as many independent lanes.
template <class Layout, class T>
inline constexpr int part_lanes_v =
    std::is_same_v<Layout, layout::column>
        ? bandsolve::detail::sweep_packing<layout::column, T>::W
        : bandsolve::detail::cache_line_lanes_v<real_type_t<T>>;
// Whether the passes prefetch the next row of each array (column packs).
template <class Layout>
inline constexpr bool part_prefetch_v = std::is_same_v<Layout, layout::column>;

// Prefetches row i of NL lanes from s0 of v, a cache line at a time (column layout).
template <int NL, class View>
KOKKOS_INLINE_FUNCTION void prefetch_part_row(const View& v, index_t s0, index_t i) {
  using T = typename View::non_const_value_type;
  constexpr int per_line = bandsolve::detail::cache_line_lanes_v<T>;
  for (int q = 0; q < NL; q += per_line) BANDSOLVE_PREFETCH(&at(v, s0 + q, i));
}

// Rows of the NL systems s0 .. s0 + NL - 1 as the sweeps read them: in place (at), or from a
// pack's staged copy (row i, lane l at i*NL + l) that row batches transpose into scratch.
template <class View>
struct rows_in_place {
  View v;
  index_t s0;
  KOKKOS_INLINE_FUNCTION typename View::reference_type operator()(int l, index_t i) const {
    return at(v, s0 + l, i);
  }
};
template <class T, int NL>
struct rows_staged {
  T* p;
  KOKKOS_INLINE_FUNCTION T& operator()(int l, index_t i) const { return p[i * NL + l]; }
};

// Coefficients of type C (a, b, c and a', c') and right-hand sides of type D (d, d', x): the same
// type, or complex d over real lines, whose d rows run on their two real parts (lane_parts_v,
// parts_of) with real coefficient arithmetic: one real reciprocal per row and real SIMD lanes,
// where Kokkos::complex lanes divided in complex and computed one value per 128-bit operation.
using bandsolve::detail::lane_part_t;
using bandsolve::detail::lane_parts_v;
using bandsolve::detail::parts_of;

// Complex lines (complex a, b, c and d) run their lane loops on the values' real and imaginary
// parts as real arithmetic (real_parts, product_parts, reciprocal_parts): with Kokkos::complex
// values GCC 12 left these loops scalar. complex_lines_v: whether the coefficients are complex.
template <class C>
inline constexpr bool complex_lines_v = is_complex_v<C>;
using bandsolve::detail::abs_real;
using bandsolve::detail::product_parts;
using bandsolve::detail::real_parts;
using bandsolve::detail::reciprocal_parts;

// Row i of lane l of complex lines from row i-1 in (ap, cp, dp), all as parts at 2l: the pivot
// p = b - a c'_{i-1} into (pr, pi), then c' = c/p, d' = (d - a d'_{i-1})/p, a' = -a a'_{i-1}/p over
// ap, cp, dp. av, bv, dv: lane l's a, b, d of the row as parts; (cr, ci) its c.
template <class P>
KOKKOS_FORCEINLINE_FUNCTION void complex_row_step(const P* av, const P* bv, P cr, P ci,
                                                  const P* dv, P* ap, P* cp, P* dp, int l, P& pr,
                                                  P& pi) {
  const int re = 2 * l, im = 2 * l + 1;
  const P ar = av[0], ai = av[1];
  P tr, ti, rr, ri;
  product_parts(ar, ai, cp[re], cp[im], tr, ti);
  pr = bv[0] - tr, pi = bv[1] - ti;
  reciprocal_parts(pr, pi, rr, ri);
  product_parts(ar, ai, dp[re], dp[im], tr, ti);
  product_parts(dv[0] - tr, dv[1] - ti, rr, ri, dp[re], dp[im]);
  product_parts(rr, ri, cr, ci, cp[re], cp[im]);
  product_parts(rr, ri, ar, ai, tr, ti);
  P xr, xi;
  product_parts(tr, ti, ap[re], ap[im], xr, xi);
  ap[re] = -xr, ap[im] = -xi;
}

// The forward sweep of NL systems s0 .. s0 + NL - 1 (m >= 2): rows 0 and 1 divided by their
// diagonal into r0 (a'_0, c'_0 by lane), r0d (d'_0) and the registers ap, cp, dp; rows 2 .. last
// eliminated; rows 1 .. last stored in the pack's scratch (row i, lane l at i*NL + l), so that
// the backward work reads them from cache. last = m - 2 leaves row m - 1 to the caller. Info
// codes (pivots b_0, b_1, p_2 .. p_last) into info when Info.
// a, b, c, d: row accessors (rows_in_place, rows_staged); Ahead: prefetch the next rows (column
// packs in place). With staged rows, sap, scp, sdp may be the staged a, c, d (row i is read
// before it is written). next(k) at each eliminated row k = 0 .. last - 2 (the next pack's
// prefetch, next_part_pack).
template <int NL, bool Info, bool Ahead, class GA, class GB, class GC, class GD, class C, class D,
          class Next>
KOKKOS_INLINE_FUNCTION void sweep_part_forward(const GA& a, const GB& b, const GC& c, const GD& d,
                                               const local_part& part, index_t last, C* sap,
                                               C* scp, D* sdp,
                                               C (&r0)[2][static_cast<std::size_t>(NL)],
                                               D (&r0d)[static_cast<std::size_t>(NL)],
                                               C (&ap)[static_cast<std::size_t>(NL)],
                                               C (&cp)[static_cast<std::size_t>(NL)],
                                               D (&dp)[static_cast<std::size_t>(NL)], int* info,
                                               const Next& next) {
  using bandsolve::detail::reciprocal;
  using bandsolve::detail::update_info;
  using E = lane_part_t<C, D>;
  constexpr int J = lane_parts_v<C, D>;
  const index_t m = part.m, off = part.offset;
  for (int l = 0; l < NL; ++l) {
    const C b0 = b(l, 0), b1 = b(l, 1);
    if constexpr (Info) info[l] = update_info(update_info(0, b0, off), b1, off + 1);
    const C rb0 = reciprocal(b0), rb1 = reciprocal(b1);
    r0[0][l] = rb0 * (part.first ? C(0) : C(a(l, 0)));
    r0[1][l] = rb0 * c(l, 0);
    r0d[l] = rb0 * d(l, 0);
    ap[l] = rb1 * a(l, 1);
    cp[l] = rb1 * (part.last && m == 2 ? C(0) : C(c(l, 1)));
    dp[l] = rb1 * d(l, 1);
    sap[NL + l] = ap[l], scp[NL + l] = cp[l], sdp[NL + l] = dp[l];
  }
  E* const q = parts_of<C, D>(dp);
  for (index_t i = 2; i <= last; ++i) {
    next(i - 2);
    if constexpr (Ahead) {
      if (i + 1 < m) {
        prefetch_part_row<NL>(a.v, a.s0, i + 1), prefetch_part_row<NL>(b.v, b.s0, i + 1);
        prefetch_part_row<NL>(c.v, c.s0, i + 1), prefetch_part_row<NL>(d.v, d.s0, i + 1);
      }
    }
    C* const ra = sap + i * NL;
    C* const rc = scp + i * NL;
    E* const rd = parts_of<C, D>(sdp + i * NL);
    if constexpr (complex_lines_v<C>) {
      using P = real_type_t<C>;
      P *const apv = real_parts(ap), *const cpv = real_parts(cp), *const dpv = real_parts(dp);
      P *const rav = real_parts(ra), *const rcv = real_parts(rc), *const rdv = real_parts(rd);
      BANDSOLVE_SIMD
      for (int l = 0; l < NL; ++l) {
        const P* const cv = real_parts(&c(l, i));
        P pr, pi;
        complex_row_step(real_parts(&a(l, i)), real_parts(&b(l, i)), cv[0], cv[1],
                         real_parts(&d(l, i)), apv, cpv, dpv, l, pr, pi);
        if constexpr (Info) info[l] = update_info(info[l], abs_real(pr) + abs_real(pi), off + i);
        rav[2 * l] = apv[2 * l], rav[2 * l + 1] = apv[2 * l + 1];
        rcv[2 * l] = cpv[2 * l], rcv[2 * l + 1] = cpv[2 * l + 1];
        rdv[2 * l] = dpv[2 * l], rdv[2 * l + 1] = dpv[2 * l + 1];
      }
    } else {
      BANDSOLVE_SIMD
      for (int l = 0; l < NL; ++l) {
        const C ai = a(l, i);
        const C pivot = b(l, i) - ai * cp[l];
        if constexpr (Info) info[l] = update_info(info[l], pivot, off + i);
        const C r = reciprocal(pivot);
        const E* const di = parts_of<C, D>(&d(l, i));
        for (int j = 0; j < J; ++j) {
          const E y = r * (di[j] - ai * q[J * l + j]);
          q[J * l + j] = y, rd[J * l + j] = y;
        }
        cp[l] = r * c(l, i);
        ap[l] = -r * ai * ap[l];
        ra[l] = ap[l], rc[l] = cp[l];
      }
    }
  }
}

// Rows 0 .. m-1 of the NL systems from s0 of a row-layout View into out (row i, lane l at
// i*NL + l), tiles of NL rows through in-register transposes where the compiler has them.
template <int NL, class View, class T>
KOKKOS_INLINE_FUNCTION void stage_part_rows(const View& v, index_t s0, index_t m, T* out) {
  index_t i0 = 0;
  if constexpr (bandsolve::detail::register_transposes_v)
    for (; i0 + NL <= m; i0 += NL)
      bandsolve::detail::gather_block<NL, T>([&](int l) { return &at(v, s0 + l, i0); },
                                             out + i0 * NL);
  for (; i0 < m; ++i0)
    for (int l = 0; l < NL; ++l) out[i0 * NL + l] = at(v, s0 + l, i0);
}

// The inverse of stage_part_rows: rows 0 .. m-1 of in back into the NL systems of v from s0.
template <int NL, class View, class T>
KOKKOS_INLINE_FUNCTION void unstage_part_rows(const View& v, index_t s0, index_t m, const T* in) {
  index_t i0 = 0;
  if constexpr (bandsolve::detail::register_transposes_v)
    for (; i0 + NL <= m; i0 += NL)
      bandsolve::detail::scatter_block<NL, T>(in + i0 * NL,
                                              [&](int l) { return &at(v, s0 + l, i0); });
  for (; i0 < m; ++i0)
    for (int l = 0; l < NL; ++l) at(v, s0 + l, i0) = in[i0 * NL + l];
}

// No prefetch of the next pack (packs read in place, and the last pack).
struct no_next_pack {
  KOKKOS_FORCEINLINE_FUNCTION void operator()(index_t) const {}
};

// The next pack's blocks, requested over the calls of one sweep (one call per row): up to 5, the
// blocks of a, b, c and the two halves of complex d over real lines (next_part_pack).
using next_pack_rows = bandsolve::detail::dealt_prefetch<5>;

// No blocks yet, dealt over `steps` calls.
KOKKOS_INLINE_FUNCTION next_pack_rows sweep_prefetch(index_t steps) {
  next_pack_rows next;
  next.blocks.n = steps > 0 ? steps : 1;
  return next;
}

// The smallest value size of some Views.
template <class... Views>
KOKKOS_INLINE_FUNCTION constexpr std::size_t smallest_value_size() {
  std::size_t least = 0;
  ((least = least == 0 || sizeof(typename Views::value_type) < least
                ? sizeof(typename Views::value_type)
                : least),
   ...);
  return least;
}

// The rows of the next pack of row-layout Views (systems s0 + NL .. s0 + 2 NL - 1, one
// contiguous block per View) into next: staging reads a pack a tile at a time, NL short streams
// per array that the hardware prefetchers do not follow in time, so the next pack's rows are
// fetched while this one is swept in cache. No blocks past the last system. Every block has
// the same length: a View of values twice the smallest (complex d over real lines) adds its
// block as two halves.
template <int NL, class... Views>
KOKKOS_INLINE_FUNCTION next_pack_rows next_part_pack(next_pack_rows next, index_t s0, index_t m,
                                                     const Views&... v) {
  constexpr std::size_t unit = smallest_value_size<Views...>();
  const auto add = [&](const auto& view) {
    using value_type = typename std::decay_t<decltype(view)>::value_type;
    constexpr int pieces = static_cast<int>(sizeof(value_type) / unit);
    if (s0 + 2 * NL > static_cast<index_t>(view.extent(0))) return;
    const char* first = reinterpret_cast<const char*>(&at(view, s0 + NL, 0));
    const char* end = reinterpret_cast<const char*>(&at(view, s0 + 2 * NL - 1, m - 1) + 1);
    const index_t piece = (end - first) / pieces;
    for (int k = 0; k < pieces; ++k) next.blocks.add(first + k * piece);
    next.blocks.bytes = piece;
  };
  (add(v), ...);
  return next;
}

// Whether packs of NL systems of these Views are staged (row layout: each system's rows are
// contiguous, so a pack is NL streams that the sweeps would read one value at a time).
template <int NL, class AView, class BView, class CView, class DView>
inline constexpr bool part_staged_v =
    NL > 1 && std::is_same_v<layout_of_t<AView>, layout::row> &&
    std::is_same_v<layout_of_t<BView>, layout::row> &&
    std::is_same_v<layout_of_t<CView>, layout::row> && std::is_same_v<layout_of_t<DView>, layout::row>;

// The coefficient type of a batch's lines (a, b, c: b's values).
template <class BView>
using coefficient_t = typename BView::non_const_value_type;

// Row j's slot of m x NL values in a pack's scratch of D values (4 slots), as values of type C
// (the staged or forward coefficients, real for complex d over real lines).
template <int NL, class C, class D>
KOKKOS_FORCEINLINE_FUNCTION C* scratch_slot(D* scratch, index_t m, int j) {
  return reinterpret_cast<C*>(scratch + j * m * NL);
}

// Calls f(ga, gb, gc, gd, pre, sap, scp, sdp, next) with the row accessors of the NL systems from
// s0, whether to prefetch rows ahead (pre), the scratch rows of a', c' (coefficient_t values) and
// d' (scratch: 4 x m x NL values of d) and the next pack's prefetch for a sweep of m - 3 rows
// (next): staged copies (a', c', d' over the staged a, c, d; next_part_pack) or the Views in
// place (no_next_pack).
template <int NL, bool Ahead, class AView, class BView, class CView, class DView, class D, class F>
KOKKOS_INLINE_FUNCTION void with_part_rows(const AView& a, const BView& b, const CView& c,
                                           const DView& d, index_t s0, index_t m, D* scratch,
                                           const F& f) {
  using C = coefficient_t<BView>;
  if constexpr (part_staged_v<NL, AView, BView, CView, DView>) {
    C* const sa = scratch_slot<NL, C>(scratch, m, 0);
    C* const sb = scratch_slot<NL, C>(scratch, m, 1);
    C* const sc = scratch_slot<NL, C>(scratch, m, 2);
    D* const sd = scratch + 3 * m * NL;
    stage_part_rows<NL>(a, s0, m, sa);
    stage_part_rows<NL>(b, s0, m, sb);
    stage_part_rows<NL>(c, s0, m, sc);
    stage_part_rows<NL>(d, s0, m, sd);
    f(rows_staged<C, NL>{sa}, rows_staged<C, NL>{sb}, rows_staged<C, NL>{sc},
      rows_staged<D, NL>{sd}, std::integral_constant<bool, false>{}, sa, sc, sd,
      next_part_pack<NL>(sweep_prefetch(m - 3), s0, m, a, b, c, d));
  } else {
    f(rows_in_place<AView>{a, s0}, rows_in_place<BView>{b, s0}, rows_in_place<CView>{c, s0},
      rows_in_place<DView>{d, s0}, std::integral_constant<bool, Ahead>{},
      scratch_slot<NL, C>(scratch, m, 0), scratch_slot<NL, C>(scratch, m, 1),
      scratch + 2 * m * NL, no_next_pack{});
  }
}

// The reduce pass of NL systems from s0 (see reduce_parts).
template <int NL, class AView, class BView, class CView, class DView, class D, class Reduced,
          class Codes>
KOKKOS_INLINE_FUNCTION void reduce_pack(const AView& a, const BView& b, const CView& c,
                                        const DView& d, const Reduced& red, const Codes& codes,
                                        index_t s0, const local_part& part, D* scratch) {
  using bandsolve::detail::reciprocal;
  using bandsolve::detail::update_info;
  using C = coefficient_t<BView>;
  using E = lane_part_t<C, D>;
  constexpr int J = lane_parts_v<C, D>;
  constexpr int W = reduced_row_words_v<C, D>;
  const index_t m = part.m, off = part.offset;
  const int k = part.reduced_rows();
  if (m == 1) {
    for (int l = 0; l < NL; ++l) {
      const index_t s = s0 + l;
      const C b0 = at(b, s, 0);
      const C r = reciprocal(b0);
      store_reduced_row<C>(red.data() + s * k * W, C(r * (part.first ? C(0) : C(at(a, s, 0)))),
                           C(r * (part.last ? C(0) : C(at(c, s, 0)))), D(r * at(d, s, 0)));
      codes(s) = update_info(0, b0, off);
    }
    return;
  }
  constexpr bool ahead = NL > 1 && part_prefetch_v<layout_of_t<DView>>;
  with_part_rows<NL, ahead>(a, b, c, d, s0, m, scratch,
                            [&](const auto& ga, const auto& gb, const auto& gc, const auto& gd,
                                auto pre, C* sap, C* scp, D* sdp, const auto& next) {
    constexpr auto lane_count = static_cast<std::size_t>(NL);  // an array bound
    int info[lane_count] = {};
    C r0[2][lane_count], ap[lane_count], cp[lane_count];
    D r0d[lane_count], dp[lane_count];
    sweep_part_forward<NL, true, decltype(pre)::value>(ga, gb, gc, gd, part, m - 2, sap, scp, sdp,
                                                       r0, r0d, ap, cp, dp, info, next);
    if (m > 2) {
      const index_t i = m - 1;  // row m-1: c read as 0 on the last rank
      if constexpr (complex_lines_v<C>) {
        using P = real_type_t<C>;
        P *const apv = real_parts(ap), *const cpv = real_parts(cp), *const dpv = real_parts(dp);
        BANDSOLVE_SIMD
        for (int l = 0; l < NL; ++l) {
          const P* const cv = real_parts(&gc(l, i));
          const P cr = part.last ? P(0) : cv[0], ci = part.last ? P(0) : cv[1];
          P pr, pi;
          complex_row_step(real_parts(&ga(l, i)), real_parts(&gb(l, i)), cr, ci,
                           real_parts(&gd(l, i)), apv, cpv, dpv, l, pr, pi);
          info[l] = update_info(info[l], abs_real(pr) + abs_real(pi), off + i);
        }
      } else {
        E* const q = parts_of<C, D>(dp);
        BANDSOLVE_SIMD
        for (int l = 0; l < NL; ++l) {
          const C ai = ga(l, i);
          const C pivot = gb(l, i) - ai * cp[l];
          info[l] = update_info(info[l], pivot, off + i);
          const C r = reciprocal(pivot);
          const E* const di = parts_of<C, D>(&gd(l, i));
          for (int j = 0; j < J; ++j) q[J * l + j] = r * (di[j] - ai * q[J * l + j]);
          cp[l] = r * (part.last ? C(0) : C(gc(l, i)));
          ap[l] = -r * ai * ap[l];
        }
      }
    }
    for (int l = 0; l < NL; ++l)  // row m-1
      store_reduced_row<C>(red.data() + ((s0 + l) * k + 1) * W, ap[l], cp[l], dp[l]);
    if (m > 2) {
      C ap_n[lane_count], cp_n[lane_count];  // row i+1
      D dp_n[lane_count];
      for (int l = 0; l < NL; ++l) {
        ap_n[l] = sap[(m - 2) * NL + l], cp_n[l] = scp[(m - 2) * NL + l];
        dp_n[l] = sdp[(m - 2) * NL + l];
      }
      E* const qn = parts_of<C, D>(dp_n);
      for (index_t i = m - 3; i >= 1; --i) {
        const C* const ra = sap + i * NL;
        const C* const rc = scp + i * NL;
        const E* const rd = parts_of<C, D>(sdp + i * NL);
        if constexpr (complex_lines_v<C>) {
          using P = real_type_t<C>;
          const P *const rav = real_parts(ra), *const rcv = real_parts(rc),
                         *const rdv = real_parts(rd);
          P *const apn = real_parts(ap_n), *const cpn = real_parts(cp_n),
                   *const dpn = real_parts(dp_n);
          BANDSOLVE_SIMD
          for (int l = 0; l < NL; ++l) {
            const int re = 2 * l, im = 2 * l + 1;
            const P cr = rcv[re], ci = rcv[im];
            P tr, ti;
            product_parts(cr, ci, dpn[re], dpn[im], tr, ti);
            dpn[re] = rdv[re] - tr, dpn[im] = rdv[im] - ti;
            product_parts(cr, ci, apn[re], apn[im], tr, ti);
            apn[re] = rav[re] - tr, apn[im] = rav[im] - ti;
            product_parts(cr, ci, cpn[re], cpn[im], tr, ti);
            cpn[re] = -tr, cpn[im] = -ti;
          }
        } else {
          BANDSOLVE_SIMD
          for (int l = 0; l < NL; ++l) {
            const C ci = rc[l];
            for (int j = 0; j < J; ++j) qn[J * l + j] = rd[J * l + j] - ci * qn[J * l + j];
            ap_n[l] = ra[l] - ci * ap_n[l];
            cp_n[l] = -ci * cp_n[l];
          }
        }
      }
      for (int l = 0; l < NL; ++l) {
        // Row 1 is now a'_1 x_0 + x_1 + c'_1 x_{m-1} = d'_1.
        const C den = C(1) - r0[1][l] * ap_n[l];
        info[l] = update_info(info[l], den, off);
        const C r = reciprocal(den);
        r0[0][l] = r * r0[0][l];
        r0d[l] = r * (r0d[l] - r0[1][l] * dp_n[l]);
        r0[1][l] = -r * r0[1][l] * cp_n[l];
      }
    }
    for (int l = 0; l < NL; ++l) {
      store_reduced_row<C>(red.data() + (s0 + l) * k * W, r0[0][l], r0[1][l], r0d[l]);
      codes(s0 + l) = info[l];
    }
  });
}

// x_i = d'_i - a'_i x_0 - c'_i x_{i+1} for i = m-2 .. 1 from the forward rows (sap, scp, sdp:
// row i, lane l at i*NL + l) of NL systems from s0 (m >= 3), written with x_0 and x_{m-1} into
// d: in place, or over the staged d' and then back into d's rows (Staged). Ahead: prefetch d's
// previous row (column packs in place).
template <int NL, bool Staged, bool Ahead, class DView, class C, class D>
KOKKOS_INLINE_FUNCTION void substitute_part_backward(const DView& d, index_t s0, index_t m,
                                                     const D (&x0)[static_cast<std::size_t>(NL)],
                                                     const D (&xm)[static_cast<std::size_t>(NL)],
                                                     const C* sap, const C* scp, D* sdp) {
  using E = lane_part_t<C, D>;
  constexpr int J = lane_parts_v<C, D>;
  D x[static_cast<std::size_t>(NL)];  // x_{i+1}
  for (int l = 0; l < NL; ++l) x[l] = xm[l];
  E* const xv = parts_of<C, D>(x);
  const E* const x0v = parts_of<C, D>(x0);
  for (index_t i = m - 2; i >= 1; --i) {
    if constexpr (Ahead) prefetch_part_row<NL>(d, s0, i - 1);
    const C* const ra = sap + i * NL;
    const C* const rc = scp + i * NL;
    E* const rd = parts_of<C, D>(sdp + i * NL);
    if constexpr (complex_lines_v<C>) {
      using P = real_type_t<C>;
      const P *const rav = real_parts(ra), *const rcv = real_parts(rc), *const zv = real_parts(x0);
      P *const rdv = real_parts(rd), *const xp = real_parts(x);
      BANDSOLVE_SIMD
      for (int l = 0; l < NL; ++l) {
        const int re = 2 * l, im = 2 * l + 1;
        P ur, ui, vr, vi;
        product_parts(rav[re], rav[im], zv[re], zv[im], ur, ui);
        product_parts(rcv[re], rcv[im], xp[re], xp[im], vr, vi);
        xp[re] = rdv[re] - ur - vr, xp[im] = rdv[im] - ui - vi;
        P* const out = Staged ? rdv + re : real_parts(&at(d, s0 + l, i));
        out[0] = xp[re], out[1] = xp[im];
      }
    } else {
      BANDSOLVE_SIMD
      for (int l = 0; l < NL; ++l) {
        E* const out = Staged ? rd + J * l : parts_of<C, D>(&at(d, s0 + l, i));
        for (int j = 0; j < J; ++j) {
          const E y = rd[J * l + j] - ra[l] * x0v[J * l + j] - rc[l] * xv[J * l + j];
          xv[J * l + j] = y, out[j] = y;
        }
      }
    }
  }
  if constexpr (Staged) {
    for (int l = 0; l < NL; ++l) sdp[l] = x0[l], sdp[(m - 1) * NL + l] = xm[l];
    unstage_part_rows<NL>(d, s0, m, sdp);
  } else {
    for (int l = 0; l < NL; ++l) at(d, s0 + l, 0) = x0[l], at(d, s0 + l, m - 1) = xm[l];
  }
}

// The interface values of NL systems from s0 into x0, xm; parts of at most 2 rows are then done
// (written into d): returns whether rows remain to be substituted.
template <int NL, class DView, class T, class Interface>
KOKKOS_INLINE_FUNCTION bool part_interface(const DView& d, const Interface& iface, index_t s0,
                                           const local_part& part,
                                           T (&x0)[static_cast<std::size_t>(NL)],
                                           T (&xm)[static_cast<std::size_t>(NL)]) {
  const index_t m = part.m;
  const int k = part.reduced_rows();
  for (int l = 0; l < NL; ++l) x0[l] = iface((s0 + l) * k), xm[l] = iface((s0 + l) * k + k - 1);
  if (m > 2) return true;
  for (int l = 0; l < NL; ++l) {
    at(d, s0 + l, 0) = x0[l];
    if (m > 1) at(d, s0 + l, m - 1) = xm[l];
  }
  return false;
}

// The finish pass of NL systems from s0 (see finish_parts): the forward sweep again from a, b,
// c, d into the pack's scratch, then the backward substitution.
template <int NL, class AView, class BView, class CView, class DView, class D, class Interface>
KOKKOS_INLINE_FUNCTION void finish_pack(const AView& a, const BView& b, const CView& c,
                                        const DView& d, const Interface& iface, index_t s0,
                                        const local_part& part, D* scratch) {
  using C = coefficient_t<BView>;
  constexpr auto lane_count = static_cast<std::size_t>(NL);  // an array bound
  D x0[lane_count], xm[lane_count];
  if (!part_interface<NL>(d, iface, s0, part, x0, xm)) return;
  const index_t m = part.m;
  constexpr bool staged = part_staged_v<NL, AView, BView, CView, DView>;
  constexpr bool ahead = NL > 1 && part_prefetch_v<layout_of_t<DView>>;
  with_part_rows<NL, ahead>(a, b, c, d, s0, m, scratch,
                            [&](const auto& ga, const auto& gb, const auto& gc, const auto& gd,
                                auto pre, C* sap, C* scp, D* sdp, const auto& next) {
    C r0[2][lane_count], ap[lane_count], cp[lane_count];
    D r0d[lane_count], dp[lane_count];
    sweep_part_forward<NL, false, decltype(pre)::value>(ga, gb, gc, gd, part, m - 2, sap, scp,
                                                        sdp, r0, r0d, ap, cp, dp,
                                                        static_cast<int*>(nullptr), next);
    substitute_part_backward<NL, staged, decltype(pre)::value>(d, s0, m, x0, xm, sap, scp, sdp);
  });
}

// The finish pass of NL systems from s0 whose reduce pass left its forward rows in `kept` (the
// pack's scratch, kept for it): the backward substitution alone, a, b, c not read.
template <int NL, bool Staged, class C, class DView, class D, class Interface>
KOKKOS_INLINE_FUNCTION void finish_kept_pack(const DView& d, const Interface& iface, index_t s0,
                                             const local_part& part, D* kept) {
  D x0[static_cast<std::size_t>(NL)], xm[static_cast<std::size_t>(NL)];
  if (!part_interface<NL>(d, iface, s0, part, x0, xm)) return;
  const index_t m = part.m;
  // Where with_part_rows put a', c' (values of C) and d'.
  C* const sap = scratch_slot<NL, C>(kept, m, 0);
  C* const scp = scratch_slot<NL, C>(kept, m, Staged ? 2 : 1);
  D* const sdp = kept + (Staged ? 3 : 2) * m * NL;
  constexpr bool ahead = NL > 1 && part_prefetch_v<layout_of_t<DView>>;
  substitute_part_backward<NL, Staged, ahead>(d, s0, m, x0, xm, sap, scp, sdp);
}

// f(s0, nl, scratch) for packs of L systems (L = part_lanes_v) of lines first .. first + count
// - 1, with scratch of 4 x m x L values: full packs as L lanes, the last one's systems one by
// one. The scratch is the threads' kept pack scratch, or, with `kept`, pack p's own slice of it
// (kept + p 4 m L), so that a later pass finds what this one left there.
template <class Layout, class T, class ExecutionSpace, class F>
void for_each_part_pack(const ExecutionSpace& exec, const char* label, index_t first,
                        index_t count, const local_part& part, T* kept, const F& f) {
  constexpr int L = part_lanes_v<Layout, T>;
  const index_t packs = (count + L - 1) / L;
  const index_t slice = 4 * part.m * L;
  const auto pack = KOKKOS_LAMBDA(index_t p, T* scratch) {
    const index_t left = count - p * L;
    f(first + p * L, static_cast<int>(left < L ? left : L), scratch);
  };
  if (kept) {
    using range = Kokkos::RangePolicy<ExecutionSpace>;
    Kokkos::parallel_for(label, range(exec, 0, static_cast<typename range::member_type>(packs)),
                         KOKKOS_LAMBDA(index_t p) { pack(p, kept + p * slice); });
    return;
  }
  const std::size_t bytes = static_cast<std::size_t>(slice) * sizeof(T);
  bandsolve::detail::for_each_pack(exec, label, packs, bytes, KOKKOS_LAMBDA(index_t p, void* raw) {
    pack(p, static_cast<T*>(raw));
  });
}

// Values of the kept forward rows of `count` lines (kept_rows_of reduce_parts and finish_parts):
// a slice of 4 x m x L per pack.
template <class Layout, class T>
std::size_t kept_values(index_t count, const local_part& part) {
  constexpr int L = part_lanes_v<Layout, T>;
  return static_cast<std::size_t>((count + L - 1) / L) * 4 * static_cast<std::size_t>(part.m) * L;
}

// Reduced rows of line s: row j (0: x_0, 1: x_{m-1}) at red[(s*k + j)*W], W =
// reduced_row_words_v values of d's type each (reduced_rows.hpp: the coefficients of the previous
// and of the next interface unknown and the right-hand side; the diagonal is 1);
// codes(s): the info code of this part of line s; lines first .. first + count - 1. Reads a, b,
// c, d once and writes nothing else: the forward sweep's a', c', d' stay in the pack's scratch for
// the backward one.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Reduced, class Codes>
void reduce_parts(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                  const DView& d, const Reduced& red, const Codes& codes, index_t first,
                  index_t count, local_part part,
                  typename DView::non_const_value_type* kept = nullptr) {
  using T = typename DView::non_const_value_type;
  constexpr int L = part_lanes_v<layout_of_t<DView>, T>;
  const index_t single = kept ? 4 * part.m : 0;  // each system of a partial pack its own slice
  for_each_part_pack<layout_of_t<DView>, T>(exec, "bandsolve::mpi::solve(reduce)", first, count,
                                            part, kept,
      KOKKOS_LAMBDA(const index_t s0, const int nl, T* scratch) {
        if (nl == L) {
          reduce_pack<L>(a, b, c, d, red, codes, s0, part, scratch);
        } else {
          for (int l = 0; l < nl; ++l)
            reduce_pack<1>(a, b, c, d, red, codes, s0 + l, part, scratch + l * single);
        }
      });
}

// x from the interface values (line s: x_0 at iface[s*k], x_{m-1} at iface[s*k + k-1]): the
// forward sweep again from a, b, c, d into the pack's scratch, then
// x_i = d'_i - a'_i x_0 - c'_i x_{i+1} for i = m-2 .. 1 (forward a', c', d'), written over d.
// Reading the inputs again costs less than storing a', c', d' and reading them back from memory.
// With `kept` (the buffer reduce_parts filled for the same lines, kept_values of them): the
// backward substitution alone from the forward rows kept there, for batches of lines small enough
// that the buffer is still in cache. Lines first .. first + count - 1.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class Interface>
void finish_parts(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                  const DView& d, const Interface& iface, index_t first, index_t count,
                  local_part part, typename DView::non_const_value_type* kept = nullptr) {
  using T = typename DView::non_const_value_type;
  using C = coefficient_t<BView>;
  constexpr int L = part_lanes_v<layout_of_t<DView>, T>;
  constexpr bool staged = part_staged_v<L, AView, BView, CView, DView>;
  const index_t single = 4 * part.m;
  if (kept) {
    for_each_part_pack<layout_of_t<DView>, T>(exec, "bandsolve::mpi::solve(finish)", first,
                                              count, part, kept,
        KOKKOS_LAMBDA(const index_t s0, const int nl, T* slice) {
          if (nl == L) {
            finish_kept_pack<L, staged, C>(d, iface, s0, part, slice);
          } else {
            for (int l = 0; l < nl; ++l)
              finish_kept_pack<1, false, C>(d, iface, s0 + l, part, slice + l * single);
          }
        });
    return;
  }
  for_each_part_pack<layout_of_t<DView>, T>(exec, "bandsolve::mpi::solve(finish)", first, count,
                                            part, static_cast<T*>(nullptr),
      KOKKOS_LAMBDA(const index_t s0, const int nl, T* scratch) {
        if (nl == L) {
          finish_pack<L>(a, b, c, d, iface, s0, part, scratch);
        } else {
          for (int l = 0; l < nl; ++l) finish_pack<1>(a, b, c, d, iface, s0 + l, part, scratch);
        }
      });
}

}  // namespace bandsolve::mpi::detail
