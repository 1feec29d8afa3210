#pragma once
// The local passes of the partitioned Thomas algorithm split into a factorization (what depends
// on a, b, c only) and a right-hand-side pass, so that a factored solve reads d and the stored
// factors and sends one word per reduced row. Same elimination and info codes as reduce_parts
// (partition_kernel.hpp), which describes the method.
//
// Stored per line s and local row i, pack by pack (see part_factors): r = 1/pivot, lo = a_i/pivot
// (0 for row 1), cf = the forward sweep's c'_i, af = its a'_i (rows 1 .. m-1; row 0 unused). Per
// line: first(s, 0) = 1/b_0, first(s, 1) = forward c'_0, first(s, 2) = 1/(1 - c'_0 a'_1) (1 for
// m = 2). A factored solve reads d, r, lo, cf and writes the forward d' over d (reduce_rhs), then
// reads d', cf, af and writes x (finish_factored_parts): 9 words per unknown. In batches whose
// lines stay in cache between the passes, the reduce also recomputes af from lo into a buffer of
// the batch (batch_forward_a), so that the finish reads no factor from memory: 5 words.
//
// Truncated finish (part_factors::tip): x_i = z_i - A_i x_0 - C_i x_{m-1}, where z is the part's
// solution with both interface values 0 and A, C the responses to them (A decays away from row 0,
// C away from row m-1, as fast as the lines are diagonally dominant). Where every line's |A_i| and
// |C_i| fall below the unit roundoff within `tip` rows of their end (and the two tips do not
// meet), the reduce writes z over d and the finish corrects only the tips: the rows between are x
// already. The dropped terms change no x by more than the roundoff times |x_0| + |x_{m-1}|.
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/layout/layout_of.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>
#include <bandsolve/mpi/partition_parts.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace bandsolve::mpi::detail {

template <class T, class MemorySpace>
struct part_factors {
  // Pack p (systems p*lanes ..) row i lane l at (p*m + i)*lanes + l: each pack's factors are one
  // contiguous block, read as streams whatever the layout of d.
  index_t lanes = 1;
  index_t m = 0;
  // The system that local system 0 is (batches of consecutive lines: from()).
  index_t offset = 0;
  // Every line has the same factors (coefficients shared by every line): one pack is stored,
  // every lane alike, and every system reads it (base 0, first row 0).
  bool shared = false;
  Kokkos::View<T*, MemorySpace> r, lo, cf, af;
  Kokkos::View<T* [3], Kokkos::LayoutRight, MemorySpace> first;
  // -1: the finish runs over every row (af: the forward a'). tip >= 0: the truncated finish (see
  // above), af holds A_i on rows 1 .. tip and C_i on rows m-1-tip .. m-2 (set by truncate_spikes).
  index_t tip = -1;
  KOKKOS_INLINE_FUNCTION bool truncated() const { return tip >= 0; }
  KOKKOS_INLINE_FUNCTION index_t base(index_t s) const {
    const index_t g = offset + s;
    return shared ? 0 : (g / lanes) * m * lanes + g % lanes;
  }
  KOKKOS_INLINE_FUNCTION T& first_row(index_t s, int j) const {
    return first(shared ? 0 : offset + s, j);
  }
  // The factors of the systems from `system` on, numbered from 0.
  part_factors from(index_t system) const {
    part_factors f = *this;
    f.offset += system;
    return f;
  }
  // Whether packs of L systems from local system 0 lie each within one pack of the storage, so
  // that a pass reads their factors as rows of L lanes (stride `lanes`): L divides the stored
  // width (column storage, 64 doubles, read by the strided or row passes' 8 lanes, or the same).
  bool packs_of(index_t L) const { return lanes % L == 0 && (shared || offset % L == 0); }
};

// Rows of one stored factor for the lanes from system s (row i, lane l at i*lanes + l).
template <class T>
struct factor_rows {
  const T* p;
  index_t stride;
  KOKKOS_INLINE_FUNCTION const T& operator()(int l, index_t i) const { return p[i * stride + l]; }
};

// The forward a' of a batch of lines, recomputed by the reduce pass from the stored lo
// (a'_i = -lo_i a'_{i-1}: the factorization's own product, bit for bit) into a buffer that the
// finish reads while it is still in cache, in place of the stored af. Laid out as part_factors
// (pack p of `lanes` systems, row i, lane l at (p*m + i)*lanes + l), its packs aligned as the
// stored factors' are. None (data null): the passes read the stored af.
template <class T>
struct batch_forward_a {
  T* data = nullptr;
  index_t lanes = 1;
  index_t m = 0;
  // The position of local system 0 in the buffer's numbering of systems.
  index_t offset = 0;
  // Values for `lines` consecutive lines from any first line.
  static std::size_t values(index_t lines, index_t lanes, index_t m) {
    return static_cast<std::size_t>((lines + 2 * lanes - 2) / lanes * lanes * m);
  }
  // The buffer of lines from system `first` of the stored factors f on (local system 0 is that
  // system), its packs aligned as f's.
  template <class MemorySpace>
  static batch_forward_a of_batch(T* data, const part_factors<T, MemorySpace>& f, index_t first) {
    return {data, f.lanes, f.m, (f.offset + first) % f.lanes};
  }
  KOKKOS_INLINE_FUNCTION T* rows(index_t s) const {
    if (!data) return nullptr;
    const index_t g = offset + s;
    return data + (g / lanes) * m * lanes + g % lanes;
  }
  batch_forward_a from(index_t system) const {
    batch_forward_a b = *this;
    b.offset += system;
    return b;
  }
};

// The rows from a line's ends within which its responses to the interface values (A and C, see
// the top) stay above the unit roundoff, tracked over the backward recurrence that the
// factorization runs anyway (A_i = af_i - cf_i A_{i+1}, C_i = -cf_i C_{i+1}, i = m-2 .. 1): the
// largest i with |A_i| above it, or m-1-i with |C_i| above it (0 where none; a value that is not
// finite counts as above).
template <class T>
struct spike_tip {
  index_t ta = 0, tc = 0;
  KOKKOS_INLINE_FUNCTION static bool above(const T& v) {
    using R = real_type_t<T>;
    return !(bandsolve::detail::magnitude1(v) <= bandsolve::detail::unit_roundoff<R>());
  }
  // Row i's A and C, rows taken from m-2 down.
  KOKKOS_INLINE_FUNCTION void row(index_t i, index_t m, const T& A, const T& C) {
    if (ta == 0 && above(A)) ta = i;
    if (above(C)) tc = m - 1 - i;
  }
  KOKKOS_INLINE_FUNCTION index_t rows() const { return ta > tc ? ta : tc; }
};

// Factors of line s of this rank's parts (see factor_parts) into f; its reduced rows'
// coefficients into coef, its local info code into codes(s), and where tips is given, its
// spike_tip into tips(s) (0 for m <= 2). One system, valid device code.
template <class AView, class BView, class CView, class T, class MemorySpace, class Coefficients,
          class Codes>
KOKKOS_INLINE_FUNCTION void factor_system(const AView& a, const BView& b, const CView& c,
                                          const part_factors<T, MemorySpace>& f,
                                          const Coefficients& coef, const Codes& codes, index_t s,
                                          const local_part& part, index_t* tips = nullptr) {
  using bandsolve::detail::reciprocal;
  using bandsolve::detail::update_info;
  const index_t m = part.m, off = part.offset;
  const int k = part.reduced_rows();
  const index_t L = f.lanes;
  const index_t fb = f.base(s);
  const auto a_at = [&](index_t i) { return part.first && i == 0 ? T(0) : at(a, s, i); };
  const auto c_at = [&](index_t i) { return part.last && i == m - 1 ? T(0) : at(c, s, i); };
  const T b0 = at(b, s, 0);
  int info = update_info(0, b0, off);
  const T r0 = reciprocal(b0);
  f.first_row(s, 0) = r0;
  T ap0 = r0 * a_at(0), cp0 = r0 * c_at(0);
  T* out = coef.data() + s * k * 2;
  if (tips) tips[s] = 0;
  if (m == 1) {
    out[0] = ap0;
    out[1] = cp0;
    codes(s) = info;
    return;
  }
  const T b1 = at(b, s, 1);
  info = update_info(info, b1, off + 1);
  const T r1 = reciprocal(b1);
  T ap_i = r1 * a_at(1), cp_i = r1 * c_at(1);
  f.r(fb + L) = r1, f.lo(fb + L) = T(0), f.cf(fb + L) = cp_i, f.af(fb + L) = ap_i;
  for (index_t i = 2; i < m; ++i) {
    const T ai = a_at(i);
    const T pivot = at(b, s, i) - ai * cp_i;
    info = update_info(info, pivot, off + i);
    const T r = reciprocal(pivot);
    cp_i = r * c_at(i);
    ap_i = -r * ai * ap_i;
    f.r(fb + i * L) = r, f.lo(fb + i * L) = ai * r, f.cf(fb + i * L) = cp_i,
    f.af(fb + i * L) = ap_i;
  }
  out[2] = ap_i;  // row m-1
  out[3] = cp_i;
  f.first_row(s, 1) = cp0;
  f.first_row(s, 2) = T(1);
  if (m > 2) {
    T ap_n = f.af(fb + (m - 2) * L), cp_n = f.cf(fb + (m - 2) * L);
    spike_tip<T> tip;
    tip.row(m - 2, m, ap_n, cp_n);
    for (index_t i = m - 3; i >= 1; --i) {
      const T ci = f.cf(fb + i * L);
      ap_n = f.af(fb + i * L) - ci * ap_n;
      cp_n = -ci * cp_n;
      tip.row(i, m, ap_n, cp_n);
    }
    if (tips) tips[s] = tip.rows();
    const T den = T(1) - cp0 * ap_n;
    info = update_info(info, den, off);
    const T r = reciprocal(den);
    f.first_row(s, 2) = r;
    ap0 = r * ap0;
    cp0 = -r * cp0 * cp_n;
  }
  out[0] = ap0;
  out[1] = cp0;
  codes(s) = info;
}

// factor_system for the NL lines from s0 at once, row by row across the lines (SIMD lanes), with
// the same arithmetic: a, b, c read in place, or (row layout) staged into scratch (3 x m x NL
// values); f stores them as packs of NL lines or wider (f.packs_of(NL)).
template <int NL, class AView, class BView, class CView, class T, class MemorySpace,
          class Coefficients, class Codes>
KOKKOS_INLINE_FUNCTION void factor_pack(const AView& a, const BView& b, const CView& c,
                                        const part_factors<T, MemorySpace>& f,
                                        const Coefficients& coef, const Codes& codes, index_t s0,
                                        const local_part& part, T* scratch, index_t* tips) {
  using bandsolve::detail::reciprocal;
  using bandsolve::detail::update_info;
  const index_t m = part.m, off = part.offset;
  if (m <= 2) {
    for (int l = 0; l < NL; ++l) factor_system(a, b, c, f, coef, codes, s0 + l, part, tips);
    return;
  }
  const auto sweep = [&](const auto& ga, const auto& gb, const auto& gc) {
    constexpr auto lanes = static_cast<std::size_t>(NL);  // an array bound
    const index_t L = f.lanes, fb = f.base(s0);
    T *const fr = f.r.data() + fb, *const flo = f.lo.data() + fb, *const fcf = f.cf.data() + fb,
             *const faf = f.af.data() + fb;
    const int k = part.reduced_rows();
    int info[lanes];
    T ap0[lanes], cp0[lanes], ap[lanes], cp[lanes];
    for (int l = 0; l < NL; ++l) {  // rows 0 and 1 (neither is the last: m > 2)
      const T b0 = gb(l, 0);
      info[l] = update_info(0, b0, off);
      const T r0 = reciprocal(b0);
      f.first_row(s0 + l, 0) = r0;
      ap0[l] = r0 * (part.first ? T(0) : T(ga(l, 0)));
      cp0[l] = r0 * T(gc(l, 0));
      const T b1 = gb(l, 1);
      info[l] = update_info(info[l], b1, off + 1);
      const T r1 = reciprocal(b1);
      ap[l] = r1 * T(ga(l, 1));
      cp[l] = r1 * T(gc(l, 1));
      fr[L + l] = r1, flo[L + l] = T(0), fcf[L + l] = cp[l], faf[L + l] = ap[l];
    }
    for (index_t i = 2; i < m; ++i) {
      const bool no_c = part.last && i == m - 1;
      T *const ri = fr + i * L, *const li = flo + i * L, *const ci = fcf + i * L,
               *const ai_row = faf + i * L;
      // The row's coefficients into lane arrays first: the arithmetic below then vectorizes
      // whatever the accessors are (GCC left it scalar reading them through the accessors).
      T av[lanes], bv[lanes], cv[lanes];
      for (int l = 0; l < NL; ++l) av[l] = ga(l, i), bv[l] = gb(l, i), cv[l] = gc(l, i);
      BANDSOLVE_SIMD
      for (int l = 0; l < NL; ++l) {
        const T ai = av[l];
        const T pivot = bv[l] - ai * cp[l];
        info[l] = update_info(info[l], pivot, off + i);
        const T r = reciprocal(pivot);
        cp[l] = r * (no_c ? T(0) : cv[l]);
        ap[l] = -r * ai * ap[l];
        ri[l] = r, li[l] = ai * r, ci[l] = cp[l], ai_row[l] = ap[l];
      }
    }
    // Row 0's coupling to row m-1 through the rows between (factor_system), from the rows just
    // stored, still in cache; the same recurrence gives the spike tips.
    // (spike_tip's fields as lane arrays, which GCC vectorizes where an array of the struct
    // stayed scalar.)
    T ap_n[lanes], cp_n[lanes];
    index_t ta[lanes], tc[lanes];
    for (int l = 0; l < NL; ++l) {
      ap_n[l] = faf[(m - 2) * L + l], cp_n[l] = fcf[(m - 2) * L + l];
      spike_tip<T> t;
      t.row(m - 2, m, ap_n[l], cp_n[l]);
      ta[l] = t.ta, tc[l] = t.tc;
    }
    for (index_t i = m - 3; i >= 1; --i) {
      const T *const ci = fcf + i * L, *const ai_row = faf + i * L;
      BANDSOLVE_SIMD
      for (int l = 0; l < NL; ++l) {
        ap_n[l] = ai_row[l] - ci[l] * ap_n[l];
        cp_n[l] = -ci[l] * cp_n[l];
        ta[l] = ta[l] == 0 && spike_tip<T>::above(ap_n[l]) ? i : ta[l];
        tc[l] = spike_tip<T>::above(cp_n[l]) ? m - 1 - i : tc[l];
      }
    }
    for (int l = 0; l < NL; ++l) tips[s0 + l] = ta[l] > tc[l] ? ta[l] : tc[l];
    for (int l = 0; l < NL; ++l) {
      const index_t s = s0 + l;
      T* const out = coef.data() + s * k * 2;
      out[2] = ap[l];  // row m-1
      out[3] = cp[l];
      f.first_row(s, 1) = cp0[l];
      const T den = T(1) - cp0[l] * ap_n[l];
      info[l] = update_info(info[l], den, off);
      const T r = reciprocal(den);
      f.first_row(s, 2) = r;
      out[0] = r * ap0[l];
      out[1] = -r * cp0[l] * cp_n[l];
      codes(s) = info[l];
    }
  };
  if constexpr (part_staged_v<NL, AView, BView, CView, BView>) {
    T *const sa = scratch, *const sb = scratch + m * NL, *const sc = scratch + 2 * m * NL;
    stage_part_rows<NL>(a, s0, m, sa);
    stage_part_rows<NL>(b, s0, m, sb);
    stage_part_rows<NL>(c, s0, m, sc);
    sweep(rows_staged<T, NL>{sa}, rows_staged<T, NL>{sb}, rows_staged<T, NL>{sc});
  } else {
    (void)scratch;
    sweep(rows_in_place<AView>{a, s0}, rows_in_place<BView>{b, s0}, rows_in_place<CView>{c, s0});
  }
}

// Factors of this rank's parts; coef: the reduced rows' coefficients (line s, row j at
// (s*k + j)*2: of the previous interface unknown, of the next); codes(s): info of this part;
// tips[s]: its spike_tip (for truncate_spikes). Packs of lines as a solve's passes take them
// (for_each_part_pack), in SIMD lanes where f stores them as packs (factor_pack), else one line
// at a time.
template <class ExecutionSpace, class AView, class BView, class CView, class T, class MemorySpace,
          class Coefficients, class Codes>
void factor_parts(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                  const part_factors<T, MemorySpace>& f, const Coefficients& coef,
                  const Codes& codes, index_t nsys, local_part part, index_t* tips) {
  using Layout = layout_of_t<BView>;
  constexpr int L = part_lanes_v<Layout, T>;
  const bool packs = f.packs_of(L);
  for_each_part_pack<Layout, T>(exec, "bandsolve::mpi::factorize(parts)", 0, nsys, part,
                                static_cast<T*>(nullptr),
      KOKKOS_LAMBDA(const index_t s0, const int nl, T* scratch) {
        if (packs && nl == L) {
          factor_pack<L>(a, b, c, f, coef, codes, s0, part, scratch, tips);
        } else {
          for (int l = 0; l < nl; ++l)
            factor_system(a, b, c, f, coef, codes, s0 + l, part, tips);
        }
      });
}

// Shared factors (f.shared) after factor_parts or factor_parts_device of system 0 alone: its
// factors copied into the other lanes of the stored pack, its reduced rows' coefficients (k
// reduced rows of 2 words) and info code into every system's of nsys.
template <class ExecutionSpace, class T, class MemorySpace, class Coefficients, class Codes>
void share_first_system(const ExecutionSpace& exec, const part_factors<T, MemorySpace>& f,
                        const Coefficients& coef, const Codes& codes, index_t nsys, int k) {
  const index_t L = f.lanes;
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  using index = typename range::member_type;
  if (L > 1 && f.m > 1)
    Kokkos::parallel_for("bandsolve::mpi::factorize(shared lanes)",
        range(exec, 1, static_cast<index>(f.m)), KOKKOS_LAMBDA(const index_t i) {
          for (index_t l = 1; l < L; ++l) {
            f.r(i * L + l) = f.r(i * L), f.lo(i * L + l) = f.lo(i * L);
            f.cf(i * L + l) = f.cf(i * L), f.af(i * L + l) = f.af(i * L);
          }
        });
  const index_t w = 2 * k;
  Kokkos::parallel_for("bandsolve::mpi::factorize(shared lines)",
      range(exec, 1, static_cast<index>(nsys > 1 ? nsys : 1)),
      KOKKOS_LAMBDA(const index_t s) {
        for (index_t j = 0; j < w; ++j) coef(s * w + j) = coef(j);
        codes(s) = codes(0);
      });
}

// After factor_parts of every line (of line 0 alone for shared factors, before
// share_first_system), given the lines' spike tips (factor_parts' tips): where the widest tip of
// the `lines` stored lines leaves rows between the two tips, each line's af on its tips
// overwritten with A and C and f.tip set to that width (the truncated finish); otherwise f
// unchanged. For the host passes only (the device passes read af as the forward a'). Lines in
// chunks of a cache line of lanes where the stored packs hold whole chunks, else one by one.
template <class ExecutionSpace, class T, class MemorySpace>
void truncate_spikes(const ExecutionSpace& exec, part_factors<T, MemorySpace>& f, index_t lines,
                     const index_t* tips) {
  const index_t m = f.m;
  if (m <= 2 || lines <= 0) return;
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  using index = typename range::member_type;
  index_t tip = 0;
  Kokkos::parallel_reduce("bandsolve::mpi::factorize(spike tips)",
      range(exec, 0, static_cast<index>(lines)),
      KOKKOS_LAMBDA(const index_t s, index_t& widest) {
        if (tips[s] > widest) widest = tips[s];
      },
      Kokkos::Max<index_t>(tip));
  if (2 * tip > m - 2) return;
  constexpr int CW = bandsolve::detail::cache_line_lanes_v<real_type_t<T>>;
  const part_factors<T, MemorySpace> g = f;
  const index_t L = g.lanes;
  const bool chunks = !g.shared && L % CW == 0 && g.offset % CW == 0;
  const index_t items = chunks ? (lines + CW - 1) / CW : lines;
  Kokkos::parallel_for("bandsolve::mpi::factorize(spike tips)",
      range(exec, 0, static_cast<index>(items)), KOKKOS_LAMBDA(const index_t q) {
        const index_t s0 = chunks ? q * CW : q;
        const int nl = !chunks ? 1 : lines - s0 < CW ? static_cast<int>(lines - s0) : CW;
        const index_t fb = g.base(s0);
        const T* const cf = g.cf.data() + fb;
        T* const af = g.af.data() + fb;
        constexpr auto chunk = static_cast<std::size_t>(CW);  // an array bound
        T A[chunk], C[chunk];
        for (int l = 0; l < nl; ++l) A[l] = af[(m - 2) * L + l], C[l] = cf[(m - 2) * L + l];
        for (index_t i = m - 2; i >= 1; --i) {
          T* const ar = af + i * L;
          const T* const cr = cf + i * L;
          if (i < m - 2)
            for (int l = 0; l < nl; ++l) {
              A[l] = ar[l] - cr[l] * A[l];  // af_i read before its row is overwritten
              C[l] = -cr[l] * C[l];
            }
          if (i <= tip)
            for (int l = 0; l < nl; ++l) ar[l] = A[l];
          else if (i >= m - 1 - tip)
            for (int l = 0; l < nl; ++l) ar[l] = C[l];
        }
      });
  exec.fence();
  f.tip = tip;
}

// Calls g(gd, pre, next) for the NL systems from s0 of d: gd the rows of d (staged for row
// batches into sd, scratch of m x NL values, else in place with sd the scratch), pre whether to
// prefetch rows ahead, next: `next` with, when staged, the next pack's rows of d added
// (next_part_pack); writes sd back into d after g when staged.
template <int NL, bool WriteBack, class DView, class T, class G>
KOKKOS_INLINE_FUNCTION void with_rhs_rows(const DView& d, index_t s0, index_t m, T* sd,
                                          const next_pack_rows& next, const G& g) {
  if constexpr (part_staged_v<NL, DView, DView, DView, DView>) {
    stage_part_rows<NL>(d, s0, m, sd);
    g(rows_staged<T, NL>{sd}, std::integral_constant<bool, false>{},
      next_part_pack<NL>(next, s0, m, d));
    if constexpr (WriteBack) unstage_part_rows<NL>(d, s0, m, sd);
  } else {
    g(rows_in_place<DView>{d, s0},
      std::integral_constant<bool, (NL > 1 && part_prefetch_v<layout_of_t<DView>>)>{}, next);
  }
}

// For staged packs (row batches of d), the next pack's blocks of the stored factors named (r, lo,
// cf, af) over `steps` calls: each pack's factors are a block of m x lanes values, read as short
// streams (backward for cf, af) that the hardware prefetchers pick up late between the staging
// transposes. None for the last pack, for factors stored wider than the pack (the next block is
// not the next pack's), or for d read in place (column packs prefetch d's rows and measured
// slower with these requests added).
template <int NL, class DView, class T, class MemorySpace, class... Factors>
KOKKOS_INLINE_FUNCTION next_pack_rows next_factor_pack(const part_factors<T, MemorySpace>& f,
                                                       index_t s0, index_t steps,
                                                       const Factors&... factor) {
  next_pack_rows next = sweep_prefetch(steps);
  const index_t block = f.m * f.lanes, at = f.base(s0) + block;
  if (part_staged_v<NL, DView, DView, DView, DView> && f.lanes == NL &&
      at + block <= static_cast<index_t>(f.r.extent(0))) {
    (next.blocks.add(factor.data() + at), ...);
    next.blocks.bytes = block * static_cast<index_t>(sizeof(T));
  }
  return next;
}

// The reduce pass of a factored solve for NL systems from s0 (see reduce_rhs).
// kept_af: where this pack's forward a' goes (rows of f.lanes values; null: nowhere).
template <int NL, class DView, class T, class MemorySpace, class Rhs>
KOKKOS_INLINE_FUNCTION void reduce_rhs_pack(const DView& d, const part_factors<T, MemorySpace>& f,
                                            const Rhs& rhs, index_t s0, const local_part& part,
                                            typename DView::non_const_value_type* scratch,
                                            T* kept_af) {
  using D = typename DView::non_const_value_type;  // T, or complex over real factors
  const index_t m = part.m;
  if (m == 1) {
    for (int l = 0; l < NL; ++l) rhs(s0 + l) = f.first_row(s0 + l, 0) * at(d, s0 + l, 0);
    return;
  }
  const index_t L = f.lanes;
  const factor_rows<T> fr{f.r.data() + f.base(s0), L}, flo{f.lo.data() + f.base(s0), L},
      fcf{f.cf.data() + f.base(s0), L};
  constexpr bool staged = part_staged_v<NL, DView, DView, DView, DView>;
  const auto next_factors = next_factor_pack<NL, DView>(f, s0, m - 2, f.r, f.lo, f.cf);
  with_rhs_rows<NL, true>(d, s0, m, scratch, next_factors,
                          [&](const auto& gd, auto pre, const auto& next) {
    D* const sdp = scratch;  // the forward d' (over the staged d when staged)
    D dp0[static_cast<std::size_t>(NL)], dp[static_cast<std::size_t>(NL)];
    T ap[static_cast<std::size_t>(NL)];  // the forward a' (kept_af)
    for (int l = 0; l < NL; ++l) {
      if (kept_af) {
        ap[l] = f.af(f.base(s0) + L + l);
        kept_af[L + l] = ap[l];
      }
      dp0[l] = f.first_row(s0 + l, 0) * gd(l, 0);
      dp[l] = fr(l, 1) * gd(l, 1);
      sdp[NL + l] = dp[l];
      if constexpr (!staged) {
        if (m > 2) gd(l, 1) = dp[l];
      }
    }
    constexpr bool on_parts = rhs_on_parts_v<NL, D, decltype(gd)>;
    for (index_t i = 2; i < m; ++i) {
      next(i - 2);
      if constexpr (decltype(pre)::value) {
        if (i + 1 < m) prefetch_part_row<NL>(d, s0, i + 1);
      }
      D* const rd = sdp + i * NL;
      if (kept_af && i < m - 1) {
        T* const ka = kept_af + i * L;
        BANDSOLVE_SIMD
        for (int l = 0; l < NL; ++l) {
          ap[l] = -flo(l, i) * ap[l];
          ka[l] = ap[l];
        }
      }
      if constexpr (on_parts) {
        const bool kept = i < m - 1;  // the last row is not stored
        forward_rhs_row_parts<NL>(&fr(0, i), &flo(0, i), &gd(0, i), dp, kept ? rd : nullptr,
                                  kept && !staged ? &gd(0, i) : nullptr);
      } else {
        BANDSOLVE_SIMD
        for (int l = 0; l < NL; ++l) {
          dp[l] = fr(l, i) * gd(l, i) - flo(l, i) * dp[l];
          if (i < m - 1) {
            rd[l] = dp[l];
            if constexpr (!staged) gd(l, i) = dp[l];
          }
        }
      }
    }
    for (int l = 0; l < NL; ++l) rhs(2 * (s0 + l) + 1) = dp[l];
    if (m > 2) {
      // The backward values are z (the part's solution with both interface values 0): the
      // truncated finish keeps them in d (row m-2's z is its d', already there).
      const bool store_z = f.truncated();
      for (int l = 0; l < NL; ++l) dp[l] = sdp[(m - 2) * NL + l];  // row i+1
      for (index_t i = m - 3; i >= 1; --i) {
        const D* const rd = sdp + i * NL;
        if constexpr (on_parts) {
          backward_rhs_row_parts<NL>(rd, &fcf(0, i), dp, store_z ? &gd(0, i) : nullptr);
        } else if (store_z) {
          BANDSOLVE_SIMD
          for (int l = 0; l < NL; ++l) {
            dp[l] = rd[l] - fcf(l, i) * dp[l];
            gd(l, i) = dp[l];
          }
        } else {
          BANDSOLVE_SIMD
          for (int l = 0; l < NL; ++l) dp[l] = rd[l] - fcf(l, i) * dp[l];
        }
      }
      for (int l = 0; l < NL; ++l)
        dp0[l] = f.first_row(s0 + l, 2) * (dp0[l] - f.first_row(s0 + l, 1) * dp[l]);
    }
    for (int l = 0; l < NL; ++l) rhs(2 * (s0 + l)) = dp0[l];
  });
}

// The truncated finish for NL systems from s0 (f.truncated(), m > 2): the interface values on
// rows 0 and m-1, x_i = z_i - A_i x_0 on rows 1 .. tip and x_i = z_i - C_i x_{m-1} on rows
// m-1-tip .. m-2, over the z that the reduce left in d; the rows between hold x already.
template <int NL, class DView, class T, class MemorySpace, class Interface>
KOKKOS_INLINE_FUNCTION void finish_tips_pack(const DView& d, const part_factors<T, MemorySpace>& f,
                                             const Interface& iface, index_t s0,
                                             const local_part& part) {
  using D = typename DView::non_const_value_type;
  const index_t m = part.m;
  const int k = part.reduced_rows();
  D x0[static_cast<std::size_t>(NL)], xm[static_cast<std::size_t>(NL)];
  for (int l = 0; l < NL; ++l) {
    x0[l] = iface((s0 + l) * k), xm[l] = iface((s0 + l) * k + k - 1);
    at(d, s0 + l, 0) = x0[l];
    at(d, s0 + l, m - 1) = xm[l];
  }
  const factor_rows<T> spike{f.af.data() + f.base(s0), f.lanes};
  const index_t tip = f.tip, last = m - 1 - tip;
  using Layout = layout_of_t<DView>;
  if constexpr (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::strided>) {
    // A line's rows lie together: each tip is one short run of d.
    for (int l = 0; l < NL; ++l) {
      for (index_t i = 1; i <= tip; ++i) at(d, s0 + l, i) -= spike(l, i) * x0[l];
      for (index_t i = last; i <= m - 2; ++i) at(d, s0 + l, i) -= spike(l, i) * xm[l];
    }
  } else {
    for (index_t i = 1; i <= tip; ++i) {
      BANDSOLVE_SIMD
      for (int l = 0; l < NL; ++l) at(d, s0 + l, i) -= spike(l, i) * x0[l];
    }
    for (index_t i = last; i <= m - 2; ++i) {
      BANDSOLVE_SIMD
      for (int l = 0; l < NL; ++l) at(d, s0 + l, i) -= spike(l, i) * xm[l];
    }
  }
}

// The finish pass of a factored solve for NL systems from s0: x_i = d'_i - a'_i x_0 - c'_i x_{i+1}
// for i = m-2 .. 1 (forward a', c', d'), written over d. kept_af: the pack's forward a' that the
// reduce pass left (rows of f.lanes values), or null for the stored af.
template <int NL, class DView, class T, class MemorySpace, class Interface>
KOKKOS_INLINE_FUNCTION void finish_factored_pack(const DView& d, const part_factors<T, MemorySpace>& f,
                                                 const Interface& iface, index_t s0,
                                                 const local_part& part,
                                                 typename DView::non_const_value_type* scratch,
                                                 const T* kept_af) {
  using D = typename DView::non_const_value_type;
  const index_t m = part.m;
  const int k = part.reduced_rows();
  D x0[static_cast<std::size_t>(NL)], xm[static_cast<std::size_t>(NL)];
  for (int l = 0; l < NL; ++l) x0[l] = iface((s0 + l) * k), xm[l] = iface((s0 + l) * k + k - 1);
  if (m <= 2) {
    for (int l = 0; l < NL; ++l) {
      at(d, s0 + l, 0) = x0[l];
      if (m > 1) at(d, s0 + l, m - 1) = xm[l];
    }
    return;
  }
  const index_t L = f.lanes;
  const factor_rows<T> fcf{f.cf.data() + f.base(s0), L},
      faf{kept_af ? kept_af : f.af.data() + f.base(s0), L};
  const auto next_factors = kept_af ? next_factor_pack<NL, DView>(f, s0, m - 2, f.cf)
                                    : next_factor_pack<NL, DView>(f, s0, m - 2, f.cf, f.af);
  with_rhs_rows<NL, true>(d, s0, m, scratch, next_factors,
                          [&](const auto& gd, auto pre, const auto& next) {
    D x[static_cast<std::size_t>(NL)];  // x_{i+1}
    for (int l = 0; l < NL; ++l) x[l] = xm[l], gd(l, 0) = x0[l], gd(l, m - 1) = xm[l];
    for (index_t i = m - 2; i >= 1; --i) {
      next(m - 2 - i);
      if constexpr (decltype(pre)::value) prefetch_part_row<NL>(d, s0, i - 1);
      if constexpr (rhs_on_parts_v<NL, D, decltype(gd)>) {
        finish_row_parts<NL>(&gd(0, i), &faf(0, i), x0, &fcf(0, i), x);
      } else {
        BANDSOLVE_SIMD
        for (int l = 0; l < NL; ++l) {
          x[l] = gd(l, i) - faf(l, i) * x0[l] - fcf(l, i) * x[l];
          gd(l, i) = x[l];
        }
      }
    }
  });
}

// The reduced right-hand sides of lines first .. first + count - 1 of d (line s, row j at
// rhs(s*k + j)); d's rows 1 .. m-2 receive the forward d', kept_af (numbered as d's lines; none
// by default) the forward a'. Packs as the factors were stored when d's layout packs the same
// number of systems, else one system at a time.
template <class ExecutionSpace, class DView, class T, class MemorySpace, class Rhs>
void reduce_rhs(const ExecutionSpace& exec, const DView& d, const part_factors<T, MemorySpace>& f,
                const Rhs& rhs, index_t first, index_t count, local_part part,
                const batch_forward_a<T>& kept_af = {}) {
  using D = typename DView::non_const_value_type;
  constexpr int L = part_lanes_v<layout_of_t<DView>, D>;
  const bool packs = f.from(first).packs_of(L);
  for_each_part_pack<layout_of_t<DView>, D>(exec, "bandsolve::mpi::factorization::solve(reduce)",
                                            first, count, part, static_cast<D*>(nullptr),
      KOKKOS_LAMBDA(const index_t s0, const int nl, D* scratch) {
        if (packs && nl == L) {
          reduce_rhs_pack<L>(d, f, rhs, s0, part, scratch, kept_af.rows(s0));
        } else {
          for (int l = 0; l < nl; ++l)
            reduce_rhs_pack<1>(d, f, rhs, s0 + l, part, scratch, kept_af.rows(s0 + l));
        }
      });
}

// x of lines first .. first + count - 1 from the interface values (line s: x_0 at iface[s*k],
// x_{m-1} at iface[s*k + k-1]) and the forward d' (and a', when kept_af is given) that reduce_rhs
// left in d.
template <class ExecutionSpace, class DView, class T, class MemorySpace, class Interface>
void finish_factored_parts(const ExecutionSpace& exec, const DView& d,
                           const part_factors<T, MemorySpace>& f, const Interface& iface,
                           index_t first, index_t count, local_part part,
                           const batch_forward_a<T>& kept_af = {}) {
  using D = typename DView::non_const_value_type;
  constexpr int L = part_lanes_v<layout_of_t<DView>, D>;
  const bool packs = f.from(first).packs_of(L);
  for_each_part_pack<layout_of_t<DView>, D>(exec, "bandsolve::mpi::factorization::solve(finish)",
                                            first, count, part, static_cast<D*>(nullptr),
      KOKKOS_LAMBDA(const index_t s0, const int nl, D* scratch) {
        if (f.truncated()) {
          if (packs && nl == L) {
            finish_tips_pack<L>(d, f, iface, s0, part);
          } else {
            for (int l = 0; l < nl; ++l) finish_tips_pack<1>(d, f, iface, s0 + l, part);
          }
        } else if (packs && nl == L) {
          finish_factored_pack<L>(d, f, iface, s0, part, scratch, kept_af.rows(s0));
        } else {
          for (int l = 0; l < nl; ++l)
            finish_factored_pack<1>(d, f, iface, s0 + l, part, scratch, kept_af.rows(s0 + l));
        }
      });
}

}  // namespace bandsolve::mpi::detail
