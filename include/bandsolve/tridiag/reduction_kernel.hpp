#pragma once
// Building blocks of the solvers that work inside a system (PCR, cyclic reduction, the
// Thomas-PCR hybrid): the rows of one system, a team of threads that splits index ranges, and the
// PCR and CR sweeps on a tile of rows held in scratch memory.
//
// A tile stores L lanes (independent systems, or chunks of one system) row by row: row i of lane
// l is element k = i*L + l. With L = 1 a tile is one system and the loops run SIMD across its
// rows; with L > 1 they run SIMD across lanes. Either way a sweep is one flat loop over k, which
// team threads split into contiguous ranges (on a GPU: a team per system, threads across rows).
// No allocation, no exceptions: every routine here is valid device code.
#include <bandsolve/backend/host_simd/lanes.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>

#include <type_traits>

namespace bandsolve {

// The rows of one system: row i at p[i * stride]. Every batch layout gives one per system (see
// detail::system_of), so the per-system routines take these and work for any layout.
template <class T>
struct system_rows {
  T* p = nullptr;
  index_t stride = 1;

  system_rows() = default;  // (no annotation: nvcc ignores it on a defaulted constructor)
  KOKKOS_INLINE_FUNCTION system_rows(T* first, index_t row_stride) : p(first), stride(row_stride) {}
  // Read-only rows from writable ones.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_const_v<U>>>
  KOKKOS_INLINE_FUNCTION system_rows(const system_rows<U>& rows) : p(rows.p), stride(rows.stride) {}
  KOKKOS_INLINE_FUNCTION T& operator[](index_t i) const { return p[i * stride]; }
  // The rows from `first` on, as a system of their own.
  KOKKOS_INLINE_FUNCTION system_rows offset(index_t first) const {
    return system_rows{p + first * stride, stride};
  }
};

// A team of one thread, for per-system routines called outside a team (one thread per system).
struct single_thread {
  KOKKOS_INLINE_FUNCTION int team_rank() const { return 0; }
  KOKKOS_INLINE_FUNCTION int team_size() const { return 1; }
  KOKKOS_INLINE_FUNCTION void team_barrier() const {}
};

}  // namespace bandsolve

#define BANDSOLVE_PRAGMA(x) _Pragma(#x)
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
#define BANDSOLVE_SIMD_SUM(var)
#else
// SIMD loop that also sums `var` across iterations (the pivot-risk screen).
#define BANDSOLVE_SIMD_SUM(var) BANDSOLVE_PRAGMA(omp simd reduction(+ : var))
#endif

namespace bandsolve::detail {

// Thread team.team_rank()'s contiguous share [first, last) of [begin, end).
template <class Member>
KOKKOS_INLINE_FUNCTION void thread_share(const Member& team, index_t begin, index_t end,
                                         index_t& first, index_t& last) {
  const index_t len = end > begin ? end - begin : 0;
  const index_t t = team.team_rank(), nt = team.team_size();
  first = begin + len * t / nt;
  last = begin + len * (t + 1) / nt;
}

// Where the first bad pivot of a system was met: (phase << 32) + 1-based row, 0 = none. Phases
// are the solver's sweeps in order (normalisation, reduction steps, ...); the smallest code is
// the earliest phase's smallest row, which is what info reports. (Later phases see the NaN or
// infinities a bad pivot spread to its neighbours: only the first phase names the culprit.)
using bad_code = long long;

KOKKOS_INLINE_FUNCTION bad_code merge_bad(bad_code x, bad_code y) {
  return x == 0 ? y : (y == 0 ? x : (x < y ? x : y));
}
KOKKOS_INLINE_FUNCTION bad_code min_bad_row(bad_code bad, int phase, index_t row) {
  return merge_bad(bad, (static_cast<bad_code>(phase) << 32) + static_cast<bad_code>(row + 1));
}
// *where read atomically, as a compare-and-swap that writes nothing new: Kokkos 3's
// atomic_fetch_add on 64-bit values starts with a plain read, a data race beside another
// thread's compare-and-swap (ThreadSanitizer reports it).
KOKKOS_INLINE_FUNCTION bad_code atomic_read_code(bad_code* where) {
  return Kokkos::atomic_compare_exchange(where, bad_code(0), bad_code(0));
}
KOKKOS_INLINE_FUNCTION int info_of(bad_code bad) { return static_cast<int>(bad & 0xffffffffLL); }
KOKKOS_INLINE_FUNCTION int phase_of(bad_code bad) { return static_cast<int>(bad >> 32); }

// After a team's threads each kept a code per system (thread u's at codes + u * nsys): every
// system's first code over the threads, as info, handed to info_of_system(s, info); the systems
// shared among the threads.
template <class Member, class Info>
KOKKOS_INLINE_FUNCTION void merged_team_info(const Member& team, const bad_code* codes,
                                             index_t nsys, const Info& info_of_system) {
  index_t s0, s1;
  thread_share(team, 0, nsys, s0, s1);
  for (index_t s = s0; s < s1; ++s) {
    bad_code first = 0;
    for (int u = 0; u < team.team_size(); ++u)
      first = merge_bad(first, codes[static_cast<index_t>(u) * nsys + s]);
    info_of_system(s, info_of(first));
  }
}

template <int L, class T>
KOKKOS_INLINE_FUNCTION bool tile_unit_strides(const system_rows<T>* lanes) {
  bool unit = true;
  for (int l = 0; l < L; ++l) unit = unit && lanes[l].stride == 1;
  return unit;
}
template <int L, class T>
KOKKOS_INLINE_FUNCTION void tile_lane_offsets(const system_rows<T>* lanes, index_t* offsets) {
  for (int l = 0; l < L; ++l) offsets[l] = lanes[l].p - lanes[0].p;
}

// Copies rows [0, m) of lanes[0..nl) into a tile of L lanes (this thread's share of the rows);
// lanes nl..L-1 become identity rows (b = 1, a = c = d = 0) so that they stay finite. Lanes
// l < top_lanes start a system and lanes l >= bottom_from end one: their a of row 0 and c of row
// m-1 are ignored entries, set to zero.
template <int L, class Member, class T>
KOKKOS_INLINE_FUNCTION void load_lane_tile(const Member& team, index_t m, int nl,
                                        const system_rows<const T>* a,
                                        const system_rows<const T>* b,
                                        const system_rows<const T>* c,
                                        const system_rows<const T>* d, T* ta, T* tb, T* tc,
                                        T* td, int top_lanes, int bottom_from) {
  index_t first, i1;
  thread_share(team, 0, m, first, i1);
  index_t i0 = first;  // rows [first, i0) go through the transposes, [i0, i1) one by one
  // Contiguous rows of L full lanes: L x L blocks through in-register transposes.
  if (register_transposes_v && L > 1 && nl == L && tile_unit_strides<L>(a) &&
      tile_unit_strides<L>(b) && tile_unit_strides<L>(c) && tile_unit_strides<L>(d)) {
    constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
    index_t oa[lane_count], ob[lane_count], oc[lane_count], od[lane_count];
    tile_lane_offsets<L>(a, oa);
    tile_lane_offsets<L>(b, ob);
    tile_lane_offsets<L>(c, oc);
    tile_lane_offsets<L>(d, od);
    for (; i0 + L <= i1; i0 += L) {
      load_rows_transposed<L>(ta + i0 * L, L, a[0].p + i0, oa);
      load_rows_transposed<L>(tb + i0 * L, L, b[0].p + i0, ob);
      load_rows_transposed<L>(tc + i0 * L, L, c[0].p + i0, oc);
      load_rows_transposed<L>(td + i0 * L, L, d[0].p + i0, od);
    }
  }
  for (int l = 0; l < nl; ++l) {
    const system_rows<const T> al = a[l], bl = b[l], cl = c[l], dl = d[l];
    BANDSOLVE_SIMD
    for (index_t i = i0; i < i1; ++i) {
      ta[i * L + l] = al[i];
      tb[i * L + l] = bl[i];
      tc[i * L + l] = cl[i];
      td[i * L + l] = dl[i];
    }
  }
  for (int l = nl; l < L; ++l)
    for (index_t i = i0; i < i1; ++i) {
      ta[i * L + l] = T(0);
      tb[i * L + l] = T(1);
      tc[i * L + l] = T(0);
      td[i * L + l] = T(0);
    }
  if (first == 0 && i1 > 0)
    for (int l = 0; l < top_lanes && l < L; ++l) ta[l] = T(0);
  if (first < m && i1 == m)
    for (int l = bottom_from < 0 ? 0 : bottom_from; l < L; ++l) tc[(m - 1) * L + l] = T(0);
}

// Writes rows [0, m) of lanes [0, nl) of a tile back (this thread's share of the rows).
template <int L, class Member, class T>
KOKKOS_INLINE_FUNCTION void store_lane_tile(const Member& team, index_t m, int nl, const T* tx,
                                         const system_rows<T>* x) {
  index_t i0, i1;
  thread_share(team, 0, m, i0, i1);
  if (register_transposes_v && L > 1 && nl == L && tile_unit_strides<L>(x)) {
    index_t ox[static_cast<std::size_t>(L)];
    tile_lane_offsets<L>(x, ox);
    for (; i0 + L <= i1; i0 += L) store_rows_transposed<L>(tx + i0 * L, L, x[0].p + i0, ox);
  }
  for (int l = 0; l < nl; ++l) {
    const system_rows<T> xl = x[l];
    BANDSOLVE_SIMD
    for (index_t i = i0; i < i1; ++i) xl[i] = tx[i * L + l];
  }
}

// Exact bad-row scan of elements [k0, k1) whose pivots were `pivot(k)`: only run when the cheap
// screen of a loop flagged something.
template <int L, class Pivot>
KOKKOS_INLINE_FUNCTION void rescan_pivots(index_t k0, index_t k1, bad_code* bad, int phase,
                                          const Pivot& pivot) {
  for (index_t k = k0; k < k1; ++k)
    if (!pivot_is_good(pivot(k))) bad[k % L] = min_bad_row(bad[k % L], phase, k / L);
}

// Divides every row of the tile by its diagonal: afterwards rows read a x[i-1] + x[i] + c x[i+1]
// = d. Bad diagonals are phase 0.
template <int L, class Member, class T>
KOKKOS_INLINE_FUNCTION void normalise_rows(const Member& team, index_t nrows, T* a, const T* b,
                                           T* c, T* d, bad_code* bad) {
  index_t k0, k1;
  thread_share(team, 0, nrows * L, k0, k1);
  real_type_t<T> risk = 0;
  BANDSOLVE_SIMD_SUM(risk)
  for (index_t k = k0; k < k1; ++k) {
    const T r = reciprocal(b[k]);
    risk = pivot_risk(b[k], r, risk);
    a[k] *= r;
    c[k] *= r;
    d[k] *= r;
  }
  if (!risk_is_low(risk))
    rescan_pivots<L>(k0, k1, bad, 0, [&](index_t k) { return b[k]; });
}

// One PCR row update (rows normalised to a unit diagonal): couples row k to k -+ 2*off.
template <bool HasLeft, bool HasRight, class T>
KOKKOS_FORCEINLINE_FUNCTION T pcr_pivot(index_t k, index_t off, const T* a, const T* c) {
  T den = T(1);
  if constexpr (HasLeft) den -= a[k] * c[k - off];
  if constexpr (HasRight) den -= c[k] * a[k + off];
  return den;
}

template <bool HasLeft, bool HasRight, class T>
KOKKOS_FORCEINLINE_FUNCTION T pcr_update(index_t k, index_t off, const T* a, const T* c,
                                         const T* d, T* a2, T* c2, T* d2) {
  T num = d[k], an = T(0), cn = T(0);
  if constexpr (HasLeft) {
    num -= a[k] * d[k - off];
    an = -a[k] * a[k - off];
  }
  if constexpr (HasRight) {
    num -= c[k] * d[k + off];
    cn = -c[k] * c[k + off];
  }
  const T den = pcr_pivot<HasLeft, HasRight>(k, off, a, c);
  const T r = reciprocal(den);
  d2[k] = r * num;
  a2[k] = r * an;
  c2[k] = r * cn;
  return den;
}

// Elements [begin, end) of one PCR step, split across the team, one SIMD loop.
template <int L, bool HasLeft, bool HasRight, class Member, class T>
KOKKOS_INLINE_FUNCTION void pcr_region(const Member& team, index_t begin, index_t end,
                                       index_t off, const T* a, const T* c, const T* d, T* a2,
                                       T* c2, T* d2, bad_code* bad, int phase) {
  index_t k0, k1;
  thread_share(team, begin, end, k0, k1);
  real_type_t<T> risk = 0;
  BANDSOLVE_SIMD_SUM(risk)
  for (index_t k = k0; k < k1; ++k) {
    const T den = pcr_update<HasLeft, HasRight>(k, off, a, c, d, a2, c2, d2);
    risk = pivot_risk(den, reciprocal(den), risk);
  }
  if (!risk_is_low(risk))
    rescan_pivots<L>(k0, k1, bad, phase,
                     [&](index_t k) { return pcr_pivot<HasLeft, HasRight>(k, off, a, c); });
}

// Parallel cyclic reduction on normalised rows (a[row 0] = c[row nrows-1] = 0 in every lane):
// step s = 1, 2, 4, ... < nrows updates every row at once from rows i -+ s, after which row i
// couples to i -+ 2s; out-of-range neighbours are left out (their coefficient is already zero).
// Ping-pongs between (a, c, d) and (a2, c2, d2); returns the array that holds x at the end.
// Step t's pivots are phase first_phase + t. Barriers between steps; all team threads call it.
template <int L, class Member, class T>
KOKKOS_INLINE_FUNCTION T* pcr_steps(const Member& team, index_t nrows, T* a, T* c, T* d, T* a2,
                                    T* c2, T* d2, bad_code* bad, int first_phase) {
  const index_t total = nrows * L;
  int phase = first_phase;
  for (index_t s = 1; s < nrows; s *= 2, ++phase) {
    const index_t off = s * L;
    // Rows without a left neighbour end at lo, rows with a right neighbour end at hi.
    const index_t lo = off < total ? off : total, hi = total > off ? total - off : 0;
    pcr_region<L, false, true>(team, 0, lo < hi ? lo : hi, off, a, c, d, a2, c2, d2, bad, phase);
    if (hi < lo) pcr_region<L, false, false>(team, hi, lo, off, a, c, d, a2, c2, d2, bad, phase);
    if (lo < hi) pcr_region<L, true, true>(team, lo, hi, off, a, c, d, a2, c2, d2, bad, phase);
    pcr_region<L, true, false>(team, lo > hi ? lo : hi, total, off, a, c, d, a2, c2, d2, bad, phase);
    team.team_barrier();
    T* t;
    t = a; a = a2; a2 = t;
    t = c; c = c2; c2 = t;
    t = d; d = d2; d2 = t;
  }
  return d;
}

// Cyclic reduction on normalised rows, in place; d holds x at the end. Level s = 1, 2, ... reduces
// rows i = 2s-1, 4s-1, ... from rows i -+ s (after it they couple to i -+ 2s); the single row left
// at the top is decoupled; back-substitution then runs s = top, ..., 1 over rows s-1, 3s-1, ...
// A neighbour past the end is read as the row itself: its coefficient is zero by construction.
template <int L, class Member, class T>
KOKKOS_INLINE_FUNCTION void cr_steps(const Member& team, index_t nrows, T* a, T* c, T* d,
                                     bad_code* bad, int first_phase) {
  index_t top = 1;
  int phase = first_phase;
  for (index_t s = 1; 2 * s - 1 < nrows; s *= 2, ++phase) {
    const index_t first = 2 * s - 1, step = 2 * s, count = (nrows - first + step - 1) / step;
    index_t q0, q1;
    thread_share(team, 0, count * L, q0, q1);
    auto pivot = [&](index_t q) {
      const index_t i = first + (q / L) * step, k = i * L + q % L;
      const index_t kl = k - s * L, kr = i + s < nrows ? k + s * L : k;
      return T(1) - a[k] * c[kl] - c[k] * a[kr];
    };
    // Pivots are screened before the in-place update overwrites what they are made of.
    real_type_t<T> risk = 0;
    BANDSOLVE_SIMD_SUM(risk)
    for (index_t q = q0; q < q1; ++q) {
      const T den = pivot(q);
      risk = pivot_risk(den, reciprocal(den), risk);
    }
    if (!risk_is_low(risk))
      for (index_t q = q0; q < q1; ++q)
        if (!pivot_is_good(pivot(q))) {
          const int l = static_cast<int>(q % L);
          bad[l] = min_bad_row(bad[l], phase, first + (q / L) * step);
        }
    BANDSOLVE_SIMD
    for (index_t q = q0; q < q1; ++q) {
      const index_t i = first + (q / L) * step, k = i * L + q % L;
      const index_t kl = k - s * L, kr = i + s < nrows ? k + s * L : k;
      const T r = reciprocal(T(1) - a[k] * c[kl] - c[k] * a[kr]);
      const T dn = r * (d[k] - a[k] * d[kl] - c[k] * d[kr]);
      const T an = -r * a[k] * a[kl], cn = -r * c[k] * c[kr];
      d[k] = dn;
      a[k] = an;
      c[k] = cn;
    }
    team.team_barrier();
    top = 2 * s;
  }
  for (index_t s = top; s >= 1; s /= 2) {
    const index_t first = s - 1, step = 2 * s, count = (nrows - first + step - 1) / step;
    index_t q0, q1;
    thread_share(team, 0, count * L, q0, q1);
    BANDSOLVE_SIMD
    for (index_t q = q0; q < q1; ++q) {
      const index_t i = first + (q / L) * step, k = i * L + q % L;
      const index_t kl = i >= s ? k - s * L : k, kr = i + s < nrows ? k + s * L : k;
      d[k] = d[k] - a[k] * d[kl] - c[k] * d[kr];
    }
    team.team_barrier();
  }
}

}  // namespace bandsolve::detail
