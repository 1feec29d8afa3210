#pragma once
// Batched Thomas on the device backend for systems short enough to live in registers: each
// system's rows are cut into chunks of RT rows, one thread per chunk holds its rows of a, b, c
// and d in registers from the first load to the last store, and the chunks of a system meet
// through three short scans in team scratch. The result is Thomas's own elimination (the same
// pivots, reassociated), so every element is read once and x written once: 5 words per unknown
// against 9 for a thread per system, which keeps c' and d' in memory between its two sweeps.
//
// For one chunk, with t the c' of the row before it (0 before row 0):
//  1. the map t -> c' of its last row is a linear fractional map (num, den) = M (t, 1), M the
//     product of [[0, c_i], [-a_i, b_i]] over its rows; the first thread of each system applies
//     the chunks' maps in order and hands each chunk its t (scan 1);
//  2. the chunk eliminates its rows with that t (pivot b_i - a_i c'_{i-1}, info as Thomas's),
//     keeping l_i = -a_i / pivot, c'_i and d_i / pivot, and the affine map d'_in -> d'_out of its
//     rows; scan 2 hands each chunk the d' of the row before it and resolves info;
//  3. it forms its d' and the affine map x_next -> x of its first row; scan 3 (backwards) hands
//     each chunk the x of the row after it, and the chunk writes its x.
// On a device a team is `systems` systems times `chunks` chunks, one thread each (thread
// k * systems + s: neighbouring threads hold the same rows of neighbouring systems). On host
// execution spaces (tests of the device path) a team is one thread that runs every chunk of its
// systems in turn, each chunk's rows kept in team scratch between the steps instead of registers.
// Team scratch level 0 holds the maps: (4 sizeof(C) + 2 sizeof(D) + 4) bytes per chunk. The
// solve with stored factors (thomas_device_factorization) reads l, 1/pivot and c' instead of
// a, b, c and starts at scan 2: 5 words per unknown, against 7 for a thread per system.
// With Add (solve_along_add and f.solve_add along an axis) d is only read and each x is added
// into u as it is stored: 6 words per unknown, one pass.
// Where each system's rows are contiguous (row layout, lines along the unit-stride axis) a thread's
// own rows are 128 bytes of one system, so a warp's load of one row touches 32 lines. There the
// team moves its rows between memory and padded tiles in team scratch (staged): the threads of a
// system take its rows in turn, so consecutive threads read consecutive rows, and each thread
// then reads its chunk from the tile (on an H200 twice as fast in row layout at n = 64-256).
#include <bandsolve/backend/device/launch.hpp>  // align_up, scratch_alignment
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/core/view_extents.hpp>

#include <cstddef>
#include <type_traits>

namespace bandsolve::detail {

namespace device {

// Rows per chunk: the device backend's register_rows_v (128 bytes of each of a, b, c and d).
template <class C, class D>
inline constexpr int chunk_rows_v = register_rows_v<C, D>;

// Chunks per system at most (rows up to chunk_max * chunk_rows_v), and threads per team on a
// device (systems per team = chunk_team_threads / chunks, at least one). Variables so that tests
// and benchmarks can switch the path off (chunked_thomas) and try other team sizes; 256 threads
// of up to 255 registers still fit a multiprocessor. On an H100, 256 beat 64 and 128 where
// neighbouring systems are neighbours in memory (doubles: 16 systems a team, so a warp's loads
// are two runs of 128 bytes), and 128 beat 256 where each system's rows are contiguous
// (chunk_team_threads_rows; staged teams are smaller where their tiles fill 40 KiB).
inline constexpr int chunk_max = 32;
inline int chunk_team_threads = 256;
inline int chunk_team_threads_rows = 128;
inline bool chunked_thomas = true;
// Whether chunks of systems whose rows are contiguous move through tiles in team scratch (above),
// and whether they do on host spaces too (tests of the device path: off by default, as the tiles
// only cost time there).
inline bool chunk_stage_rows = true;
inline bool chunk_stage_rows_on_host = false;

template <class C, class D>
bool chunked_thomas_fits(index_t n) {
  return chunked_thomas && n >= 1 && n <= index_t(chunk_max) * chunk_rows_v<C, D>;
}

// Whether the one-shot solve takes register chunks where they fit, given whether the systems lie
// side by side. Measured on an H200 (bench/cuda's sweep, 2^24 unknowns): a thread per system was
// 1.2-4.8x faster at n = 2 and 3 in row and column layouts, and 1.25-3.4x for floats in column
// layout at every n measured up to 256; chunks were 1.05-1.33x faster from n = 8 otherwise
// (n = 4-7 not measured). A variable, as the other thresholds here, for retuning.
inline index_t chunk_min_rows = 4;

template <class C, class D>
bool chunked_one_shot_pays(index_t n, bool side_by_side) {
  if (n < chunk_min_rows) return false;
  return !(sizeof(C) <= 4 && sizeof(D) <= 4 && side_by_side);
}

}  // namespace device

// The stored factors of thomas_device_factorization (r = 1/pivot, l = a/pivot, c' in packs of
// 32 systems: view(s / 32, i, s % 32)), for the chunked solve with them.
template <class FactorView>
struct chunk_factors {
  FactorView r, lo, cp;
};
struct no_factors {};

// Host: one thread per team, chunks kept in team scratch level 1 between the steps. Factors:
// no_factors (one-shot solve of a, b, c, d) or chunk_factors (solve with stored factors: steps
// 1 and 2 are done, scan 2 onwards as in the one-shot solve). Add: d only read, u += x.
template <class C, class D, class InfoView, int RT, bool Host, class Factors = no_factors,
          bool Add = false>
struct thomas_chunked_device {
  using R = real_type_t<C>;
  using coefficient_type = C;
  using rhs_type = D;
  static constexpr bool factored = !std::is_same_v<Factors, no_factors>;
  // One chunk's rows: a, b, c, d as loaded; after step 2, l in a, c' in c and d / pivot in d;
  // after step 3, d' in d, and with Add u's rows in prior (loaded before scan 3, so that their
  // latency overlaps it, where a and b are spent).
  struct chunk_rows {
    static constexpr auto rows = static_cast<std::size_t>(RT);  // an array bound
    C a[rows], b[rows], c[rows];
    D d[rows];
    D prior[Add ? rows : 1];
  };

  device::systems<const C> a, b, c;
  device::systems<std::conditional_t<Add, const D, D>> d;
  InfoView info;
  index_t n, slots, nsys;
  int chunks, systems;  // per system, per team
  Factors factors;
  device::systems<D> target;  // Add: the array x is added into (else unused)
  bool staged = false;        // rows through tiles in team scratch (rows contiguous)

  KOKKOS_INLINE_FUNCTION int items() const { return chunks * systems; }
  // Team scratch level 0: two D and four C per chunk, then one int (and room to align).
  KOKKOS_INLINE_FUNCTION static std::size_t map_bytes(int items) {
    return static_cast<std::size_t>(items) * (2 * sizeof(D) + 4 * sizeof(C) + sizeof(int)) +
           device::scratch_alignment;
  }
  // Staged: a tile of RT + 1 entries per chunk for d (and for a, b and c in a one-shot solve),
  // each tile aligned, after the maps.
  static constexpr int tile_ld = RT + 1;
  KOKKOS_INLINE_FUNCTION static std::size_t tile_bytes(int items, std::size_t size) {
    return static_cast<std::size_t>(items) * tile_ld * size + device::scratch_alignment;
  }
  KOKKOS_INLINE_FUNCTION static std::size_t stage_bytes(int items) {
    return tile_bytes(items, sizeof(D)) + (factored ? 0 : 3 * tile_bytes(items, sizeof(C))) +
           device::scratch_alignment;
  }
  // The alignment slack within stage_bytes.
  static constexpr std::size_t stage_slack = (factored ? 2 : 5) * device::scratch_alignment;
  KOKKOS_INLINE_FUNCTION std::size_t level0_bytes(int items) const {
    return team_scratch_request(map_bytes(items) + (staged ? stage_bytes(items) : 0));
  }
  // Team scratch level 1 on the host: every chunk's rows.
  KOKKOS_INLINE_FUNCTION static std::size_t keep_bytes(int items) {
    return Host ? team_scratch_request(static_cast<std::size_t>(items) * sizeof(chunk_rows) +
                                       device::scratch_alignment)
                : 0;
  }

  // Magnitude above which (or below the reciprocal of which) a chunk's map is rescaled: far from
  // overflow and underflow after one more row. The map is projective, so scaling is free.
  KOKKOS_INLINE_FUNCTION static constexpr R map_big() {
    return sizeof(R) == 4 ? R(4294967296.0) : R(1.157920892373162e77);  // 2^32, 2^256
  }

  KOKKOS_FORCEINLINE_FUNCTION void load(chunk_rows& r, index_t s, int k) const {
    const C *as = a.system(s), *bs = b.system(s), *cs = c.system(s);
    const D* ds = d.system(s);
    const index_t i0 = index_t(k) * RT;
    for (int j = 0; j < RT; ++j) {
      const index_t i = i0 + j;
      if (i < n) {
        r.a[j] = i == 0 ? C(0) : as[i * a.row_stride];
        r.b[j] = bs[i * b.row_stride];
        r.c[j] = i + 1 == n ? C(0) : cs[i * c.row_stride];
        r.d[j] = ds[i * d.row_stride];
      } else {  // rows past the end: identity rows that leave the others alone
        r.a[j] = C(0), r.b[j] = C(1), r.c[j] = C(0), r.d[j] = D(0);
      }
    }
  }

  // The same from the tiles (staged): row k * RT + j of the chunk's system at tile[item * ld + j].
  KOKKOS_FORCEINLINE_FUNCTION void load_staged(chunk_rows& r, int item, const C* ta,
                                               const C* tb, const C* tc, const D* td) const {
    const index_t i0 = index_t(item / systems) * RT;
    const int at = item * tile_ld;
    for (int j = 0; j < RT; ++j) {
      const index_t i = i0 + j;
      if (i < n) {
        r.a[j] = i == 0 ? C(0) : ta[at + j];
        r.b[j] = tb[at + j];
        r.c[j] = i + 1 == n ? C(0) : tc[at + j];
        r.d[j] = td[at + j];
      } else {
        r.a[j] = C(0), r.b[j] = C(1), r.c[j] = C(0), r.d[j] = D(0);
      }
    }
  }

  // Staged: calls f(row0, it, i, at) for the rows that thread `rank` moves between memory and
  // the tiles, all threads of the team taking part. Thread q of the `chunks` threads of system
  // sl = rank / chunks takes rows q, q + chunks, q + 2 chunks, ... of it (row i at row0[i *
  // row_stride] and tile[at]), so that consecutive threads take consecutive rows and the
  // system's address is found once.
  template <class T, class F>
  KOKKOS_FORCEINLINE_FUNCTION void for_each_tile_row(int rank, index_t s0,
                                                     const device::systems<T>& rows,
                                                     const F& f) const {
    const int sl = rank / chunks, q = rank % chunks;
    if (s0 + sl >= slots) return;
    T* const row0 = rows.system(s0 + sl);
    for (int it = 0; it < RT; ++it) {
      const int i = it * chunks + q;
      if (i < n) f(row0, it, i, ((i / RT) * systems + sl) * tile_ld + i % RT);
    }
  }

  // Runs f(rank) for the calling thread's rank (device) or for every rank of the team in turn
  // (host: a team of one thread standing in for all of them).
  template <class Member, class F>
  KOKKOS_FORCEINLINE_FUNCTION void each_rank(const Member& team, const F& f) const {
    if constexpr (Host) {
      for (int rank = 0; rank < items(); ++rank) f(rank);
    } else {
      f(team.team_rank());
    }
  }

  // Staged: one array's rows into its tile, every load issued before the first store.
  template <class Member, class T, class U>
  KOKKOS_FORCEINLINE_FUNCTION void stage_in(const Member& team, index_t s0,
                                            const device::systems<T>& src, U* tile) const {
    each_rank(team, [&](const int rank) {
      U v[chunk_rows::rows];
      for_each_tile_row(rank, s0, src, [&](T* row0, const int it, const int i, int) {
        v[it] = row0[i * src.row_stride];
      });
      for_each_tile_row(rank, s0, src, [&](T*, const int it, int, const int at) {
        tile[at] = v[it];
      });
    });
  }

  // Staged: the tiles' rows back into memory, the same way round.
  template <class Member, class U>
  KOKKOS_FORCEINLINE_FUNCTION void stage_out(const Member& team, index_t s0, const U* tile,
                                             const device::systems<U>& dst) const {
    each_rank(team, [&](const int rank) {
      for_each_tile_row(rank, s0, dst, [&](U* row0, int, const int i, const int at) {
        row0[i * dst.row_stride] = tile[at];
      });
    });
  }

  // Steps 1 and 2 from stored factors: -l in a, c' in c, d / pivot in d (b, 1/pivot, is spent);
  // returns the chunk's map d'_in -> d'_out = y + g d'_in.
  // With td (staged), d's rows come from the chunk's tile instead of memory.
  KOKKOS_FORCEINLINE_FUNCTION void load_factored(chunk_rows& r, index_t s, int k, D& y, C& g,
                                                 const D* td) const {
    const D* ds = d.system(s);
    const index_t pack = s / device::tile_systems;
    const int lane = static_cast<int>(s % device::tile_systems);
    const index_t i0 = index_t(k) * RT;
    for (int j = 0; j < RT; ++j) {
      const index_t i = i0 + j;
      if (i < n) {
        r.a[j] = -factors.lo(pack, i, lane);
        r.b[j] = factors.r(pack, i, lane);
        r.c[j] = i + 1 == n ? C(0) : factors.cp(pack, i, lane);
        r.d[j] = td ? td[j] : ds[i * d.row_stride];
      } else {
        r.a[j] = C(0), r.b[j] = C(1), r.c[j] = C(0), r.d[j] = D(0);
      }
    }
    y = D(0), g = C(1);
    for (int j = 0; j < RT; ++j) {
      r.d[j] = r.b[j] * r.d[j];
      y = r.d[j] + r.a[j] * y;
      g = r.a[j] * g;
    }
  }

  // Step 1: the chunk's map t -> c' (num = m0 + m1 t, den = m2 + m3 t).
  KOKKOS_FORCEINLINE_FUNCTION static void c_map(const chunk_rows& r, C* m) {
    C m0 = C(0), m1 = C(1), m2 = C(1), m3 = C(0);
    for (int j = 0; j < RT; ++j) {
      const C n0 = r.c[j] * m2, n1 = r.c[j] * m3;
      const C n2 = r.b[j] * m2 - r.a[j] * m0, n3 = r.b[j] * m3 - r.a[j] * m1;
      m0 = n0, m1 = n1, m2 = n2, m3 = n3;
      const R size = magnitude1(m0) + magnitude1(m1) + magnitude1(m2) + magnitude1(m3);
      if (size > map_big() || (size < R(1) / map_big() && size > R(0))) {
        const R scale = R(1) / size;
        m0 *= scale, m1 *= scale, m2 *= scale, m3 *= scale;
      }
    }
    m[0] = m0, m[1] = m1, m[2] = m2, m[3] = m3;
  }

  // Step 2: elimination with t = c' of the row before; returns the chunk's info (first bad row,
  // 1-based, or 0) and its map d'_in -> d'_out = y + g d'_in.
  KOKKOS_FORCEINLINE_FUNCTION int eliminate(chunk_rows& r, C t, index_t i0, D& y, C& g) const {
    int code = 0;
    y = D(0), g = C(1);
    for (int j = 0; j < RT; ++j) {
      const C pivot = r.b[j] - r.a[j] * t;
      const C inv = reciprocal(pivot);
      code = update_info(code, pivot, i0 + j);
      const C l = -(r.a[j] * inv);
      t = r.c[j] * inv;
      r.a[j] = l, r.c[j] = t;
      r.d[j] = r.d[j] * inv;
      y = r.d[j] + l * y;
      g = l * g;
    }
    return code;
  }

  // Step 3: d' from the d' of the row before; returns the map x_next -> x of the first row,
  // x = v + h x_next.
  KOKKOS_FORCEINLINE_FUNCTION static void forward(chunk_rows& r, D u, D& v, C& h) {
    for (int j = 0; j < RT; ++j) {
      u = r.d[j] + r.a[j] * u;
      r.d[j] = u;
    }
    v = D(0), h = C(1);
    for (int j = RT - 1; j >= 0; --j) {
      v = r.d[j] - r.c[j] * v;
      h = -(r.c[j] * h);
    }
  }

  // Add: u's rows of the chunk into prior, all loads before any store.
  KOKKOS_FORCEINLINE_FUNCTION void load_prior(chunk_rows& r, index_t s, int k) const {
    if constexpr (Add) {
      const D* const us = target.system(s);
      const index_t i0 = index_t(k) * RT;
      for (int j = 0; j < RT; ++j)
        r.prior[j] = i0 + j < n ? us[(i0 + j) * target.row_stride] : D(0);
    }
  }

  KOKKOS_FORCEINLINE_FUNCTION void store(const chunk_rows& r, index_t s, int k, D x) const {
    const index_t i0 = index_t(k) * RT;
    if constexpr (Add) {
      D* const us = target.system(s);
      for (int j = RT - 1; j >= 0; --j) {
        x = r.d[j] - r.c[j] * x;
        if (i0 + j < n) us[(i0 + j) * target.row_stride] = r.prior[j] + x;
      }
    } else {
      D* const ds = d.system(s);
      for (int j = RT - 1; j >= 0; --j) {
        x = r.d[j] - r.c[j] * x;
        if (i0 + j < n) ds[(i0 + j) * d.row_stride] = x;
      }
    }
  }

  // Staged: the chunk's x (with Add, prior + x) into its tile instead of memory.
  KOKKOS_FORCEINLINE_FUNCTION void store_staged(const chunk_rows& r, int item, D x,
                                                D* td) const {
    const int at = item * tile_ld;
    for (int j = RT - 1; j >= 0; --j) {
      x = r.d[j] - r.c[j] * x;
      if constexpr (Add)
        td[at + j] = r.prior[j] + x;
      else
        td[at + j] = x;
    }
  }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const int nitems = items();
    char* const base = device::align_up(
        static_cast<char*>(team.team_scratch(0).get_shmem(level0_bytes(nitems))));
    // Per chunk (index k * systems + s): y (becomes its incoming d') and v (becomes its x_next);
    // m0..m3 of its c' map (m0 becomes its incoming c', m1 its g, m2 its h); one int for info.
    D* const yv = reinterpret_cast<D*>(base);
    D* const vv = yv + nitems;
    C* const m0 = reinterpret_cast<C*>(vv + nitems);
    C* const m1 = m0 + nitems;
    C* const m2 = m1 + nitems;
    C* const m3 = m2 + nitems;
    int* const codes = reinterpret_cast<int*>(m3 + nitems);
    const index_t s0 = static_cast<index_t>(team.league_rank()) * systems;
    // Staged: the tiles of d, then a, b and c, after the maps (each tile_bytes apart).
    const bool stage = staged;
    D* const td = reinterpret_cast<D*>(device::align_up(reinterpret_cast<char*>(codes + nitems)));
    const auto coefficient_tile = [&](const std::size_t which) {
      return factored ? nullptr
                      : reinterpret_cast<C*>(device::align_up(
                            reinterpret_cast<char*>(td) + tile_bytes(nitems, sizeof(D)) +
                            which * tile_bytes(nitems, sizeof(C))));
    };
    C* const ta = coefficient_tile(0u);
    C* const tb = coefficient_tile(1u);
    C* const tc = coefficient_tile(2u);

    // Runs f(item, rows) for every chunk of the team (host) or the calling thread's (device,
    // whose rows stay in registers: `own` is never addressed through a pointer).
    [[maybe_unused]] chunk_rows own;
    chunk_rows* const keep =
        Host ? reinterpret_cast<chunk_rows*>(device::align_up(
                   static_cast<char*>(team.team_scratch(1).get_shmem(keep_bytes(nitems)))))
             : nullptr;
    const auto each = [&](const auto& f) {
      if constexpr (Host) {
        for (int item = 0; item < nitems; ++item)
          if (s0 + item % systems < slots) f(item, keep[item]);
      } else {
        const int item = team.team_rank();
        if (s0 + item % systems < slots) f(item, own);
      }
    };
    // The first thread of each system walks its chunks (scans 1 to 3).
    const auto each_system = [&](const auto& f) {
      if constexpr (Host) {
        for (int sl = 0; sl < systems; ++sl)
          if (s0 + sl < slots) f(sl);
      } else {
        const int sl = team.team_rank();
        if (sl < systems && s0 + sl < slots) f(sl);
      }
    };

    if (stage) {
      if constexpr (!factored) {
        stage_in(team, s0, a, ta);
        stage_in(team, s0, b, tb);
        stage_in(team, s0, c, tc);
      }
      stage_in(team, s0, d, td);
      team.team_barrier();
    }
    if constexpr (factored) {
      each([&](const int item, chunk_rows& r) {
        D y;
        C g;
        load_factored(r, s0 + item % systems, item / systems, y, g,
                      stage ? td + item * tile_ld : nullptr);
        yv[item] = y, m1[item] = g;
      });
    } else {
      each([&](const int item, chunk_rows& r) {
        if (stage)
          load_staged(r, item, ta, tb, tc, td);
        else
          load(r, s0 + item % systems, item / systems);
        C m[4];
        c_map(r, m);
        m0[item] = m[0], m1[item] = m[1], m2[item] = m[2], m3[item] = m[3];
      });
      team.team_barrier();
      each_system([&](const int sl) {  // scan 1: incoming c' of each chunk into m0
        C num = C(0), den = C(1);  // homogeneous: no division on the chain from chunk to chunk
        for (int k = 0; k < chunks; ++k) {
          const int item = k * systems + sl;
          const C q0 = m0[item], q1 = m1[item], q2 = m2[item], q3 = m3[item];
          m0[item] = num / den;
          const C next_num = q0 * den + q1 * num, next_den = q2 * den + q3 * num;
          num = next_num, den = next_den;
          const R size = magnitude1(num) + magnitude1(den);
          if (size > map_big() || (size < R(1) / map_big() && size > R(0))) {
            const R scale = R(1) / size;
            num *= scale, den *= scale;
          }
        }
      });
      team.team_barrier();
      each([&](const int item, chunk_rows& r) {
        D y;
        C g;
        codes[item] = eliminate(r, m0[item], index_t(item / systems) * RT, y, g);
        yv[item] = y, m1[item] = g;
      });
    }
    team.team_barrier();
    each_system([&](const int sl) {  // scan 2: incoming d' of each chunk into yv; info
      D u = D(0);
      [[maybe_unused]] int code = 0;
      for (int k = 0; k < chunks; ++k) {
        const int item = k * systems + sl;
        const D next = yv[item] + m1[item] * u;
        yv[item] = u;
        u = next;
        if constexpr (!factored) code = code != 0 ? code : codes[item];
      }
      if constexpr (!factored)
        if (s0 + sl < nsys) info(s0 + sl) = code;
    });
    team.team_barrier();
    // Staged with Add: u's rows into d's tile (its last reader was the first step).
    if constexpr (Add)
      if (stage) {
        stage_in(team, s0, target, td);
        team.team_barrier();
      }
    each([&](const int item, chunk_rows& r) {
      D v;
      C h;
      forward(r, yv[item], v, h);
      vv[item] = v, m2[item] = h;
      if constexpr (Add) {
        if (stage)
          for (int j = 0; j < RT; ++j)
            r.prior[j] = index_t(item / systems) * RT + j < n ? td[item * tile_ld + j] : D(0);
        else
          load_prior(r, s0 + item % systems, item / systems);
      }
    });
    team.team_barrier();
    each_system([&](const int sl) {  // scan 3, backwards: x after each chunk into vv
      D w = D(0);
      for (int k = chunks - 1; k >= 0; --k) {
        const int item = k * systems + sl;
        const D next = vv[item] + m2[item] * w;
        vv[item] = w;
        w = next;
      }
    });
    team.team_barrier();
    if (stage) {
      each([&](const int item, const chunk_rows& r) { store_staged(r, item, vv[item], td); });
      team.team_barrier();
      if constexpr (Add)
        stage_out(team, s0, td, target);
      else
        stage_out(team, s0, td, d);
    } else {
      each([&](const int item, const chunk_rows& r) {
        store(r, s0 + item % systems, item / systems, vv[item]);
      });
    }
  }
};

// The systems x is added into: u's, or none (a solve in place).
template <class D, class... UView>
device::systems<D> chunked_add_target(const UView&... u) {
  if constexpr (sizeof...(UView) == 1)
    return device::systems_of<D>(u...);
  else
    return device::systems<D>{nullptr, 0, 0, 1};
}

// Launches a chunked kernel whose members but `systems` and `staged` are set: teams of
// chunk_team_threads(_rows) threads, their maps (and tiles, where staged) within 40 KiB of team
// scratch; where the tiles cap the systems of a team, whole warps of chunks where they can be.
template <class ExecutionSpace, class Kernel>
void thomas_chunked_launch(const ExecutionSpace& exec, Kernel k, bool rows_contiguous) {
  constexpr bool host = device::one_thread_teams<ExecutionSpace>();
  // Staged where a system's threads read runs of at least a 32-byte sector of each array.
  const std::size_t narrowest = sizeof(typename Kernel::coefficient_type) <
                                         sizeof(typename Kernel::rhs_type)
                                     ? sizeof(typename Kernel::coefficient_type)
                                     : sizeof(typename Kernel::rhs_type);
  k.staged = (!host || device::chunk_stage_rows_on_host) && rows_contiguous &&
             device::chunk_stage_rows &&
             static_cast<std::size_t>(k.chunks) * narrowest >= 32;
  const int wanted_threads =
      rows_contiguous ? device::chunk_team_threads_rows : device::chunk_team_threads;
  const int threads = wanted_threads < device::team_threads_max<ExecutionSpace>()
                          ? wanted_threads
                          : device::team_threads_max<ExecutionSpace>();
  const int wanted = threads / k.chunks;
  // Bytes per system, less the alignment slack of the maps and tiles (once per team).
  const std::size_t slack = 6 * device::scratch_alignment;
  const std::size_t per_system =
      Kernel::map_bytes(k.chunks) + (k.staged ? Kernel::stage_bytes(k.chunks) : 0) -
      (k.staged ? Kernel::stage_slack : 0) - device::scratch_alignment;
  int fit = static_cast<int>((40960 - slack) / per_system);
  if (k.staged && fit < wanted) {
    int whole = fit;
    while (whole > 1 && (whole * k.chunks) % 32 != 0) --whole;
    if ((whole * k.chunks) % 32 == 0) fit = whole;
  }
  k.systems = wanted < fit ? (wanted > 1 ? wanted : 1) : (fit > 1 ? fit : 1);
  const index_t nteams = (k.slots + k.systems - 1) / k.systems;
  const int items = k.items();
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, static_cast<int>(nteams), host ? 1 : items);
  policy.set_scratch_size(0, per_team_bytes(k.level0_bytes(items)));
  if (host)
    policy.set_scratch_size(1, per_team_bytes(Kernel::keep_bytes(items)));
  Kokkos::parallel_for(Kernel::factored ? "bandsolve::thomas_factorization::solve(device, chunks)"
                                        : "bandsolve::solve(thomas, device, chunks)",
                       policy, k);
}

// One-shot solve of nsys systems of n rows (1 <= n, device::chunked_thomas_fits), enqueued on
// exec: x overwrites d, or with u (solve_along_add) d is only read and u += x.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView, class... UView>
void thomas_chunked_device_solve(const ExecutionSpace& exec, const AView& a, const BView& b,
                                 const CView& c, const DView& d, const InfoView& info, index_t n,
                                 index_t nsys, index_t slots, const UView&... u) {
  static_assert(sizeof...(UView) <= 1, "at most one array to add into");
  constexpr bool add = sizeof...(UView) == 1;
  using C = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr int RT = device::chunk_rows_v<C, D>;
  constexpr bool host = device::one_thread_teams<ExecutionSpace>();
  using kernel = thomas_chunked_device<C, D, InfoView, RT, host, no_factors, add>;
  const auto as = device::systems_of<const C>(a), bs = device::systems_of<const C>(b),
             cs = device::systems_of<const C>(c);
  const auto ds = device::systems_of<std::conditional_t<add, const D, D>>(d);
  const device::systems<D> us = chunked_add_target<D>(u...);
  const int chunks = static_cast<int>((n + RT - 1) / RT);
  thomas_chunked_launch(exec, kernel{as, bs, cs, ds, info, n, slots, nsys, chunks, 0, {}, us},
                        as.rows_contiguous() && bs.rows_contiguous() && cs.rows_contiguous() &&
                            ds.rows_contiguous());
}

// Solve with the stored factors (packs of 32 systems) of slots systems of n rows (1 <= n,
// device::chunked_thomas_fits), d in place, enqueued on exec.
template <class ExecutionSpace, class FactorView, class DView>
void thomas_chunked_device_factored_solve(const ExecutionSpace& exec, const FactorView& r,
                                          const FactorView& lo, const FactorView& cp,
                                          const DView& d, index_t n, index_t slots) {
  using C = typename FactorView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  using info_type = Kokkos::View<int*, typename ExecutionSpace::memory_space>;
  constexpr int RT = device::chunk_rows_v<C, D>;
  constexpr bool host = device::one_thread_teams<ExecutionSpace>();
  using kernel = thomas_chunked_device<C, D, info_type, RT, host, chunk_factors<FactorView>>;
  const auto ds = device::systems_of(d);
  const device::systems<const C> none{nullptr, 0, 0, 1};
  const int chunks = static_cast<int>((n + RT - 1) / RT);
  // No info codes in a factored solve: an unmanaged empty View (not a default-constructed one,
  // which a Kokkos 4.6 develop build with GCC 12 crashes on destroying: docs/development.md).
  const info_type no_info(static_cast<int*>(nullptr), 0);
  thomas_chunked_launch(exec,
                        kernel{none, none, none, ds, no_info, n, slots, 0, chunks, 0,
                               chunk_factors<FactorView>{r, lo, cp},
                               device::systems<D>{nullptr, 0, 0, 1}},
                        ds.rows_contiguous());
}

}  // namespace bandsolve::detail
