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
// forward A'_i, C'_i, the LU factors of P_i and A_i, and E's LU factors (4m^2 + m words per block
// row); the right-hand side's part (block_rhs_system) then needs only those and d, and leaves the
// forward d'_i in d. The one-shot solve runs both in one work item, a factorization
// (block_factorize.hpp) the first once and the second per solve. Finish sets
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

// Words of one reduced block row (A, C column-major, then d) and of one forward row in the work
// array (A'_i, C'_i, d'_i in the same order).
KOKKOS_INLINE_FUNCTION constexpr int block_row_words(int m) { return 2 * m * m + m; }

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

// Words a part keeps per system (factor_words): per block row, A'_i, C'_i (forward, column-major),
// the LU factors of P_i (block_lu's row-major storage), its pivots, and A_i as given (the
// right-hand side's forward step); then E's LU factors and pivots (parts of 3 rows or more).
KOKKOS_INLINE_FUNCTION constexpr int block_factor_row_words(int m) { return 4 * m * m + m; }
KOKKOS_INLINE_FUNCTION constexpr index_t block_factor_words(int m, index_t n) {
  return n * block_factor_row_words(m) + m * m + m;
}

// The matrices' part of the reduce pass of system s: the factors into f (block_factor_words), the
// reduced rows' A' and C' (2M^2 words) into red (reduced row j at red + j*stride). Returns the
// info code.
template <int M, class AView, class BView, class CView, class T>
KOKKOS_INLINE_FUNCTION int block_factor_system(const AView& a, const BView& b, const CView& c,
                                               index_t s, const block_part& part, T* f, T* red,
                                               int stride) {
  constexpr int MM = M * M, FW = block_factor_row_words(M);
  const index_t n = part.n, off = part.offset;
  int info = 0;
  // Forward rows 0 .. n-1.
  for (index_t i = 0; i < n; ++i) {
    T* const ra = f + i * FW;
    T* const rc = ra + MM;
    T* const lu = rc + MM;
    T* const piv = lu + MM;
    T* const am = piv + M;
    load_block<M>(b, s, i, true, lu);
    load_block<M>(a, s, i, !(i == 0 && part.first), am);
    load_block<M>(c, s, i, !(i == n - 1 && part.last), rc);
    for (int q = 0; q < MM; ++q) ra[q] = i >= 2 ? T(0) : am[q];
    if (i >= 2) {
      block_sub_mul<M>(lu, am, ra - FW + MM);  // B_i - A_i C'_{i-1}
      block_sub_mul<M>(ra, am, ra - FW);       // -A_i A'_{i-1}
    }
    block_factor<M>(lu, piv, part.pivoting, off + i, info);
    block_solve_columns<M>(lu, piv, part.pivoting, ra);
    block_solve_columns<M>(lu, piv, part.pivoting, rc);
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
    const T* const ra = f + i * FW;
    const T* const rc = ra + MM;
    for (int q = 0; q < MM; ++q) tmp[q] = ra[q];
    block_sub_mul<M>(tmp, rc, ah);
    for (int q = 0; q < MM; ++q) ah[q] = tmp[q], tmp[q] = T(0);
    block_sub_mul<M>(tmp, rc, ch);
    for (int q = 0; q < MM; ++q) ch[q] = tmp[q];
  }
  // Row 0: A'_0 x_{-1} + x_0 + C'_0 x_1 = d'_0 with x_1 = dh - ah x_0 - ch x_{n-1}.
  const T* const c0 = f + MM;
  T* const lu = f + n * FW;
  T* const piv = lu + MM;
  for (int q = 0; q < MM; ++q) lu[q] = T(0);
  for (int q = 0; q < M; ++q) lu[q * M + q] = T(1);
  block_sub_mul<M>(lu, c0, ah);  // E = I - C'_0 ah
  block_factor<M>(lu, piv, part.pivoting, off, info);
  for (int q = 0; q < MM; ++q) red[q] = f[q], red[MM + q] = T(0);
  block_sub_mul<M>(red + MM, c0, ch);  // -C'_0 ch
  block_solve_columns<M>(lu, piv, part.pivoting, red);
  block_solve_columns<M>(lu, piv, part.pivoting, red + MM);
  return info;
}

// The right-hand side's part of the reduce pass of system s with the factors f: the forward d'_i
// over d (what finish reads), the reduced rows' right-hand sides (M words) into red (reduced row
// j at red + j*stride).
template <int M, class DView, class T>
KOKKOS_INLINE_FUNCTION void block_rhs_system(const DView& d, index_t s, const block_part& part,
                                             const T* f, T* red, int stride) {
  constexpr int MM = M * M, FW = block_factor_row_words(M);
  const index_t n = part.n;
  const auto load = [&](index_t i, T* v) {
    for (int r = 0; r < M; ++r) v[r] = bandsolve::block_at(d, s, i, r);
  };
  T v[M], prev[M];  // d'_i, d'_{i-1}
  for (index_t i = 0; i < n; ++i) {
    const T* const lu = f + i * FW + 2 * MM;
    load(i, v);
    if (i >= 2) block_sub_mv<M>(v, lu + MM + M, prev);  // d_i - A_i d'_{i-1}
    bandsolve::detail::block_lu_solve<M, 1>(lu, lu + MM, part.pivoting, v);
    for (int r = 0; r < M; ++r) prev[r] = v[r], bandsolve::block_at(d, s, i, r) = v[r];
  }
  if (n >= 2)
    for (int r = 0; r < M; ++r) red[stride + r] = prev[r];
  load(0, red);
  if (n <= 2) return;
  T dh[M];  // row 1's right-hand side in terms of x_0 and x_{n-1}
  load(n - 2, dh);
  for (index_t i = n - 3; i >= 1; --i) {
    load(i, v);
    block_sub_mv<M>(v, f + i * FW + MM, dh);
    for (int r = 0; r < M; ++r) dh[r] = v[r];
  }
  block_sub_mv<M>(red, f + MM, dh);  // E^-1 (d'_0 - C'_0 dh)
  bandsolve::detail::block_lu_solve<M, 1>(f + n * FW, f + n * FW + MM, part.pivoting, red);
}

// Finish pass of system s: x_0 and x_{n-1} from iface (line s, reduced row j, entry r at
// (s*k + j)*M + r), the interior rows from the forward rows of f and the d' in d; x over d.
template <int M, class DView, class Interface, class T>
KOKKOS_INLINE_FUNCTION void block_finish_system(const DView& d, const T* f, const Interface& iface,
                                                index_t s, const block_part& part) {
  constexpr int FW = block_factor_row_words(M);
  const index_t n = part.n;
  const int k = part.reduced_rows();
  const T* const x0 = iface.data() + s * k * M;
  const T* const xl = x0 + (k - 1) * M;
  T x[M];  // x_{i+1}
  for (int r = 0; r < M; ++r) x[r] = xl[r], bandsolve::block_at(d, s, n - 1, r) = xl[r];
  for (index_t i = n - 2; i >= 1; --i) {
    const T* const ra = f + i * FW;
    T v[M];
    for (int r = 0; r < M; ++r) v[r] = bandsolve::block_at(d, s, i, r);
    block_sub_mv<M>(v, ra, x0);
    block_sub_mv<M>(v, ra + M * M, x);
    for (int r = 0; r < M; ++r) x[r] = v[r], bandsolve::block_at(d, s, i, r) = v[r];
  }
  for (int r = 0; r < M; ++r) bandsolve::block_at(d, s, 0, r) = x0[r];
}

// f(s) for every system s < nsys, one per work item on exec.
template <class ExecutionSpace, class F>
void for_each_block_system(const ExecutionSpace& exec, const char* label, index_t nsys,
                           const F& f) {
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index_t>>(exec, 0, nsys), f);
}

// The reduce pass of every system: factors into work (system s at &work(s, 0)), the reduced rows
// (A', C', d': block_row_words(M) each) into red, codes(s). The right-hand side runs in the same
// work item, on the factors just written (in cache).
template <int M, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Work, class Reduced, class Codes>
void block_reduce_parts(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const DView& d, const Work& work, const Reduced& red,
                        const Codes& codes, index_t nsys, block_part part) {
  constexpr int RW = block_row_words(M);
  for_each_block_system(
      exec, "bandsolve::mpi::solve(block_thomas, reduce)", nsys, KOKKOS_LAMBDA(const index_t s) {
        auto* const out = red.data() + s * part.reduced_rows() * RW;
        codes(s) = block_factor_system<M>(a, b, c, s, part, &work(s, 0), out, RW);
        block_rhs_system<M>(d, s, part, &work(s, 0), out + 2 * M * M, RW);
      });
}

// The matrices' part alone (factorize): reduced rows of 2M^2 words (A', C').
template <int M, class ExecutionSpace, class AView, class BView, class CView, class Work,
          class Reduced, class Codes>
void block_factor_parts(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const Work& work, const Reduced& red, const Codes& codes,
                        index_t nsys, block_part part) {
  constexpr int CW = 2 * M * M;
  for_each_block_system(
      exec, "bandsolve::mpi::factorize(block_thomas)", nsys, KOKKOS_LAMBDA(const index_t s) {
        codes(s) = block_factor_system<M>(a, b, c, s, part, &work(s, 0),
                                          red.data() + s * part.reduced_rows() * CW, CW);
      });
}

// The right-hand side's part alone (a factored solve): reduced rows of M words (d').
template <int M, class ExecutionSpace, class DView, class Work, class Reduced>
void block_rhs_parts(const ExecutionSpace& exec, const DView& d, const Work& work,
                     const Reduced& red, index_t nsys, block_part part) {
  for_each_block_system(exec, "bandsolve::mpi::block_factorization::solve(reduce)", nsys,
                        KOKKOS_LAMBDA(const index_t s) {
                          block_rhs_system<M>(d, s, part, &work(s, 0),
                                              red.data() + s * part.reduced_rows() * M, M);
                        });
}

// The finish pass of every system.
template <int M, class ExecutionSpace, class DView, class Work, class Interface>
void block_finish_parts(const ExecutionSpace& exec, const DView& d, const Work& work,
                        const Interface& iface, index_t nsys, block_part part) {
  for_each_block_system(exec, "bandsolve::mpi::solve(block_thomas, finish)", nsys,
                        KOKKOS_LAMBDA(const index_t s) {
                          block_finish_system<M>(d, &work(s, 0), iface, s, part);
                        });
}

}  // namespace bandsolve::mpi::detail
