#pragma once
// The local passes of the partitioned block Thomas algorithm: the scalar partition method
// (partition_kernel.hpp) with m x m blocks, a group of systems per work item, one SIMD lane each
// (a cache line of T on the host backends, one system per thread on the device backend; Views
// read and written through block_at: rank-4 Views, interleaved packs, or the lines of a grid where
// they lie, block_grid_lines.hpp).
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
// right-hand block is one vector for block_lu_solve. The passes' nrhs counts real right-hand
// sides: d's own, or twice as many for complex d over real coefficients (rhs_parts_v).
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/block/block_layout.hpp>
#include <bandsolve/block/block_thomas_kernel.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

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

// A group of up to L systems solved side by side, one SIMD lane each: systems s0 .. s0 + nl - 1
// of a batch that starts at system `first` (the reduced rows and interface values of a batch
// are numbered from its first system). Lanes past nl compute on system s0's values (finite
// numbers) and are never stored.
struct block_lane_group {
  index_t s0 = 0;
  int nl = 0;
  index_t first = 0;
  KOKKOS_INLINE_FUNCTION index_t system(int l) const { return s0 + (l < nl ? l : 0); }
};

// A View as the passes of one group of systems read it: as it is. The lines of a grid read where
// they lie (block_grid_lines.hpp) overload this to find the group's L line starts once.
template <int L, class View>
KOKKOS_INLINE_FUNCTION const View& lines_of_group(const View& v, const block_lane_group&) {
  return v;
}

// Whether every row of v, as g's passes read it (lines_of_group), holds the group's L lanes side
// by side in memory (lane l at lane 0's entry + l): then they load and store as vectors. Views of
// interleaved packs of W >= L systems (W: v's static pack width) where the group fills L lanes of
// one pack; the lines of a grid answer for their group (block_grid_lines.hpp). Asked only where
// lanes_may_be_adjacent_v (below) holds.
template <int L, int W, class View>
KOKKOS_INLINE_FUNCTION bool group_lanes_adjacent(const View&, const block_lane_group& g) {
  return g.nl == L && g.s0 % W + L <= W;
}

// Whether View finds its lanes per group and says whether they lie side by side (the lines of a
// grid: lanes_found_per_group).
template <class View, class = void>
inline constexpr bool lanes_found_per_group_v = false;
template <class View>
inline constexpr bool
    lanes_found_per_group_v<View, std::void_t<decltype(View::lanes_found_per_group)>> =
        View::lanes_found_per_group;

// Whether a group of L lanes of View (of static pack width W) may lie side by side: the paths
// that load them as vectors are compiled only then, and the other Views' loops stay as they were.
template <int L, int W, class View>
inline constexpr bool lanes_may_be_adjacent_v =
    L > 1 && (W >= L || lanes_found_per_group_v<View>);

// Lanes of the local passes on ExecutionSpace: a cache line of T on the host backends (the
// lane loops below vectorize), one system per thread on the device backend.
template <class ExecutionSpace, class T>
inline constexpr int block_part_lanes_v =
    std::is_same_v<backend::default_for_t<ExecutionSpace>, backend::device>
        ? 1
        : bandsolve::detail::cache_line_lanes_v<T>;

// Work arrays hold lane l of word w at w * L + l: an M x M block is column-major (entry (r, c)
// at (c * M + r) * L + l, so each column of a right-hand block is one vector for
// block_lu_solve), a vector of M entries at r * L + l. The helpers below are not forced inline:
// forced, the one-shot ran about a fifth faster (m = 3), but the MPI block test unit, which
// instantiates m = 2, 3, 5, 8 in both precisions and four layouts, took 335 s to compile at -O2
// instead of 227.

// Block i of a coefficient View (rank 4, or interleaved packs) for every lane of g into out, or
// zero when !use. Entry (r, c) of a block is at r * stride(2) + c * stride(3) from its (0, 0) in
// either kind, so each lane's block is read from one pointer. Where the lanes lie side by side,
// block row `ahead` (>= 0) is requested into the caches too: each entry of a block is a run of
// its own there (a field of a LayoutLeft grid), m^2 runs per block a row apart, more than the
// hardware prefetchers follow.
template <int M, int L, class View, class T>
KOKKOS_INLINE_FUNCTION void load_block(const View& v, const block_lane_group& g, index_t i,
                                       bool use, T* out, index_t ahead = -1) {
  if (!use) {
    for (int q = 0; q < M * M * L; ++q) out[q] = T(0);
    return;
  }
  const index_t rs = static_cast<index_t>(v.stride(2)), cs = static_cast<index_t>(v.stride(3));
  constexpr int W = bandsolve::detail::static_pack_width<View, 5>();
  if constexpr (lanes_may_be_adjacent_v<L, W, View>) {
    if (group_lanes_adjacent<L, W>(v, g)) {
      const auto* const p = &bandsolve::block_at(v, g.s0, i, 0, 0);
      if (ahead >= 0) {
        const auto* const pa = &bandsolve::block_at(v, g.s0, ahead, 0, 0);
        for (int c = 0; c < M; ++c)
          for (int r = 0; r < M; ++r) BANDSOLVE_PREFETCH(pa + r * rs + c * cs);
      }
      for (int c = 0; c < M; ++c)
        for (int r = 0; r < M; ++r) {
          const auto* const q = p + r * rs + c * cs;
          T* const o = out + (c * M + r) * L;
          BANDSOLVE_SIMD
          for (int l = 0; l < L; ++l) o[l] = T(q[l]);
        }
      return;
    }
  }
  for (int l = 0; l < L; ++l) {
    const auto* const p = &bandsolve::block_at(v, g.system(l), i, 0, 0);
    for (int c = 0; c < M; ++c)
      for (int r = 0; r < M; ++r) out[(c * M + r) * L + l] = T(p[r * rs + c * cs]);
  }
}

// x -= A y (all M x M, column-major).
template <int M, int L, class T>
KOKKOS_INLINE_FUNCTION void block_sub_mul(T* x, const T* a, const T* y) {
  for (int c = 0; c < M; ++c)
    for (int t = 0; t < M; ++t) {
      const T* const yv = y + (c * M + t) * L;
      for (int r = 0; r < M; ++r) {
        T* const xv = x + (c * M + r) * L;
        const T* const av = a + (t * M + r) * L;
        BANDSOLVE_SIMD
        for (int l = 0; l < L; ++l) xv[l] -= av[l] * yv[l];
      }
    }
}

// v -= A w (A column-major).
template <int M, int L, class T>
KOKKOS_INLINE_FUNCTION void block_sub_mv(T* v, const T* a, const T* w) {
  for (int t = 0; t < M; ++t)
    for (int r = 0; r < M; ++r) {
      const T* const av = a + (t * M + r) * L;
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) v[r * L + l] -= av[l] * w[t * L + l];
    }
}

// X <- S^-1 X for an M x M column-major X, with the factors of block_lu.
template <int M, int L, class T>
KOKKOS_INLINE_FUNCTION void block_solve_columns(const T* lu, const T* piv, bool pivoting, T* x) {
  for (int c = 0; c < M; ++c)
    bandsolve::detail::block_lu_solve<M, L>(lu, piv, pivoting, x + c * M * L);
}

// S (column-major) in, its LU factors out in place in block_lu's row-major storage (what
// block_lu_solve reads); info[l] gets the code of lane l's pivots at `row`.
template <int M, int L, class T>
KOKKOS_INLINE_FUNCTION void block_factor(T* s, T* piv, bool pivoting, index_t row, int* info) {
  T rm[static_cast<std::size_t>(M * M * L)];
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < M; ++c) {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) rm[(r * M + c) * L + l] = s[(c * M + r) * L + l];
    }
  bandsolve::detail::block_lu<M, L>(rm, piv, pivoting, row, info);
  for (int q = 0; q < M * M * L; ++q) s[q] = rm[q];
}

// Words kept per block row: the forward A'_i, C'_i (column-major) for finish, and for a
// factorization also the LU factors of P_i (block_lu's row-major storage), its pivots and A_i as
// given (what the right-hand side's forward step needs). Per system: n rows, then E's LU factors
// and pivots (parts of 3 rows or more). A group of L systems keeps L times that, lane-innermost.
template <int M, bool Factored>
inline constexpr int block_kept_row_words = Factored ? 4 * M * M + M : 2 * M * M;
KOKKOS_INLINE_FUNCTION constexpr index_t block_kept_words(int m, int row_words, index_t n) {
  return n * row_words + m * m + m;
}

// Where the reduce pass writes the reduced rows of each system of a batch: the batch's system s
// (counted from its first), reduced row j, word q at base[s * per_system + j * per_row + q].
template <class T>
struct block_reduced_out {
  T* base;
  index_t per_system;
  int per_row;
  KOKKOS_INLINE_FUNCTION T& at(index_t s, int j, int q) const {
    return base[s * per_system + j * per_row + q];
  }
};

// Words [0, count) of lanes l < g.nl of the lane-innermost v into reduced row j of each system.
template <int L, class T>
KOKKOS_INLINE_FUNCTION void store_reduced(const block_reduced_out<T>& out,
                                          const block_lane_group& g, int j, int count,
                                          const T* v) {
  for (int l = 0; l < g.nl; ++l)
    for (int q = 0; q < count; ++q) out.at(g.s0 - g.first + l, j, q) = v[q * L + l];
}

// The pack width of d's interleaved packs as rhs_at reads them, 0 for other Views.
template <class DView>
inline constexpr int rhs_pack_width_v =
    bandsolve::detail::static_pack_width<DView, 5>() > 0
        ? bandsolve::detail::static_pack_width<DView, 5>()
        : bandsolve::detail::static_pack_width<DView, 4>();

// Over real coefficients d may be complex (the Fourier modes of a real operator): the real
// factors act on the real and imaginary parts alone, so the passes solve 2 nrhs real right-hand
// sides, real right-hand side k being part k % 2 (0: real, 1: imaginary) of d's k / 2.
template <class T, class DView>
inline constexpr int rhs_parts_v =
    is_complex_over_real_v<T, typename DView::non_const_value_type> ? 2 : 1;

// Real right-hand side k (of d's kind, or a part of a complex one) of block row i of every lane
// of g into v (M values per lane), and back. Component r is at r * stride(2) from component 0
// in every kind of d.
template <int M, int L, class DView, class T>
KOKKOS_INLINE_FUNCTION void load_rhs(const DView& d, const block_lane_group& g, index_t i,
                                     int k, T* v) {
  const index_t rs = static_cast<index_t>(d.stride(2));
  constexpr int parts = rhs_parts_v<T, DView>;
  if constexpr (parts == 1 && lanes_may_be_adjacent_v<L, rhs_pack_width_v<DView>, DView>) {
    if (group_lanes_adjacent<L, rhs_pack_width_v<DView>>(d, g)) {
      const auto* const p = &rhs_at(d, g.s0, i, 0, k);
      for (int r = 0; r < M; ++r) {
        BANDSOLVE_SIMD
        for (int l = 0; l < L; ++l) v[r * L + l] = p[r * rs + l];
      }
      return;
    }
  }
  for (int l = 0; l < L; ++l) {
    const auto* const p = &rhs_at(d, g.system(l), i, 0, k / parts);
    if constexpr (parts == 2) {
      if (k % 2 == 0)
        for (int r = 0; r < M; ++r) v[r * L + l] = p[r * rs].real();
      else
        for (int r = 0; r < M; ++r) v[r * L + l] = p[r * rs].imag();
    } else {
      for (int r = 0; r < M; ++r) v[r * L + l] = p[r * rs];
    }
  }
}
template <int M, int L, class DView, class T>
KOKKOS_INLINE_FUNCTION void store_rhs(const DView& d, const block_lane_group& g, index_t i,
                                      int k, const T* v) {
  const index_t rs = static_cast<index_t>(d.stride(2));
  constexpr int parts = rhs_parts_v<T, DView>;
  if constexpr (parts == 1 && lanes_may_be_adjacent_v<L, rhs_pack_width_v<DView>, DView>) {
    if (group_lanes_adjacent<L, rhs_pack_width_v<DView>>(d, g)) {  // every lane a system
      auto* const p = &rhs_at(d, g.s0, i, 0, k);
      for (int r = 0; r < M; ++r) {
        BANDSOLVE_SIMD
        for (int l = 0; l < L; ++l) p[r * rs + l] = v[r * L + l];
      }
      return;
    }
  }
  for (int l = 0; l < g.nl; ++l) {
    auto* const p = &rhs_at(d, g.s0 + l, i, 0, k / parts);
    if constexpr (parts == 2) {
      if (k % 2 == 0)
        for (int r = 0; r < M; ++r) p[r * rs].real(v[r * L + l]);
      else
        for (int r = 0; r < M; ++r) p[r * rs].imag(v[r * L + l]);
    } else {
      for (int r = 0; r < M; ++r) p[r * rs] = v[r * L + l];
    }
  }
}

// The right-hand side's forward step of block row i over right-hand side k of d:
// d'_i = P_i^-1 (d_i - A_i d'_{i-1}) (rows 0 and 1: P_i^-1 d_i), with P_i's factors lu, piv and
// A_i (am).
template <int M, int L, class DView, class T>
KOKKOS_INLINE_FUNCTION void block_rhs_forward_row(const DView& d, const block_lane_group& g,
                                                  index_t i, int k, const T* lu, const T* piv,
                                                  const T* am, bool pivoting) {
  T v[static_cast<std::size_t>(M * L)], prev[static_cast<std::size_t>(M * L)];
  load_rhs<M, L>(d, g, i, k, v);
  if (i >= 2) {
    load_rhs<M, L>(d, g, i - 1, k, prev);
    block_sub_mv<M, L>(v, am, prev);
  }
  bandsolve::detail::block_lu_solve<M, L>(lu, piv, pivoting, v);
  store_rhs<M, L>(d, g, i, k, v);
}

// What block_factor_system does with each factored row besides keeping it: nothing
// (factorize), or the right-hand side's forward step at once (the one-shot solve), while P_i's
// factors are at hand.
struct block_no_rhs {
  template <int M, int L, class T>
  KOKKOS_INLINE_FUNCTION void row(index_t, const T*, const T*, const T*) const {}
};
template <class DView>
struct block_rhs_alongside {
  const DView& d;
  block_lane_group g;
  int nrhs;
  bool pivoting;
  template <int M, int L, class T>
  KOKKOS_INLINE_FUNCTION void row(index_t i, const T* lu, const T* piv, const T* am) const {
    for (int k = 0; k < nrhs; ++k)
      block_rhs_forward_row<M, L>(d, g, i, k, lu, piv, am, pivoting);
  }
};

// The matrices' part of the reduce pass of the systems of g: the kept words into f
// (block_kept_row_words<M, Factored> per row, then E; L lanes each), the reduced rows' A' and C'
// (2M^2 words) into out; rhs.row() after each row's factorization; info[l]: lane l's code.
template <int M, int L, bool Factored, class AView, class BView, class CView, class T,
          class Rhs>
KOKKOS_INLINE_FUNCTION void block_factor_system(const AView& a, const BView& b, const CView& c,
                                                const block_lane_group& g,
                                                const block_part& part, T* f,
                                                const block_reduced_out<T>& out, const Rhs& rhs,
                                                int* info) {
  constexpr int MM = M * M, FW = block_kept_row_words<M, Factored>;
  constexpr auto mml = static_cast<std::size_t>(MM * L);  // an array bound
  const index_t n = part.n, off = part.offset;
  for (int l = 0; l < L; ++l) info[l] = 0;
  // Forward rows 0 .. n-1, each computed in local arrays and stored once.
  T ra[mml], rc[mml], lu[mml], piv[static_cast<std::size_t>(M * L)] = {}, am[mml];
  for (index_t i = 0; i < n; ++i) {
    T* const row = f + i * FW * L;
    const index_t ahead = i + 2 < n ? i + 2 : -1;  // 2 rows ahead: as fast as 4 or faster
    load_block<M, L>(b, g, i, true, lu, ahead);
    load_block<M, L>(a, g, i, !(i == 0 && part.first), am, ahead);
    load_block<M, L>(c, g, i, !(i == n - 1 && part.last), rc, ahead);
    if (i >= 2) {
      block_sub_mul<M, L>(lu, am, row - FW * L + MM * L);  // B_i - A_i C'_{i-1}
      for (int q = 0; q < MM * L; ++q) ra[q] = T(0);
      block_sub_mul<M, L>(ra, am, row - FW * L);  // -A_i A'_{i-1}
    } else {
      for (int q = 0; q < MM * L; ++q) ra[q] = am[q];
    }
    block_factor<M, L>(lu, piv, part.pivoting, off + i, info);
    block_solve_columns<M, L>(lu, piv, part.pivoting, ra);
    block_solve_columns<M, L>(lu, piv, part.pivoting, rc);
    rhs.template row<M, L>(i, lu, piv, am);
    for (int q = 0; q < MM * L; ++q) row[q] = ra[q], row[MM * L + q] = rc[q];
    if constexpr (Factored) {
      for (int q = 0; q < MM * L; ++q)
        row[2 * MM * L + q] = lu[q], row[(3 * MM + M) * L + q] = am[q];
      for (int q = 0; q < M * L; ++q) row[3 * MM * L + q] = piv[q];
    }
  }
  if (n >= 2) store_reduced<L>(out, g, 1, 2 * MM, f + (n - 1) * FW * L);  // row n-1 as it is
  if (n <= 2) {  // row 0 as it is
    store_reduced<L>(out, g, 0, 2 * MM, f);
    return;
  }
  // Backward: row 1 in terms of x_0 and x_{n-1}, starting from row n-2.
  T ah[mml], ch[mml], tmp[mml];
  for (int q = 0; q < MM * L; ++q)
    ah[q] = f[(n - 2) * FW * L + q], ch[q] = f[((n - 2) * FW + MM) * L + q];
  for (index_t i = n - 3; i >= 1; --i) {
    const T* const fa = f + i * FW * L;  // A'_i, then C'_i
    for (int q = 0; q < MM * L; ++q) tmp[q] = fa[q];
    block_sub_mul<M, L>(tmp, fa + MM * L, ah);
    for (int q = 0; q < MM * L; ++q) ah[q] = tmp[q], tmp[q] = T(0);
    block_sub_mul<M, L>(tmp, fa + MM * L, ch);
    for (int q = 0; q < MM * L; ++q) ch[q] = tmp[q];
  }
  // Row 0: A'_0 x_{-1} + x_0 + C'_0 x_1 = d'_0 with x_1 = dh - ah x_0 - ch x_{n-1}.
  const T* const c0 = f + MM * L;
  for (int q = 0; q < MM * L; ++q) lu[q] = T(0), ra[q] = f[q], rc[q] = T(0);
  for (int q = 0; q < M; ++q)
    for (int l = 0; l < L; ++l) lu[(q * M + q) * L + l] = T(1);
  block_sub_mul<M, L>(lu, c0, ah);  // E = I - C'_0 ah
  block_factor<M, L>(lu, piv, part.pivoting, off, info);
  block_sub_mul<M, L>(rc, c0, ch);  // -C'_0 ch
  block_solve_columns<M, L>(lu, piv, part.pivoting, ra);
  block_solve_columns<M, L>(lu, piv, part.pivoting, rc);
  for (int q = 0; q < MM * L; ++q) f[n * FW * L + q] = lu[q];
  for (int q = 0; q < M * L; ++q) f[(n * FW + MM) * L + q] = piv[q];
  for (int l = 0; l < g.nl; ++l)
    for (int q = 0; q < MM; ++q)
      out.at(g.s0 - g.first + l, 0, q) = ra[q * L + l],
                 out.at(g.s0 - g.first + l, 0, MM + q) = rc[q * L + l];
}

// The rest of the right-hand side's part of the reduce pass of the systems of g for right-hand
// side k, after the forward steps (d'_i in d): the reduced rows' right-hand sides (M words) into
// out, from the forward C'_i and E kept in f (FW words per row, L lanes each).
template <int M, int L, int FW, class DView, class T>
KOKKOS_INLINE_FUNCTION void block_rhs_backward(const DView& d, const block_lane_group& g, int k,
                                               const block_part& part, const T* f,
                                               const block_reduced_out<T>& out) {
  const index_t n = part.n;
  T r0[static_cast<std::size_t>(M * L)];
  if (n >= 2) {
    load_rhs<M, L>(d, g, n - 1, k, r0);
    store_reduced<L>(out, g, 1, M, r0);
  }
  load_rhs<M, L>(d, g, 0, k, r0);
  if (n <= 2) {
    store_reduced<L>(out, g, 0, M, r0);
    return;
  }
  // dh: row 1's right-hand side in terms of x_0 and x_{n-1}
  T v[static_cast<std::size_t>(M * L)], dh[static_cast<std::size_t>(M * L)];
  load_rhs<M, L>(d, g, n - 2, k, dh);
  for (index_t i = n - 3; i >= 1; --i) {
    load_rhs<M, L>(d, g, i, k, v);
    block_sub_mv<M, L>(v, f + (i * FW + M * M) * L, dh);
    for (int q = 0; q < M * L; ++q) dh[q] = v[q];
  }
  block_sub_mv<M, L>(r0, f + M * M * L, dh);  // E^-1 (d'_0 - C'_0 dh)
  bandsolve::detail::block_lu_solve<M, L>(f + n * FW * L, f + (n * FW + M * M) * L,
                                          part.pivoting, r0);
  store_reduced<L>(out, g, 0, M, r0);
}

// Finish pass of the systems of g, each of their nrhs right-hand sides: x_0 and x_{n-1} from
// iface (the batch's line s counted from its first, reduced row j, right-hand side q, entry r at
// ((s*k + j)*nrhs + q)*M + r), the
// interior rows from the forward A'_i, C'_i in f (FW words per row, L lanes each) and the d'_i
// in d; x over d.
template <int M, int L, int FW, class DView, class Interface, class T>
KOKKOS_INLINE_FUNCTION void block_finish_system(const DView& d, const T* f, const Interface& iface,
                                                const block_lane_group& g, int nrhs,
                                                const block_part& part) {
  const index_t n = part.n;
  const int k = part.reduced_rows();
  const auto* const xs = iface.data();
  for (int q = 0; q < nrhs; ++q) {
    T x0[static_cast<std::size_t>(M * L)], x[static_cast<std::size_t>(M * L)];  // x_0, x_{i+1}
    for (int r = 0; r < M; ++r)
      for (int l = 0; l < L; ++l) {
        const index_t s = g.system(l) - g.first;
        x0[r * L + l] = xs[(s * k * nrhs + q) * M + r];
        x[r * L + l] = xs[((s * k + k - 1) * nrhs + q) * M + r];
      }
    store_rhs<M, L>(d, g, n - 1, q, x);
    for (index_t i = n - 2; i >= 1; --i) {
      const T* const ra = f + i * FW * L;
      T v[static_cast<std::size_t>(M * L)];
      load_rhs<M, L>(d, g, i, q, v);
      block_sub_mv<M, L>(v, ra, x0);
      block_sub_mv<M, L>(v, ra + M * M * L, x);
      for (int e = 0; e < M * L; ++e) x[e] = v[e];
      store_rhs<M, L>(d, g, i, q, v);
    }
    store_rhs<M, L>(d, g, 0, q, x0);
  }
}

// Groups of L systems of a batch of nsys.
template <int L>
KOKKOS_INLINE_FUNCTION constexpr index_t block_groups(index_t nsys) {
  return (nsys + L - 1) / L;
}

// f(w, group w) for every group of L of the systems first .. first + count - 1, one per work
// item on exec.
template <int L, class ExecutionSpace, class F>
void for_each_block_group(const ExecutionSpace& exec, const char* label, index_t first,
                          index_t count, const F& f) {
  Kokkos::parallel_for(
      label,
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index_t>>(exec, 0,
                                                                      block_groups<L>(count)),
      KOKKOS_LAMBDA(const index_t w) {
        const index_t s0 = first + w * L, left = first + count - s0;
        f(w, block_lane_group{s0, static_cast<int>(left < L ? left : L), first});
      });
}

// The reduce pass of the batch of systems first .. first + count - 1: A'_i, C'_i and E into
// work (the batch's group w of L systems at &work(w, 0), block_kept_words with the one-shot's
// rows, lane-innermost), the batch's reduced rows (A', C', then the d' of each of the nrhs
// right-hand sides: block_row_words(M, nrhs) words each) into red, codes(s); d' over d.
template <int M, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Work, class Reduced, class Codes>
void block_reduce_parts(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const DView& d, int nrhs, const Work& work,
                        const Reduced& red, const Codes& codes, index_t first, index_t count,
                        block_part part) {
  using T = typename Reduced::non_const_value_type;
  constexpr int L = block_part_lanes_v<ExecutionSpace, T>;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  const int RW = block_row_words(M, nrhs);
  for_each_block_group<L>(
      exec, "bandsolve::mpi::solve(block_thomas, reduce)", first, count,
      KOKKOS_LAMBDA(const index_t w, const block_lane_group& g) {
        const block_reduced_out<T> out{red.data(), part.reduced_rows() * RW, RW};
        const auto& gd = lines_of_group<L>(d, g);
        const block_rhs_alongside<std::decay_t<decltype(gd)>> rhs{gd, g, nrhs, part.pivoting};
        int info[lane_count];
        block_factor_system<M, L, false>(lines_of_group<L>(a, g), lines_of_group<L>(b, g),
                                         lines_of_group<L>(c, g), g, part, &work(w, 0), out, rhs,
                                         info);
        for (int l = 0; l < g.nl; ++l) codes(g.s0 + l) = info[l];
        for (int k = 0; k < nrhs; ++k)
          block_rhs_backward<M, L, block_kept_row_words<M, false>>(
              gd, g, k, part, &work(w, 0),
              block_reduced_out<T>{out.base + 2 * M * M + k * M, out.per_system, RW});
      });
}

// The matrices' part alone (factorize): the factors into work, reduced rows of 2M^2 words (A',
// C').
template <int M, class ExecutionSpace, class AView, class BView, class CView, class Work,
          class Reduced, class Codes>
void block_factor_parts(const ExecutionSpace& exec, const AView& a, const BView& b,
                        const CView& c, const Work& work, const Reduced& red, const Codes& codes,
                        index_t nsys, block_part part) {
  using T = typename Reduced::non_const_value_type;
  constexpr int L = block_part_lanes_v<ExecutionSpace, T>;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  constexpr int CW = 2 * M * M;
  for_each_block_group<L>(
      exec, "bandsolve::mpi::factorize(block_thomas)", 0, nsys,
      KOKKOS_LAMBDA(const index_t w, const block_lane_group& g) {
        int info[lane_count];
        block_factor_system<M, L, true>(
            lines_of_group<L>(a, g), lines_of_group<L>(b, g), lines_of_group<L>(c, g), g, part,
            &work(w, 0),
            block_reduced_out<T>{red.data(), part.reduced_rows() * CW, CW}, block_no_rhs{}, info);
        for (int l = 0; l < g.nl; ++l) codes(g.s0 + l) = info[l];
      });
}

// The right-hand side's part alone (a factored solve) with the factors in work: d' over d,
// reduced rows of M words (d') per right-hand side, the nrhs of a row side by side.
template <int M, class ExecutionSpace, class DView, class Work, class Reduced>
void block_rhs_parts(const ExecutionSpace& exec, const DView& d, int nrhs, const Work& work,
                     const Reduced& red, index_t nsys, block_part part) {
  using T = typename Reduced::non_const_value_type;
  constexpr int L = block_part_lanes_v<ExecutionSpace, T>;
  constexpr int MM = M * M, FW = block_kept_row_words<M, true>;
  for_each_block_group<L>(
      exec, "bandsolve::mpi::block_factorization::solve(reduce)", 0, nsys,
      KOKKOS_LAMBDA(const index_t w, const block_lane_group& g) {
        const auto* const f = &work(w, 0);
        const index_t per_system = part.reduced_rows() * nrhs * M;
        const auto& gd = lines_of_group<L>(d, g);
        for (int k = 0; k < nrhs; ++k) {
          for (index_t i = 0; i < part.n; ++i) {
            const auto* const row = f + i * FW * L;
            block_rhs_forward_row<M, L>(gd, g, i, k, row + 2 * MM * L, row + 3 * MM * L,
                                        row + (3 * MM + M) * L, part.pivoting);
          }
          block_rhs_backward<M, L, FW>(
              gd, g, k, part, f, block_reduced_out<T>{red.data() + k * M, per_system, nrhs * M});
        }
      });
}

// The finish pass of the batch of systems first .. first + count - 1, their interface values in
// iface (Factored: work holds a factorization's rows, the batch is every system).
template <int M, bool Factored, class ExecutionSpace, class DView, class Work, class Interface>
void block_finish_parts(const ExecutionSpace& exec, const DView& d, int nrhs, const Work& work,
                        const Interface& iface, index_t first, index_t count, block_part part) {
  using T = typename Work::non_const_value_type;
  constexpr int L = block_part_lanes_v<ExecutionSpace, T>;
  for_each_block_group<L>(exec, "bandsolve::mpi::solve(block_thomas, finish)", first, count,
                          KOKKOS_LAMBDA(const index_t w, const block_lane_group& g) {
                            block_finish_system<M, L, block_kept_row_words<M, Factored>>(
                                lines_of_group<L>(d, g), &work(w, 0), iface, g, nrhs, part);
                          });
}

}  // namespace bandsolve::mpi::detail
