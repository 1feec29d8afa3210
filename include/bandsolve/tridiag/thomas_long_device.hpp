#pragma once
// Batched Thomas on the device backend for a few long systems: the chunk (partition) method over
// many teams, where one thread per system (thomas_device.hpp) would leave the device idle.
//
// Each system is cut into chunks of M rows (the last one takes the remainder, 1..M rows); one
// thread takes one chunk, teams take 32 chunks of one system (or, at the last level, 32 systems
// of one chunk each). Where the systems lie side by side (column layout, interleaved packs) and
// there are enough of them, teams take chunk j of 32 neighbouring systems instead, on every
// level, and the reduced systems are stored side by side too: a warp then loads a row of 32
// systems at once. Level by level:
//  1. reduce: a modified Thomas sweep down each chunk (as thomas_pcr_kernel.hpp's chunk_forward)
//     writes the chunk's last row as  a x[first] + x[last] + c x[next] = d  and composes the
//     interior rows on the way down (nothing stored) into its first row
//     a x[prev] + x[first] + c x[last] = d  (chunk_first_row's recurrence in forward order):
//     a tridiagonal system of 2 rows per chunk (1 for a one-row chunk) and unit diagonal, in
//     global scratch;
//  2. that reduced system is solved the same way, one level down, until a system fits in one
//     chunk; that last level runs Thomas, a thread per system;
//  3. recover: each chunk is swept again from a, b, c, d with its end unknowns known (Thomas on
//     its interior rows, c' and d' in team scratch) and x overwrites d.
// Row-contiguous or not, rows come in blocks through padded team scratch (tile_transpose.hpp's
// pattern, bounded by each chunk's rows). Traffic: 4 reads (reduce) + 4 reads and 1 write
// (recover) per unknown, plus about 15 words per 2/M unknowns for the levels below.
//
// Info as the host Thomas-PCR hybrid: 0, or the 1-based row of the first zero, tiny or non-finite
// pivot met, the earliest phase first: the chunk sweeps (phase 0), the chunks' first rows (phase
// 1), then the reduced system (phase 2, named by the row of the system its bad row stands for:
// a chunk's first or last row). A zero pivot where Thomas has one is reported at the same row.
//
// Scratch: one buffer per call (backend/scratch.hpp's kept buffer, scratch_buffer) holding, per
// level with R reduced rows per system, R * slots * (3 sizeof(C) + sizeof(D)) bytes (a, b = 1, c,
// d of the reduced system), and one 8-byte info word per system and level: about slots * n *
// (3 sizeof(C) + sizeof(D)) * 2.3 / M bytes in all (M = 16). Team scratch level 0: the row blocks
// (32 * (RB + 1) * (3 sizeof(C) + sizeof(D))) and, when recovering, c' and d' of the chunks
// (M * 32 * (sizeof(C) + sizeof(D))).
// The call fences exec before it returns (the buffer is kept for the next call).
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/tridiag/reduction_kernel.hpp>
#include <bandsolve/tridiag/thomas_kernel.hpp>

#include <cstddef>
#include <type_traits>

namespace bandsolve::detail {

namespace device {

// When the chunk method runs instead of a thread per system: systems of at least
// long_system_min_rows rows, in batches small enough that nsys * long_system_fill threads fit in
// what the execution space runs at once (exec.concurrency(): on an H100 about 270000, so up to
// some 33000 systems; on host spaces a few threads, so not unless lowered). Not yet tuned on a
// GPU. Variables so that tests can force the path (0 and 0).
inline index_t long_system_min_rows = 4096;
inline index_t long_system_fill = 8;

template <class ExecutionSpace>
bool long_system_pays(const ExecutionSpace& exec, index_t n, index_t nsys) {
  return n >= long_system_min_rows &&
         nsys * long_system_fill <= static_cast<index_t>(exec.concurrency());
}

// Rows per chunk, on every level. Short chunks won on an H200 (one system of 2^22 doubles, 16 to
// 48 rows tried, on the big levels and the small ones): each team sweeps its chunks in blocks of
// rows, one memory latency per block, so short chunks mean short kernels and many teams, whose
// latencies overlap; the cost is more reduced rows (2/16 of n) and levels. A variable for tuning
// (4 or more, so that each level shrinks; the recover kernel holds 32 (sizeof(C) + sizeof(D))
// bytes per row in team scratch, of 40 KiB on CUDA).
inline index_t long_chunk_rows = 16;

// Whether batches whose systems lie side by side (column layout, interleaved packs) give each
// team chunk j of up to 32 neighbouring systems, so that a warp's loads of one row are
// coalesced, instead of 32 chunks of one system (each thread then reads its own sector), when
// they have at least long_across_min_systems systems. Measured on an H200 (column layout, 2^24
// unknowns): 2.2-5.7x faster from 64 systems on, 4.2x with 16 systems of 2^20 rows, 0.68x with
// 4 systems of 2^22 (4 threads of a team busy). Variables so that benchmarks can compare.
inline bool long_across_systems = true;
inline index_t long_across_min_systems = 16;

}  // namespace device

// The work items of one team: chunks j0 + k of system s0, or systems s0 + k of chunk j0.
// systems_first: the team's consecutive threads load the same row of consecutive items (their
// systems lie side by side) rather than consecutive rows of one item.
struct long_team {
  index_t s0, j0;
  bool by_system, systems_first;
  KOKKOS_FORCEINLINE_FUNCTION index_t s(int k) const { return by_system ? s0 + k : s0; }
  KOKKOS_FORCEINLINE_FUNCTION index_t j(int k) const { return by_system ? j0 : j0 + k; }
  // Element e of a block of nr rows of ns items: item k, row jj of the block.
  KOKKOS_FORCEINLINE_FUNCTION void element(int e, int ns, int nr, int& k, int& jj) const {
    if (systems_first) {
      jj = e / ns;
      k = e - jj * ns;
    } else {
      k = e / nr;
      jj = e - k * nr;
    }
  }
};

// Row 0 of system s, without systems::system's divisions where packs are one system wide (64-bit
// divisions are slow on GPUs, and this runs for every element loaded or stored).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T* row0_of(const device::systems<T>& v, index_t s) {
  return v.width == 1 ? v.data + s * v.pack_stride : v.system(s);
}

// One level: nsys-slot systems of n rows cut into P chunks of M rows (the last: n - (P-1) M rows);
// R reduced rows per system (2 per chunk, 1 for a one-row last chunk); P = 1: the last level.
// across: the level's systems lie side by side, and a team takes one chunk of 32 systems
// (groups: teams per chunk) instead of 32 chunks of one system (groups: teams per system); the
// reduced system is then stored row by row across the systems (row r of system s at
// r * sys_count + s, so that the level below is across too), else system by system (s * R + r).
struct long_level {
  index_t n, M, P, R, groups;
  bool across = false;
  index_t sys_count = 0;  // slots, for across levels

  KOKKOS_INLINE_FUNCTION index_t rows_of(index_t j) const {
    return j + 1 < P ? M : n - (P - 1) * M;
  }
  // The work items of team t.
  KOKKOS_INLINE_FUNCTION long_team team(index_t t) const {
    if (across) return long_team{(t % groups) * device::tile_systems, t / groups, true, true};
    if (P == 1) return long_team{t * device::tile_systems, 0, true, false};
    return long_team{t / groups, (t % groups) * device::tile_systems, false, false};
  }
  KOKKOS_INLINE_FUNCTION int items(index_t t, index_t slots) const {
    const index_t left = across   ? slots - (t % groups) * device::tile_systems
                         : P == 1 ? slots - t * device::tile_systems
                                  : P - (t % groups) * device::tile_systems;
    return static_cast<int>(left < device::tile_systems ? left : device::tile_systems);
  }
  index_t teams(index_t slots) const {
    if (across) return P * groups;
    return P == 1 ? device::tile_count(slots) : slots * groups;
  }
  // Reduced row r of system s, and the step between its rows.
  KOKKOS_INLINE_FUNCTION index_t reduced_at(index_t s, index_t r) const {
    return across ? r * sys_count + s : s * R + r;
  }
  KOKKOS_INLINE_FUNCTION index_t reduced_step() const { return across ? sys_count : 1; }
  // The row of the system that reduced row r stands for.
  KOKKOS_INLINE_FUNCTION index_t row_of_reduced(index_t r) const {
    const index_t j = r / 2;
    return j * M + (r % 2 == 1 ? rows_of(j) - 1 : 0);
  }
};

// Bump allocation of 64-byte aligned arrays in team scratch.
struct scratch_cursor {
  char* p;
  template <class T>
  KOKKOS_INLINE_FUNCTION T* take(std::size_t count) {
    T* r = reinterpret_cast<T*>(p);
    p += (count * sizeof(T) + 63) / 64 * 64;
    return r;
  }
};

// merge_bad into *where, atomically (other chunks of the system may report at once).
KOKKOS_INLINE_FUNCTION void atomic_merge_bad(bad_code* where, bad_code code) {
  if (code == 0) return;
  bad_code seen = atomic_read_code(where);
  for (;;) {
    const bad_code want = merge_bad(seen, code);
    if (want == seen) return;
    const bad_code before = Kokkos::atomic_compare_exchange(where, seen, want);
    if (before == seen) return;
    seen = before;
  }
}

// Rows [i0, i0 + nr) of the team's chunks into tiles (tile[k * ld + j]: row i0 + j of item k);
// rows past a chunk's end read as identity rows, and a of a system's first row and c of its last
// are ignored entries, read as zero. Consecutive threads take consecutive rows of one chunk; each
// thread issues U elements' loads before it stores any (a store to scratch could alias the next
// load, so one element at a time would wait a whole memory latency per element).
template <int U, class Member, class C, class D, class Tile>
KOKKOS_INLINE_FUNCTION void load_chunk_rows(const Member& team, const long_level& lv,
                                            const long_team& tm,
                                            const device::systems<const C>& a,
                                            const device::systems<const C>& b,
                                            const device::systems<const C>& c,
                                            const device::systems<D>& d, int ns, index_t i0,
                                            int nr, const Tile& tile) {
  const int nt = team.team_size(), total = ns * nr;
  for (int e0 = team.team_rank(); e0 < total; e0 += U * nt) {
    constexpr auto unroll = static_cast<std::size_t>(U);  // an array bound
    C va[unroll], vb[unroll], vc[unroll];
    D vd[unroll];
    for (int u = 0; u < U; ++u) {
      const int e = e0 + u * nt;
      va[u] = C(0), vb[u] = C(1), vc[u] = C(0), vd[u] = D(0);
      if (e >= total) continue;
      int k, jj;
      tm.element(e, ns, nr, k, jj);
      const index_t s = tm.s(k), jc = tm.j(k), i = i0 + jj, row = jc * lv.M + i;
      if (i >= lv.rows_of(jc)) continue;
      if (row > 0) va[u] = row0_of(a, s)[row * a.row_stride];
      vb[u] = row0_of(b, s)[row * b.row_stride];
      if (row + 1 < lv.n) vc[u] = row0_of(c, s)[row * c.row_stride];
      vd[u] = row0_of(d, s)[row * d.row_stride];
    }
    for (int u = 0; u < U; ++u) {
      const int e = e0 + u * nt;
      if (e >= total) break;
      int k, jj;
      tm.element(e, ns, nr, k, jj);
      const int o = k * tile.ld + jj;
      tile.a[o] = va[u];
      tile.b[o] = vb[u];
      tile.c[o] = vc[u];
      tile.d[o] = vd[u];
    }
  }
}

template <class C, class D>
struct chunk_tiles {
  C *a, *b, *c;
  D* d;
  int ld;
};

// The reduce sweep of one chunk of m rows, row by row (i = 0 .. m-1). Rows 0 and 1 are divided
// by their diagonal; row i >= 2 reads  ap x[0] + x[i] + cp x[i+1] = dp  after elimination; rows
// 1..m-2 are composed into  x[1] = S + A x[0] + G x[i+1], so that at the end row 0 can be
// rewritten through x[0] and x[m-1] alone. The screen sees each pivot: note(pivot, 1/pivot, phase,
// row).
template <class C, class D>
struct chunk_reduce_state {
  C a0, c0, ap, cp, A, G;
  D d0, dp, S;
  real_type_t<C> risk;

  template <class Screen>
  KOKKOS_INLINE_FUNCTION void row(index_t i, index_t m, C a, C b, C c, D d, Screen& screen) {
    if (i == 0) {
      const C r = reciprocal(b);
      screen.note(b, r, 0, 0);
      a0 = a * r;
      c0 = c * r;
      d0 = d * r;
      return;
    }
    if (i == 1) {
      const C r = reciprocal(b);
      screen.note(b, r, 0, 1);
      ap = a * r;
      cp = c * r;
      dp = d * r;
      S = dp;
      A = -ap;
      G = -cp;
      return;
    }
    const C pivot = b - a * cp;
    const C r = reciprocal(pivot);
    screen.note(pivot, r, 0, i);
    dp = r * (d - a * dp);
    ap = -(r * a * ap);
    cp = r * c;
    if (i + 1 < m) {  // an interior row: into x[1]'s expression
      S = S + G * dp;
      A = A - G * ap;
      G = -(G * cp);
    }
  }

  // The chunk's reduced rows (first, then last; m = 1: one row) into ra, rb, rc, rd at r0 and
  // r0 + step.
  template <class Screen>
  KOKKOS_INLINE_FUNCTION void write(index_t m, C* ra, C* rb, C* rc, D* rd, index_t r0,
                                    index_t step, Screen& screen) const {
    C fa = a0, fc = c0;
    D fd = d0;
    if (m >= 3) {  // x[0] + c0 (S + A x[0] + G x[m-1]) + a0 x[prev] = d0
      const C pivot = C(1) + c0 * A;
      const C r = reciprocal(pivot);
      screen.note(pivot, r, 1, 0);
      fa = r * a0;
      fc = r * (c0 * G);
      fd = r * (d0 - c0 * S);
    }
    ra[r0] = fa;
    rb[r0] = C(1);
    rc[r0] = fc;
    rd[r0] = fd;
    if (m >= 2) {
      ra[r0 + step] = ap;
      rb[r0 + step] = C(1);
      rc[r0 + step] = cp;
      rd[r0 + step] = dp;
    }
  }
};

template <class R>
struct long_fast_screen {
  R risk;
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION void note(const T& pivot, const T& r, int, index_t) {
    risk = pivot_risk(pivot, r, risk);
  }
};

// Elements each thread loads before storing any (load_chunk_rows).
template <class C, class D>
inline constexpr int long_loads_v = device::loads_in_flight_v<C, D>;

struct long_exact_screen {
  bad_code bad = 0;
  index_t first_row = 0;  // row of the chunk's row 0 in its system
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION void note(const T& pivot, const T&, int phase, index_t i) {
    if (!pivot_is_good(pivot)) bad = min_bad_row(bad, phase, first_row + i);
  }
};

// Kernel 1 of a level: every chunk's two reduced rows into the reduced system (row 2j and 2j+1
// of system s at lv.reduced_at(s, 2j)); bad pivots merged into bad[s].
template <class ExecutionSpace, class C, class D>
struct thomas_long_reduce {
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using R = real_type_t<C>;
  using state = chunk_reduce_state<C, D>;
  static constexpr int TW = device::tile_systems, RB = device::tile_rows_v<C, D>,
                       LD = device::tile_ld_v<C, D>;
  device::systems<const C> a, b, c;
  device::systems<D> d;
  long_level lv;
  index_t slots;
  C *ra, *rb, *rc;
  D* rd;
  bad_code* bad;

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes() {
    return team_scratch_request(4 * 64 + static_cast<std::size_t>(TW * LD) * (3 * sizeof(C) +
                                sizeof(D)) + 64 + TW * sizeof(state) + 64);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const index_t t = team.league_rank();
    scratch_cursor cur{device::align_up(
        static_cast<char*>(team.team_scratch(0).get_shmem(scratch_bytes())))};
    chunk_tiles<C, D> tile;
    tile.d = cur.take<D>(TW * LD);
    tile.a = cur.take<C>(TW * LD);
    tile.b = cur.take<C>(TW * LD);
    tile.c = cur.take<C>(TW * LD);
    tile.ld = LD;
    state* const st = cur.take<state>(TW);
    const int ns = lv.items(t, slots);
    const long_team tm = lv.team(t);
    const index_t rows = lv.rows_of(tm.j(0));  // the team's longest chunk
    for (index_t i0 = 0; i0 < rows; i0 += RB) {
      const int nr = static_cast<int>(rows - i0 < RB ? rows - i0 : RB);
      load_chunk_rows<long_loads_v<C, D>>(team, lv, tm, a, b, c, d, ns, i0, nr, tile);
      team.team_barrier();
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const index_t m = lv.rows_of(tm.j(k));
        state me = st[k];  // in registers for the block
        long_fast_screen<R> screen{i0 == 0 ? R(0) : me.risk};
        const int o = k * LD;
        for (int jj = 0; jj < nr && i0 + jj < m; ++jj)
          me.row(i0 + jj, m, tile.a[o + jj], tile.b[o + jj], tile.c[o + jj], tile.d[o + jj],
                 screen);
        me.risk = screen.risk;
        st[k] = me;
      });
      team.team_barrier();
    }
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      const index_t s = tm.s(k), j = tm.j(k), m = lv.rows_of(j);
      const state& me = st[k];
      long_fast_screen<R> screen{me.risk};
      const index_t r0 = lv.reduced_at(s, 2 * j), step = lv.reduced_step();
      me.write(m, ra, rb, rc, rd, r0, step, screen);
      if (!risk_is_low(screen.risk)) {  // rare: the sweep again from memory, naming the bad rows
        long_exact_screen exact;
        exact.first_row = j * lv.M;
        state again{};
        const C *as = a.system(s), *bs = b.system(s), *cs = c.system(s);
        const D* ds = d.system(s);
        for (index_t i = 0; i < m; ++i) {
          const index_t row = j * lv.M + i;
          again.row(i, m, row > 0 ? as[row * a.row_stride] : C(0), bs[row * b.row_stride],
                    row + 1 < lv.n ? cs[row * c.row_stride] : C(0), ds[row * d.row_stride],
                    exact);
        }
        again.write(m, ra, rb, rc, rd, r0, step, exact);
        atomic_merge_bad(bad + s, exact.bad);
      }
    });
  }
};

// Kernel 2 of a level (Leaf: the last level, each system one chunk, plain Thomas): each chunk's
// rows from its end unknowns (reduced solution xr, rows 2j and 2j+1 of system s at
// lv.reduced_at), x over d. The thread of chunk 0 settles the system's info word: its own
// level's, merged with the level below's (mapped to this level's rows), into bad[s] and, at the
// top level, into info.
template <class ExecutionSpace, class C, class D, class InfoView>
struct thomas_long_recover {
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using R = real_type_t<C>;
  static constexpr int TW = device::tile_systems, RB = device::tile_rows_v<C, D>,
                       LD = device::tile_ld_v<C, D>;
  device::systems<const C> a, b, c;
  device::systems<D> d;
  long_level lv;
  index_t slots, nsys;
  const D* xr;             // the reduced solution (unused at the last level)
  bad_code* bad;           // this level's info words
  const bad_code* below;   // the level below's (nullptr at the last level)
  InfoView info;
  bool top;
  Kokkos::View<char*, typename ExecutionSpace::memory_space> keep;  // the scratch, alive until
                                                                    // the kernel has run

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(index_t M) {
    return team_scratch_request(
        4 * 64 + static_cast<std::size_t>(TW * LD) * (3 * sizeof(C) + sizeof(D)) + 2 * 64 +
        static_cast<std::size_t>(M) * TW * (sizeof(C) + sizeof(D)) + TW * sizeof(R) + 64);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const index_t t = team.league_rank();
    scratch_cursor cur{device::align_up(
        static_cast<char*>(team.team_scratch(0).get_shmem(scratch_bytes(lv.M))))};
    chunk_tiles<C, D> tile;
    tile.d = cur.take<D>(TW * LD);
    tile.a = cur.take<C>(TW * LD);
    tile.b = cur.take<C>(TW * LD);
    tile.c = cur.take<C>(TW * LD);
    tile.ld = LD;
    D* const dp = cur.take<D>(static_cast<std::size_t>(lv.M) * TW);
    C* const cp = cur.take<C>(static_cast<std::size_t>(lv.M) * TW);
    R* const risk = cur.take<R>(TW);
    const bool leaf = lv.P == 1;
    const int ns = lv.items(t, slots);
    const long_team tm = lv.team(t);
    const index_t rows = lv.rows_of(tm.j(0));
    // Thomas on rows [lo, hi] of each chunk: all of them at the last level, else the interior
    // with x[0] and x[m-1] known (their terms moved to the right-hand side). The previous row's
    // c' and d' stay in registers within a block.
    for (index_t i0 = 0; i0 < rows; i0 += RB) {
      const int nr = static_cast<int>(rows - i0 < RB ? rows - i0 : RB);
      load_chunk_rows<long_loads_v<C, D>>(team, lv, tm, a, b, c, d, ns, i0, nr, tile);
      team.team_barrier();
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const index_t s = tm.s(k), j = tm.j(k), m = lv.rows_of(j);
        const index_t lo = leaf ? 0 : 1, hi = leaf ? m - 1 : m - 2;
        R rk = i0 == 0 ? R(0) : risk[k];
        C cprev = i0 > lo ? cp[(i0 - 1) * TW + k] : C(0);
        D dprev = i0 > lo ? dp[(i0 - 1) * TW + k] : D(0);
        const int o = k * LD;
        for (int jj = 0; jj < nr; ++jj) {
          const index_t i = i0 + jj;
          if (i < lo || i > hi) continue;
          D rhs = tile.d[o + jj];
          if (!leaf && i == 1) rhs = rhs - tile.a[o + jj] * xr[lv.reduced_at(s, 2 * j)];
          if (!leaf && i == m - 2) rhs = rhs - tile.c[o + jj] * xr[lv.reduced_at(s, 2 * j + 1)];
          const C pivot = tile.b[o + jj] - tile.a[o + jj] * cprev;  // cprev = 0 at row lo
          const C r = reciprocal(pivot);
          rk = pivot_risk(pivot, r, rk);
          cprev = r * tile.c[o + jj];
          dprev = r * (rhs - tile.a[o + jj] * dprev);
          cp[i * TW + k] = cprev;
          dp[i * TW + k] = dprev;
        }
        risk[k] = rk;
      });
      team.team_barrier();
    }
    // Back up the chunks in blocks from the last, x into dp and through the d tile to memory.
    for (index_t i0 = (rows - 1) / RB * RB; i0 >= 0; i0 -= RB) {
      const int nr = static_cast<int>(rows - i0 < RB ? rows - i0 : RB);
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const index_t s = tm.s(k), j = tm.j(k), m = lv.rows_of(j);
        const index_t hi = leaf ? m - 1 : m - 2;
        D next = i0 + nr < m ? dp[(i0 + nr) * TW + k] : D(0);
        for (int jj = nr - 1; jj >= 0; --jj) {
          const index_t i = i0 + jj;
          if (i >= m) continue;
          D x;
          if (!leaf && i == 0) x = xr[lv.reduced_at(s, 2 * j)];
          else if (!leaf && i == m - 1) x = xr[lv.reduced_at(s, 2 * j + 1)];
          else if (i == hi) x = dp[i * TW + k];
          else x = dp[i * TW + k] - cp[i * TW + k] * next;
          next = x;
          if (jj == 0) dp[i * TW + k] = x;  // read by the block above
          tile.d[k * LD + jj] = x;
        }
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ns * nr), [&](const int e) {
        int k, jj;
        tm.element(e, ns, nr, k, jj);
        const index_t j = tm.j(k), i = i0 + jj;
        if (i < lv.rows_of(j))
          row0_of(d, tm.s(k))[(j * lv.M + i) * d.row_stride] = tile.d[k * LD + jj];
      });
      team.team_barrier();
    }
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      const index_t s = tm.s(k);
      if (tm.j(k) != 0) return;
      bad_code code = 0;
      if (leaf) {
        const int row = risk_is_low(risk[k]) ? 0
                        : first_bad_pivot(lv.n, device::system_elements<C>{a.system(s), a.row_stride},
                                          device::system_elements<C>{b.system(s), b.row_stride},
                                          cp + k, TW);
        if (row != 0) code = min_bad_row(0, 0, row - 1);
      } else {
        code = bad[s];
        if (below[s] != 0)
          code = min_bad_row(code, 2, lv.row_of_reduced(static_cast<index_t>(info_of(below[s])) - 1));
      }
      bad[s] = code;
      if (top && s < nsys) info(s) = info_of(code);
    });
  }
};

template <class ExecutionSpace, class Functor>
void long_launch(const ExecutionSpace& exec, const char* label, index_t teams, std::size_t bytes,
                 const Functor& f) {
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, static_cast<int>(teams),
                                            device::team_threads<ExecutionSpace>());
  Kokkos::parallel_for(label, policy.set_scratch_size(0, per_team_bytes(bytes)),
                       f);
}

// One-shot solve of nsys systems of n rows (n, nsys > 0, arguments checked) by the chunk method.
// Enqueued on exec, which is fenced before return.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void thomas_long_device_solve(const ExecutionSpace& exec, const AView& a, const BView& b,
                              const CView& c, const DView& d, const InfoView& info, index_t n,
                              index_t nsys) {
  using C = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  using memory_space = typename ExecutionSpace::memory_space;
  using reduce = thomas_long_reduce<ExecutionSpace, C, D>;
  using recover = thomas_long_recover<ExecutionSpace, C, D, InfoView>;
  const char* label = "bandsolve::solve(thomas, device, long systems)";
  const index_t slots = device::computed_slots(d, nsys);
  const bool across =
      device::long_across_systems && slots >= device::long_across_min_systems &&
      device::systems_of(a).side_by_side() && device::systems_of(b).side_by_side() &&
      device::systems_of(c).side_by_side() && device::systems_of(d).side_by_side();
  constexpr int max_levels = 40;
  long_level lv[max_levels];
  std::size_t offset[max_levels];  // of each level's reduced system in the scratch buffer
  int levels = 0;
  std::size_t bytes = 0;
  const auto grow = [&](std::size_t count, std::size_t size) {
    bytes += scratch_total(label, count, size, 63) / 64 * 64;
  };
  for (index_t rows = n;;) {
    const index_t M = device::long_chunk_rows < 4 ? 4 : device::long_chunk_rows;
    long_level& l = lv[levels];
    offset[levels++] = bytes;
    const index_t system_groups = device::tile_count(slots);
    if (rows <= M) {
      l = long_level{rows, rows, 1, 0, across ? system_groups : 1, across, slots};
      break;
    }
    const index_t P = (rows + M - 1) / M;
    l = long_level{rows, M, P, 2 * P - (rows - (P - 1) * M == 1 ? 1 : 0),
                   across ? system_groups : device::tile_count(P),
                   across, slots};
    const std::size_t count = static_cast<std::size_t>(slots) * static_cast<std::size_t>(l.R);
    for (int k = 0; k < 3; ++k) grow(count, sizeof(C));
    grow(count, sizeof(D));
    rows = l.R;
  }
  const std::size_t info_words = bytes;
  grow(static_cast<std::size_t>(levels) * static_cast<std::size_t>(slots), sizeof(bad_code));
  // The kept buffer of backend/scratch.hpp (one allocation while the calls fit it): allocating and
  // freeing device memory on every call cost about 80 us on an H200, more than the kernels of a
  // system of 2^20 rows. The buffer is reused by the next call, so this one fences exec at the end.
  std::unique_lock<std::mutex> lock;
  const auto buffer = scratch_buffer<memory_space>(exec, label, bytes + 64, lock);
  char* const base = device::align_up(buffer.data());
  bad_code* const words = reinterpret_cast<bad_code*>(base + info_words);
  Kokkos::deep_copy(exec,
                    Kokkos::View<bad_code*, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        words, static_cast<std::size_t>(levels) * static_cast<std::size_t>(slots)),
                    bad_code(0));
  // Level k's systems: the input at k = 0, else level k-1's reduced system.
  struct reduced_arrays {
    C *a, *b, *c;
    D* d;
  };
  const auto arrays = [&](int k) {
    const std::size_t count = static_cast<std::size_t>(slots) * static_cast<std::size_t>(lv[k].R);
    const std::size_t step = (count * sizeof(C) + 63) / 64 * 64;
    char* p = base + offset[k];
    return reduced_arrays{reinterpret_cast<C*>(p), reinterpret_cast<C*>(p + step),
                          reinterpret_cast<C*>(p + 2 * step), reinterpret_cast<D*>(p + 3 * step)};
  };
  const auto systems_at = [&](int k, auto& sa, auto& sb, auto& sc, auto& sd) {
    if (k == 0) {
      sa = device::systems_of<const C>(a);
      sb = device::systems_of<const C>(b);
      sc = device::systems_of<const C>(c);
      sd = device::systems_of(d);
    } else {
      const reduced_arrays r = arrays(k - 1);
      // Level k-1's reduced rows: system by system, or row by row across the systems.
      const index_t system_step = across ? 1 : lv[k - 1].R, row_step = lv[k - 1].reduced_step();
      sa = device::systems<const C>{r.a, system_step, row_step, 1};
      sb = device::systems<const C>{r.b, system_step, row_step, 1};
      sc = device::systems<const C>{r.c, system_step, row_step, 1};
      sd = device::systems<D>{r.d, system_step, row_step, 1};
    }
  };
  device::systems<const C> sa{}, sb{}, sc{};
  device::systems<D> sd{};
  for (int k = 0; k + 1 < levels; ++k) {
    systems_at(k, sa, sb, sc, sd);
    const reduced_arrays r = arrays(k);
    long_launch(exec, label, lv[k].teams(slots), reduce::scratch_bytes(),
                reduce{sa, sb, sc, sd, lv[k], slots, r.a, r.b, r.c, r.d, words + k * slots});
  }
  for (int k = levels - 1; k >= 0; --k) {
    systems_at(k, sa, sb, sc, sd);
    const bool leaf = k == levels - 1;
    long_launch(exec, label, lv[k].teams(slots), recover::scratch_bytes(lv[k].M),
                recover{sa, sb, sc, sd, lv[k], slots, nsys, leaf ? nullptr : arrays(k).d,
                        words + k * slots, leaf ? nullptr : words + (k + 1) * slots, info,
                        k == 0, buffer});
  }
  exec.fence();
}

}  // namespace bandsolve::detail
