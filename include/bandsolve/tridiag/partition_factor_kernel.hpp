#pragma once
// Kernels of the factored partition solve (thomas_pcr_factor.hpp): the LU factors of Thomas
// (without pivoting) stored so that chunks of one system are solved in parallel.
//
// Per system, LU: pivot u_i = b_i - a_i c'_{i-1}, r_i = 1/u_i, c'_i = c_i / u_i, and the
// multiplier mu_i = a_i r_{i-1} (mu_0 = 0, c'_{n-1} = 0). Thomas's sweeps are then
//   e_i = d_i - mu_i e_{i-1}          (forward, e_{-1} = 0)
//   x_i = r_i e_i - c'_i x_{i+1}      (backward, x_n = 0).
// Cut into chunks of rows [s, s + m), both are first-order recurrences, so each chunk's
// share is a linear function of its own d and of one incoming value:
//   E_j = eloc_j + Pi_j E_{j-1}                 (E_j: e at the chunk's last row; eloc_j: the
//                                                 forward sweep of the chunk from e_{s-1} = 0)
//   X_j = xloc_j + sigma_j E_{j-1} + Gamma_j X_{j+1}   (X_j: x at the chunk's first row)
// with the per-chunk factors Pi = prod (-mu_i), Gamma = prod (-c'_i), sigma = sum_i w_i r_i pi_i
// (w_i = prod_{k<i} (-c'_k), pi_i = prod_{k<=i} (-mu_k), k from s), and xloc_j = sum_i q_i d_i,
// q_i = w_i r_i - mu_{i+1} q_{i+1} (q_{s+m-1} = w r there): a dot product with a stored vector.
// The solve:
//   pass 1   per chunk: eloc (the forward recurrence, reads d and mu) and xloc (reads q): 3 words
//            per unknown, no division;
//   reduced  per system: the two scans above over its chunks (forward for E, backward for X);
//   pass 2   per chunk: Thomas's two sweeps from E_{j-1} and X_{j+1} (reads d, mu, r, c'; r e
//            in an L1-resident tile between them; writes x): 5 words per unknown.
// 8 words per unknown in all (Thomas's factored solve: 5, but one sequential sweep per system;
// the one-shot hybrid: 9 and two divisions per row). Lanes: LB systems side by side (a lane
// block of partition_lanes.hpp) run SIMD, K chunks at once; the factors are stored per block,
// row by row, LB lanes per row, in the order the solve's items take them (factor_chunk_offset),
// the chunk factors [block][chunk][lane].
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/tridiag/partition_factor_complex.hpp>
#include <bandsolve/tridiag/partition_lanes.hpp>

namespace bandsolve::detail {

// One chunk of LB lanes as a chain of a factored sweep: d at its first row (lane l at +l, rows
// rsd apart), the factors at its first row (lane l at +l, rows fs apart), its reduced values
// (eloc and xloc in pass 1; E_{j-1} and X_{j+1} in pass 2, lane l at +l), its lanes in use.
template <class T>
struct factored_chain {
  T* d = nullptr;
  const T *mu = nullptr, *r = nullptr, *cp = nullptr, *q = nullptr;
  T* el = nullptr;        // pass 1: eloc out
  T* xl = nullptr;        // pass 1: xloc out
  const T* e_in = nullptr;  // pass 2: E_{j-1}
  const T* x_in = nullptr;  // pass 2: X_{j+1}
  int nl = 0;
};

// Pass 1 on K chunks of m rows: eloc and xloc of every lane.
template <int LB, int K, bool Full, bool Padded, class T>
KOKKOS_INLINE_FUNCTION void factored_reduce(const factored_chain<T>* ch, index_t rsd, index_t fs,
                                            index_t m) {
  constexpr int V = K * LB;
  T e[static_cast<std::size_t>(V)], x[static_cast<std::size_t>(V)];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    const int nl = ch[k].nl;
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      const T d0 = partition_load<Full, Padded>(ch[k].d, l, nl, T(0));
      e[k * LB + l] = d0;
      x[k * LB + l] = ch[k].q[l] * d0;
    }
  }
  for (index_t i = 1; i < m; ++i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const T* pd = ch[k].d + i * rsd;
      const T *pm = ch[k].mu + i * fs, *pq = ch[k].q + i * fs;
      BANDSOLVE_PREFETCH(pd + partition_prefetch_rows * rsd);
      BANDSOLVE_PREFETCH(pm + partition_prefetch_rows * fs);
      BANDSOLVE_PREFETCH(pq + partition_prefetch_rows * fs);
      const int nl = ch[k].nl;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l) {
        const int v = k * LB + l;
        const T di = partition_load<Full, Padded>(pd, l, nl, T(0));
        e[v] = di - pm[l] * e[v];
        x[v] += pq[l] * di;
      }
    }
  }
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      ch[k].el[l] = e[k * LB + l];
      ch[k].xl[l] = x[k * LB + l];
    }
  }
}

// Pass 2 on K chunks of m rows: the forward sweep from E_{j-1} (r e into the tile tt, K LB m
// values), then the backward one from X_{j+1} (c' read from the factors), x into d (lanes < nl).
template <int LB, int K, bool Full, bool Padded, class T>
KOKKOS_INLINE_FUNCTION void factored_recover(const factored_chain<T>* ch, index_t rsd, index_t fs,
                                             index_t m, T* tt) {
  constexpr int V = K * LB;
  T e[static_cast<std::size_t>(V)];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) e[k * LB + l] = ch[k].e_in[l];
  }
  for (index_t i = 0; i < m; ++i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      const T* pd = ch[k].d + i * rsd;
      const T *pm = ch[k].mu + i * fs, *pr = ch[k].r + i * fs, *pc = ch[k].cp + i * fs;
      BANDSOLVE_PREFETCH(pd + partition_prefetch_rows * rsd);
      BANDSOLVE_PREFETCH(pm + partition_prefetch_rows * fs);
      BANDSOLVE_PREFETCH(pr + partition_prefetch_rows * fs);
      BANDSOLVE_PREFETCH(pc);  // for the backward sweep
      T* const tti = tt + (i * K + k) * LB;
      const int nl = ch[k].nl;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l) {
        const int v = k * LB + l;
        e[v] = partition_load<Full, Padded>(pd, l, nl, T(0)) - pm[l] * e[v];
        tti[l] = pr[l] * e[v];
      }
    }
  }
  T x[static_cast<std::size_t>(V)];
  BANDSOLVE_UNROLL(16)
  for (int k = 0; k < K; ++k) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) x[k * LB + l] = ch[k].x_in[l];
  }
  for (index_t i = m - 1; i >= 0; --i) {
    BANDSOLVE_UNROLL(16)
    for (int k = 0; k < K; ++k) {
      T* const px = ch[k].d + i * rsd;
      const T* const tti = tt + (i * K + k) * LB;
      const T* const pc = ch[k].cp + i * fs;
      const int nl = ch[k].nl;
      BANDSOLVE_SIMD
      for (int l = 0; l < LB; ++l) {
        const int v = k * LB + l;
        x[v] = tti[l] - pc[l] * x[v];
        partition_store<Full, Padded>(px, l, nl, x[v]);
      }
    }
  }
}

// The two scans of one block's reduced values over its P chunks (chunk j's values at + j cs,
// lane l at + l): el becomes E_j, xl becomes X_j.
template <int LB, class T>
KOKKOS_INLINE_FUNCTION void factored_scans(index_t P, index_t cs, const T* pi, const T* sigma,
                                           const T* gamma, T* el, T* xl) {
  T e[static_cast<std::size_t>(LB)], x[static_cast<std::size_t>(LB)];
  BANDSOLVE_SIMD
  for (int l = 0; l < LB; ++l) e[l] = T(0);
  for (index_t j = 0; j < P; ++j) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      e[l] = el[j * LB + l] + pi[j * cs + l] * e[l];
      el[j * LB + l] = e[l];
    }
  }
  BANDSOLVE_SIMD
  for (int l = 0; l < LB; ++l) x[l] = T(0);
  for (index_t j = P - 1; j >= 0; --j) {
    BANDSOLVE_SIMD
    for (int l = 0; l < LB; ++l) {
      const T before = j > 0 ? el[(j - 1) * LB + l] : T(0);
      x[l] = xl[j * LB + l] + sigma[j * cs + l] * before + gamma[j * cs + l] * x[l];
      xl[j * LB + l] = x[l];
    }
  }
}

// Where the factors of block g's chunk j start (lane 0 of its first row; its rows follow LB
// values apart): chunk by chunk, the blocks of a chunk one after the other, where the solve's
// items go chunk-major (partition_plan::chunk_major), so that its factor reads are one stream;
// else block by block ([block][row][lane]).
KOKKOS_INLINE_FUNCTION index_t factor_chunk_offset(const partition_plan& p, index_t g, index_t j) {
  if (!p.chunk_major) return (g * p.n + j * p.M) * p.lanes;
  const index_t m = j == p.P - 1 ? p.mlast : p.M;
  return (j * p.M * p.blocks + g * m) * p.lanes;
}

// The factorization of block g of plan p (LB lanes, nl in use; the others get the identity),
// rows [0, n) in chunks. a, b, c: lane l, row i at p[i * rs + l] (lane_array). Writes mu, r, c',
// q (at factor_chunk_offset) and, from pi, sigma, gamma on, the block's chunk factors
// ([chunk][lane]); bad[l]: the 1-based row of lane l's first zero, tiny or non-finite pivot
// (Thomas's, computed as lu_pivot_row does), 0 if none.
template <int LB, class T>
KOKKOS_INLINE_FUNCTION void factor_block(const partition_plan& p, index_t g, int nl,
                                         const lane_array<const T>& a, const lane_array<const T>& b,
                                         const lane_array<const T>& c, T* mu, T* r, T* cp, T* q,
                                         T* pi, T* sigma, T* gamma, int* bad) {
  const index_t n = p.n, M = p.M, P = p.P;
  T cprev[static_cast<std::size_t>(LB)], rprev[static_cast<std::size_t>(LB)];
  for (int l = 0; l < LB; ++l) {
    cprev[l] = T(0);
    rprev[l] = T(0);
    bad[l] = 0;
  }
  for (index_t j = 0; j < P; ++j) {
    const index_t s = j * M, m = j == P - 1 ? p.mlast : M;
    const index_t base = factor_chunk_offset(p, g, j) - s * LB;  // row i at base + i LB
    constexpr auto lane_count = static_cast<std::size_t>(LB);  // an array bound
    T w[lane_count], pr[lane_count], sg[lane_count];
    for (int l = 0; l < LB; ++l) {
      w[l] = T(1);
      pr[l] = T(1);
      sg[l] = T(0);
    }
    for (index_t i = s; i < s + m; ++i) {
      for (int l = 0; l < LB; ++l) {
        const bool in = l < nl;
        const T A = in && i > 0 ? a.at(i, l) : T(0);
        const T B = in ? b.at(i, l) : T(1);
        const T C = in && i + 1 < n ? c.at(i, l) : T(0);
        const T pivot = B - A * cprev[l];
        if (bad[l] == 0 && !pivot_is_good(pivot)) bad[l] = static_cast<int>(i + 1);
        const T ri = reciprocal(pivot);
        const T mi = A * rprev[l];
        const T ci = C / pivot;
        const index_t k = base + i * LB + l;
        mu[k] = mi;
        r[k] = ri;
        cp[k] = ci;
        pr[l] = -mi * pr[l];
        sg[l] += w[l] * ri * pr[l];
        q[k] = w[l] * ri;  // w r for now; the backward loop below makes it q
        w[l] = -ci * w[l];
        cprev[l] = ci;
        rprev[l] = ri;
      }
    }
    for (int l = 0; l < LB; ++l) {
      pi[j * LB + l] = pr[l];
      sigma[j * LB + l] = sg[l];
      gamma[j * LB + l] = w[l];
    }
    for (index_t i = s + m - 2; i >= s; --i)
      for (int l = 0; l < LB; ++l) {
        const index_t k = base + i * LB + l;
        q[k] -= mu[k + LB] * q[k + LB];
      }
  }
}

// A plan of at least one chunk (systems shorter than a chunk are one chunk of n rows).
inline partition_plan at_least_one_chunk(partition_plan p) {
  if (p.P < 1) {
    p.P = 1;
    p.mlast = p.n;
    p.items = p.blocks;
    p.R = 2;
  }
  return p;
}

// Where system s's factors lie: block and lane of a factor plan.
KOKKOS_INLINE_FUNCTION void factor_slot(const partition_plan& p, index_t s, index_t& g, int& l) {
  const index_t u = s / p.unit, within = s % p.unit;
  g = u * p.blocks_per_unit + within / p.lanes;
  l = static_cast<int>(within % p.lanes);
}

}  // namespace bandsolve::detail
