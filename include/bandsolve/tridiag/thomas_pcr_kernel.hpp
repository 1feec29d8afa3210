#pragma once
// Thomas-PCR hybrid, per system (device-callable) and per tile of chunks.
//
// A system is split into P chunks of M rows (the last one takes the remainder, M..2M-1 rows). In
// each chunk a modified Thomas sweep expresses every row through the chunk's two end unknowns;
// the end rows of all chunks form a tridiagonal system of 2P unknowns with a unit diagonal,
// solved by PCR across the team, or by one thread's two-way Thomas sweep when the team is too
// small for PCR's log2(2P) steps to pay (see reduced_by_thomas), or, when the reduced system is
// large enough to keep such a team busy, by the hybrid itself one level down (reduced_by_hybrid).
// A second sweep over each chunk then recovers its interior rows. Chunks are processed L at a
// time as SIMD lanes, and the chunk groups are split across the team's threads.
// The input is read twice (the second sweep eliminates again from a, b, c, d instead of storing
// the first sweep's rows: on CPUs, in registers, as plain Thomas with the chunk's first unknown
// known; elsewhere the modified sweep again): 8 reads and 1 write per unknown, no intermediate
// arrays in memory.
//
// User entry point (see the example in tests/tridiag/test_thomas_pcr.cpp):
//   T* work = ...;  // bandsolve::thomas_pcr_workspace<T>(n, team.team_size()) elements
//   int info = bandsolve::thomas_pcr_solve(team, n, a, b, c, d, work);   // x overwrites d
// with a, b, c = system_rows<const T>, d = system_rows<T>; team is a Kokkos team member or
// bandsolve::single_thread{} (plain one-thread call). info as in LAPACK: 0, or the 1-based
// row of a zero, tiny or non-finite pivot: the smallest such row of the first sweep that met one
// (chunk sweeps, then the chunks' first rows, then the reduced system: each PCR step, or the
// two-way Thomas sweep, or the hybrid one level down, whose own first bad row names the
// reduced row).
#include <bandsolve/backend/gpu_spaces.hpp>
#include <bandsolve/backend/host_simd/chunk_registers.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/tridiag/reduction_kernel.hpp>

namespace bandsolve {

// Chunks per SIMD group and rows per chunk of the hybrid's defaults: 64 bytes of lanes; 128-row
// chunks keep a group's tile (4 arrays) at 32 KiB, in L1, and the reduced system at 2n/128 rows.
template <class T>
struct thomas_pcr_shape {
  static constexpr int lanes = detail::cache_line_lanes_v<T>;
  static constexpr int chunk_rows = 128;
};

// The shape for GPU teams: one chunk per thread, 64-row chunks. On an H100 (double, one team per
// system, teams of 32-1024 threads) it beat the CPU shape in every case measured: one system of
// n = 2^22 34.5 against 35.9 ns per unknown, batches of n = 4096 / 1024 / 256 (2^22 unknowns)
// 0.50 / 0.58 / 0.51 against 1.29 / 1.28 / 3.75 ns per unknown.
template <class T>
struct thomas_pcr_gpu_shape {
  static constexpr int lanes = 1;
  static constexpr int chunk_rows = 64;
};

// The shape thomas_pcr_solve takes for a team of type Member: thomas_pcr_gpu_shape for
// GPU team members (Kokkos::Cuda, HIP), thomas_pcr_shape otherwise (CPU teams, single_thread).
template <class Member, class T, class = void>
struct thomas_pcr_team_shape : thomas_pcr_shape<T> {};
template <class Member, class T>
struct thomas_pcr_team_shape<
    Member, T, std::enable_if_t<backend::is_gpu_space_v<typename Member::execution_space>>>
    : thomas_pcr_gpu_shape<T> {};

namespace detail {

// T as written, kept out of template argument deduction (std::type_identity is C++20).
template <class T>
struct same {
  using type = T;
};
template <class T>
using same_t = typename same<T>::type;

template <class T, int Lanes, int ChunkRows>
struct thomas_pcr_layout {
  static_assert(ChunkRows >= 2, "bandsolve thomas_pcr: chunks need at least 2 rows");
  static_assert(Lanes >= 1, "bandsolve thomas_pcr: at least one lane");
  static constexpr index_t M = ChunkRows;
  // Per-thread tile: L chunks of M rows, or the last chunk alone (up to 2M-1 rows).
  static constexpr index_t tile = (M * Lanes > 2 * M ? M * Lanes : 2 * M);
  KOKKOS_INLINE_FUNCTION static constexpr index_t chunks(index_t n) { return n >= M ? n / M : 1; }
  // Per thread: its bad-pivot code and its shares of pass 1's and pass 2's work items (each a
  // claim_range).
  KOKKOS_INLINE_FUNCTION static constexpr index_t info_slots(int team_size) {
    return (3 * static_cast<index_t>(team_size) * static_cast<index_t>(sizeof(bad_code)) +
            static_cast<index_t>(sizeof(T)) - 1) /
           static_cast<index_t>(sizeof(T));
  }
  // One level's own workspace: info slots, the reduced system (and PCR's second copy), tiles.
  KOKKOS_INLINE_FUNCTION static constexpr index_t own(index_t n, int team_size) {
    return info_slots(team_size) + 12 * chunks(n) + static_cast<index_t>(team_size) * 4 * tile;
  }
  KOKKOS_INLINE_FUNCTION static constexpr index_t round_up(index_t k) { return (k + 7) / 8 * 8; }
  // Where a nested solve of the reduced system keeps its unit diagonal, then its workspace.
  KOKKOS_INLINE_FUNCTION static constexpr index_t nested_offset(index_t n, int team_size) {
    return round_up(own(n, team_size));
  }
  KOKKOS_INLINE_FUNCTION static constexpr index_t workspace(index_t n, int team_size);
};

// Whether one thread's two-way Thomas sweep solves the reduced system of `rows` rows instead of
// PCR. PCR does rows * log2(rows) independent row updates, shared by the team; Thomas does `rows`
// dependent ones, each about 4 times slower (a division on the dependency chain) and has no
// barriers: it wins while 4 * team_size <= log2(rows), i.e. on CPU teams of a few threads.
KOKKOS_INLINE_FUNCTION constexpr bool reduced_by_thomas(index_t rows, int team_size) {
  int log2_rows = 0;
  for (index_t r = rows; r > 1; r /= 2) ++log2_rows;
  return 4 * team_size <= log2_rows;
}

// Whether the reduced system goes to the hybrid itself, one level down, where it would otherwise
// go to one thread's Thomas sweep while the rest of the team waits: teams of several threads,
// and at least two SIMD groups of chunks per thread. On 2 threads (double): the sweep of the
// 65536 reduced rows of n = 2^22 took 0.41 ms of about 7, and the whole solve went from 1.82-2.14
// to 1.72-1.76 ns per unknown; 1.31 -> 1.19-1.22 at n = 2^20; even at 4096 rows (n = 2^18),
// slower at 2048 (1.26 -> 1.28).
template <int Lanes, int ChunkRows>
KOKKOS_INLINE_FUNCTION constexpr bool reduced_by_hybrid(index_t rows, int team_size) {
  return team_size > 1 && reduced_by_thomas(rows, team_size) &&
         rows >= 2 * static_cast<index_t>(team_size) * Lanes * ChunkRows;
}

template <class T, int Lanes, int ChunkRows>
KOKKOS_INLINE_FUNCTION constexpr index_t thomas_pcr_layout<T, Lanes, ChunkRows>::workspace(
    index_t n, int team_size) {
  const index_t rows = 2 * chunks(n);
  return reduced_by_hybrid<Lanes, ChunkRows>(rows, team_size)
             ? nested_offset(n, team_size) + round_up(rows) + own(rows, team_size)
             : own(n, team_size);
}

// How the chunk sweeps watch their pivots. The fast screen sums |1/pivot| * tiny + pivot * 0 per
// lane (two multiply-adds, vectorizes); only when a lane's sum flags something is the work item
// redone with the exact screen, which records the bad rows (see core/pivot.hpp).
template <int L, class T>
struct fast_screen {
  real_type_t<T> risk[static_cast<std::size_t>(L)] = {};
  KOKKOS_FORCEINLINE_FUNCTION void note(int l, T pivot, T reciprocal, int, index_t) {
    risk[l] = pivot_risk(pivot, reciprocal, risk[l]);
  }
  KOKKOS_INLINE_FUNCTION bool clean(int lanes) const {
    bool ok = true;
    for (int l = 0; l < lanes; ++l) ok = ok && risk_is_low(risk[l]);
    return ok;
  }
};

template <int L>
struct exact_screen {
  bad_code bad[static_cast<std::size_t>(L)] = {};
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION void note(int l, T pivot, T, int phase, index_t row) {
    if (!pivot_is_good(pivot)) bad[l] = min_bad_row(bad[l], phase, row);
  }
};

// Forward sweep of the modified Thomas on every lane of a tile (m >= 2 rows). Afterwards row 0
// and row 1 are divided by their diagonal and every row i >= 1 reads
//   a[i] x[0] + x[i] + c[i] x[i+1] = d[i]
// (x[0]: the chunk's first unknown; for row 1 that is its ordinary sub-diagonal). the screen sees
// lane l's smallest bad row (phase 0).
template <int L, class T, class Screen>
KOKKOS_INLINE_FUNCTION void chunk_forward(index_t m, T* a, const T* b, T* c, T* d,
                                          Screen& screen) {
  for (index_t i = 0; i < 2; ++i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const index_t k = i * L + l;
      const T r = reciprocal(b[k]);
      screen.note(l, b[k], r, 0, i);
      a[k] = product(a[k], r);
      c[k] = product(c[k], r);
      d[k] = product(d[k], r);
    }
  }
  for (index_t i = 2; i < m; ++i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const index_t k = i * L + l;
      const T pivot = minus_product(b[k], a[k], c[k - L]);
      const T r = reciprocal(pivot);
      screen.note(l, pivot, r, 0, i);
      d[k] = product(r, minus_product(d[k], a[k], d[k - L]));
      a[k] = -product(product(r, a[k]), a[k - L]);
      c[k] = product(r, c[k]);
    }
  }
}

// After chunk_forward: rewrites row 0 as  a[0] x[prev] + x[0] + c[0] x[m-1] = d[0]  by
// substituting row 1 expressed through x[0] and x[m-1] (a backward recurrence kept in
// registers, nothing stored). Rows 0 and m-1 are then the chunk's two rows of the reduced system.
// Its pivot is phase 1.
template <int L, class T, class Screen>
KOKKOS_INLINE_FUNCTION void chunk_first_row(index_t m, T* a, T* c, T* d, Screen& screen) {
  if (m < 3) return;  // two rows: row 0 already couples x[0] to x[1] = x[m-1]
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  T ar[lane_count], cr[lane_count], dr[lane_count];  // row i as  ar x[0] + x[i] + cr x[m-1] = dr
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    const index_t k = (m - 2) * L + l;
    ar[l] = a[k];
    cr[l] = c[k];
    dr[l] = d[k];
  }
  for (index_t i = m - 3; i >= 1; --i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const index_t k = i * L + l;
      dr[l] = minus_product(d[k], c[k], dr[l]);
      ar[l] = minus_product(a[k], c[k], ar[l]);
      cr[l] = -product(c[k], cr[l]);
    }
  }
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    const T pivot = minus_product(T(1), c[l], ar[l]);
    const T r = reciprocal(pivot);
    screen.note(l, pivot, r, 1, 0);
    d[l] = product(r, minus_product(d[l], c[l], dr[l]));
    a[l] = product(r, a[l]);
    c[l] = -product(product(r, c[l]), cr[l]);
  }
}

// After chunk_forward, with the end unknowns x0[l] = x[0] and xl[l] = x[m-1] known: x of every
// row into d, from row m-2 up.
template <int L, class T>
KOKKOS_INLINE_FUNCTION void chunk_back_substitute(index_t m, const T* a, const T* c, T* d,
                                                  const T* x0, const T* xl) {
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) d[(m - 1) * L + l] = xl[l];
  for (index_t i = m - 2; i >= 1; --i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const index_t k = i * L + l;
      d[k] = minus_product(minus_product(d[k], a[k], x0[l]), c[k], d[k + L]);
    }
  }
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) d[l] = x0[l];
}

// A tile whose lanes are whole systems of m rows (one chunk each): the reduced system is 2x2 per
// lane (rows 0 and m-1), solved in closed form (phase 2). m = 1 is a division. Leaves x in td.
template <int L, class T, class Screen>
KOKKOS_INLINE_FUNCTION void hybrid_whole_systems(index_t m, T* ta, const T* tb, T* tc, T* td,
                                                 Screen& screen) {
  if (m == 1) {
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const T r = reciprocal(tb[l]);
      screen.note(l, tb[l], r, 0, 0);
      td[l] = product(td[l], r);
    }
    return;
  }
  chunk_forward<L>(m, ta, tb, tc, td, screen);
  chunk_first_row<L>(m, ta, tc, td, screen);
  T x0[static_cast<std::size_t>(L)], xl[static_cast<std::size_t>(L)];
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    // x[0] + c0 x[m-1] = d0;  al x[0] + x[m-1] = dl  (a of row 0, c of row m-1 are zero)
    const index_t k = (m - 1) * L + l;
    const T pivot = minus_product(T(1), ta[k], tc[l]);
    const T r = reciprocal(pivot);
    screen.note(l, pivot, r, 2, m - 1);
    xl[l] = product(minus_product(td[k], ta[k], td[l]), r);
    x0[l] = minus_product(td[l], tc[l], xl[l]);
  }
  // Row m-1 keeps its forward form, so the substitution starts from x[m-1] and x[0].
  chunk_back_substitute<L>(m, ta, tc, td, x0, xl);
}

// Chunks j0 .. j0+nl-1 of one system as the lanes of a tile (the chunk kernels run on LL lanes:
// L for groups of full chunks, 1 for the last chunk). Pass 1 writes their reduced rows, pass 2
// recovers x from the reduced solution xr. ahead: the first chunk of the group this thread
// sweeps next (prefetched), or -1.
template <int LL, class Layout, class T>
KOKKOS_INLINE_FUNCTION void hybrid_chunk_item(bool recover, index_t n, index_t j0, int nl,
                                              index_t m, const system_rows<const T>& a,
                                              const system_rows<const T>& b,
                                              const system_rows<const T>& c,
                                              const system_rows<T>& d, T* tile, T* ra, T* rc,
                                              T* rd, const T* xr, bad_code& bad, index_t ahead) {
  constexpr index_t M = Layout::M;
  const index_t P = Layout::chunks(n);
  T *ta = tile, *tb = ta + Layout::tile, *tc = tb + Layout::tile, *td = tc + Layout::tile;
  const bool in_registers =
      chunk_group_in_registers<LL>(nl, m, a.stride, b.stride, c.stride, d.stride);
  constexpr auto lane_count = static_cast<std::size_t>(LL);  // an array bound
  system_rows<const T> la[lane_count], lb[lane_count], lc[lane_count], ld[lane_count];
  system_rows<T> lx[lane_count];
  for (int l = 0; l < nl; ++l) {
    const index_t first = (j0 + l) * M;
    la[l] = a.offset(first);
    lb[l] = b.offset(first);
    lc[l] = c.offset(first);
    lx[l] = d.offset(first);
    ld[l] = system_rows<const T>{lx[l].p, lx[l].stride};
  }
  const single_thread me;
  auto load = [&] {
    load_lane_tile<LL>(me, m, nl, la, lb, lc, ld, ta, tb, tc, td, j0 == 0 ? 1 : 0,
                       j0 + nl == P ? nl - 1 : LL);
  };
  auto group = [&](index_t first_chunk) {
    return chunk_group<T>{a.p + first_chunk * M, b.p + first_chunk * M, c.p + first_chunk * M,
                          d.p + first_chunk * M, M};
  };
  const chunk_group<T> here = group(j0), next = group(ahead < 0 ? j0 : ahead);
  const chunk_group<T>* hint = ahead < 0 ? nullptr : &next;
  if (!recover) {
    // A flagged group falls through to the generic sweeps below, which name the bad rows.
    if (in_registers && chunk_reduced_rows_in_registers<LL>(m, here, j0 == 0, hint, ra + 2 * j0,
                                                            rc + 2 * j0, rd + 2 * j0))
      return;
    load();
    fast_screen<LL, T> screen;
    chunk_forward<LL>(m, ta, tb, tc, td, screen);
    chunk_first_row<LL>(m, ta, tc, td, screen);
    if (!screen.clean(nl)) {  // rare: redo with the exact screen to name the rows
      exact_screen<LL> exact;
      load();
      chunk_forward<LL>(m, ta, tb, tc, td, exact);
      chunk_first_row<LL>(m, ta, tc, td, exact);
      for (int l = 0; l < nl; ++l)
        if (exact.bad[l] != 0)
          bad = min_bad_row(bad, phase_of(exact.bad[l]), (j0 + l) * M + info_of(exact.bad[l]) - 1);
    }
    for (int l = 0; l < nl; ++l) {
      const index_t j = j0 + l, last = (m - 1) * LL + l;
      ra[2 * j] = ta[l];
      rc[2 * j] = tc[l];
      rd[2 * j] = td[l];
      ra[2 * j + 1] = ta[last];
      rc[2 * j + 1] = tc[last];
      rd[2 * j + 1] = td[last];
    }
  } else {
    T x0[static_cast<std::size_t>(LL)], xl[static_cast<std::size_t>(LL)];
    for (int l = 0; l < LL; ++l) {
      const index_t j = l < nl ? j0 + l : j0;
      x0[l] = xr[2 * j];
      xl[l] = xr[2 * j + 1];
    }
    if (in_registers &&
        chunk_interior_in_registers<LL>(m, here, hint, x0, xl, tc, td, d.p + j0 * M))
      return;
    load();
    fast_screen<LL, T> unused;
    chunk_forward<LL>(m, ta, tb, tc, td, unused);
    chunk_back_substitute<LL>(m, ta, tc, td, x0, xl);
    store_lane_tile<LL>(me, m, nl, td, lx);
  }
}

// Thomas on the reduced system (unit diagonal, a[0] = c[rows-1] = 0), one thread, eliminating
// from both ends at once: rows 1..k top-down (c', d' into c, d) and rows rows-2..k+1 bottom-up
// (a'', d'' into a, d), k = (rows-1)/2, then the 2x2 system of rows k and k+1 and the two back
// substitutions outwards. The two recurrences are independent, so one's division latency hides
// the other's: this sweep is the hybrid's serial part, and at n = 2^22 it took 0.39 ms against
// 0.6 ms for the one-way sweep (of about 10 ms on 2 cores). d ends as x. A bad pivot is phase
// `phase`, named by a row: i for the top-down pivot of row i, k+1 for the 2x2, j+1 for the
// bottom-up pivot of row j (each half reports its first bad pivot in its own direction).
template <class T>
KOKKOS_INLINE_FUNCTION void reduced_thomas(index_t rows, T* a, T* c, T* d, bad_code* bad,
                                           int phase) {
  if (rows < 2) return;  // x = d
  const index_t k = (rows - 1) / 2;
  real_type_t<T> risk = 0;
  for (index_t i = 1; i <= k; ++i) {
    const T pivot = T(1) - a[i] * c[i - 1];
    const T r = reciprocal(pivot);
    risk = pivot_risk(pivot, r, risk);
    c[i] = r * c[i];
    d[i] = r * (d[i] - a[i] * d[i - 1]);
    const index_t j = rows - 1 - i;  // the bottom-up row of this step, if any is left
    if (j > k) {
      const T pivot_up = T(1) - c[j] * a[j + 1];
      const T r_up = reciprocal(pivot_up);
      risk = pivot_risk(pivot_up, r_up, risk);
      a[j] = r_up * a[j];
      d[j] = r_up * (d[j] - c[j] * d[j + 1]);
    }
  }
  // x[k] + c[k] x[k+1] = d[k];  a[k+1] x[k] + x[k+1] = d[k+1]
  const T pivot = T(1) - c[k] * a[k + 1];
  const T r = reciprocal(pivot);
  risk = pivot_risk(pivot, r, risk);
  if (!risk_is_low(risk)) {  // rare: name the bad pivot (recomputed from a, c as they are)
    // Each half's first bad pivot in its own direction (what follows it is spoiled by it); the
    // 2x2 only when both halves are clean.
    index_t named = 0;
    for (index_t i = 1; i <= k && named == 0; ++i)
      if (!pivot_is_good(T(1) - a[i] * c[i - 1])) named = i;
    for (index_t i = rows - 1; i >= k + 2; --i)
      if (!pivot_is_good(T(1) - c[i - 1] * a[i])) {
        named = named == 0 || i < named ? i : named;
        break;
      }
    if (named == 0 && !pivot_is_good(pivot)) named = k + 1;
    if (named != 0) *bad = min_bad_row(*bad, phase, named);
  }
  d[k] = r * (d[k] - c[k] * d[k + 1]);
  d[k + 1] = d[k + 1] - a[k + 1] * d[k];
  for (index_t i = k - 1, j = k + 2; i >= 0 || j < rows; --i, ++j) {
    if (i >= 0) d[i] = d[i] - c[i] * d[i + 1];
    if (j < rows) d[j] = d[j] - a[j] * d[j - 1];
  }
}

// A thread's share [lo, hi) of work items, packed into one word (hi << 32 | lo) so that its
// owner can take items from the top while another thread takes them from the bottom: pass 2 ends
// unevenly (one thread measured about 0.9 ms behind the other at n = 2^22, of some 7 ms), and a
// thread that is done helps from the far end, away from the items the owner is prefetching.
KOKKOS_INLINE_FUNCTION bad_code pack_range(index_t lo, index_t hi) {
  return (static_cast<bad_code>(hi) << 32) | static_cast<bad_code>(lo);
}

// Takes the top item (from_top) or the bottom one of the share at *range; -1 when it is empty.
KOKKOS_INLINE_FUNCTION index_t claim_range(bad_code* range, bool from_top) {
  bad_code seen = atomic_read_code(range);
  for (;;) {
    const index_t lo = static_cast<index_t>(seen & 0xffffffffLL);
    const index_t hi = static_cast<index_t>(seen >> 32);
    if (lo >= hi) return -1;
    const bad_code next = from_top ? pack_range(lo, hi - 1) : pack_range(lo + 1, hi);
    const bad_code before = Kokkos::atomic_compare_exchange(range, seen, next);
    if (before == seen) return from_top ? hi - 1 : lo;
    seen = before;
  }
}

// Nested: this is the reduced system of an outer solve (which never nests further).
template <int Lanes, int ChunkRows, class Member, class T, bool Nested = false>
KOKKOS_INLINE_FUNCTION int thomas_pcr_solve_shaped(const Member& team, index_t n,
                                                   const system_rows<const T>& a,
                                                   const system_rows<const T>& b,
                                                   const system_rows<const T>& c,
                                                   const system_rows<T>& d, T* work) {
  using Shape = thomas_pcr_layout<T, Lanes, ChunkRows>;
  constexpr int L = Lanes;
  constexpr index_t M = Shape::M;
  if (n <= 0) return 0;
  const int nt = team.team_size(), t = team.team_rank();
  bad_code* thread_bad = reinterpret_cast<bad_code*>(work);
  bad_code* const shares = thread_bad + nt;  // pass 2's items left to each thread
  bad_code* const shares1 = shares + nt;     // pass 1's
  T* const reduced = work + Shape::info_slots(nt);
  const index_t P = Shape::chunks(n), mlast = n - (P - 1) * M;
  T *ra = reduced, *rc = ra + 2 * P, *rd = rc + 2 * P;
  T *ra2 = rd + 2 * P, *rc2 = ra2 + 2 * P, *rd2 = rc2 + 2 * P;
  T* const tile = rd2 + 2 * P + static_cast<index_t>(t) * 4 * Shape::tile;
  bad_code bad = 0;
  if (n == 1) {
    if (t == 0) {
      bad = pivot_is_good(b[0]) ? 0 : min_bad_row(0, 0, 0);
      d[0] = d[0] / b[0];
    }
  } else {
    // Work items: groups of L chunks of M rows, then the last chunk alone when it is longer
    // (n not a multiple of M), so that n = 2^k fills every group.
    const bool last_alone = mlast != M;
    const index_t grouped = last_alone ? P - 1 : P, groups = (grouped + L - 1) / L;
    index_t w0, w1;
    const index_t items = groups + (last_alone ? 1 : 0);
    thread_share(team, 0, items, w0, w1);
    shares[t] = pack_range(w0, w1);  // published by the barriers after pass 1
    // Pass 1 is balanced the same way when there are enough items to pay for the barrier that
    // publishes its shares: a thread slowed by its neighbours on the host (one measured 0.6-1.9 ms
    // behind the other at n = 2^22, of 3-5.6) does not hold the other at the barrier.
    const bool balance_pass1 = nt > 1 && items >= 8 * static_cast<index_t>(nt);
    if (balance_pass1) {
      shares1[t] = pack_range(w0, w1);
      team.team_barrier();
    }
    // Work item w; next (or -1): the item this thread expects to take after it, prefetched.
    const auto item = [&](bool recover, index_t w, index_t next) {
      if (w < groups) {
        const index_t j0 = w * L;
        const int nl = static_cast<int>(grouped - j0 < L ? grouped - j0 : L);
        const bool full_next = next >= 0 && next < groups && grouped - next * L >= L;
        hybrid_chunk_item<L, Shape>(recover, n, j0, nl, M, a, b, c, d, tile, ra, rc, rd, rd, bad,
                                    full_next ? next * L : -1);
      } else {
        hybrid_chunk_item<1, Shape>(recover, n, P - 1, 1, mlast, a, b, c, d, tile, ra, rc, rd,
                                    rd, bad, -1);
      }
    };
    for (int pass = 0; pass < 2; ++pass) {
      // Pass 1 runs up and pass 2 down, so that pass 2 starts on the rows pass 1 left in cache.
      if (pass == 0 && !balance_pass1) {
        for (index_t w = w0; w < w1; ++w) item(false, w, w + 1 < w1 ? w + 1 : -1);
      } else if (pass == 0) {  // own items from the bottom, then the others' from their top
        for (index_t w; (w = claim_range(shares1 + t, false)) >= 0;)
          item(false, w, w + 1 < w1 ? w + 1 : -1);
        for (int k = 1; k < nt; ++k) {
          bad_code* other = shares1 + (t + k) % nt;
          for (index_t w; (w = claim_range(other, true)) >= 0;) item(false, w, w - 1);
        }
      } else {
        for (index_t w; (w = claim_range(shares + t, true)) >= 0;)
          item(true, w, w - 1 >= w0 ? w - 1 : -1);
        for (int k = 1; k < nt; ++k) {  // then help the others from the bottom of their shares
          bad_code* other = shares + (t + k) % nt;
          for (index_t w; (w = claim_range(other, false)) >= 0;) item(true, w, w + 1);
        }
      }
      if (pass == 0) {
        team.team_barrier();
        bad_code rbad = 0;
        T* x = rd;
        if (!Nested && reduced_by_hybrid<Lanes, ChunkRows>(2 * P, nt)) {
          if constexpr (!Nested) {  // (no code for a nested level to call itself)
            T* const ones = work + Shape::nested_offset(n, nt);  // the unit diagonal
            index_t i0, i1;
            thread_share(team, 0, 2 * P, i0, i1);
            for (index_t i = i0; i < i1; ++i) ones[i] = T(1);
            team.team_barrier();
            const int code = thomas_pcr_solve_shaped<Lanes, ChunkRows, Member, T, true>(
                team, 2 * P, system_rows<const T>(ra, 1), system_rows<const T>(ones, 1),
                system_rows<const T>(rc, 1), system_rows<T>(rd, 1),
                ones + Shape::round_up(2 * P));
            if (code != 0) rbad = min_bad_row(0, 2, code - 1);
          }
        } else if (reduced_by_thomas(2 * P, nt)) {
          if (t == 0) reduced_thomas(2 * P, ra, rc, rd, &rbad, 2);
          team.team_barrier();
        } else {
          x = pcr_steps<1>(team, 2 * P, ra, rc, rd, ra2, rc2, rd2, &rbad, 2);
        }
        if (rbad != 0) {  // reduced row -> row of the system
          const index_t r = info_of(rbad) - 1, j = r / 2;
          const index_t rows_j = j == P - 1 ? mlast : M;
          bad = min_bad_row(bad, phase_of(rbad), j * M + (r % 2 == 1 ? rows_j - 1 : 0));
        }
        rd = x;  // the reduced solution, read by pass 1
      }
    }
  }
  thread_bad[t] = bad;
  team.team_barrier();
  bad_code first = 0;
  for (int u = 0; u < nt; ++u) first = merge_bad(first, thread_bad[u]);
  team.team_barrier();  // the workspace may be reused after return
  return info_of(first);
}

}  // namespace detail

// Elements of T the team form needs as workspace for a system of n rows and a team of
// team_size threads, whichever team type calls it (with a GPU backend, the larger of the two
// shapes' needs, so that a size computed on the host fits a GPU team).
template <class T>
KOKKOS_INLINE_FUNCTION constexpr index_t thomas_pcr_workspace(index_t n, int team_size) {
  using cpu_shape = thomas_pcr_shape<T>;
  const index_t cpu =
      detail::thomas_pcr_layout<T, cpu_shape::lanes, cpu_shape::chunk_rows>::workspace(n,
                                                                                      team_size);
#if defined(BANDSOLVE_GPU_BACKEND)
  using gpu_shape = thomas_pcr_gpu_shape<T>;
  const index_t gpu =
      detail::thomas_pcr_layout<T, gpu_shape::lanes, gpu_shape::chunk_rows>::workspace(n,
                                                                                      team_size);
  return cpu > gpu ? cpu : gpu;
#else
  return cpu;
#endif
}

// Solves one system with the Thomas-PCR hybrid using the threads of `team` (a Kokkos team
// member, or bandsolve::single_thread{}); every thread of the team must call it with the same
// arguments. x overwrites d. Returns the info code (the same on every thread). work must hold
// thomas_pcr_workspace<T>(n, team.team_size()) elements, aligned for T and to 8 bytes (its
// first elements hold 64-bit info words, which CUDA only reads and writes at 8-byte alignment).
template <class Member, class T>
KOKKOS_INLINE_FUNCTION int thomas_pcr_solve(const Member& team, index_t n,
                                            const system_rows<const detail::same_t<T>>& a,
                                            const system_rows<const detail::same_t<T>>& b,
                                            const system_rows<const detail::same_t<T>>& c,
                                            const system_rows<T>& d, T* work) {
  using shape = thomas_pcr_team_shape<Member, T>;
  return detail::thomas_pcr_solve_shaped<shape::lanes, shape::chunk_rows>(team, n, a, b, c, d,
                                                                           work);
}

}  // namespace bandsolve
