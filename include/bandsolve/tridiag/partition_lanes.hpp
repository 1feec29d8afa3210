#pragma once
// Few long systems whose systems lie side by side in memory (column, interleaved<W>, strided
// views of unit system stride): the partition method with SIMD lanes across systems.
//
// Lanes: a block of up to LB systems at consecutive addresses (LB = 64 bytes of T; for
// interleaved<W> at most the W systems of one pack), so that row i of the block is one
// contiguous load. Each system is cut into P chunks of M rows (the last takes the remainder, M to
// 2M-1 rows); K chunks of a block are swept at once (K x LB values in flight) so that the
// division on each chain's critical path overlaps with the others'.
//   pass 1  per chunk, the modified Thomas sweep (every row through the chunk's first and last
//           unknowns; see thomas_pcr_kernel.hpp) reduces the chunk to 2 rows, nothing stored
//           but those rows;
//   reduced per block, Thomas across its LB lanes on the 2P rows (unit diagonal);
//   pass 2  per chunk, plain Thomas with the chunk's first unknown known (c', d' into a tile of
//           K x LB x M values that stays in cache), then the back substitution from the last.
// Threads share the (block, chunk group) items in contiguous ranges; pass 2 walks its range
// backwards so that it starts on the rows pass 1 left in cache. Traffic: 4 reads in pass 1,
// 4 reads and 1 write in pass 2 (72 bytes per unknown in double).
// Pivots: every pivot feeds the pivot-risk screen of core/pivot.hpp; a flagged chunk or reduced
// system is rescanned exactly (phase 0: chunk sweeps, 1: chunks' first rows, 2: reduced system,
// as the hybrid names them), and a system with a bad pivot reports the row Thomas would
// (agreed_info).
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/tridiag/partition_lanes_complex.hpp>
#include <bandsolve/tridiag/reduction_kernel.hpp>
#include <bandsolve/tridiag/spike_lanes.hpp>
#include <bandsolve/tridiag/team_batch.hpp>

namespace bandsolve::detail {

// Rows per chunk. A variable so that tests can lower it to cut small systems into many chunks.
// 128 rows keep pass 2's tile (2 x 128 rows x 128 bytes) in L1 and the reduced system at 2n/128
// rows per system.
inline index_t partition_chunk_rows = 128;

// Values of T in flight per sweep: two cache lines' worth, so that the division on each
// recurrence's critical path overlaps with the others' (two_line_lanes_v).
template <class T>
inline constexpr int partition_width_v = two_line_lanes_v<T>;

// Lanes of one block: the systems side by side, up to partition_width_v (Width: the systems of
// one interleaved pack, or 0 for column and strided views, where the caller picks among the
// widths by the number of systems).
template <class T, int Width>
inline constexpr int partition_lanes_v =
    Width > 0 && Width < partition_width_v<T> ? Width : partition_width_v<T>;

// Chunks swept at once by a block of LB lanes: the rest of the 128 bytes in flight, at most 4
// (8 chunks of 4 floats, 32 streams, measured 0.10-0.13 of STREAM against 0.30 for 2 of 16).
template <class T, int LB>
inline constexpr int partition_chains_v =
    partition_width_v<T> / LB < 1 ? 1
                                  : (partition_width_v<T> / LB > 4 ? 4 : partition_width_v<T> / LB);

// Software prefetch (BANDSOLVE_PREFETCH) this many rows ahead: K chunks x 4 arrays are too many
// short streams for the hardware prefetchers when the blocks are narrow. The loops over the K
// chunks in flight are fully unrolled (BANDSOLVE_UNROLL): rolled, GCC keeps their recurrences
// on the stack.
inline constexpr index_t partition_prefetch_rows = 16;

// One array of a lane block: lane l, row i at p[i * rs + l].
template <class T>
struct lane_array {
  T* p = nullptr;
  index_t rs = 0;
  KOKKOS_INLINE_FUNCTION T& at(index_t row, int l) const { return p[row * rs + l]; }
};

// One chunk of one lane block, as a chain of a sweep: its first row in each array (lane 0; lane
// l at +l, row i at + i * rs of lane_strides), its two rows of the reduced system (row 0 at
// ra[0 .. LB), row m-1 at ra[LB .. 2 LB), the same in rc, rd; rd holds their x after the
// reduced solve), its lanes in use, and whether it starts the system (its a of row 0 ignored).
template <class T>
struct partition_chain {
  const T *a = nullptr, *b = nullptr, *c = nullptr;
  T* d = nullptr;
  T *ra = nullptr, *rc = nullptr, *rd = nullptr;
  int nl = 0;
  bool top = false;
};

// Row strides of the four arrays.
struct lane_strides {
  index_t a = 0, b = 0, c = 0, d = 0;
};

// Lane l of a row of a block with nl lanes in use (all when Full): lanes l >= nl read `fill`.
// Padded: those lanes exist in memory (an interleaved pack's padding), so the load is plain and
// a select picks the fill (vectorizes without masks); else they are not read at all.
template <bool Full, bool Padded, class T>
KOKKOS_FORCEINLINE_FUNCTION T partition_load(const T* p, int l, int nl, T fill) {
  if constexpr (Full) {
    return p[l];
  } else if constexpr (Padded) {
    const T v = p[l];
    return l < nl ? v : fill;
  } else {
    return l < nl ? p[l] : fill;
  }
}

// Stores v to lane l if l < nl; Padded: lanes l >= nl get their own value back (unchanged).
template <bool Full, bool Padded, class T>
KOKKOS_FORCEINLINE_FUNCTION void partition_store(T* p, int l, int nl, T v) {
  if constexpr (Full) {
    p[l] = v;
  } else if constexpr (Padded) {
    const T old = p[l];
    p[l] = l < nl ? v : old;
  } else {
    if (l < nl) p[l] = v;
  }
}

// Pass 1 on K chunks of m >= 2 rows (ch[0 .. K)): their reduced rows. Lanes l >= nl (Full
// false) read an identity row. Returns false if a pivot may be bad.
template <int LB, int K, bool Full, bool Padded, class T>
KOKKOS_INLINE_FUNCTION bool partition_reduce(const partition_chain<T>* ch, const lane_strides& rs,
                                             index_t m) {
  constexpr int V = K * LB;
  const auto ld = [](const T* p, int l, int nl, T fill) {
    return partition_load<Full, Padded>(p, l, nl, fill);
  };
  constexpr auto lane_count = static_cast<std::size_t>(V);  // an array bound
  T ap[lane_count], cp[lane_count], dp[lane_count], a0[lane_count], c0[lane_count];
  T d0[lane_count], sa[lane_count], sd[lane_count], w[lane_count];
  real_type_t<T> risk[lane_count];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {  // rows 0 and 1, divided by their diagonal
    const T *pa = ch[k].a, *pb = ch[k].b, *pc = ch[k].c, *pd = ch[k].d;
    const bool no_a = ch[k].top;
    const int nl = ch[k].nl;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      const int v = k * LB + l;
      const T A0 = no_a ? T(0) : ld(pa, l, nl, T(0));
      const T B0 = ld(pb, l, nl, T(1)), B1 = ld(pb + rs.b, l, nl, T(1));
      const T r = reciprocal(B0), r1 = reciprocal(B1);
      risk[v] = pivot_risk(B1, r1, pivot_risk(B0, r, real_type_t<T>(0)));
      a0[v] = r * A0;
      c0[v] = ld(pc, l, nl, T(0)) * r;
      d0[v] = r * ld(pd, l, nl, T(0));
      ap[v] = r1 * ld(pa + rs.a, l, nl, T(0));
      cp[v] = ld(pc + rs.c, l, nl, T(0)) * r1;
      dp[v] = r1 * ld(pd + rs.d, l, nl, T(0));
      sa[v] = T(0);
      sd[v] = T(0);
      w[v] = T(1);
    }
  }
  for (index_t i = 2; i < m; ++i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const T *pa = ch[k].a + i * rs.a, *pb = ch[k].b + i * rs.b, *pc = ch[k].c + i * rs.c,
              *pd = ch[k].d + i * rs.d;
      BANDSOLVE_PREFETCH(pa + partition_prefetch_rows * rs.a);
      BANDSOLVE_PREFETCH(pb + partition_prefetch_rows * rs.b);
      BANDSOLVE_PREFETCH(pc + partition_prefetch_rows * rs.c);
      BANDSOLVE_PREFETCH(pd + partition_prefetch_rows * rs.d);
      const int nl = ch[k].nl;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l) {
        const int v = k * LB + l;
        // Row i-1 is a middle row: it enters row 1's substitution with the weight w.
        sa[v] += w[v] * ap[v];
        sd[v] += w[v] * dp[v];
        w[v] = -cp[v] * w[v];
        const T A = ld(pa, l, nl, T(0));
        const T pivot = ld(pb, l, nl, T(1)) - A * cp[v];
        const T r = reciprocal(pivot);
        risk[v] = pivot_risk(pivot, r, risk[v]);
        dp[v] = r * (ld(pd, l, nl, T(0)) - A * dp[v]);
        ap[v] = -r * A * ap[v];
        cp[v] = ld(pc, l, nl, T(0)) * r;
      }
    }
  }
  real_type_t<T> total = 0;
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    T *fa = ch[k].ra, *fc = ch[k].rc, *fd = ch[k].rd;
    BANDSOLVE_SIMD_SUM(total)
    for (int l = 0; l < LB; ++l) {  // row 0 through x[0] and x[m-1]
      const int v = k * LB + l;
      const T pivot = T(1) - c0[v] * sa[v];
      const T r = reciprocal(pivot);
      total += pivot_risk(pivot, r, risk[v]);
      fa[l] = r * a0[v];
      fc[l] = r * c0[v] * w[v];
      fd[l] = r * (d0[v] - c0[v] * sd[v]);
      fa[LB + l] = ap[v];
      fc[LB + l] = cp[v];
      fd[LB + l] = dp[v];
    }
  }
  return risk_is_low(total);
}

// Pass 2 on the same K chunks, with x of their first and last rows in rd: x of every row into d
// (lanes < nl). tc, td: K LB (m - 1) values each.
template <int LB, int K, bool Full, bool Padded, class T>
KOKKOS_INLINE_FUNCTION void partition_recover(const partition_chain<T>* ch, const lane_strides& rs,
                                              index_t m, T* tc, T* td) {
  constexpr int V = K * LB;
  const auto ld = [](const T* p, int l, int nl, T fill) {
    return partition_load<Full, Padded>(p, l, nl, fill);
  };
  T cp[static_cast<std::size_t>(V)], dp[static_cast<std::size_t>(V)];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {  // row 0: x[0] known
      cp[k * LB + l] = T(0);
      dp[k * LB + l] = ch[k].rd[l];
    }
  }
  for (index_t i = 1; i < m - 1; ++i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const T *pa = ch[k].a + i * rs.a, *pb = ch[k].b + i * rs.b, *pc = ch[k].c + i * rs.c;
      const T* pd = ch[k].d + i * rs.d;
      BANDSOLVE_PREFETCH(pa + partition_prefetch_rows * rs.a);
      BANDSOLVE_PREFETCH(pb + partition_prefetch_rows * rs.b);
      BANDSOLVE_PREFETCH(pc + partition_prefetch_rows * rs.c);
      BANDSOLVE_PREFETCH(pd + partition_prefetch_rows * rs.d);
      T* const tci = tc + (i * K + k) * LB;
      T* const tdi = td + (i * K + k) * LB;
      const int nl = ch[k].nl;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l) {
        const int v = k * LB + l;
        const T A = ld(pa, l, nl, T(0));
        const T pivot = ld(pb, l, nl, T(1)) - A * cp[v];
        const T r = reciprocal(pivot);
        dp[v] = r * (ld(pd, l, nl, T(0)) - A * dp[v]);
        cp[v] = ld(pc, l, nl, T(0)) * r;
        tci[l] = cp[v];
        tdi[l] = dp[v];
      }
    }
  }
  T next[static_cast<std::size_t>(V)];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    T* const px = ch[k].d + (m - 1) * rs.d;
    const int nl = ch[k].nl;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      next[k * LB + l] = ch[k].rd[LB + l];
      partition_store<Full, Padded>(px, l, nl, next[k * LB + l]);
    }
  }
  for (index_t i = m - 2; i >= 1; --i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      T* const px = ch[k].d + i * rs.d;
      const T* const tci = tc + (i * K + k) * LB;
      const T* const tdi = td + (i * K + k) * LB;
      const int nl = ch[k].nl;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l) {
        const int v = k * LB + l;
        next[v] = tdi[l] - tci[l] * next[v];
        partition_store<Full, Padded>(px, l, nl, next[v]);
      }
    }
  }
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    T* const px = ch[k].d;
    const int nl = ch[k].nl;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l)
      partition_store<Full, Padded>(px, l, nl, ch[k].rd[l]);
  }
}

// Exact rescan of pass 1 on one chunk (rows r0 .. r0+m-1) of lane l: the first bad pivot of its
// sweep (phase 0), else of its first row (phase 1), as a bad_code on rows of the system.
template <class T>
KOKKOS_INLINE_FUNCTION bad_code partition_rescan_chunk(index_t r0, index_t m, int l,
                                                       const partition_chain<T>& ch,
                                                       const lane_strides& rs) {
  const lane_array<const T> a{ch.a - r0 * rs.a, rs.a}, b{ch.b - r0 * rs.b, rs.b},
      c{ch.c - r0 * rs.c, rs.c};
  if (!pivot_is_good(b.at(r0, l))) return min_bad_row(0, 0, r0);
  if (!pivot_is_good(b.at(r0 + 1, l))) return min_bad_row(0, 0, r0 + 1);
  const T c0 = c.at(r0, l) / b.at(r0, l);
  T ap = a.at(r0 + 1, l) / b.at(r0 + 1, l), cp = c.at(r0 + 1, l) / b.at(r0 + 1, l);
  T sa = T(0), w = T(1);
  for (index_t i = 2; i < m; ++i) {
    sa += w * ap;
    w = -cp * w;
    const T A = a.at(r0 + i, l);
    const T pivot = b.at(r0 + i, l) - A * cp;
    if (!pivot_is_good(pivot)) return min_bad_row(0, 0, r0 + i);
    ap = -A * ap / pivot;
    cp = c.at(r0 + i, l) / pivot;
  }
  if (!pivot_is_good(T(1) - c0 * sa)) return min_bad_row(0, 1, r0);
  return 0;
}

// Thomas on a block's reduced system of R rows (unit diagonal), SIMD across its LB lanes; x ends
// in rd. Returns false if a pivot may be bad (rc then holds the eliminated c' for the rescan).
template <int LB, class T>
KOKKOS_INLINE_FUNCTION bool partition_reduced_thomas(index_t R, const T* ra, T* rc, T* rd) {
  real_type_t<T> risk[static_cast<std::size_t>(LB)];
  for (int l = 0; l < LB; ++l) risk[l] = 0;
  for (index_t i = 1; i < R; ++i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      const index_t k = i * LB + l;
      const T pivot = T(1) - ra[k] * rc[k - LB];
      const T r = reciprocal(pivot);
      risk[l] = pivot_risk(pivot, r, risk[l]);
      rc[k] = rc[k] * r;
      rd[k] = r * (rd[k] - ra[k] * rd[k - LB]);
    }
  }
  for (index_t i = R - 2; i >= 0; --i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) rd[i * LB + l] -= rc[i * LB + l] * rd[(i + 1) * LB + l];
  }
  bool clean = true;
  for (int l = 0; l < LB; ++l) clean = clean && risk_is_low(risk[l]);
  return clean;
}

// After partition_reduced_thomas flagged: lane l's first bad reduced pivot, as a reduced row
// (1-based), 0 if none.
template <int LB, class T>
KOKKOS_INLINE_FUNCTION index_t partition_reduced_bad_row(index_t R, int l, const T* ra,
                                                         const T* rc) {
  for (index_t i = 1; i < R; ++i)
    if (!pivot_is_good(T(1) - ra[i * LB + l] * rc[(i - 1) * LB + l])) return i + 1;
  return 0;
}

// How a batch of nsys systems of n rows falls into lane blocks and work items (one chunk of one
// block each).
struct partition_plan {
  index_t n = 0, nsys = 0;
  index_t lanes = 0;  // LB
  index_t unit = 0;   // systems at consecutive addresses (an interleaved pack, or every system)
  index_t blocks_per_unit = 0, blocks = 0;
  index_t M = 0, P = 0, mlast = 0;  // chunk rows, chunks per system, rows of the last chunk
  index_t items = 0;
  index_t R = 0;  // reduced rows per system
  // Items in chunk order (the blocks of a chunk one after the other) where several blocks share
  // each row's run of memory (column and strided views), so that a row's cache lines are read
  // while the neighbouring block's reads still hold them; else block by block (an interleaved
  // pack is one stream).
  bool chunk_major = false;

  KOKKOS_INLINE_FUNCTION index_t first_system(index_t g) const {
    return (g / blocks_per_unit) * unit + (g % blocks_per_unit) * lanes;
  }
  KOKKOS_INLINE_FUNCTION int lanes_in(index_t g) const {
    const index_t s0 = first_system(g);
    const index_t in_unit = unit - (g % blocks_per_unit) * lanes;
    index_t nl = lanes < in_unit ? lanes : in_unit;
    if (nsys - s0 < nl) nl = nsys - s0;
    return static_cast<int>(nl);
  }
  KOKKOS_INLINE_FUNCTION index_t block_of(index_t w) const {
    return chunk_major ? w % blocks : w / P;
  }
  KOKKOS_INLINE_FUNCTION index_t chunk_of(index_t w) const {
    return chunk_major ? w / blocks : w % P;
  }
};

inline partition_plan make_partition_plan(index_t n, index_t nsys, index_t lanes, index_t unit,
                                          index_t chunk_rows) {
  partition_plan p;
  p.n = n;
  p.nsys = nsys;
  p.lanes = lanes;
  p.unit = unit;
  p.blocks_per_unit = (unit + lanes - 1) / lanes;
  const index_t units = (nsys + unit - 1) / unit;
  p.blocks = units * p.blocks_per_unit;
  p.M = chunk_rows < 2 ? 2 : chunk_rows;
  p.P = n / p.M;
  p.mlast = n - (p.P - 1) * p.M;
  p.items = p.blocks * p.P;
  p.R = 2 * p.P;
  p.chunk_major = p.blocks_per_unit > 1;
  return p;
}

// Whether the partition path applies: at least two chunks per system.
inline bool partition_applies(index_t n, index_t chunk_rows) {
  return chunk_rows >= 2 && n >= 2 * chunk_rows;
}

// Bytes of scratch the team solve needs: info words per thread and system, the reduced systems,
// a tile (c', d' of K chunks, or of one last chunk of up to 2M rows) per thread.
template <class T, int LB>
std::size_t partition_scratch_bytes(const partition_plan& p, int team_size) {
  constexpr int K = partition_chains_v<T, LB>;
  const std::size_t codes = static_cast<std::size_t>(team_size) *
                            static_cast<std::size_t>(p.nsys) * sizeof(bad_code);
  const std::size_t reduced =
      3 * static_cast<std::size_t>(p.blocks) * static_cast<std::size_t>(p.R) * LB * sizeof(T);
  const std::size_t tile_rows = static_cast<std::size_t>(K > 2 ? K : 2) *
                                static_cast<std::size_t>(p.M);
  const std::size_t tiles =
      static_cast<std::size_t>(team_size) * 2 * tile_rows * LB * sizeof(T);
  return (codes + 63) / 64 * 64 + (reduced + 63) / 64 * 64 + tiles;
}

// The whole solve on one team (every thread calls it). arrays(g, a, b, c, x) gives the lane
// arrays of block g (its first system's rows); info_of_system(s, own) stores system s's info
// from its own code (0 = clean). scratch: partition_scratch_bytes, aligned to 64.
// Each thread takes a contiguous range of items and sweeps it as K sub-ranges at once (chain k
// walks items w0 + k S .. w0 + (k+1) S - 1 in step with the others), so that every chain is a
// long stream through memory that the prefetchers follow; the rest of the range, and steps that
// meet a last chunk of another length, go one chunk at a time.
template <class T, int LB, bool Padded, class Member, class Arrays, class Info>
KOKKOS_INLINE_FUNCTION void partition_solve_team(const Member& team, const partition_plan& p,
                                                 const Arrays& arrays, const Info& info_of_system,
                                                 void* scratch) {
  constexpr int K = partition_chains_v<T, LB>;
  const int nt = team.team_size(), t = team.team_rank();
  char* base = static_cast<char*>(scratch);
  bad_code* const codes = reinterpret_cast<bad_code*>(base);
  base += (static_cast<std::size_t>(nt) * static_cast<std::size_t>(p.nsys) * sizeof(bad_code) +
           63) / 64 * 64;
  const index_t block_values = p.R * LB;
  T* const ra = reinterpret_cast<T*>(base);
  T* const rc = ra + p.blocks * block_values;
  T* const rd = rc + p.blocks * block_values;
  base += (3 * static_cast<std::size_t>(p.blocks * block_values) * sizeof(T) + 63) / 64 * 64;
  const index_t tile_values = static_cast<index_t>(K > 2 ? K : 2) * p.M * LB;
  T* const tc = reinterpret_cast<T*>(base) + static_cast<index_t>(t) * 2 * tile_values;
  T* const td = tc + tile_values;
  bad_code* const own = codes + static_cast<index_t>(t) * p.nsys;
  for (index_t s = 0; s < p.nsys; ++s) own[s] = 0;

  lane_strides rs;
  {
    lane_array<const T> la, lb, lc;
    lane_array<T> lx;
    arrays(0, la, lb, lc, lx);
    rs = lane_strides{la.rs, lb.rs, lc.rs, lx.rs};
  }
  // The chain of item w; its rows m.
  const auto chain_of = [&](index_t w, partition_chain<T>& ch, index_t& m) {
    const index_t g = p.block_of(w), j = p.chunk_of(w), r0 = j * p.M;
    lane_array<const T> la, lb, lc;
    lane_array<T> lx;
    arrays(g, la, lb, lc, lx);
    ch.a = la.p + r0 * rs.a;
    ch.b = lb.p + r0 * rs.b;
    ch.c = lc.p + r0 * rs.c;
    ch.d = lx.p + r0 * rs.d;
    const index_t off = g * block_values + 2 * j * LB;
    ch.ra = ra + off;
    ch.rc = rc + off;
    ch.rd = rd + off;
    ch.nl = p.lanes_in(g);
    ch.top = j == 0;
    m = j == p.P - 1 ? p.mlast : p.M;
  };
  // KK chains of m rows, ws their items: pass 1 (and the exact rescan of a flagged group) or 2.
  const auto run = [&](auto chains, bool recover, const partition_chain<T>* ch, const index_t* ws,
                       index_t m) {
    constexpr int KK = decltype(chains)::value;
    bool full = true;
    for (int k = 0; k < KK; ++k) full = full && ch[k].nl == LB;
    // Complex lanes, full blocks or padded interleaved packs: on their parts
    // (partition_lanes_complex.hpp), redone by the generic passes where its screen flags a pivot;
    // a column batch's partial last block keeps the generic passes.
    bool parts_done = false;
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
    if constexpr (is_complex_v<T> && LB >= 2) {
      constexpr index_t ahead = partition_prefetch_rows;
      if (full)
        parts_done = recover ? simd::partition_recover_parts<LB, KK, false>(ch, rs, m, ahead, tc, td)
                             : simd::partition_reduce_parts<LB, KK, false>(ch, rs, m, ahead);
      else if constexpr (Padded)
        parts_done = recover ? simd::partition_recover_parts<LB, KK, true>(ch, rs, m, ahead, tc, td)
                             : simd::partition_reduce_parts<LB, KK, true>(ch, rs, m, ahead);
    }
#endif
    if (recover) {
      if (parts_done) return;
      if (full)
        partition_recover<LB, KK, true, Padded>(ch, rs, m, tc, td);
      else
        partition_recover<LB, KK, false, Padded>(ch, rs, m, tc, td);
      return;
    }
    if (parts_done) return;
    const bool clean = full ? partition_reduce<LB, KK, true, Padded>(ch, rs, m)
                            : partition_reduce<LB, KK, false, Padded>(ch, rs, m);
    if (!clean)  // rare: name the rows
      for (int k = 0; k < KK; ++k) {
        const index_t s0 = p.first_system(p.block_of(ws[k])), r0 = p.chunk_of(ws[k]) * p.M;
        for (int l = 0; l < ch[k].nl; ++l)
          own[s0 + l] = merge_bad(own[s0 + l], partition_rescan_chunk<T>(r0, m, l, ch[k], rs));
      }
  };
  const auto single = [&](bool recover, index_t w) {
    partition_chain<T> ch;
    index_t m;
    chain_of(w, ch, m);
    run(std::integral_constant<int, 1>{}, recover, &ch, &w, m);
  };
  index_t w0, w1;
  thread_share(team, 0, p.items, w0, w1);
  const index_t S = (w1 - w0) / K;
  const auto step = [&](bool recover, index_t s) {
    partition_chain<T> ch[static_cast<std::size_t>(K)];
    index_t ws[static_cast<std::size_t>(K)], m[static_cast<std::size_t>(K)];
    bool uniform = true;
    for (int k = 0; k < K; ++k) {
      ws[k] = w0 + k * S + s;
      chain_of(ws[k], ch[k], m[k]);
      uniform = uniform && m[k] == p.M;  // (the tile holds K chunks of M rows)
    }
    if (uniform) {
      run(std::integral_constant<int, K>{}, recover, ch, ws, p.M);
    } else {
      for (int k = 0; k < K; ++k) single(recover, ws[k]);
    }
  };
  for (index_t s = 0; s < S; ++s) step(false, s);
  for (index_t w = w0 + K * S; w < w1; ++w) single(false, w);
  team.team_barrier();
  index_t g0, g1;
  thread_share(team, 0, p.blocks, g0, g1);
  for (index_t g = g0; g < g1; ++g) {
    T* const gra = ra + g * block_values;
    T* const grc = rc + g * block_values;
    T* const grd = rd + g * block_values;
    if (!partition_reduced_thomas<LB>(p.R, gra, grc, grd)) {
      const index_t s0 = p.first_system(g);
      const int nl = p.lanes_in(g);
      for (int l = 0; l < nl; ++l) {
        const index_t r = partition_reduced_bad_row<LB>(p.R, l, gra, grc);
        if (r == 0) continue;
        const index_t j = (r - 1) / 2;
        const index_t mj = j == p.P - 1 ? p.mlast : p.M;
        own[s0 + l] = min_bad_row(own[s0 + l], 2, j * p.M + ((r - 1) % 2 == 1 ? mj - 1 : 0));
      }
    }
  }
  team.team_barrier();
  // Pass 2 backwards, starting on the rows pass 1 left in cache.
  for (index_t w = w1 - 1; w >= w0 + K * S; --w) single(true, w);
  for (index_t s = S - 1; s >= 0; --s) step(true, s);
  team.team_barrier();
  merged_team_info(team, codes, p.nsys, info_of_system);
  team.team_barrier();  // the scratch may be reused after return
}

// Whether every array's systems lie side by side (unit system stride) while its rows do not
// (rows of unit stride go to the hybrid's row path).
template <class View>
bool lanes_adjacent(const View& v) {
  using Layout = layout_of_t<View>;
  if constexpr (is_interleaved_layout_v<Layout>)
    return v.stride(2) == 1 && v.stride(1) != 1;
  else if constexpr (std::is_same_v<Layout, layout::row>)
    return false;
  else
    return v.stride(0) == 1 && v.stride(1) != 1;
}

// partition_host_solve with blocks of LB lanes; unit: systems side by side in memory.
template <int LB, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void partition_host_launch(const ExecutionSpace& exec, const char* label, const AView& a,
                           const BView& b, const CView& c, const DView& d, const InfoView& info,
                           index_t nsys, index_t n, index_t unit, index_t M) {
  using T = typename DView::non_const_value_type;
  using Layout = layout_of_t<DView>;
  // Blocks whose unused lanes are an interleaved pack's own padding (blocks tile the pack).
  constexpr bool padded = [] {
    if constexpr (is_interleaved_layout_v<Layout>)
      return Layout::width % LB == 0;
    else
      return false;
  }();
  const partition_plan plan = make_partition_plan(n, nsys, LB, unit, M);
  const int threads = concurrency_of(exec);
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  // (KOKKOS_LAMBDA: called from the kernel below, which nvcc compiles for host and device.)
  const auto arrays = KOKKOS_LAMBDA(index_t g, lane_array<const T>& la, lane_array<const T>& lb,
                                    lane_array<const T>& lc, lane_array<T>& lx) {
    const index_t s0 = plan.first_system(g);
    const auto sa = system_of(a, s0);
    const auto sb = system_of(b, s0);
    const auto sc = system_of(c, s0);
    const auto sd = system_of(d, s0);
    la = {sa.p, sa.stride};
    lb = {sb.p, sb.stride};
    lc = {sc.p, sc.stride};
    lx = {sd.p, sd.stride};
  };
  const auto set_info = KOKKOS_LAMBDA(index_t s, int own) {
    info(s) = agreed_info(own, n, a, b, c, s);
  };
  launch_teams(exec, label, 1, threads, partition_scratch_bytes<T, LB>(plan, threads),
               KOKKOS_LAMBDA(const member_type& team, const index_t, void* scratch) {
                 partition_solve_team<T, LB, padded>(team, plan, arrays, set_info, scratch);
               });
}


// The host backends' partition solve of nsys systems of n rows (arguments checked), when the
// batch's systems are side by side (lanes_adjacent) and n holds two chunks; returns whether it
// ran. One team of every thread; scratch from launch_teams (Kokkos's team scratch, or the kept
// buffer of backend/scratch.hpp: no allocation per call once it has grown).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
bool partition_host_solve(const ExecutionSpace& exec, const char* label, const AView& a,
                          const BView& b, const CView& c, const DView& d, const InfoView& info,
                          index_t nsys, index_t n) {
  using T = typename DView::non_const_value_type;
  using Layout = layout_of_t<DView>;
  const index_t M = partition_chunk_rows;
  if (!lanes_adjacent(a) || !lanes_adjacent(b) || !lanes_adjacent(c) || !lanes_adjacent(d))
    return false;
  // Few real systems whose coupling decays: the truncated spikes (spike_lanes.hpp), blocks of
  // an interleaved pack's systems (full packs only: the spikes read no padding lanes, and a pack
  // of 4 systems in 8 lanes read 1.5x slower than the partition path's padded blocks) or of the
  // systems side by side (the widest block they fill, as below). Floats side by side take them
  // in blocks of the widest width however many there are: column, 2 threads of a 2-vCPU Intel
  // Xeon, ns per unknown spikes / partition path, 128 x 2^17 1.69 / 2.54, 64 x 2^18 1.20 / 2.41,
  // 48 and 96 x 2^18 1.46-1.49 / 2.32-2.50; doubles keep at most one block (128 x 2^17 4.62 /
  // 3.64). Systems that fill one block of 2 widths or whole blocks of 4 (256 or 512 bytes: a
  // block of 4 reads every row whole) take them: 2^24 unknowns on the same Xeon, ns per unknown
  // before / after, doubles 32 x 2^19 3.14-3.21 / 1.82-1.83, 64 x 2^18 3.32-3.42 / 2.06-2.20,
  // floats 64 x 2^18 1.26-1.31 / 1.04-1.08, 128 x 2^17 1.53-1.73 / 1.38-1.39; 2^25 unknowns,
  // doubles 128 x 2^18 3.79-4.07 / 2.88-3.04, 256 x 2^17 4.97-5.13 / 4.03-4.15, floats 256 x 2^17
  // 2.42-2.54 / 1.92-1.97. Blocks of 4 widths partly filled (96 floats) read slower than blocks
  // of one width (1.69-1.73 / 1.45-1.49), two blocks of 2 widths no faster than the partition
  // path (64 doubles as two of 32: 2.96-3.03).
  if constexpr (!is_complex_v<T> && is_interleaved_layout_v<Layout>) {
    constexpr int wide = partition_width_v<T>;
    if (Layout::width <= wide && nsys <= wide && nsys % Layout::width == 0 && spike_applies(n) &&
        spike_sample_decays(a, b, c)) {
      spike_host_launch<Layout::width>(exec, label, a, b, c, d, info, nsys, n);
      return true;
    }
  } else if constexpr (!is_complex_v<T>) {
    constexpr int wide = partition_width_v<T>;
    const bool wide_blocks = nsys == 2 * wide || nsys % (4 * wide) == 0;
    if ((nsys <= wide || wide_blocks || std::is_same_v<T, float>) && spike_applies(n) &&
        spike_sample_decays(a, b, c)) {
      if (nsys % (4 * wide) == 0)
        spike_host_launch<4 * wide>(exec, label, a, b, c, d, info, nsys, n);
      else if (nsys == 2 * wide)
        spike_host_launch<2 * wide>(exec, label, a, b, c, d, info, nsys, n);
      else if (nsys >= wide)
        spike_host_launch<wide>(exec, label, a, b, c, d, info, nsys, n);
      else if (nsys >= wide / 2)
        spike_host_launch<wide / 2>(exec, label, a, b, c, d, info, nsys, n);
      else if (nsys >= wide / 4)
        spike_host_launch<wide / 4>(exec, label, a, b, c, d, info, nsys, n);
      else
        spike_host_launch<wide / 8>(exec, label, a, b, c, d, info, nsys, n);
      return true;
    }
  }
  if (!partition_applies(n, M)) return false;
  if constexpr (is_interleaved_layout_v<Layout>) {
    partition_host_launch<partition_lanes_v<T, Layout::width>>(exec, label, a, b, c, d, info,
                                                               nsys, n, Layout::width, M);
  } else {  // the widest block the systems fill: 128, 64, 32 or 16 bytes (no masked lanes
            // but in the last block)
    constexpr int wide = partition_width_v<T>;
    if (nsys >= wide)
      partition_host_launch<wide>(exec, label, a, b, c, d, info, nsys, n, nsys, M);
    else if (nsys >= wide / 2)
      partition_host_launch<wide / 2>(exec, label, a, b, c, d, info, nsys, n, nsys, M);
    else if (nsys >= wide / 4)
      partition_host_launch<wide / 4>(exec, label, a, b, c, d, info, nsys, n, nsys, M);
    else
      partition_host_launch<wide / 8>(exec, label, a, b, c, d, info, nsys, n, nsys, M);
  }
  return true;
}

}  // namespace bandsolve::detail

