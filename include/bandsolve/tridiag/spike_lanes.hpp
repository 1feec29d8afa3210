#pragma once
// Few long real systems side by side in memory (column layout, strided views of unit system
// stride, full interleaved packs) whose coupling decays within a chunk: the truncated spike
// method, which reads the data once where the partition method (partition_lanes.hpp) reads it
// twice.
//
// Each system is cut into P chunks of M rows (the last takes M to 2M-1). With its neighbours'
// unknowns L = x[r0-1] and R = x[r0+m], chunk k (rows r0 .. r0+m-1, own block A_k) solves as
//   x = y - L v - R w,   A_k y = d,   A_k v = a[r0] e_0,   A_k w = c[r0+m-1] e_{m-1}.
// Where |c'| <= 1 (diagonally dominant rows), the spikes v and w fall away from the chunk's ends;
// below the unit roundoff they change no x by more than that fraction of |L| or |R|, and are
// dropped (as the Toeplitz solver truncates its carries):
//   pass 1   per chunk, Thomas with both neighbours 0: y written over d; the tips of v (top rows)
//            and w (bottom rows) kept while not negligible, and the 2 x 2 coupling of the ends;
//   reduced  per system, the chunk ends (G_k = x at a chunk's last row, F_k at its first) from
//            G_k + v_e G_{k-1} + w_e F_{k+1} = y_e and F_k + v_s G_{k-1} + w_s F_{k+1} = y_s,
//            as a block tridiagonal system of 2 x 2 blocks (one per boundary);
//   pass 2   per chunk, only the tips' rows: x -= L v, x -= R w.
// Traffic: 4 reads and 1 write per unknown, plus the tips (rows within spike_tip_rows of a chunk
// end) written, read and corrected again. A chunk that fails the checks (a pivot flagged by the
// screen, |c'| > 1, or spikes still above the roundoff past the tips) is not written in pass 1:
// its end rows are computed in full instead, and pass 2 solves it with L and R known, reading it
// again (as the partition method does). Before any of this, spike_sample_decays tries the first
// system's second chunk, so that matrices without decay (Laplacian lines) go straight to the
// partition method.
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/tridiag/reduction_kernel.hpp>
#include <bandsolve/tridiag/team_batch.hpp>

#include <cstddef>

namespace bandsolve::detail {

// Rows per chunk and the most rows a spike may keep at each end. Variables so that tests can
// lower them (spike_tip_rows * 4 <= spike_chunk_rows). 512 rows: the tile of pass 1 (c', d' and
// the top of v' for up to 32 doubles; wider blocks take fewer rows, spike_block_chunk_rows)
// stays in L2; 48 rows of tips: the spikes of rows with |b| >= |a| + |c| + margin fall by a
// factor of 3 or more per row, below 2^-53 in about 35.
inline index_t spike_chunk_rows = 512;
inline index_t spike_tip_rows = 48;

// Whether the spike path may take n rows: at least four chunks, tips a quarter of a chunk.
inline bool spike_applies(index_t n) {
  return spike_tip_rows >= 1 && spike_chunk_rows >= 4 * spike_tip_rows &&
         n >= 4 * spike_chunk_rows;
}

// LB as an array bound.
template <int LB>
inline constexpr std::size_t spike_lanes_v = static_cast<std::size_t>(LB);

// Chunks swept at once by a block of LB lanes: 128 bytes of lanes, at most 4 (8 chunks of 4
// floats, 32 streams, measured 1.3-1.7x slower than 4).
template <class T, int LB>
inline constexpr int spike_line_share_v = static_cast<int>(128 / (sizeof(T) * LB));
template <class T, int LB>
inline constexpr int spike_chains_v =
    spike_line_share_v<T, LB> < 1
        ? 1
        : (spike_line_share_v<T, LB> > 4 ? 4 : spike_line_share_v<T, LB>);

// Rows of a thread's tile, in units of M x LB values (3 arrays each): K chunks of M rows, or one
// last chunk of up to 2M.
template <class T, int LB>
inline constexpr index_t spike_tile_chunks_v =
    spike_chains_v<T, LB> > 2 ? spike_chains_v<T, LB> : 2;

// The layout of one solve: blocks of `lanes` systems (the last may hold fewer), P chunks each.
struct spike_plan {
  index_t n = 0, nsys = 0, lanes = 0, blocks = 0, M = 0, P = 0, mlast = 0, items = 0, tips = 0;
  KOKKOS_INLINE_FUNCTION index_t rows_of(index_t j) const { return j == P - 1 ? mlast : M; }
  KOKKOS_INLINE_FUNCTION int lanes_in(index_t g) const {
    const index_t left = nsys - g * lanes;
    return static_cast<int>(left < lanes ? left : lanes);
  }
};

// Rows per chunk for blocks of row_bytes bytes of lanes: spike_chunk_rows up to 256 bytes (32
// doubles, 64 floats: a tile of 768 KiB at 512 rows), fewer above, so that the tile keeps that
// size in L2 (64 doubles: 256 rows), but never fewer than the tips need (4 x spike_tip_rows).
inline index_t spike_block_chunk_rows(std::size_t row_bytes) {
  index_t rows = spike_chunk_rows;
  for (std::size_t bytes = row_bytes; bytes > 256 && rows / 2 >= 4 * spike_tip_rows; bytes /= 2)
    rows /= 2;
  return rows;
}

// rows_per_chunk: spike_chunk_rows, or spike_block_chunk_rows for wide blocks.
inline spike_plan make_spike_plan(index_t n, index_t nsys, index_t lanes,
                                  index_t rows_per_chunk = spike_chunk_rows) {
  spike_plan p;
  p.n = n;
  p.nsys = nsys;
  p.lanes = lanes;
  p.blocks = (nsys + lanes - 1) / lanes;
  p.M = rows_per_chunk;
  p.P = n / p.M;
  p.mlast = n - (p.P - 1) * p.M;
  p.items = p.blocks * p.P;
  p.tips = spike_tip_rows;
  return p;
}

// One chunk of one block: its row 0 in each array (lane l at +l, row i at + i * stride), its
// lanes in use, whether it starts (no L) or ends (no R) its systems.
template <class T>
struct spike_chunk {
  const T *a = nullptr, *b = nullptr, *c = nullptr;
  T* d = nullptr;
  index_t sa = 0, sb = 0, sc = 0, sd = 0;
  int nl = 0;
  bool first = false, last = false;
};

// What pass 1 keeps of a chunk: ends[k * LB + l] for k = 0 y_s, 1 y_e, 2 v_s, 3 v_e, 4 w_s,
// 5 w_e; tip rows kv (of v, from the top) and kw (of w, from the bottom), kv < 0: solved directly.
template <class T>
struct spike_record {
  T* ends = nullptr;
  T* tipv = nullptr;
  T* tipw = nullptr;
  int* kv = nullptr;
  int* kw = nullptr;
};

template <bool Full, class T>
KOKKOS_FORCEINLINE_FUNCTION T spike_load(const T* p, int l, int nl, T fill) {
  if constexpr (Full) {
    (void)nl;
    (void)fill;
    return p[l];
  } else {
    return l < nl ? p[l] : fill;
  }
}

// The forward sweep over m rows of K chunks at once (lane v = k LB + l of the tile: chunk k's
// lane l) into the tile (tc: c', td: d', tv: v' of rows < vrows, K LB values a row); rows from
// vrows on only track max |v'|. c of the systems' last row counts as 0. Per chunk, over its
// lanes in use: whether every pivot passed the screen, max |c'|, max |v'| past vrows.
template <int LB, int K, bool Full, class T>
KOKKOS_INLINE_FUNCTION void spike_forward(const spike_chunk<T>* ch, index_t m, index_t vrows,
                                          T* tc, T* td, T* tv, bool* clean_out, T* cmax_out,
                                          T* vtail_out) {
  constexpr int W = K * LB;
  constexpr std::size_t V = spike_lanes_v<W>;
  T cr[V], dr[V], vr[V], risk[V], cmax[V], vtail[V];
  BANDSOLVE_UNROLL(4)
  for (int k = 0; k < K; ++k) {
    const int nl = ch[k].nl;
    const bool zero_c = m == 1 && ch[k].last, no_a = ch[k].first;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      const int v = k * LB + l;
      const T B = spike_load<Full>(ch[k].b, l, nl, T(1));
      const T C = zero_c ? T(0) : spike_load<Full>(ch[k].c, l, nl, T(0));
      const T r = T(1) / B;
      risk[v] = pivot_risk(B, r, T(0));
      cr[v] = C * r;
      dr[v] = spike_load<Full>(ch[k].d, l, nl, T(0)) * r;
      vr[v] = no_a ? T(0) : spike_load<Full>(ch[k].a, l, nl, T(0)) * r;
      tc[v] = cr[v];
      td[v] = dr[v];
      tv[v] = vr[v];
      cmax[v] = abs_real(cr[v]);
      vtail[v] = T(0);
    }
  }
  const auto row = [&](index_t i, bool keep_v, bool zero_c) {
    BANDSOLVE_UNROLL(4)
    for (int k = 0; k < K; ++k) {
      const T *pa = ch[k].a + i * ch[k].sa, *pb = ch[k].b + i * ch[k].sb;
      const T *pc = ch[k].c + i * ch[k].sc, *pd = ch[k].d + i * ch[k].sd;
      const int nl = ch[k].nl;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l) {
        const int v = k * LB + l;
        const T A = spike_load<Full>(pa, l, nl, T(0));
        const T pivot = spike_load<Full>(pb, l, nl, T(1)) - A * cr[v];
        const T r = T(1) / pivot;
        risk[v] = pivot_risk(pivot, r, risk[v]);
        cr[v] = zero_c ? T(0) : spike_load<Full>(pc, l, nl, T(0)) * r;
        dr[v] = (spike_load<Full>(pd, l, nl, T(0)) - A * dr[v]) * r;
        vr[v] = -A * vr[v] * r;
        tc[i * W + v] = cr[v];
        td[i * W + v] = dr[v];
        if (keep_v) tv[i * W + v] = vr[v];
        else vtail[v] = vtail[v] > abs_real(vr[v]) ? vtail[v] : abs_real(vr[v]);
        cmax[v] = cmax[v] > abs_real(cr[v]) ? cmax[v] : abs_real(cr[v]);
      }
    }
  };
  // The systems' last row (c = 0) only in a group of one chunk (spike_solve_team).
  const bool last = K == 1 && ch[0].last;
  const index_t body = last ? m - 1 : m;
  const index_t split = vrows < body ? vrows : body;
  for (index_t i = 1; i < split; ++i) row(i, true, false);
  for (index_t i = split > 1 ? split : 1; i < body; ++i) row(i, false, false);
  if (last && m > 1) row(m - 1, m - 1 < vrows, true);
  for (int k = 0; k < K; ++k) {
    bool clean = true;
    T cm = T(0), vt = T(0);
    for (int l = 0; l < LB; ++l) {
      if (!Full && l >= ch[k].nl) continue;
      const int v = k * LB + l;
      clean = clean && risk_is_low(risk[v]);
      cm = cm > cmax[v] ? cm : cmax[v];
      vt = vt > vtail[v] ? vt : vtail[v];
    }
    clean_out[k] = clean;
    cmax_out[k] = cm;
    vtail_out[k] = vt;
  }
}

// Pass 1 in the truncated form on K chunks of m rows at once (tile: 3 x m x K LB values): if
// every chunk passes the checks, writes y over d and keeps the tips and ends (rec[k]); else
// writes nothing and returns false.
template <int LB, int K, bool Full, class T>
KOKKOS_INLINE_FUNCTION bool spike_truncate(const spike_chunk<T>* ch, index_t m, index_t tips,
                                           T* tile, const spike_record<T>* rec) {
  constexpr int W = K * LB;
  constexpr std::size_t V = spike_lanes_v<W>;
  T* const tc = tile;
  T* const td = tc + m * W;
  T* const tv = td + m * W;
  const T tol = unit_roundoff<T>();
  bool clean[spike_lanes_v<K>];
  T cmax[spike_lanes_v<K>], vtail[spike_lanes_v<K>];
  spike_forward<LB, K, Full>(ch, m, tips, tc, td, tv, clean, cmax, vtail);
  for (int k = 0; k < K; ++k) {
    // |w| at the first row past the bottom tips: |c'| of the last tips + 1 rows multiplied
    // (|c'| <= 1 makes every row above it smaller still). v past the top tips: at most
    // (m - tips) x max |v'| there while |c'| <= 1.
    T wpast = T(0);
    if (!ch[k].last)
      for (int l = 0; l < LB; ++l) {
        if (!Full && l >= ch[k].nl) continue;
        T w = T(1);
        for (index_t i = m - 1 - tips; i < m; ++i) w *= abs_real(tc[i * W + k * LB + l]);
        wpast = wpast > w ? wpast : w;
      }
    if (!(clean[k] && cmax[k] <= T(1) && vtail[k] * T(m) <= tol && wpast <= tol)) return false;
  }
  T y[V], v[V], w[V];
  const auto put = [&](index_t i) {  // row i of y into every chunk's d
    BANDSOLVE_UNROLL(4)
    for (int k = 0; k < K; ++k) {
      T* const px = ch[k].d + i * ch[k].sd;
      const int nl = ch[k].nl;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l)
        if (Full || l < nl) px[l] = y[k * LB + l];
    }
  };
  BANDSOLVE_SIMD
  for (int u = 0; u < W; ++u) {
    y[u] = td[(m - 1) * W + u];
    w[u] = tc[(m - 1) * W + u];
    v[u] = T(0);
  }
  for (int k = 0; k < K; ++k)
    for (int l = 0; l < LB; ++l) {
      const int u = k * LB + l;
      if (ch[k].last) w[u] = T(0);
      rec[k].tipw[l] = w[u];
      rec[k].ends[1 * LB + l] = y[u];
      rec[k].ends[3 * LB + l] = T(0);  // v at the last row: below the roundoff (vtail)
      rec[k].ends[4 * LB + l] = T(0);  // w at the first row: below the roundoff (wpast)
      rec[k].ends[5 * LB + l] = w[u];
    }
  put(m - 1);
  index_t i = m - 2;
  for (; i >= m - tips; --i) {
    BANDSOLVE_SIMD
    for (int u = 0; u < W; ++u) {
      y[u] = td[i * W + u] - tc[i * W + u] * y[u];
      w[u] = -tc[i * W + u] * w[u];
    }
    for (int k = 0; k < K; ++k)
      for (int l = 0; l < LB; ++l) rec[k].tipw[(m - 1 - i) * LB + l] = w[k * LB + l];
    put(i);
  }
  for (; i >= tips; --i) {
    BANDSOLVE_SIMD
    for (int u = 0; u < W; ++u) y[u] = td[i * W + u] - tc[i * W + u] * y[u];
    put(i);
  }
  for (; i >= 0; --i) {
    BANDSOLVE_SIMD
    for (int u = 0; u < W; ++u) {
      y[u] = td[i * W + u] - tc[i * W + u] * y[u];
      v[u] = tv[i * W + u] - tc[i * W + u] * v[u];
    }
    for (int k = 0; k < K; ++k)
      for (int l = 0; l < LB; ++l) rec[k].tipv[i * LB + l] = v[k * LB + l];
    put(i);
  }
  for (int k = 0; k < K; ++k) {
    for (int l = 0; l < LB; ++l) {
      rec[k].ends[0 * LB + l] = y[k * LB + l];
      rec[k].ends[2 * LB + l] = v[k * LB + l];
    }
    // The tip rows that still matter, over the lanes in use.
    const int nl = ch[k].nl;
    const auto significant = [&](const T* tip, index_t q) {
      bool any = false;
      for (int l = 0; l < LB; ++l)
        any = any || ((Full || l < nl) && abs_real(tip[q * LB + l]) > tol);
      return any;
    };
    int kv = 0, kw = 0;
    for (index_t q = tips - 1; q >= 0 && kv == 0; --q)
      if (significant(rec[k].tipv, q)) kv = static_cast<int>(q + 1);
    for (index_t q = tips - 1; q >= 0 && kw == 0; --q)
      if (significant(rec[k].tipw, q)) kw = static_cast<int>(q + 1);
    *rec[k].kv = ch[k].first ? 0 : kv;
    *rec[k].kw = ch[k].last ? 0 : kw;
  }
  return true;
}

// Pass 1 on one chunk of m rows (tile: 3 x m x LB values): the truncated form, or where a check
// fails, the chunk's ends in full, marked for the direct solve (kv = -1). Returns false if the
// screen flagged a pivot (the caller rescans the chunk's lanes).
template <int LB, bool Full, class T>
KOKKOS_INLINE_FUNCTION bool spike_reduce(const spike_chunk<T>& ch, index_t m, index_t tips,
                                         T* tile, const spike_record<T>& rec) {
  if (spike_truncate<LB, 1, Full>(&ch, m, tips, tile, &rec)) return true;
  constexpr std::size_t V = spike_lanes_v<LB>;
  T* const tc = tile;
  T* const td = tc + m * LB;
  T* const tv = td + m * LB;
  bool clean;
  T cmax, vtail;
  spike_forward<LB, 1, Full>(&ch, m, m, tc, td, tv, &clean, &cmax, &vtail);  // v' of every row
  T y[V], v[V], w[V];
  T* const ends = rec.ends;
  BANDSOLVE_SIMD
  for (int l = 0; l < LB; ++l) {
    y[l] = td[(m - 1) * LB + l];
    v[l] = tv[(m - 1) * LB + l];
    w[l] = ch.last ? T(0) : tc[(m - 1) * LB + l];
    ends[1 * LB + l] = y[l];
    ends[3 * LB + l] = v[l];
    ends[5 * LB + l] = w[l];
  }
  for (index_t i = m - 2; i >= 0; --i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      y[l] = td[i * LB + l] - tc[i * LB + l] * y[l];
      v[l] = tv[i * LB + l] - tc[i * LB + l] * v[l];
      w[l] = -tc[i * LB + l] * w[l];
    }
  }
  BANDSOLVE_SIMD
  for (int l = 0; l < LB; ++l) {
    ends[0 * LB + l] = y[l];
    ends[2 * LB + l] = v[l];
    ends[4 * LB + l] = w[l];
  }
  *rec.kv = -1;
  *rec.kw = 0;
  return clean;
}

// Pass 2 on one chunk: the tips' rows corrected, or (kv < 0) Thomas on the chunk with L and R
// moved to the right-hand side (tile: 2 x m x LB values). L, R: LB values each.
template <int LB, bool Full, class T>
KOKKOS_INLINE_FUNCTION void spike_finish(const spike_chunk<T>& ch, index_t m, T* tile,
                                         const spike_record<T>& rec, const T* L, const T* R) {
  const int nl = ch.nl;
  T* const x = ch.d;
  const int kv = *rec.kv;
  if (kv >= 0) {
    for (index_t i = 0; i < kv; ++i) {
      T* const px = x + i * ch.sd;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l)
        if (Full || l < nl) px[l] -= rec.tipv[i * LB + l] * L[l];
    }
    const int kw = *rec.kw;
    for (index_t q = 0; q < kw; ++q) {
      T* const px = x + (m - 1 - q) * ch.sd;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l)
        if (Full || l < nl) px[l] -= rec.tipw[q * LB + l] * R[l];
    }
    return;
  }
  T* const tc = tile;
  T* const td = tc + m * LB;
  T cr[spike_lanes_v<LB>] = {}, dr[spike_lanes_v<LB>] = {};
  for (index_t i = 0; i < m; ++i) {
    const T *pa = ch.a + i * ch.sa, *pb = ch.b + i * ch.sb, *pc = ch.c + i * ch.sc;
    const T* pd = x + i * ch.sd;
    const bool top = i == 0, bottom = i == m - 1;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      const T A = spike_load<Full>(pa, l, nl, T(0));
      const T C = bottom && ch.last ? T(0) : spike_load<Full>(pc, l, nl, T(0));
      T D = spike_load<Full>(pd, l, nl, T(0));
      if (top && !ch.first) D -= A * L[l];
      if (bottom && !ch.last) D -= C * R[l];
      const T pivot = spike_load<Full>(pb, l, nl, T(1)) - (top ? T(0) : A * cr[l]);
      const T r = T(1) / pivot;
      cr[l] = C * r;
      dr[l] = (D - (top ? T(0) : A * dr[l])) * r;
      tc[i * LB + l] = cr[l];
      td[i * LB + l] = dr[l];
    }
  }
  T y[spike_lanes_v<LB>] = {};
  for (index_t i = m - 1; i >= 0; --i) {
    T* const px = x + i * ch.sd;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      y[l] = td[i * LB + l] - (i == m - 1 ? T(0) : tc[i * LB + l] * y[l]);
      if (Full || l < nl) px[l] = y[l];
    }
  }
}

// The reduced system of one block: boundary j (0 .. P-2) couples Z_j = (G_j, F_{j+1}) to
// G_{j-1} (through v_e of chunk j) and F_{j+2} (through w_s of chunk j+1). Block Thomas on the
// 2 x 2 blocks, SIMD across the lanes. recs: the block's first record, chunk j's at + j * stride:
// its ends at 0, L and R (written here) at 6 LB and 7 LB, the boundary's work (6 values) at
// work_at. bad[l]: lane l's first boundary whose block was singular (+1), or 0.
template <int LB, class T>
KOKKOS_INLINE_FUNCTION void spike_reduced(index_t P, T* recs, index_t stride, index_t work_at,
                                          index_t* bad) {
  const auto e = [&](index_t j, int k, int l) { return recs[j * stride + k * LB + l]; };
  for (int l = 0; l < LB; ++l) bad[l] = 0;
  for (index_t j = 0; j + 1 < P; ++j) {
    T* const wj = recs + j * stride + work_at;
    const T* const wp = recs + (j - 1) * stride + work_at;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      T s01 = e(j, 5, l), r0 = e(j, 1, l);
      const T s10 = e(j + 1, 2, l), r1 = e(j + 1, 0, l);
      if (j > 0) {  // S_j = B_j - A_j S_{j-1}^-1 C_{j-1}; Y'_j = Y_j - A_j S_{j-1}^-1 Y'_{j-1}
        const T ve = e(j, 3, l), ws = e(j, 4, l);
        s01 -= ve * wp[1 * LB + l] * ws;
        r0 -= ve * (wp[0 * LB + l] * wp[4 * LB + l] + wp[1 * LB + l] * wp[5 * LB + l]);
      }
      const T det = T(1) - s01 * s10;
      const T r = T(1) / det;  // S_j^-1 = [[1, -s01], [-s10, 1]] / det
      wj[0 * LB + l] = r;
      wj[1 * LB + l] = -s01 * r;
      wj[2 * LB + l] = -s10 * r;
      wj[3 * LB + l] = r;
      wj[4 * LB + l] = r0;
      wj[5 * LB + l] = r1;
    }
    for (int l = 0; l < LB; ++l)
      if (bad[l] == 0 && !pivot_is_good(T(1) / wj[l])) bad[l] = j + 1;
  }
  T next_f[spike_lanes_v<LB>];
  for (int l = 0; l < LB; ++l) {
    recs[6 * LB + l] = T(0);                          // L of chunk 0
    recs[(P - 1) * stride + 7 * LB + l] = T(0);       // R of chunk P-1
    next_f[l] = T(0);
  }
  for (index_t j = P - 2; j >= 0; --j) {
    const T* const wj = recs + j * stride + work_at;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      const T r0 = wj[4 * LB + l];
      const T r1 = wj[5 * LB + l] - (j + 2 < P ? e(j + 1, 4, l) * next_f[l] : T(0));
      const T g = wj[0 * LB + l] * r0 + wj[1 * LB + l] * r1;
      const T f = wj[2 * LB + l] * r0 + wj[3 * LB + l] * r1;
      recs[(j + 1) * stride + 6 * LB + l] = g;  // L of chunk j + 1
      recs[j * stride + 7 * LB + l] = f;        // R of chunk j
      next_f[l] = f;
    }
  }
}

// Lane l's first chunk-local pivot that is bad, as a code (phase 0), or 0: names the row after
// the screen flagged the chunk.
template <class T>
KOKKOS_INLINE_FUNCTION bad_code spike_rescan(const spike_chunk<T>& ch, index_t r0, index_t m,
                                             int l) {
  T cp = T(0);
  for (index_t i = 0; i < m; ++i) {
    const T pivot = ch.b[i * ch.sb + l] - (i == 0 ? T(0) : ch.a[i * ch.sa + l] * cp);
    if (!pivot_is_good(pivot)) return min_bad_row(0, 0, r0 + i);
    cp = (i == m - 1 && ch.last ? T(0) : ch.c[i * ch.sc + l]) / pivot;
  }
  return 0;
}

// A team's scratch for the spike solves, carved from one buffer: info codes per thread and
// system, per item the record (6 ends, 2 interface values, 2 x tips rows of tips, 6 reduced
// values: `lanes` lanes each; kv, kw), and `tile_values` values of tile per thread.
template <class T>
struct spike_scratch {
  bad_code* codes = nullptr;
  T* kept = nullptr;
  int* counts = nullptr;
  T* tiles = nullptr;
  index_t per_item = 0, tips = 0, lanes = 0, tile_values = 0;

  KOKKOS_INLINE_FUNCTION static std::size_t round(std::size_t x) { return (x + 63) / 64 * 64; }
  static std::size_t bytes(const spike_plan& p, int threads, index_t lanes, index_t tile_values) {
    const auto items = static_cast<std::size_t>(p.items);
    return round(static_cast<std::size_t>(threads) * static_cast<std::size_t>(p.nsys) *
                 sizeof(bad_code)) +
           round(items * static_cast<std::size_t>((14 + 2 * p.tips) * lanes) * sizeof(T)) +
           round(items * 2 * sizeof(int)) +
           static_cast<std::size_t>(threads) * static_cast<std::size_t>(tile_values) * sizeof(T);
  }
  KOKKOS_INLINE_FUNCTION spike_scratch(void* scratch, const spike_plan& p, int threads,
                                       index_t lanes_, index_t tile_values_)
      : per_item((14 + 2 * p.tips) * lanes_), tips(p.tips), lanes(lanes_),
        tile_values(tile_values_) {
    char* base = static_cast<char*>(scratch);
    codes = reinterpret_cast<bad_code*>(base);
    base += round(static_cast<std::size_t>(threads) * static_cast<std::size_t>(p.nsys) *
                  sizeof(bad_code));
    kept = reinterpret_cast<T*>(base);
    base += round(static_cast<std::size_t>(p.items * per_item) * sizeof(T));
    counts = reinterpret_cast<int*>(base);
    base += round(static_cast<std::size_t>(p.items) * 2 * sizeof(int));
    tiles = reinterpret_cast<T*>(base);
  }
  // Item q's record.
  KOKKOS_INLINE_FUNCTION spike_record<T> record(index_t q) const {
    T* const r = kept + q * per_item;
    spike_record<T> rec;
    rec.ends = r;
    rec.tipv = r + 8 * lanes;
    rec.tipw = rec.tipv + tips * lanes;
    rec.kv = counts + 2 * q;
    rec.kw = counts + 2 * q + 1;
    return rec;
  }
  KOKKOS_INLINE_FUNCTION T* tile(int thread) const {
    return tiles + static_cast<index_t>(thread) * tile_values;
  }
};

// Values of a thread's tile in spike_solve_team: 3 arrays of spike_tile_chunks_v x M rows.
template <class T, int LB>
KOKKOS_INLINE_FUNCTION index_t spike_tile_values(const spike_plan& p) {
  return 3 * spike_tile_chunks_v<T, LB> * p.M * LB;
}

// The whole solve on one team (every thread calls it). chunk_of(g, j, ch) fills chunk j of block
// g; info_of_system(s, own) stores system s's info from its own code (0 = clean).
template <class T, int LB, class Member, class Chunks, class Info>
KOKKOS_INLINE_FUNCTION void spike_solve_team(const Member& team, const spike_plan& p,
                                             const Chunks& chunk_of, const Info& info_of_system,
                                             void* scratch) {
  const int nt = team.team_size(), t = team.team_rank();
  const spike_scratch<T> carved(scratch, p, nt, LB, spike_tile_values<T, LB>(p));
  const index_t per_item = carved.per_item;
  T* const kept = carved.kept;
  T* const tile = carved.tile(t);
  bad_code* const own = carved.codes + static_cast<index_t>(t) * p.nsys;
  for (index_t s = 0; s < p.nsys; ++s) own[s] = 0;
  // Items run chunk by chunk, the blocks of a chunk (rows side by side) one after the other.
  // A record per (block g, chunk j), block by block: 6 ends, L and R, the tips of v and of w,
  // and the reduced system's work for the boundary below chunk j.
  const auto item_of = [&](index_t g, index_t j) { return g * p.P + j; };
  const auto record = [&](index_t q) { return carved.record(q); };
  const auto single = [&](index_t w) {
    const index_t j = w / p.blocks, g = w % p.blocks;
    spike_chunk<T> ch;
    chunk_of(g, j, ch);
    const index_t m = p.rows_of(j);
    const spike_record<T> rec = record(item_of(g, j));
    const bool clean = ch.nl == LB ? spike_reduce<LB, true>(ch, m, p.tips, tile, rec)
                                   : spike_reduce<LB, false>(ch, m, p.tips, tile, rec);
    if (!clean)  // rare: name the rows
      for (int l = 0; l < ch.nl; ++l)
        own[g * p.lanes + l] = merge_bad(own[g * p.lanes + l], spike_rescan(ch, j * p.M, m, l));
  };
  index_t w0, w1;
  thread_share(team, 0, p.items, w0, w1);
  index_t next = w0;
  // Narrow blocks sweep K consecutive chunks at once (one block: item w is chunk w), so that
  // the division on each recurrence's critical path overlaps with the others'; the systems'
  // last chunk and a group that fails a check go one chunk at a time.
  constexpr int K = spike_chains_v<T, LB>;
  if (K > 1 && p.blocks == 1)
    for (; next + K <= w1 && next + K < p.P; next += K) {
      spike_chunk<T> ch[spike_lanes_v<K>];
      spike_record<T> rec[spike_lanes_v<K>];
      for (int k = 0; k < K; ++k) {
        chunk_of(0, next + k, ch[k]);
        rec[k] = record(item_of(0, next + k));
      }
      const bool done = ch[0].nl == LB
                            ? spike_truncate<LB, K, true>(ch, p.M, p.tips, tile, rec)
                            : spike_truncate<LB, K, false>(ch, p.M, p.tips, tile, rec);
      if (!done)
        for (int k = 0; k < K; ++k) single(next + k);
    }
  for (; next < w1; ++next) single(next);
  team.team_barrier();
  index_t g0, g1;
  thread_share(team, 0, p.blocks, g0, g1);
  for (index_t g = g0; g < g1; ++g) {
    index_t bad[spike_lanes_v<LB>];
    spike_reduced<LB>(p.P, kept + item_of(g, 0) * per_item, per_item, (8 + 2 * p.tips) * LB, bad);
    const int nl = p.lanes_in(g);
    for (int l = 0; l < nl; ++l)
      if (bad[l] != 0)
        own[g * p.lanes + l] = min_bad_row(own[g * p.lanes + l], 2, bad[l] * p.M - 1);
  }
  team.team_barrier();
  for (index_t w = w1 - 1; w >= w0; --w) {
    const index_t j = w / p.blocks, g = w % p.blocks;
    spike_chunk<T> ch;
    chunk_of(g, j, ch);
    const index_t m = p.rows_of(j);
    const spike_record<T> rec = record(item_of(g, j));
    const T* const iface = rec.ends + 6 * LB;
    if (ch.nl == LB)
      spike_finish<LB, true>(ch, m, tile, rec, iface, iface + LB);
    else
      spike_finish<LB, false>(ch, m, tile, rec, iface, iface + LB);
  }
  team.team_barrier();
  merged_team_info(team, carved.codes, p.nsys, info_of_system);
  team.team_barrier();  // the scratch may be reused after return
}

// Whether the first system's second chunk shows the decay the spike path needs: |c'| <= 1, and
// v' and the product of |c'| below the roundoff within spike_tip_rows rows (one short loop on
// the host; the per-chunk checks still decide every chunk).
template <class AView, class BView, class CView>
bool spike_sample_decays(const AView& a, const BView& b, const CView& c) {
  using T = typename BView::non_const_value_type;
  const auto sa = system_of(a, 0);
  const auto sb = system_of(b, 0);
  const auto sc = system_of(c, 0);
  const index_t r0 = spike_chunk_rows;
  const auto at = [](const auto& s, index_t i) { return s.p[i * s.stride]; };
  T pivot = at(sb, r0);
  T cp = at(sc, r0) / pivot, v = at(sa, r0) / pivot, w = abs_real(cp);
  if (!(abs_real(cp) <= T(1))) return false;
  for (index_t i = r0 + 1; i <= r0 + spike_tip_rows; ++i) {
    const T A = at(sa, i);
    pivot = at(sb, i) - A * cp;
    v = -A * v / pivot;
    cp = at(sc, i) / pivot;
    if (!(abs_real(cp) <= T(1))) return false;
    w *= abs_real(cp);
  }
  const T tol = unit_roundoff<T>();
  return abs_real(v) * T(spike_chunk_rows) <= tol && w <= tol;
}

// The host launch: one team of every thread, blocks of LB lanes (systems side by side).
template <int LB, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void spike_host_launch(const ExecutionSpace& exec, const char* label, const AView& a,
                       const BView& b, const CView& c, const DView& d, const InfoView& info,
                       index_t nsys, index_t n) {
  using T = typename DView::non_const_value_type;
  const spike_plan plan = make_spike_plan(
      n, nsys, LB, spike_block_chunk_rows(sizeof(T) * static_cast<std::size_t>(LB)));
  const int threads = concurrency_of(exec);
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  const auto chunks = KOKKOS_LAMBDA(index_t g, index_t j, spike_chunk<T>& ch) {
    const index_t s0 = g * plan.lanes, r0 = j * plan.M;
    const auto sa = system_of(a, s0);
    const auto sb = system_of(b, s0);
    const auto sc = system_of(c, s0);
    const auto sd = system_of(d, s0);
    ch.a = sa.p + r0 * sa.stride;
    ch.b = sb.p + r0 * sb.stride;
    ch.c = sc.p + r0 * sc.stride;
    ch.d = sd.p + r0 * sd.stride;
    ch.sa = sa.stride;
    ch.sb = sb.stride;
    ch.sc = sc.stride;
    ch.sd = sd.stride;
    ch.nl = plan.lanes_in(g);
    ch.first = j == 0;
    ch.last = j == plan.P - 1;
  };
  const auto set_info = KOKKOS_LAMBDA(index_t s, int own) {
    info(s) = agreed_info(own, n, a, b, c, s);
  };
  launch_teams(exec, label, 1, threads,
               spike_scratch<T>::bytes(plan, threads, LB, spike_tile_values<T, LB>(plan)),
               KOKKOS_LAMBDA(const member_type& team, const index_t, void* scratch) {
                 spike_solve_team<T, LB>(team, plan, chunks, set_info, scratch);
               });
}

}  // namespace bandsolve::detail
