#pragma once
// Batched Thomas on the device backend for a few long systems: the chunk (partition) method over
// many teams, where one thread per system (thomas_device.hpp) would leave the device idle.
//
// Each system is cut into chunks of M rows (the last one takes the remainder, 1..M rows); one
// thread takes one chunk, teams take 32 chunks of one system (or, at the last level, 32 systems
// of one chunk each). Level by level:
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
// Scratch: one allocation per call (allocate_scratch) holding, per level with R reduced rows per
// system, R * slots * (3 sizeof(C) + sizeof(D)) bytes (a, b = 1, c, d of the reduced system), and
// one 8-byte info word per system and level: about slots * n * (3 sizeof(C) + sizeof(D)) * 2.1 / M
// bytes in all (M = 48 for double). Team scratch level 0: the row blocks (32 * (RB + 1) * (3
// sizeof(C) + sizeof(D))) and, when recovering, c' and d' of the chunks (M * 32 * (sizeof(C) +
// sizeof(D)), kept near 24 KiB by the choice of M).
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/backend/scratch.hpp>
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

// Rows per chunk: as many as keep the recover kernel's c' and d' of 32 chunks near 24 KiB of team
// scratch (Kokkos allows 40 KiB on CUDA), a multiple of the row blocks, at most 64 (48 for
// double, 24 for complex double); 16 on levels of fewer than long_small_level_rows rows in all,
// where each kernel's serial sweep, not traffic, sets the time.
inline constexpr index_t long_small_level_rows = 32768;
template <class C, class D>
constexpr index_t long_chunk_rows(index_t rows, index_t slots) {
  constexpr index_t rb = tile_rows_v<C, D>;
  constexpr index_t fit = 24576 / (tile_systems * static_cast<index_t>(sizeof(C) + sizeof(D)));
  constexpr index_t big = (fit < 64 ? fit : 64) / rb * rb;
  return rows * slots < long_small_level_rows || big < 16 ? 16 : big;
}

}  // namespace device

// One level: nsys-slot systems of n rows cut into P chunks of M rows (the last: n - (P-1) M rows);
// R reduced rows per system (2 per chunk, 1 for a one-row last chunk); P = 1: the last level.
struct long_level {
  index_t n, M, P, R, groups;

  KOKKOS_INLINE_FUNCTION index_t rows_of(index_t j) const {
    return j + 1 < P ? M : n - (P - 1) * M;
  }
  // Work item k of team t: system s, chunk j.
  KOKKOS_INLINE_FUNCTION void item(index_t t, int k, index_t& s, index_t& j) const {
    if (P == 1) {
      s = t * device::tile_systems + k;
      j = 0;
    } else {
      s = t / groups;
      j = (t % groups) * device::tile_systems + k;
    }
  }
  KOKKOS_INLINE_FUNCTION int items(index_t t, index_t slots) const {
    const index_t left = P == 1 ? slots - t * device::tile_systems
                                : P - (t % groups) * device::tile_systems;
    return static_cast<int>(left < device::tile_systems ? left : device::tile_systems);
  }
  index_t teams(index_t slots) const {
    return P == 1 ? (slots + device::tile_systems - 1) / device::tile_systems : slots * groups;
  }
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
  bad_code seen = Kokkos::atomic_fetch_add(where, bad_code(0));
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
// are ignored entries, read as zero. Consecutive threads take consecutive rows of one chunk.
template <class Member, class C, class D, class Tile>
KOKKOS_INLINE_FUNCTION void load_chunk_rows(const Member& team, const long_level& lv,
                                            const device::systems<const C>& a,
                                            const device::systems<const C>& b,
                                            const device::systems<const C>& c,
                                            const device::systems<D>& d, index_t t, int ns,
                                            index_t i0, int nr, const Tile& tile) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ns * nr), [&](const int e) {
    const int k = e / nr, j = e % nr;
    index_t s, jc;
    lv.item(t, k, s, jc);
    const index_t i = i0 + j, row = jc * lv.M + i;
    const bool in = i < lv.rows_of(jc);
    const int o = k * tile.ld + j;
    tile.a[o] = in && row > 0 ? a.system(s)[row * a.row_stride] : C(0);
    tile.b[o] = in ? b.system(s)[row * b.row_stride] : C(1);
    tile.c[o] = in && row + 1 < lv.n ? c.system(s)[row * c.row_stride] : C(0);
    tile.d[o] = in ? D(d.system(s)[row * d.row_stride]) : D(0);
  });
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

  // The chunk's reduced rows (first, then last; m = 1: one row) into ra, rb, rc, rd at row r0.
  template <class Screen>
  KOKKOS_INLINE_FUNCTION void write(index_t m, C* ra, C* rb, C* rc, D* rd, index_t r0,
                                    Screen& screen) const {
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
      ra[r0 + 1] = ap;
      rb[r0 + 1] = C(1);
      rc[r0 + 1] = cp;
      rd[r0 + 1] = dp;
    }
  }
};

template <class R>
struct long_fast_screen {
  R* risk;
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION void note(const T& pivot, const T& r, int, index_t) {
    *risk = pivot_risk(pivot, r, *risk);
  }
};

struct long_exact_screen {
  bad_code bad = 0;
  index_t first_row = 0;  // row of the chunk's row 0 in its system
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION void note(const T& pivot, const T&, int phase, index_t i) {
    if (!pivot_is_good(pivot)) bad = min_bad_row(bad, phase, first_row + i);
  }
};

// Kernel 1 of a level: every chunk's two reduced rows into the reduced system (row 2j and 2j+1
// of system s at s * R); bad pivots merged into bad[s].
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

  static std::size_t scratch_bytes() {
    return 4 * 64 + static_cast<std::size_t>(TW * LD) * (3 * sizeof(C) + sizeof(D)) + 64 +
           TW * sizeof(state) + 64;
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
    index_t s0, j0;
    lv.item(t, 0, s0, j0);
    const index_t rows = lv.rows_of(j0);  // the group's longest chunk
    for (index_t i0 = 0; i0 < rows; i0 += RB) {
      const int nr = static_cast<int>(rows - i0 < RB ? rows - i0 : RB);
      load_chunk_rows(team, lv, a, b, c, d, t, ns, i0, nr, tile);
      team.team_barrier();
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        index_t s, j;
        lv.item(t, k, s, j);
        const index_t m = lv.rows_of(j);
        state& me = st[k];
        if (i0 == 0) me.risk = R(0);
        long_fast_screen<R> screen{&me.risk};
        const int o = k * LD;
        for (int jj = 0; jj < nr && i0 + jj < m; ++jj)
          me.row(i0 + jj, m, tile.a[o + jj], tile.b[o + jj], tile.c[o + jj], tile.d[o + jj],
                 screen);
      });
      team.team_barrier();
    }
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      index_t s, j;
      lv.item(t, k, s, j);
      const index_t m = lv.rows_of(j);
      state& me = st[k];
      long_fast_screen<R> screen{&me.risk};
      const index_t r0 = s * lv.R + 2 * j;
      me.write(m, ra, rb, rc, rd, r0, screen);
      if (!risk_is_low(me.risk)) {  // rare: the sweep again from memory, naming the bad rows
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
        again.write(m, ra, rb, rc, rd, r0, exact);
        atomic_merge_bad(bad + s, exact.bad);
      }
    });
  }
};

// Kernel 2 of a level (Leaf: the last level, each system one chunk, plain Thomas): each chunk's
// rows from its end unknowns (reduced solution xr, rows 2j and 2j+1 of system s at s * R), x over
// d. The thread of chunk 0 settles the system's info word: its own level's, merged with the
// level below's (mapped to this level's rows), into bad[s] and, at the top level, into info.
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

  static std::size_t scratch_bytes(index_t M) {
    return 4 * 64 + static_cast<std::size_t>(TW * LD) * (3 * sizeof(C) + sizeof(D)) + 2 * 64 +
           static_cast<std::size_t>(M) * TW * (sizeof(C) + sizeof(D)) + TW * sizeof(R) + 64;
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
    index_t s0, j0;
    lv.item(t, 0, s0, j0);
    const index_t rows = lv.rows_of(j0);
    // Thomas on rows [lo, hi] of each chunk: all of them at the last level, else the interior
    // with x[0] and x[m-1] known (their terms moved to the right-hand side).
    for (index_t i0 = 0; i0 < rows; i0 += RB) {
      const int nr = static_cast<int>(rows - i0 < RB ? rows - i0 : RB);
      load_chunk_rows(team, lv, a, b, c, d, t, ns, i0, nr, tile);
      team.team_barrier();
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        index_t s, j;
        lv.item(t, k, s, j);
        const index_t m = lv.rows_of(j), lo = leaf ? 0 : 1, hi = leaf ? m - 1 : m - 2;
        if (i0 == 0) risk[k] = R(0);
        const int o = k * LD;
        for (int jj = 0; jj < nr; ++jj) {
          const index_t i = i0 + jj;
          if (i < lo || i > hi) continue;
          D rhs = tile.d[o + jj];
          if (!leaf && i == 1) rhs = rhs - tile.a[o + jj] * xr[s * lv.R + 2 * j];
          if (!leaf && i == m - 2) rhs = rhs - tile.c[o + jj] * xr[s * lv.R + 2 * j + 1];
          const C pivot = i == lo ? tile.b[o + jj] : tile.b[o + jj] - tile.a[o + jj] * cp[(i - 1) * TW + k];
          const C r = reciprocal(pivot);
          risk[k] = pivot_risk(pivot, r, risk[k]);
          cp[i * TW + k] = r * tile.c[o + jj];
          dp[i * TW + k] = i == lo ? r * rhs : r * (rhs - tile.a[o + jj] * dp[(i - 1) * TW + k]);
        }
      });
      team.team_barrier();
    }
    // Back up the chunks in blocks from the last, x into dp and through the d tile to memory.
    for (index_t i0 = (rows - 1) / RB * RB; i0 >= 0; i0 -= RB) {
      const int nr = static_cast<int>(rows - i0 < RB ? rows - i0 : RB);
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        index_t s, j;
        lv.item(t, k, s, j);
        const index_t m = lv.rows_of(j), hi = leaf ? m - 1 : m - 2;
        for (int jj = nr - 1; jj >= 0; --jj) {
          const index_t i = i0 + jj;
          if (i >= m) continue;
          D x;
          if (!leaf && i == 0) x = xr[s * lv.R + 2 * j];
          else if (!leaf && i == m - 1) x = xr[s * lv.R + 2 * j + 1];
          else if (i == hi) x = dp[i * TW + k];
          else x = dp[i * TW + k] - cp[i * TW + k] * dp[(i + 1) * TW + k];
          dp[i * TW + k] = x;
          tile.d[k * LD + jj] = x;
        }
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ns * nr), [&](const int e) {
        const int k = e / nr, jj = e % nr;
        index_t s, j;
        lv.item(t, k, s, j);
        const index_t i = i0 + jj;
        if (i < lv.rows_of(j)) d.system(s)[(j * lv.M + i) * d.row_stride] = tile.d[k * LD + jj];
      });
      team.team_barrier();
    }
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      index_t s, j;
      lv.item(t, k, s, j);
      if (j != 0) return;
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

// Slots the kernels compute: every slot of interleaved packs, else the nsys systems.
template <class View>
index_t long_slots(const View& d, index_t nsys) {
  if constexpr (View::rank == 3) return static_cast<index_t>(capacity(d));
  else return nsys;
}

template <class ExecutionSpace, class Functor>
void long_launch(const ExecutionSpace& exec, const char* label, index_t teams, std::size_t bytes,
                 const Functor& f) {
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, static_cast<int>(teams),
                                            device::team_threads<ExecutionSpace>());
  Kokkos::parallel_for(label, policy.set_scratch_size(0, Kokkos::PerTeam(static_cast<int>(bytes))),
                       f);
}

// One-shot solve of nsys systems of n rows (n, nsys > 0, arguments checked) by the chunk method.
// Enqueued on exec, not fenced.
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
  const index_t slots = long_slots(d, nsys);
  constexpr int max_levels = 40;
  long_level lv[max_levels];
  std::size_t offset[max_levels];  // of each level's reduced system in the scratch buffer
  int levels = 0;
  std::size_t bytes = 0;
  const auto grow = [&](std::size_t count, std::size_t size) {
    bytes += scratch_total(label, count, size, 63) / 64 * 64;
  };
  for (index_t rows = n;;) {
    const index_t M = device::long_chunk_rows<C, D>(rows, slots);
    long_level& l = lv[levels];
    offset[levels++] = bytes;
    if (rows <= M) {
      l = long_level{rows, rows, 1, 0, 1};
      break;
    }
    const index_t P = (rows + M - 1) / M;
    l = long_level{rows, M, P, 2 * P - (rows - (P - 1) * M == 1 ? 1 : 0),
                   (P + device::tile_systems - 1) / device::tile_systems};
    const std::size_t count = static_cast<std::size_t>(slots) * static_cast<std::size_t>(l.R);
    for (int k = 0; k < 3; ++k) grow(count, sizeof(C));
    grow(count, sizeof(D));
    rows = l.R;
  }
  const std::size_t info_words = bytes;
  grow(static_cast<std::size_t>(levels) * static_cast<std::size_t>(slots), sizeof(bad_code));
  const auto buffer = allocate_scratch<memory_space>(exec, label, bytes + 64);
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
      const index_t rows = lv[k - 1].R;
      sa = device::systems<const C>{r.a, rows, 1, 1};
      sb = device::systems<const C>{r.b, rows, 1, 1};
      sc = device::systems<const C>{r.c, rows, 1, 1};
      sd = device::systems<D>{r.d, rows, 1, 1};
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
}

}  // namespace bandsolve::detail
