#pragma once
// Block Thomas on a group of L systems at once, one SIMD lane per system (CPU backends vectorize
// the lane loops; a GPU backend can run the same routines with L = 1 per thread). The block size
// M is a template parameter so every loop over block entries has a constant trip count.
// Valid in device code: no exceptions, no std:: calls, no allocation.
//
// Block row i (docs/algorithms.md, "Block-tridiagonal Thomas"): S = B_i - A_i C*_{i-1}; LU-factor S (optionally with partial
// pivoting inside the block), then solve S [C*_i | d*_i] = [C_i | d_i - A_i d*_{i-1}] with the
// factors: no inverse is formed. Back-substitution: x_{n-1} = d*_{n-1}, x_i = d*_i - C*_i x_{i+1}.
//
// Work arrays hold one value per lane innermost: entry (r, c) of an M x M block is at
// (r*M + c)*L + l. C* is kept transposed (column c of C* contiguous) so each column is solved in
// place. LU factors keep the unit-lower multipliers below the diagonal and 1/u_kk on it; the
// row interchanges are recorded LAPACK-style (piv[k] = row swapped with k at step k).
#include <bandsolve/backend/host_simd/pack_widths.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>

namespace bandsolve::detail {

// One operand (A, B, C or d) of a group of systems: lane l, block row i, entry (r, c) is at
// base[l*lane + i*row + r*r_stride + c*c_stride]. For right-hand sides c is the right-hand side.
template <class T>
struct block_group {
  T* base;
  index_t lane, row, r_stride, c_stride;
};

// ---------------------------------------------------------------------------------------------
// Loads and stores between a group's operand and lane-innermost work arrays. Lanes past nl (the
// last group of a batch) read lane 0's values, so they compute finite numbers, and are never
// stored.

template <int M, int L, bool Transposed, class T, class U>
KOKKOS_FORCEINLINE_FUNCTION void block_load(const block_group<U>& g, index_t i, int nl, T* out) {
  const U* p = g.base + i * g.row;
  if (g.lane == 1 && nl == L) {
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < M; ++c) {
        const U* q = p + r * g.r_stride + c * g.c_stride;
        T* o = out + (Transposed ? c * M + r : r * M + c) * L;
        BANDSOLVE_SIMD
        for (int l = 0; l < L; ++l) o[l] = q[l];
      }
  } else {
    for (int r = 0; r < M; ++r)
      for (int c = 0; c < M; ++c) {
        const U* q = p + r * g.r_stride + c * g.c_stride;
        T* o = out + (Transposed ? c * M + r : r * M + c) * L;
        BANDSOLVE_SIMD
        for (int l = 0; l < L; ++l) o[l] = q[(l < nl ? l : 0) * g.lane];
      }
  }
}

// Right-hand side k of block row i.
template <int M, int L, class T, class U>
KOKKOS_FORCEINLINE_FUNCTION void block_load_vec(const block_group<U>& g, index_t i, index_t k,
                                                int nl, T* out) {
  const U* p = g.base + i * g.row + k * g.c_stride;
  if (g.lane == 1 && nl == L) {
    for (int r = 0; r < M; ++r) {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) out[r * L + l] = p[r * g.r_stride + l];
    }
  } else {
    for (int r = 0; r < M; ++r) {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) out[r * L + l] = p[r * g.r_stride + (l < nl ? l : 0) * g.lane];
    }
  }
}

// Stores v into right-hand side k of block row i (Add: adds it there, solve_along_add's u).
template <int M, int L, class T, bool Add = false>
KOKKOS_FORCEINLINE_FUNCTION void block_store_vec(const block_group<T>& g, index_t i, index_t k,
                                                 int nl, const T* v) {
  T* p = g.base + i * g.row + k * g.c_stride;
  if (g.lane == 1 && nl == L) {
    for (int r = 0; r < M; ++r) {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) {
        if constexpr (Add)
          p[r * g.r_stride + l] += v[r * L + l];
        else
          p[r * g.r_stride + l] = v[r * L + l];
      }
    }
  } else {
    for (int r = 0; r < M; ++r) {
      BANDSOLVE_SIMD
      for (int l = 0; l < nl; ++l) {
        if constexpr (Add)
          p[r * g.r_stride + l * g.lane] += v[r * L + l];
        else
          p[r * g.r_stride + l * g.lane] = v[r * L + l];
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Software prefetch of the block row ahead of the one a one-shot sweep or a factorization
// eliminates. A column-layout group reads each block entry as a run of L values from pages far
// apart (3 M^2 + M runs per block row) and a row-layout group one run of M^2 values per lane:
// more streams than the hardware prefetchers follow. Interleaved packs stream and get no hints,
// nor do operands whose entries are not packed densely (lines along an axis of a larger array),
// nor blocks smaller than block_prefetch_min_size, whose streams the hardware follows (the hints
// measured the same or 3-5% slower there: docs/performance.md, "Block Thomas: pivot search and
// prefetch"). The factored solve reads its factors as one stream and M runs of d: no hints.

inline constexpr index_t block_prefetch_ahead = 1;  // block rows
inline constexpr int block_prefetch_min_size = 4;

// Requests the Rows x Cols entries of operand g from offset `first` (a block row's first entry)
// in every lane.
template <int Rows, int Cols, int L, class U>
KOKKOS_FORCEINLINE_FUNCTION void block_prefetch_entries(const block_group<U>& g, index_t first,
                                                        int nl) {
  if constexpr (Rows < block_prefetch_min_size) return;
  const U* p = g.base + first;
  if (g.lane == 1) {
    const bool packed = (Cols == 1 || g.c_stride == L) && g.r_stride == Cols * L;
    if (packed) return;
    for (int r = 0; r < Rows; ++r)
      for (int c = 0; c < Cols; ++c)
        for (int line = 0; line < pack_lines_v<U, L>; ++line)
          BANDSOLVE_PREFETCH(reinterpret_cast<const char*>(p + r * g.r_stride + c * g.c_stride) +
                             64 * line);
  } else {
    const index_t span = (Rows - 1) * g.r_stride + (Cols - 1) * g.c_stride + 1;
    if (span > Rows * Cols) return;
    const index_t bytes = span * static_cast<index_t>(sizeof(U));
    for (int l = 0; l < nl; ++l) {
      const char* run = reinterpret_cast<const char*>(p + l * g.lane);
      for (index_t b = 0; b < bytes; b += 64) BANDSOLVE_PREFETCH(run + b);
      BANDSOLVE_PREFETCH(run + bytes - 1);
    }
  }
}

// Block row i of a coefficient operand.
template <int M, int L, class U>
KOKKOS_FORCEINLINE_FUNCTION void block_prefetch_matrix(const block_group<U>& g, index_t i,
                                                       int nl) {
  block_prefetch_entries<M, M, L>(g, i * g.row, nl);
}

// Block row i of right-hand sides 0 .. nrhs-1.
template <int M, int L, class U>
KOKKOS_FORCEINLINE_FUNCTION void block_prefetch_rhs(const block_group<U>& g, index_t i,
                                                    index_t nrhs, int nl) {
  for (index_t k = 0; k < nrhs; ++k)
    block_prefetch_entries<M, 1, L>(g, i * g.row + k * g.c_stride, nl);
}

// ---------------------------------------------------------------------------------------------
// Dense M x M kernels on lane-innermost arrays.
// Those on right-hand sides (matrix-vector products, block_lu_solve) keep their lane loops
// rolled under Clang (BANDSOLVE_SIMD_ROLLED): its factored solve ran 1.7-2x faster so.

// S -= A * C, with C given transposed (ct[c][t] = C[t][c]).
template <int M, int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void block_sub_product(T* s, const T* a, const T* ct) {
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < M; ++c) {
      T* sv = s + (r * M + c) * L;
      for (int t = 0; t < M; ++t) {
        const T* av = a + (r * M + t) * L;
        const T* cv = ct + (c * M + t) * L;
        BANDSOLVE_SIMD
        for (int l = 0; l < L; ++l) sv[l] = minus_product(sv[l], av[l], cv[l]);
      }
    }
}

// v -= A w (A row-major). Vectors may be complex over real matrices (D = complex<T>).
template <int M, int L, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void block_sub_matvec(D* v, const T* a, const D* w) {
  for (int r = 0; r < M; ++r)
    for (int t = 0; t < M; ++t) {
      const T* av = a + (r * M + t) * L;
      BANDSOLVE_SIMD_ROLLED
      for (int l = 0; l < L; ++l) v[r * L + l] = minus_product(v[r * L + l], av[l], w[t * L + l]);
    }
}

// v -= C w with C given transposed.
template <int M, int L, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void block_sub_matvec_transposed(D* v, const T* ct, const D* w) {
  for (int t = 0; t < M; ++t)
    for (int r = 0; r < M; ++r) {
      const T* cv = ct + (t * M + r) * L;
      BANDSOLVE_SIMD_ROLLED
      for (int l = 0; l < L; ++l) v[r * L + l] = minus_product(v[r * L + l], cv[l], w[t * L + l]);
    }
}

// LU factorization of S in place (see the header comment); info[l] gets row + 1 at the first
// zero, tiny or non-finite pivot of lane l (a singular block with pivoting: a zero column).
// Pivots are chosen, and complex ones measured, by |re| + |im| (LAPACK's cabs1).
template <int M, int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void block_lu(T* s, T* piv, bool pivoting, index_t row, int* info) {
  for (int k = 0; k < M; ++k) {
    T* skk = s + (k * M + k) * L;
    if (pivoting) {
      // The search runs candidate by candidate over all lanes: a lane loop around the candidates
      // (a trip count that depends on k) is left scalar by GCC for M >= 3. Operands are loaded
      // before the selects so that GCC if-converts them.
      T* pk = piv + k * L;
      alignas(64) real_type_t<T> best[static_cast<std::size_t>(L)];
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) {
        best[l] = magnitude1(skk[l]);
        pk[l] = T(static_cast<real_type_t<T>>(k));
      }
      for (int q = k + 1; q < M; ++q) {
        const T* sqk = s + (q * M + k) * L;
        const T at_q = T(static_cast<real_type_t<T>>(q));
        BANDSOLVE_SIMD
        for (int l = 0; l < L; ++l) {
          const real_type_t<T> candidate = magnitude1(sqk[l]), so_far = best[l];
          const T at = pk[l];
          const bool larger = candidate > so_far;
          best[l] = larger ? candidate : so_far;
          pk[l] = larger ? at_q : at;
        }
      }
      // Whole rows are swapped (multipliers included), as LAPACK's getrf does.
      for (int q = k + 1; q < M; ++q)
        for (int j = 0; j < M; ++j) {
          T* x = s + (k * M + j) * L;
          T* y = s + (q * M + j) * L;
          BANDSOLVE_SIMD
          for (int l = 0; l < L; ++l) {
            const bool swap = pk[l] == T(static_cast<real_type_t<T>>(q));
            const T xv = x[l], yv = y[l];
            x[l] = swap ? yv : xv;
            y[l] = swap ? xv : yv;
          }
        }
    }
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      info[l] = update_info(info[l], skk[l], row);
      skk[l] = reciprocal(skk[l]);
    }
    for (int q = k + 1; q < M; ++q) {
      T* sqk = s + (q * M + k) * L;
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) sqk[l] = product(sqk[l], skk[l]);
      for (int j = k + 1; j < M; ++j) {
        T* sqj = s + (q * M + j) * L;
        const T* skj = s + (k * M + j) * L;
        BANDSOLVE_SIMD
        for (int l = 0; l < L; ++l) sqj[l] = minus_product(sqj[l], sqk[l], skj[l]);
      }
    }
  }
}

// v <- S^-1 v with the factors of block_lu (piv is read only when pivoting).
template <int M, int L, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void block_lu_solve(const T* s, const T* piv, bool pivoting, D* v) {
  if (pivoting) {
    for (int k = 0; k < M; ++k)
      for (int q = k + 1; q < M; ++q) {
        const T* pk = piv + k * L;
        BANDSOLVE_SIMD_ROLLED
        for (int l = 0; l < L; ++l) {
          const bool swap = pk[l] == T(static_cast<real_type_t<T>>(q));
          const D xv = v[k * L + l], yv = v[q * L + l];
          v[k * L + l] = swap ? yv : xv;
          v[q * L + l] = swap ? xv : yv;
        }
      }
  }
  for (int k = 0; k < M; ++k)
    for (int q = k + 1; q < M; ++q) {
      const T* sqk = s + (q * M + k) * L;
      BANDSOLVE_SIMD_ROLLED
      for (int l = 0; l < L; ++l) v[q * L + l] = minus_product(v[q * L + l], sqk[l], v[k * L + l]);
    }
  for (int k = M - 1; k >= 0; --k) {
    for (int t = k + 1; t < M; ++t) {
      const T* skt = s + (k * M + t) * L;
      BANDSOLVE_SIMD_ROLLED
      for (int l = 0; l < L; ++l) v[k * L + l] = minus_product(v[k * L + l], skt[l], v[t * L + l]);
    }
    const T* skk = s + (k * M + k) * L;
    BANDSOLVE_SIMD_ROLLED
    for (int l = 0; l < L; ++l) v[k * L + l] = product(v[k * L + l], skk[l]);
  }
}

// ---------------------------------------------------------------------------------------------
// Sweeps of one group.

// Forward step of block row i on the coefficients: s holds B_i, a holds A_i (read when i > 0),
// ct holds C_i transposed (when i + 1 < n), ct_prev C*_{i-1}. On return s holds the factors of
// S_i, piv its interchanges and ct C*_i.
template <int M, int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void block_row_factor(index_t i, index_t n, bool pivoting, T* s,
                                                  const T* a, T* ct, const T* ct_prev, T* piv,
                                                  int* info) {
  if (i > 0) block_sub_product<M, L>(s, a, ct_prev);
  block_lu<M, L>(s, piv, pivoting, i, info);
  if (i + 1 < n)
    for (int c = 0; c < M; ++c) block_lu_solve<M, L>(s, piv, pivoting, ct + c * M * L);
}

// Forward step of block row i on every right-hand side: d*_i = S_i^-1 (d_i - A_i d*_{i-1}), d_i
// read from `in` and d*_i written to d (in is d for a solve in place).
template <int M, int L, class T, class D, class In>
KOKKOS_FORCEINLINE_FUNCTION void block_row_rhs(index_t i, index_t nrhs, int nl, bool pivoting,
                                               const T* s, const T* a, const T* piv,
                                               const block_group<In>& in,
                                               const block_group<D>& d) {
  alignas(64) D v[static_cast<std::size_t>(M * L)], w[static_cast<std::size_t>(M * L)];
  for (index_t k = 0; k < nrhs; ++k) {
    block_load_vec<M, L>(in, i, k, nl, v);
    if (i > 0) {
      block_load_vec<M, L>(d, i - 1, k, nl, w);
      block_sub_matvec<M, L>(v, a, w);
    }
    block_lu_solve<M, L>(s, piv, pivoting, v);
    block_store_vec<M, L>(d, i, k, nl, v);
  }
}

// Back-substitution x_i = d*_i - C*_i x_{i+1} in place in d; C*_i (transposed) at
// ct0 + i*ct_row.
template <int M, int L, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void block_backward(index_t n, index_t nrhs, int nl, const T* ct0,
                                                index_t ct_row, const block_group<D>& d) {
  alignas(64) D v[static_cast<std::size_t>(M * L)], w[static_cast<std::size_t>(M * L)];
  for (index_t i = n - 2; i >= 0; --i) {
    const T* ct = ct0 + i * ct_row;
    for (index_t k = 0; k < nrhs; ++k) {
      block_load_vec<M, L>(d, i + 1, k, nl, w);
      block_load_vec<M, L>(d, i, k, nl, v);
      block_sub_matvec_transposed<M, L>(v, ct, w);
      block_store_vec<M, L>(d, i, k, nl, v);
    }
  }
}

// Back-substitution into d*'s rows (as block_backward) with each x_i also added into u (one
// right-hand side).
template <int M, int L, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void block_backward_add(index_t n, int nl, const T* ct0,
                                                    index_t ct_row, const block_group<D>& d,
                                                    const block_group<D>& u) {
  alignas(64) D v[static_cast<std::size_t>(M * L)], w[static_cast<std::size_t>(M * L)];
  block_load_vec<M, L>(d, n - 1, 0, nl, w);
  block_store_vec<M, L, D, true>(u, n - 1, 0, nl, w);
  for (index_t i = n - 2; i >= 0; --i) {
    block_load_vec<M, L>(d, i, 0, nl, v);
    block_sub_matvec_transposed<M, L>(v, ct0 + i * ct_row, w);
    block_store_vec<M, L, D, true>(u, i, 0, nl, v);
    for (int e = 0; e < M * L; ++e) w[e] = v[e];
  }
}

// The forward sweep of a group: C* goes to `cstar` (n * M * M * L values), d* of the
// right-hand sides read from `in` to `out` (in is out for a solve in place).
template <int M, int L, class T, class In, class D>
KOKKOS_FORCEINLINE_FUNCTION void block_forward_group(index_t n, index_t nrhs, int nl,
                                                     bool pivoting, const block_group<const T>& a,
                                                     const block_group<const T>& b,
                                                     const block_group<const T>& c,
                                                     const block_group<In>& in,
                                                     const block_group<D>& out, T* cstar,
                                                     int* info) {
  constexpr index_t MML = M * M * L;
  // am is read only for i > 0; it starts zeroed because GCC cannot see that and warns
  // (-Wmaybe-uninitialized) at -O3.
  constexpr auto mml = static_cast<std::size_t>(MML);  // an array bound
  alignas(64) T s[mml], am[mml] = {}, piv[static_cast<std::size_t>(M * L)];
  for (index_t i = 0; i < n; ++i) {
    T* ct = cstar + i * MML;
    if (i + block_prefetch_ahead < n) {
      const index_t ahead = i + block_prefetch_ahead;
      block_prefetch_matrix<M, L>(b, ahead, nl);
      block_prefetch_matrix<M, L>(a, ahead, nl);
      block_prefetch_matrix<M, L>(c, ahead, nl);
      block_prefetch_rhs<M, L>(in, ahead, nrhs, nl);
    }
    block_load<M, L, false>(b, i, nl, s);
    if (i > 0) block_load<M, L, false>(a, i, nl, am);
    if (i + 1 < n) block_load<M, L, true>(c, i, nl, ct);
    block_row_factor<M, L>(i, n, pivoting, s, am, ct, i > 0 ? ct - MML : ct, piv, info);
    block_row_rhs<M, L>(i, nrhs, nl, pivoting, s, am, piv, in, out);
  }
}

// One-shot solve of a group: C* goes to `cstar` (n * M * M * L values), d* and then x to d
// (of the coefficients' type T, or complex over real T).
template <int M, int L, class T, class D>
KOKKOS_INLINE_FUNCTION void block_thomas_solve_group(index_t n, index_t nrhs, int nl,
                                                     bool pivoting, const block_group<const T>& a,
                                                     const block_group<const T>& b,
                                                     const block_group<const T>& c,
                                                     const block_group<D>& d, T* cstar,
                                                     int* info) {
  block_forward_group<M, L>(n, nrhs, nl, pivoting, a, b, c, d, d, cstar, info);
  block_backward<M, L>(n, nrhs, nl, cstar, M * M * L, d);
}

// u += x of a group with one right-hand side d (only read): d* goes to `dstar` (n * M * L values
// of D, lane-innermost), C* to `cstar` as in block_thomas_solve_group, and x is added into u on
// the way back.
template <int M, int L, class T, class D>
KOKKOS_INLINE_FUNCTION void block_thomas_solve_group_add(
    index_t n, int nl, bool pivoting, const block_group<const T>& a, const block_group<const T>& b,
    const block_group<const T>& c, const block_group<const D>& d, const block_group<D>& u,
    T* cstar, D* dstar, int* info) {
  const block_group<D> ds{dstar, 1, M * L, L, 0};
  block_forward_group<M, L>(n, 1, nl, pivoting, a, b, c, d, ds, cstar, info);
  block_backward_add<M, L>(n, nl, cstar, M * M * L, ds, u);
}

// Words per block row and lane of a stored factorization: A_i, the LU factors of S_i, C*_i
// (transposed) and the interchanges.
template <int M>
inline constexpr index_t block_factor_words = 3 * M * M + M;

// Factorization of a group into f (n rows of block_factor_words<M> * L values).
template <int M, int L, class T>
KOKKOS_INLINE_FUNCTION void block_thomas_factor_group(index_t n, int nl, bool pivoting,
                                                      const block_group<const T>& a,
                                                      const block_group<const T>& b,
                                                      const block_group<const T>& c, T* f,
                                                      int* info) {
  constexpr index_t MML = M * M * L, row = block_factor_words<M> * L;
  for (index_t i = 0; i < n; ++i) {
    T* fa = f + i * row;
    T* fs = fa + MML;
    T* fc = fs + MML;
    T* fp = fc + MML;
    if (i + block_prefetch_ahead < n) {
      block_prefetch_matrix<M, L>(b, i + block_prefetch_ahead, nl);
      block_prefetch_matrix<M, L>(a, i + block_prefetch_ahead, nl);
      block_prefetch_matrix<M, L>(c, i + block_prefetch_ahead, nl);
    }
    block_load<M, L, false>(b, i, nl, fs);
    if (i > 0) block_load<M, L, false>(a, i, nl, fa);
    if (i + 1 < n) block_load<M, L, true>(c, i, nl, fc);
    block_row_factor<M, L>(i, n, pivoting, fs, fa, fc, i > 0 ? fc - row : fc, fp, info);
  }
}

// Solve of a group with the stored factorization f (d of f's type, or complex over real f).
template <int M, int L, class T, class D>
KOKKOS_INLINE_FUNCTION void block_thomas_factored_solve_group(index_t n, index_t nrhs, int nl,
                                                              bool pivoting, const T* f,
                                                              const block_group<D>& d) {
  constexpr index_t MML = M * M * L, row = block_factor_words<M> * L;
  for (index_t i = 0; i < n; ++i) {
    const T* fa = f + i * row;
    block_row_rhs<M, L>(i, nrhs, nl, pivoting, fa + MML, fa, fa + 3 * MML, d, d);
  }
  block_backward<M, L>(n, nrhs, nl, f + 2 * MML, row, d);
}

// u += x of a group from its factors, one right-hand side d (only read); d* in `dstar` (n * M * L
// values of D), as block_thomas_solve_group_add.
template <int M, int L, class T, class D>
KOKKOS_INLINE_FUNCTION void block_thomas_factored_solve_group_add(index_t n, int nl,
                                                                  bool pivoting, const T* f,
                                                                  const block_group<const D>& d,
                                                                  const block_group<D>& u,
                                                                  D* dstar) {
  constexpr index_t MML = M * M * L, row = block_factor_words<M> * L;
  const block_group<D> ds{dstar, 1, M * L, L, 0};
  for (index_t i = 0; i < n; ++i) {
    const T* fa = f + i * row;
    block_row_rhs<M, L>(i, 1, nl, pivoting, fa + MML, fa, fa + 3 * MML, d, ds);
  }
  block_backward_add<M, L>(n, nl, f + 2 * MML, row, ds, u);
}

}  // namespace bandsolve::detail
