#pragma once
// Long float systems with contiguous rows (row layout, strided views of unit row stride) whose
// coupling decays within a chunk: the truncated spikes of spike_lanes.hpp, L = 16 systems at a
// time moved into SIMD lanes by the register sweeps' in-register transposes.
// Each system is cut into chunks of spike_chunk_rows rows; a work item is one chunk of a block
// of L systems (lanes), or with fewer systems than lanes, one chunk of each of the consecutive
// segments that the systems are cut into (lane l: segment l % S of system l / S), so that few
// systems still fill the lanes:
//   pass 1   per item, Thomas on the chunk with both neighbours 0, its L x L blocks of rows
//            transposed straight into registers: y written over d (transposed back), the tips
//            of the spikes v and w and the chunk's ends kept (spike_record);
//   reduced  per block, spike_reduced of spike_lanes.hpp (segments: per system, along its
//            chain of chunks from lane to lane, spike_chain_reduced);
//   pass 2   per item, the tips' rows of each lane corrected (contiguous runs).
// The hybrid's transposed chunks (thomas_pcr_kernel.hpp) read every value twice (9 words per
// unknown); this reads it once and touches the tips again. A chunk that fails the checks
// (a pivot flagged by the screen, |c'| > 1, spikes above the roundoff past the tips) is not
// written in pass 1: its ends are computed in full and pass 2 solves it again, lane by lane,
// with its neighbours known. Spare lanes (a last block of fewer than L systems, or segments
// that fill fewer than L lanes) repeat the last lane in use (read, never written).
#include <bandsolve/backend/host_simd/register_sweep.hpp>
#include <bandsolve/tridiag/spike_lanes.hpp>

#include <type_traits>

namespace bandsolve::detail {

// Lanes of the row spikes for T on this build: 16 floats where the register sweeps are built,
// else 0. Doubles keep the hybrid: on the 2-vCPU Intel Xeon (2^24 unknowns, 2 threads, ns per
// unknown, spikes in 8 lanes / hybrid) they read 2.48-2.64 / 2.45-2.74 row by row from 2^18 to
// 2^24 rows (1 to 64 systems, segments below 8), and in a form of four rows per step (not kept)
// 2.40 / 2.04 at 2^14 and 2^16 rows; floats read 1.32-1.50 / 1.83-2.15.
template <class T>
inline constexpr int spike_rows_lanes_v = register_sweeps_for_v<16, T> ? 16 : 0;

// One chunk of each lane of a block: lane l's row 0 of the chunk in each array (rows
// contiguous), the system it belongs to and that row's place in it, and whether the chunk starts
// (no left neighbour) or ends (no right neighbour) that system; lanes from nl on repeat lane
// nl - 1. A lane is a system, or with fewer systems than lanes, a segment of one (see
// spike_rows_plan).
template <class T, int L>
struct spike_rows_chunk {
  const T* a[static_cast<std::size_t>(L)];
  const T* b[static_cast<std::size_t>(L)];
  const T* c[static_cast<std::size_t>(L)];
  T* d[static_cast<std::size_t>(L)];
  index_t system[static_cast<std::size_t>(L)];
  index_t row0[static_cast<std::size_t>(L)];
  bool first[static_cast<std::size_t>(L)];
  bool last[static_cast<std::size_t>(L)];
  int nl = 0;
};

// Lane l's first chunk-local pivot that is bad, as a code (phase 0, the row in its system), or
// 0: names the row after the screen flagged the chunk.
template <class T, int L>
inline bad_code spike_rows_rescan(const spike_rows_chunk<T, L>& ch, index_t m, int l) {
  T cp = T(0);
  for (index_t i = 0; i < m; ++i) {
    const T pivot = ch.b[l][i] - (i == 0 ? T(0) : ch.a[l][i] * cp);
    if (!pivot_is_good(pivot)) return min_bad_row(0, 0, ch.row0[l] + i);
    cp = (i == m - 1 && ch.last[l] ? T(0) : ch.c[l][i]) / pivot;
  }
  return 0;
}

// Pass 2 of a chunk that pass 1 left unsolved (kv < 0): Thomas on each system's rows with its
// neighbours' values L and R moved to the right-hand side, x over d (tile: 2 m values).
template <class T, int L>
inline void spike_rows_direct(const spike_rows_chunk<T, L>& ch, index_t m, T* tile,
                              const T* left, const T* right) {
  T* const tc = tile;
  T* const td = tile + m;
  for (int l = 0; l < ch.nl; ++l) {
    const T *a = ch.a[l], *b = ch.b[l], *c = ch.c[l];
    T* const x = ch.d[l];
    T cp = T(0), dp = T(0);
    for (index_t i = 0; i < m; ++i) {
      const T C = i == m - 1 && ch.last[l] ? T(0) : c[i];
      T D = x[i];
      if (i == 0 && !ch.first[l]) D -= a[0] * left[l];
      if (i == m - 1 && !ch.last[l]) D -= C * right[l];
      const T A = i == 0 ? T(0) : a[i];
      const T r = T(1) / (b[i] - A * cp);
      cp = C * r;
      dp = (D - A * dp) * r;
      tc[i] = cp;
      td[i] = dp;
    }
    T y = td[m - 1];
    x[m - 1] = y;
    for (index_t i = m - 2; i >= 0; --i) {
      y = td[i] - tc[i] * y;
      x[i] = y;
    }
  }
}

// Pass 2 of a truncated chunk: x -= L v on the top kv rows and x -= R w on the bottom kw rows of
// each system.
template <class T, int L>
inline void spike_rows_tips(const spike_rows_chunk<T, L>& ch, index_t m,
                            const spike_record<T>& rec, const T* left, const T* right) {
  const int kv = *rec.kv, kw = *rec.kw;
  for (int l = 0; l < ch.nl; ++l) {
    T* const x = ch.d[l];
    for (index_t i = 0; i < kv; ++i) x[i] -= rec.tipv[i * L + l] * left[l];
    for (index_t q = 0; q < kw; ++q) x[m - 1 - q] -= rec.tipw[q * L + l] * right[l];
  }
}

}  // namespace bandsolve::detail

#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
namespace bandsolve::detail::simd {

// What the forward sweep of a chunk leaves besides its tile: the pivot screen, max |c'| and
// max |v'| past the kept rows, per lane (an out-parameter: vectors returned by value make GCC
// warn, -Wpsabi).
template <class T, int L>
struct spike_rows_forward_checks {
  vec<T, L> risk, cmax, vtail;
};

// Blocks of rows ahead that the forward sweep requests (64 streams, 16 systems x 4 arrays, a line
// per block each). Shape sweep, floats of 2^16 to 2^20 rows, 2 and 4 blocks alternated twice: row
// 1.26-1.35 against 1.37-1.44 ns per unknown, strided 1.10-1.27 against 1.13-1.28; in a probe 3
// blocks read as 2, and 6 blocks or no prefetch slower than 4.
inline constexpr int spike_rows_prefetch_blocks = 2;

// The forward sweep over the m rows of a chunk (m a multiple of L): c' and d' of every row into
// tc and td, v' of rows below vrows into tv (L values a row); the systems' a of row 0 and c of
// their last row count as 0. Blocks of L rows transposed straight into registers, the chunk's
// rows spike_rows_prefetch_blocks blocks ahead requested first.
template <int L, class T>
__attribute__((always_inline)) inline void spike_rows_forward(
    const spike_rows_chunk<T, L>& ch, index_t m, index_t vrows, T* tc, T* td, T* tv,
    spike_rows_forward_checks<T, L>& out) {
  using V = vec<T, L>;
  constexpr int ahead = spike_rows_prefetch_blocks;
  const V zero = V{}, one = zero + T(1), scale = zero + pivot_limits<T>::risk_scale;
  // Row 0 through the recurrences: cp = dp = 0 before it, and vp = -1 so that v'_0 = a_0 / b_0
  // (0 in a system's first chunk, whose a_0 is not part of the system and is not read).
  V risk = zero, cmax = zero, vtail = zero, cp = zero, dp = zero, vp = -one;
  for (int l = 0; l < L; ++l)
    if (ch.first[l]) vp[l] = T(0);
  const index_t blocks = m / L;
  for (index_t q = 0; q < blocks; ++q) {
    if (q + ahead < blocks)
      for (int l = 0; l < L; ++l) {
        const index_t at = (q + ahead) * L;
        __builtin_prefetch(ch.a[l] + at);
        __builtin_prefetch(ch.b[l] + at);
        __builtin_prefetch(ch.c[l] + at);
        __builtin_prefetch(ch.d[l] + at);
      }
    V A[static_cast<std::size_t>(L)], B[static_cast<std::size_t>(L)],
        C[static_cast<std::size_t>(L)], D[static_cast<std::size_t>(L)];
    const index_t r = q * L;
    load_transpose<L, T>([&](int l) { return ch.a[l] + r; }, A);
    load_transpose<L, T>([&](int l) { return ch.b[l] + r; }, B);
    load_transpose<L, T>([&](int l) { return ch.c[l] + r; }, C);
    load_transpose<L, T>([&](int l) { return ch.d[l] + r; }, D);
    for (int l = 0; l < L; ++l) {
      if (q == 0 && ch.first[l]) A[0][l] = T(0);  // a of a system's row 0 (maybe not finite)
      if (q == blocks - 1 && ch.last[l]) C[L - 1][l] = T(0);  // c of its last row
    }
    const auto keep = [&](index_t i, const V& cp_i, const V& dp_i, const V& vp_i) {
      store<T, L>(tc + i * L, cp_i);
      store<T, L>(td + i * L, dp_i);
      if (i < vrows) {
        store<T, L>(tv + i * L, vp_i);
      } else {
        const V mv = vp_i < zero ? -vp_i : vp_i;
        vtail = vtail > mv ? vtail : mv;
      }
      const V mc = cp_i < zero ? -cp_i : cp_i;
      cmax = cmax > mc ? cmax : mc;
    };
    const auto screen = [&](const V& pivot, const V& rp) {
      const V mr = rp < zero ? -rp : rp;
      risk = mr * scale + (pivot * zero + risk);
    };
    for (int j = 0; j < L; ++j) {
      const V pivot = B[j] - A[j] * cp;
      const V rp = one / pivot;
      screen(pivot, rp);
      cp = C[j] * rp;
      const V ra = rp * A[j];
      dp = rp * D[j] - ra * dp;
      vp = -(ra * vp);
      keep(r + j, cp, dp, vp);
    }
  }
  out.risk = risk;
  out.cmax = cmax;
  out.vtail = vtail;
}

// Pass 1 in the truncated form on one chunk of m rows (tile: 3 x m x L values): if the chunk
// passes the checks, writes y over d (lanes in use) and keeps the tips and ends in rec, as
// spike_truncate does; else writes nothing and returns false.
template <int L, class T>
inline bool spike_rows_truncate(const spike_rows_chunk<T, L>& ch, index_t m, index_t tips,
                                T* tile, const spike_record<T>& rec) {
  using V = vec<T, L>;
  T* const tc = tile;
  T* const td = tc + m * L;
  T* const tv = td + m * L;
  const T tol = unit_roundoff<T>();
  spike_rows_forward_checks<T, L> checks;
  spike_rows_forward<L>(ch, m, tips, tc, td, tv, checks);
  if (!risk_is_low_in_every_lane<T>(checks.risk)) return false;
  for (int l = 0; l < L; ++l) {
    // |w| past the bottom tips: the product of |c'| over the last tips + 1 rows; v past the top
    // tips: at most (m - tips) x max |v'| there while |c'| <= 1 (spike_truncate).
    T wpast = T(0);
    if (!ch.last[l]) {
      wpast = T(1);
      for (index_t i = m - 1 - tips; i < m; ++i) wpast *= abs_real(tc[i * L + l]);
    }
    if (!(checks.cmax[l] <= T(1) && checks.vtail[l] * T(m) <= tol && wpast <= tol))
      return false;
  }
  const V zero = V{};
  V y, w, v = zero;
  load<T, L>(td + (m - 1) * L, y);
  load<T, L>(tc + (m - 1) * L, w);
  for (int l = 0; l < L; ++l)
    if (ch.last[l]) w[l] = T(0);
  store<T, L>(rec.tipw, w);
  store<T, L>(rec.ends + 1 * L, y);
  store<T, L>(rec.ends + 3 * L, zero);  // v at the last row: below the roundoff (vtail)
  store<T, L>(rec.ends + 4 * L, zero);  // w at the first row: below the roundoff (wpast)
  store<T, L>(rec.ends + 5 * L, w);
  for (index_t q = m / L - 1; q >= 0; --q) {
    V X[static_cast<std::size_t>(L)];
    for (int j = L - 1; j >= 0; --j) {
      const index_t i = q * L + j;
      if (i < m - 1) {
        V ci, di;
        load<T, L>(tc + i * L, ci);
        load<T, L>(td + i * L, di);
        y = di - ci * y;
        if (i >= m - tips) {
          w = -ci * w;
          store<T, L>(rec.tipw + (m - 1 - i) * L, w);
        }
        if (i < tips) {
          V vi;
          load<T, L>(tv + i * L, vi);
          v = vi - ci * v;
          store<T, L>(rec.tipv + i * L, v);
        }
      }
      X[j] = y;
    }
    transpose<L>(X);
    if (ch.nl == L) {
      for (int l = 0; l < L; ++l) store<T, L>(ch.d[l] + q * L, X[l]);
    } else {
      for (int l = 0; l < ch.nl; ++l) store<T, L>(ch.d[l] + q * L, X[l]);
    }
  }
  store<T, L>(rec.ends + 0 * L, y);
  store<T, L>(rec.ends + 2 * L, v);
  // The tip rows that still matter, over the lanes in use.
  const auto significant = [&](const T* tip, index_t q) {
    bool any = false;
    for (int l = 0; l < ch.nl; ++l) any = any || abs_real(tip[q * L + l]) > tol;
    return any;
  };
  int kv = 0, kw = 0;
  for (index_t q = tips - 1; q >= 0 && kv == 0; --q)
    if (significant(rec.tipv, q)) kv = static_cast<int>(q + 1);
  for (index_t q = tips - 1; q >= 0 && kw == 0; --q)
    if (significant(rec.tipw, q)) kw = static_cast<int>(q + 1);
  *rec.kv = kv;  // (v is 0 in lanes that start their system, w in lanes that end it)
  *rec.kw = kw;
  return true;
}

// Pass 1 on one chunk: the truncated form, or where a check fails, the chunk's ends in full,
// marked for the direct solve of pass 2 (kv = -1). Returns false if the screen flagged a pivot
// (the caller rescans the chunk's lanes).
template <int L, class T>
inline bool spike_rows_reduce(const spike_rows_chunk<T, L>& ch, index_t m, index_t tips,
                              T* tile, const spike_record<T>& rec) {
  if (spike_rows_truncate<L>(ch, m, tips, tile, rec)) return true;
  using V = vec<T, L>;
  T* const tc = tile;
  T* const td = tc + m * L;
  T* const tv = td + m * L;
  spike_rows_forward_checks<T, L> checks;
  spike_rows_forward<L>(ch, m, m, tc, td, tv, checks);  // v' of every row
  V y, v, w;
  load<T, L>(td + (m - 1) * L, y);
  load<T, L>(tv + (m - 1) * L, v);
  load<T, L>(tc + (m - 1) * L, w);
  for (int l = 0; l < L; ++l)
    if (ch.last[l]) w[l] = T(0);
  store<T, L>(rec.ends + 1 * L, y);
  store<T, L>(rec.ends + 3 * L, v);
  store<T, L>(rec.ends + 5 * L, w);
  for (index_t i = m - 2; i >= 0; --i) {
    V ci, di, vi;
    load<T, L>(tc + i * L, ci);
    load<T, L>(td + i * L, di);
    load<T, L>(tv + i * L, vi);
    y = di - ci * y;
    v = vi - ci * v;
    w = -ci * w;
  }
  store<T, L>(rec.ends + 0 * L, y);
  store<T, L>(rec.ends + 2 * L, v);
  store<T, L>(rec.ends + 4 * L, w);
  *rec.kv = -1;
  *rec.kw = 0;
  return risk_is_low_in_every_lane<T>(checks.risk);
}

}  // namespace bandsolve::detail::simd
#endif

namespace bandsolve::detail {

// The layout of one solve: nsys >= L systems in blocks of L lanes (segments 1), or fewer systems
// in one block whose lanes are `segments` consecutive segments of ns rows of each system (lane l:
// system l / segments, rows from (l % segments) ns), so that few systems still fill the lanes;
// chunks of M rows along each lane (p: over ns rows; with segments, one block of `used` lanes).
struct spike_rows_plan {
  spike_plan p;
  index_t segments = 0, ns = 0;
  int used = 0;
};

// The plan for nsys systems of n rows in L lanes, or segments = 0 where none serves: with fewer
// than L systems, the most segments (a power of two) that nsys x segments lanes hold, each a
// multiple of L rows; lanes in use at least half a block; segments of a multiple of L rows and
// at least four chunks (spike_applies).
inline spike_rows_plan make_spike_rows_plan(index_t n, index_t nsys, int L) {
  spike_rows_plan r;
  index_t S = 1;
  while (nsys * S * 2 <= L && n % (S * 2 * L) == 0 && spike_applies(n / (S * 2))) S *= 2;
  r.ns = n / S;
  if (nsys * S * 2 <= L || r.ns % L != 0 || !spike_applies(r.ns)) return r;
  r.segments = S;
  r.p = make_spike_plan(r.ns, nsys, L);
  if (S > 1) {
    r.p.blocks = 1;
    r.p.items = r.p.P;
    r.used = static_cast<int>(nsys * S);
  }
  return r;
}

// The reduced system of one system whose chunks are spread over lanes (segments): spike_reduced's
// block Thomas on 2 x 2 blocks, one per boundary between consecutive chunks of the chain
// (element c, c = 0 .. C-1, in the system's order), scalar. at(c) points at element c's value 0
// of its record in its lane (value k at + k L, as spike_reduced's records); the boundary's work
// goes to its element's work values (work_at on). Returns the first boundary (+1) whose block
// was singular, or 0.
template <class T, class At>
inline index_t spike_chain_reduced(index_t C, const At& at, index_t L, index_t work_at) {
  const auto e = [&](index_t c, int k) { return at(c)[k * L]; };
  const auto w = [&](index_t c, int k) -> T& { return at(c)[work_at + k * L]; };
  index_t bad = 0;
  for (index_t c = 0; c + 1 < C; ++c) {
    T s01 = e(c, 5), r0 = e(c, 1);
    const T s10 = e(c + 1, 2), r1 = e(c + 1, 0);
    if (c > 0) {  // S_c = B_c - A_c S_{c-1}^-1 C_{c-1}; Y'_c = Y_c - A_c S_{c-1}^-1 Y'_{c-1}
      const T ve = e(c, 3), ws = e(c, 4);
      s01 -= ve * w(c - 1, 1) * ws;
      r0 -= ve * (w(c - 1, 0) * w(c - 1, 4) + w(c - 1, 1) * w(c - 1, 5));
    }
    const T r = T(1) / (T(1) - s01 * s10);
    w(c, 0) = r;
    w(c, 1) = -s01 * r;
    w(c, 2) = -s10 * r;
    w(c, 3) = r;
    w(c, 4) = r0;
    w(c, 5) = r1;
    if (bad == 0 && !pivot_is_good(T(1) / r)) bad = c + 1;
  }
  at(0)[6 * L] = T(0);      // L of the first element
  at(C - 1)[7 * L] = T(0);  // R of the last
  T next_f = T(0);
  for (index_t c = C - 2; c >= 0; --c) {
    const T r0 = w(c, 4);
    const T r1 = w(c, 5) - (c + 2 < C ? e(c + 1, 4) * next_f : T(0));
    const T g = w(c, 0) * r0 + w(c, 1) * r1;
    const T f = w(c, 2) * r0 + w(c, 3) * r1;
    at(c + 1)[6 * L] = g;  // L of element c + 1
    at(c)[7 * L] = f;      // R of element c
    next_f = f;
  }
  return bad;
}

// Values of a thread's tile: 3 arrays of up to 2 M rows of L lanes (a lane's last chunk is longer).
inline index_t spike_rows_tile_values(const spike_plan& p, int L) { return 3 * 2 * p.M * L; }

#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
// The whole solve on one team (every thread calls it). chunk_of(g, j, ch) fills chunk j of block
// g; info_of_system(s, own) stores system s's info from its own code (0 = clean). Items run
// block by block, each block's chunks in order, so that a thread reads each system's rows as one
// stream.
template <class T, int L, class Member, class Chunks, class Info>
inline void spike_rows_team(const Member& team, const spike_rows_plan& plan, const Chunks& chunk_of,
                            const Info& info_of_system, void* scratch) {
  const spike_plan& p = plan.p;
  const int nt = team.team_size(), t = team.team_rank();
  const spike_scratch<T> carved(scratch, p, nt, L, spike_rows_tile_values(p, L));
  const index_t per_item = carved.per_item;
  T* const kept = carved.kept;
  T* const tile = carved.tile(t);
  bad_code* const own = carved.codes + static_cast<index_t>(t) * p.nsys;
  for (index_t s = 0; s < p.nsys; ++s) own[s] = 0;
  const auto record = [&](index_t w) { return carved.record(w); };  // block w / P, chunk w % P
  index_t w0, w1;
  thread_share(team, 0, p.items, w0, w1);
  for (index_t w = w0; w < w1; ++w) {
    const index_t g = w / p.P, j = w % p.P;
    spike_rows_chunk<T, L> ch;
    chunk_of(g, j, ch);
    const index_t m = p.rows_of(j);
    if (!simd::spike_rows_reduce<L>(ch, m, p.tips, tile, record(w)))  // rare: name the rows
      for (int l = 0; l < ch.nl; ++l)
        own[ch.system[l]] = merge_bad(own[ch.system[l]], spike_rows_rescan(ch, m, l));
  }
  team.team_barrier();
  const index_t work_at = (8 + 2 * p.tips) * L;
  if (plan.segments == 1) {
    index_t g0, g1;
    thread_share(team, 0, p.blocks, g0, g1);
    for (index_t g = g0; g < g1; ++g) {
      index_t bad[spike_lanes_v<L>];
      spike_reduced<L>(p.P, kept + g * p.P * per_item, per_item, work_at, bad);
      const int nl = p.lanes_in(g);
      for (int l = 0; l < nl; ++l)
        if (bad[l] != 0) own[g * L + l] = min_bad_row(own[g * L + l], 2, bad[l] * p.M - 1);
    }
  } else {  // each system's chunks: segment by segment (lanes s S ..), chunk by chunk
    const index_t S = plan.segments;
    index_t s0, s1;
    thread_share(team, 0, p.nsys, s0, s1);
    for (index_t s = s0; s < s1; ++s) {
      const auto at = [&](index_t c) {
        return kept + (c % p.P) * per_item + s * S + c / p.P;
      };
      const index_t bad = spike_chain_reduced<T>(S * p.P, at, L, work_at);
      if (bad != 0) {
        const index_t c = bad - 1, j = c % p.P;
        own[s] = min_bad_row(own[s], 2, (c / p.P) * plan.ns + j * p.M + p.rows_of(j) - 1);
      }
    }
  }
  team.team_barrier();
  for (index_t w = w1 - 1; w >= w0; --w) {
    const index_t g = w / p.P, j = w % p.P;
    spike_rows_chunk<T, L> ch;
    chunk_of(g, j, ch);
    const index_t m = p.rows_of(j);
    const spike_record<T> rec = record(w);
    const T* const iface = rec.ends + 6 * L;
    if (*rec.kv >= 0)
      spike_rows_tips<T, L>(ch, m, rec, iface, iface + L);
    else
      spike_rows_direct<T, L>(ch, m, tile, iface, iface + L);
  }
  team.team_barrier();
  merged_team_info(team, carved.codes, p.nsys, info_of_system);
  team.team_barrier();  // the scratch may be reused after return
}
#endif

// The host backends' row spikes for nsys systems of n rows (arguments checked): float systems
// with contiguous rows that a spike_rows_plan serves, on builds with the register sweeps, when
// the first system's second chunk shows the decay (spike_sample_decays). Returns whether it
// ran. One team of every thread; scratch from launch_teams (the kept buffer of
// backend/scratch.hpp).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
bool spike_rows_host_solve(const ExecutionSpace& exec, const char* label, const AView& a,
                           const BView& b, const CView& c, const DView& d, const InfoView& info,
                           index_t nsys, index_t n) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
  using T = typename DView::non_const_value_type;
  constexpr int L = spike_rows_lanes_v<T>;
  if constexpr (L > 0 && std::is_same_v<typename AView::non_const_value_type, T> &&
                std::is_same_v<typename BView::non_const_value_type, T> &&
                std::is_same_v<typename CView::non_const_value_type, T>) {
    if (system_of(a, 0).stride != 1 || system_of(b, 0).stride != 1 ||
        system_of(c, 0).stride != 1 || system_of(d, 0).stride != 1)
      return false;
    if (spike_chunk_rows % L != 0) return false;
    const spike_rows_plan plan = make_spike_rows_plan(n, nsys, L);
    if (plan.segments == 0 || !spike_sample_decays(a, b, c)) return false;
    const int threads = concurrency_of(exec);
    using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
    const auto chunks = [=](index_t g, index_t j, spike_rows_chunk<T, L>& ch) {
      const index_t S = plan.segments, P = plan.p.P;
      ch.nl = S == 1 ? plan.p.lanes_in(g) : plan.used;
      for (int l = 0; l < L; ++l) {
        const index_t u = l < ch.nl ? l : ch.nl - 1;  // spare lanes repeat the last
        const index_t s = S == 1 ? g * L + u : u / S, segment = S == 1 ? 0 : u % S;
        const index_t r0 = segment * plan.ns + j * plan.p.M;
        ch.a[l] = system_of(a, s).p + r0;
        ch.b[l] = system_of(b, s).p + r0;
        ch.c[l] = system_of(c, s).p + r0;
        ch.d[l] = system_of(d, s).p + r0;
        ch.system[l] = s;
        ch.row0[l] = r0;
        ch.first[l] = r0 == 0;
        ch.last[l] = segment == S - 1 && j == P - 1;
      }
    };
    const auto set_info = [=](index_t s, int own) { info(s) = agreed_info(own, n, a, b, c, s); };
    launch_teams(exec, label, 1, threads,
                 spike_scratch<T>::bytes(plan.p, threads, L, spike_rows_tile_values(plan.p, L)),
                 [=](const member_type& team, const index_t, void* scratch) {
                   spike_rows_team<T, L>(team, plan, chunks, set_info, scratch);
                 });
    return true;
  }
#endif
  (void)exec, (void)label, (void)a, (void)b, (void)c, (void)d, (void)info, (void)nsys, (void)n;
  return false;
}

}  // namespace bandsolve::detail
