#pragma once
// The local passes of the partitioned block Thomas algorithm: the scalar partition method
// (partition_kernel.hpp) with m x m blocks, one system per work item on the host execution spaces
// (Views read and written through block_at: rank-4 Views or interleaved packs).
//
// A rank holds block rows 0 .. n-1 of a line (global rows offset .. offset+n-1); x_{-1} and x_n
// belong to the neighbouring ranks. Row i reads A_i x_{i-1} + B_i x_i + C_i x_{i+1} = d_i.
//   forward   rows 0 and 1 multiplied by the inverse of their diagonal block; for i >= 2, with
//             P_i = B_i - A_i C'_{i-1}: C'_i = P_i^-1 C_i, d'_i = P_i^-1 (d_i - A_i d'_{i-1}),
//             A'_i = -P_i^-1 A_i A'_{i-1} (A'_i: the coefficient of x_0 in row i; for row 0
//             that of x_{-1});
//   backward  for i = n-3 .. 1: d'_i -= C'_i d'_{i+1}, A'_i -= C'_i A'_{i+1}, C'_i = -C'_i C'_{i+1}
//             (C'_i: now the coefficient of x_{n-1}; on temporaries, the forward rows are kept);
//   row 0     (n >= 3) x_1 eliminated with row 1, multiplied by E^-1, E = I - C'_0 A'_1.
// Rows 0 and n-1 are then A'_0 x_{-1} + x_0 + C'_0 x_{n-1} = d'_0 and
// A'_{n-1} x_0 + x_{n-1} + C'_{n-1} x_n = d'_{n-1}: two block rows of the reduced system, which
// has identity diagonal blocks and 2 block rows per rank (one for a rank of one row). No inverse
// is formed: each block is LU-factored (block_thomas_kernel.hpp's block_lu, with partial pivoting
// inside the block when asked) and the right-hand blocks are solved column by column.
// The pass is split in two: the matrices' part (block_factor_system) keeps per block row the
// forward A'_i, C'_i (and E's LU factors per line); the right-hand side's part (forward steps
// block_rhs_forward_row, then block_rhs_backward) leaves the forward d'_i in d. The one-shot
// solve runs the forward steps inside the matrices' pass, row by row, while each P_i's factors
// are in registers; a factorization (block_factorize.hpp) keeps P_i's LU factors and A_i too
// (4m^2 + m words per block row) and runs the right-hand side's part alone per solve. Finish sets
// x_i = d'_i - A'_i x_0 - C'_i x_{i+1} for i = n-2 .. 1.
//
// Info codes: the global 1-based block row of the first bad pivot (core/pivot.hpp) the LU
// factorizations meet in this order: B_0, B_1, P_2 .. P_{n-1}, then E (counted as row 0).
//
// Blocks in the work arrays are column-major (entry (r, c) at c*M + r), so each column of a
// right-hand block is one vector for block_lu_solve.
#include <bandsolve/block/block_layout.hpp>
#include <bandsolve/block/block_thomas_kernel.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>

#include <Kokkos_Core.hpp>

namespace bandsolve::mpi::detail {

// This rank's part of the block lines: n block rows from global block row offset; the first rank
// ignores A_0 and the last C_{n-1} (read as 0), as the single-process solve does.
struct block_part {
  index_t n = 0, offset = 0;
  bool first = false, last = false;
  bool pivoting = false;
  // Reduced block rows of this rank per line (1 or 2).
  KOKKOS_INLINE_FUNCTION int reduced_rows() const { return n == 1 ? 1 : 2; }
};

// Words of one reduced block row of the one-shot solve: A, C column-major, then d (nrhs
// right-hand sides of m words each).
KOKKOS_INLINE_FUNCTION constexpr int block_row_words(int m, int nrhs = 1) {
  return 2 * m * m + m * nrhs;
}

// Component r of block row i of system s, right-hand side k, of d: one right-hand side per
// system (rank 3, or View<T***[W]> packs; k = 0) or several (rank 4, or View<T****[W]> packs).
// The MPI block solves' checks (block_solve.hpp) admit no rank-4 View with a static last extent
// but packs, so the rank and that extent tell the kinds apart.
template <class DView>
KOKKOS_INLINE_FUNCTION typename DView::reference_type rhs_at(const DView& d, index_t s, index_t i,
                                                             int r, int k) {
  constexpr int W4 = bandsolve::detail::static_pack_width<DView, 4>();
  constexpr int W5 = bandsolve::detail::static_pack_width<DView, 5>();
  if constexpr (W5 > 0)
    return d(s / W5, i, r, k, s % W5);
  else if constexpr (W4 > 0)
    return d(s / W4, i, r, s % W4);
  else if constexpr (DView::rank == 4)
    return d(s, i, r, k);
  else
    return d(s, i, r);
}

// Block (s, i) of a coefficient View (rank 4, or interleaved packs) into out (column-major), or
// zero when !use.
template <int M, class View, class T>
KOKKOS_INLINE_FUNCTION void load_block(const View& v, index_t s, index_t i, bool use, T* out) {
  for (int c = 0; c < M; ++c)
    for (int r = 0; r < M; ++r) out[c * M + r] = use ? T(bandsolve::block_at(v, s, i, r, c)) : T(0);
}

// x -= A y (all M x M, column-major).
template <int M, class T>
KOKKOS_INLINE_FUNCTION void block_sub_mul(T* x, const T* a, const T* y) {
  for (int c = 0; c < M; ++c)
    for (int t = 0; t < M; ++t) {
      const T ytc = y[c * M + t];
      for (int r = 0; r < M; ++r) x[c * M + r] -= a[t * M + r] * ytc;
    }
}

// v -= A w (A column-major).
template <int M, class T>
KOKKOS_INLINE_FUNCTION void block_sub_mv(T* v, const T* a, const T* w) {
  for (int t = 0; t < M; ++t)
    for (int r = 0; r < M; ++r) v[r] -= a[t * M + r] * w[t];
}

// X <- S^-1 X for an M x M column-major X, with the factors of block_lu.
template <int M, class T>
KOKKOS_INLINE_FUNCTION void block_solve_columns(const T* lu, const T* piv, bool pivoting, T* x) {
  for (int c = 0; c < M; ++c) bandsolve::detail::block_lu_solve<M, 1>(lu, piv, pivoting, x + c * M);
}

// S (column-major) in, its LU factors out in place in block_lu's row-major storage (what
// block_lu_solve reads); info gets the code of its pivots at `row`.
template <int M, class T>
KOKKOS_INLINE_FUNCTION void block_factor(T* s, T* piv, bool pivoting, index_t row, int& info) {
  T rm[M * M];
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < M; ++c) rm[r * M + c] = s[c * M + r];
  bandsolve::detail::block_lu<M, 1>(rm, piv, pivoting, row, &info);
  for (int k = 0; k < M * M; ++k) s[k] = rm[k];
}

// Words kept per block row: the forward A'_i, C'_i (column-major) for finish, and for a
// factorization also the LU factors of P_i (block_lu's row-major storage), its pivots and A_i as
// given (what the right-hand side's forward step needs). Per system: n rows, then E's LU factors
// and pivots (parts of 3 rows or more).
template <int M, bool Factored>
inline constexpr int block_kept_row_words = Factored ? 4 * M * M + M : 2 * M * M;
KOKKOS_INLINE_FUNCTION constexpr index_t block_kept_words(int m, int row_words, index_t n) {
  return n * row_words + m * m + m;
}

// The right-hand side's forward step of block row i over right-hand side k of d:
// d'_i = P_i^-1 (d_i - A_i d'_{i-1}) (rows 0 and 1: P_i^-1 d_i), with P_i's factors lu, piv and
// A_i (am).
template <int M, class DView, class T>
KOKKOS_INLINE_FUNCTION void block_rhs_forward_row(const DView& d, index_t s, index_t i, int k,
                                                  const T* lu, const T* piv, const T* am,
                                                  bool pivoting) {
  T v[M], prev[M];
  for (int r = 0; r < M; ++r) v[r] = rhs_at(d, s, i, r, k);
  if (i >= 2) {
    for (int r = 0; r < M; ++r) prev[r] = rhs_at(d, s, i - 1, r, k);
    block_sub_mv<M>(v, am, prev);
  }
  bandsolve::detail::block_lu_solve<M, 1>(lu, piv, pivoting, v);
  for (int r = 0; r < M; ++r) rhs_at(d, s, i, r, k) = v[r];
}

// What block_factor_system does with each factored row besides keeping it: nothing
// (factorize), or the right-hand side's forward step at once (the one-shot solve), while P_i's
// factors are in registers.
struct block_no_rhs {
  template <int M, class T>
  KOKKOS_INLINE_FUNCTION void row(index_t, const T*, const T*, const T*) const {}
};
template <class DView>
struct block_rhs_alongside {
  const DView& d;
  index_t s;
  int nrhs;
  bool pivoting;
  template <int M, class T>
  KOKKOS_INLINE_FUNCTION void row(index_t i, const T* lu, const T* piv, const T* am) const {
    for (int k = 0; k < nrhs; ++k) block_rhs_forward_row<M>(d, s, i, k, lu, piv, am, pivoting);
  }
};

// The matrices' part of the reduce pass of system s: the kept words into f
// (block_kept_row_words<M, Factored> per row, then E), the reduced rows' A' and C' (2M^2 words)
// into red (reduced row j at red + j*stride); rhs.row() after each row's factorization. Returns
// the info code.
template <int M, bool Factored, class AView, class BView, class CView, class T, class Rhs>
KOKKOS_INLINE_FUNCTION int block_factor_system(const AView& a, const BView& b, const CView& c,
                                               index_t s, const block_part& part, T* f, T* red,
                                               int stride, const Rhs& rhs) {
  constexpr int MM = M * M, FW = block_kept_row_words<M, Factored>;
  const index_t n = part.n, off = part.offset;
  int info = 0;
  // Forward rows 0 .. n-1, each computed in local arrays (which nothing else aliases, so they stay
  // in registers) and stored once.
  T ra[MM], rc[MM], lu[MM], piv[M] = {}, am[MM];
  for (index_t i = 0; i < n; ++i) {
    T* const row = f + i * FW;
    load_block<M>(b, s, i, true, lu);
    load_block<M>(a, s, i, !(i == 0 && part.first), am);
    load_block<M>(c, s, i, !(i == n - 1 && part.last), rc);
    if (i >= 2) {
      block_sub_mul<M>(lu, am, row - FW + MM);  // B_i - A_i C'_{i-1}
      for (int q = 0; q < MM; ++q) ra[q] = T(0);
      block_sub_mul<M>(ra, am, row - FW);  // -A_i A'_{i-1}
    } else {
      for (int q = 0; q < MM; ++q) ra[q] = am[q];
    }
    block_factor<M>(lu, piv, part.pivoting, off + i, info);
    block_solve_columns<M>(lu, piv, part.pivoting, ra);
    block_solve_columns<M>(lu, piv, part.pivoting, rc);
    rhs.template row<M>(i, lu, piv, am);
    for (int q = 0; q < MM; ++q) row[q] = ra[q], row[MM + q] = rc[q];
    if constexpr (Factored) {
      for (int q = 0; q < MM; ++q) row[2 * MM + q] = lu[q], row[3 * MM + M + q] = am[q];
      for (int q = 0; q < M; ++q) row[3 * MM + q] = piv[q];
    }
  }
  if (n >= 2)  // row n-1 as it is
    for (int q = 0; q < 2 * MM; ++q) red[stride + q] = f[(n - 1) * FW + q];
  if (n <= 2) {  // row 0 as it is
    for (int q = 0; q < 2 * MM; ++q) red[q] = f[q];
    return info;
  }
  // Backward: row 1 in terms of x_0 and x_{n-1}, starting from row n-2.
  T ah[MM], ch[MM], tmp[MM];
  for (int q = 0; q < MM; ++q) ah[q] = f[(n - 2) * FW + q], ch[q] = f[(n - 2) * FW + MM + q];
  for (index_t i = n - 3; i >= 1; --i) {
    const T* const fa = f + i * FW;  // A'_i, then C'_i
    for (int q = 0; q < MM; ++q) tmp[q] = fa[q];
    block_sub_mul<M>(tmp, fa + MM, ah);
    for (int q = 0; q < MM; ++q) ah[q] = tmp[q], tmp[q] = T(0);
    block_sub_mul<M>(tmp, fa + MM, ch);
    for (int q = 0; q < MM; ++q) ch[q] = tmp[q];
  }
  // Row 0: A'_0 x_{-1} + x_0 + C'_0 x_1 = d'_0 with x_1 = dh - ah x_0 - ch x_{n-1}.
  const T* const c0 = f + MM;
  for (int q = 0; q < MM; ++q) lu[q] = T(0), ra[q] = f[q], rc[q] = T(0);
  for (int q = 0; q < M; ++q) lu[q * M + q] = T(1);
  block_sub_mul<M>(lu, c0, ah);  // E = I - C'_0 ah
  block_factor<M>(lu, piv, part.pivoting, off, info);
  block_sub_mul<M>(rc, c0, ch);  // -C'_0 ch
  block_solve_columns<M>(lu, piv, part.pivoting, ra);
  block_solve_columns<M>(lu, piv, part.pivoting, rc);
  for (int q = 0; q < MM; ++q) red[q] = ra[q], red[MM + q] = rc[q], f[n * FW + q] = lu[q];
  for (int q = 0; q < M; ++q) f[n * FW + MM + q] = piv[q];
  return info;
}

// The rest of the right-hand side's part of the reduce pass of system s for right-hand side k,
// after the forward steps (d'_i in d): the reduced rows' right-hand sides (M words) into red
// (reduced row j at red + j*stride), from the forward C'_i and E kept in f (FW words per row).
template <int M, int FW, class DView, class T>
KOKKOS_INLINE_FUNCTION void block_rhs_backward(const DView& d, index_t s, int k,
                                               const block_part& part, const T* f, T* red,
                                               int stride) {
  const index_t n = part.n;
  const auto load = [&](index_t i, T* v) {
    for (int r = 0; r < M; ++r) v[r] = rhs_at(d, s, i, r, k);
  };
  if (n >= 2) load(n - 1, red + stride);
  load(0, red);
  if (n <= 2) return;
  T v[M], dh[M];  // dh: row 1's right-hand side in terms of x_0 and x_{n-1}
  load(n - 2, dh);
  for (index_t i = n - 3; i >= 1; --i) {
    load(i, v);
    block_sub_mv<M>(v, f + i * FW + M * M, dh);
    for (int r = 0; r < M; ++r) dh[r] = v[r];
  }
  block_sub_mv<M>(red, f + M * M, dh);  // E^-1 (d'_0 - C'_0 dh)
  bandsolve::detail::block_lu_solve<M, 1>(f + n * FW, f + n * FW + M * M, part.pivoting, red);
}

// Finish pass of system s, each of its nrhs right-hand sides: x_0 and x_{n-1} from iface (line
// s, reduced row j, right-hand side q, entry r at ((s*k + j)*nrhs + q)*M + r), the interior rows
// from the forward A'_i, C'_i in f (FW words per row) and the d'_i in d; x over d.
template <int M, int FW, class DView, class Interface, class T>
KOKKOS_INLINE_FUNCTION void block_finish_system(const DView& d, const T* f, const Interface& iface,
                                                index_t s, int nrhs, const block_part& part) {
  const index_t n = part.n;
  const int k = part.reduced_rows();
  for (int q = 0; q < nrhs; ++q) {
    const T* const x0 = iface.data() + (s * k * nrhs + q) * M;
    const T* const xl = x0 + (k - 1) * nrhs * M;
    T x[M];  // x_{i+1}
    for (int r = 0; r < M; ++r) x[r] = xl[r], rhs_at(d, s, n - 1, r, q) = xl[r];
    for (index_t i = n - 2; i >= 1; --i) {
      const T* const ra = f + i * FW;
      T v[M];
      for (int r = 0; r < M; ++r) v[r] = rhs_at(d, s, i, r, q);
      block_sub_mv<M>(v, ra, x0);
      block_sub_mv<M>(v, ra + M * M, x);
      for (int r = 0; r < M; ++r) x[r] = v[r], rhs_at(d, s, i, r, q) = v[r];
    }
    for (int r = 0; r < M; ++r) rhs_at(d, s, 0, r, q) = x0[r];
  }
}

// f(s) for every system s < nsys, one per work item on exec.
template <class ExecutionSpace, class F>
void for_each_block_system(const ExecutionSpace& exec, const char* label, index_t nsys,
                           const F& f) {
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index_t>>(exec, 0, nsys), f);
}

// The reduce pass of every system: A'_i, C'_i and E into work (system s at &work(s, 0),
// block_kept_words with the one-shot's rows), the reduced rows (A', C', then the d' of each of
// the nrhs right-hand sides: block_row_words(M, nrhs) words each) into red, codes(s); d' over d.
template <int M, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Work, class Reduced, class Codes>
void block_reduce_parts(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const DView& d, int nrhs, const Work& work,
                        const Reduced& red, const Codes& codes, index_t nsys, block_part part) {
  const int RW = block_row_words(M, nrhs);
  for_each_block_system(
      exec, "bandsolve::mpi::solve(block_thomas, reduce)", nsys, KOKKOS_LAMBDA(const index_t s) {
        auto* const out = red.data() + s * part.reduced_rows() * RW;
        const block_rhs_alongside<DView> rhs{d, s, nrhs, part.pivoting};
        codes(s) = block_factor_system<M, false>(a, b, c, s, part, &work(s, 0), out, RW, rhs);
        for (int k = 0; k < nrhs; ++k)
          block_rhs_backward<M, block_kept_row_words<M, false>>(d, s, k, part, &work(s, 0),
                                                                out + 2 * M * M + k * M, RW);
      });
}

// The matrices' part alone (factorize): the factors into work, reduced rows of 2M^2 words (A',
// C').
template <int M, class ExecutionSpace, class AView, class BView, class CView, class Work,
          class Reduced, class Codes>
void block_factor_parts(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const Work& work, const Reduced& red, const Codes& codes,
                        index_t nsys, block_part part) {
  constexpr int CW = 2 * M * M;
  for_each_block_system(
      exec, "bandsolve::mpi::factorize(block_thomas)", nsys, KOKKOS_LAMBDA(const index_t s) {
        codes(s) = block_factor_system<M, true>(a, b, c, s, part, &work(s, 0),
                                                red.data() + s * part.reduced_rows() * CW, CW,
                                                block_no_rhs{});
      });
}

// The right-hand side's part alone (a factored solve) with the factors in work: d' over d,
// reduced rows of M words (d') per right-hand side, the nrhs of a row side by side.
template <int M, class ExecutionSpace, class DView, class Work, class Reduced>
void block_rhs_parts(const ExecutionSpace& exec, const DView& d, int nrhs, const Work& work,
                     const Reduced& red, index_t nsys, block_part part) {
  constexpr int MM = M * M, FW = block_kept_row_words<M, true>;
  for_each_block_system(
      exec, "bandsolve::mpi::block_factorization::solve(reduce)", nsys,
      KOKKOS_LAMBDA(const index_t s) {
        const auto* const f = &work(s, 0);
        auto* const out = red.data() + s * part.reduced_rows() * nrhs * M;
        for (int k = 0; k < nrhs; ++k) {
          for (index_t i = 0; i < part.n; ++i)
            block_rhs_forward_row<M>(d, s, i, k, f + i * FW + 2 * MM, f + i * FW + 3 * MM,
                                     f + i * FW + 3 * MM + M, part.pivoting);
          block_rhs_backward<M, FW>(d, s, k, part, f, out + k * M, nrhs * M);
        }
      });
}

// The finish pass of every system (Factored: work holds a factorization's rows).
template <int M, bool Factored, class ExecutionSpace, class DView, class Work, class Interface>
void block_finish_parts(const ExecutionSpace& exec, const DView& d, int nrhs, const Work& work,
                        const Interface& iface, index_t nsys, block_part part) {
  for_each_block_system(exec, "bandsolve::mpi::solve(block_thomas, finish)", nsys,
                        KOKKOS_LAMBDA(const index_t s) {
                          block_finish_system<M, block_kept_row_words<M, Factored>>(
                              d, &work(s, 0), iface, s, nrhs, part);
                        });
}

}  // namespace bandsolve::mpi::detail
