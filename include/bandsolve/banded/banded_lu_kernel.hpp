#pragma once
// Banded LU (LAPACK ?gbtrf/?gbtrs semantics) on a pack of L systems at once, one SIMD lane per
// system. Valid in device code (no exceptions, no std:: calls, no allocation).
//
// Work rows. Row i of the matrix is copied once into a work row of ldw = 2kl+ku+1 entries (each
// entry L lanes), entry o holding column i - kl + o; entries past the band (the kl fill-in columns
// of partial pivoting, columns outside 0..n-1) start at zero. Step j of the elimination touches
// work rows j .. j+kl: in row j+r, column j+c sits at entry kl - r + c. A row interchange moves
// columns j .. j+kv (kv = kl+ku) only, so the multiplier that step j leaves in entry kl - r of
// row j+r stays there, as LAPACK leaves it in band row kv + r of column j. kl zero work rows
// after the last one keep every loop's bounds fixed: a zero row never wins a pivot search (the
// comparison is strict) and never feeds a real row.
//
// Pivoting is per lane and branch-free: the search keeps the first row of largest magnitude
// (|x|, or |re|+|im| for complex values, as LAPACK's i?amax), and the interchange of rows j and
// j+p is done with selects on p == r for r = 1 .. kl (at most one matches) in every column.
// A zero, tiny or non-finite pivot sets info = j+1 (first one only); a zero one also sets its
// multipliers to 0, so the lane goes on exactly as ?gbtf2 does (it skips that elimination).
// Without pivoting, U keeps ku superdiagonals and info flags zero, tiny or non-finite pivots like
// the core's Thomas.
#include <bandsolve/backend/host_simd/pack_vectors.hpp>
#include <bandsolve/backend/host_simd/pack_widths.hpp>
#include <bandsolve/banded/scalar.hpp>
#include <bandsolve/core/config.hpp>

namespace bandsolve::detail {

// Bandwidths known at compile time: loops over them unroll.
template <int KL, int KU>
struct band_dims {
  static_assert(KL >= 0 && KU >= 0, "bandsolve banded_lu: kl and ku must be >= 0");
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int kl() { return KL; }
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int ku() { return KU; }
};

// Bandwidths known at run time only (the generic kernel).
struct runtime_band_dims {
  int kl_, ku_;
  KOKKOS_FORCEINLINE_FUNCTION constexpr int kl() const { return kl_; }
  KOKKOS_FORCEINLINE_FUNCTION constexpr int ku() const { return ku_; }
};

// Band entries of a pack: band row r of column j of lane l at base + l*ls + j*cs + r*rs, with
// ls = 1 at compile time when the lanes are contiguous (interleaved packs, column blocks).
template <class T, bool UnitLanes>
struct band_lanes {
  T* base;
  index_t lane_stride, col_stride, row_stride;
  KOKKOS_FORCEINLINE_FUNCTION T* entry(index_t j, index_t r) const {
    return base + j * col_stride + r * row_stride;
  }
  KOKKOS_FORCEINLINE_FUNCTION index_t lane(int l) const {
    return UnitLanes ? static_cast<index_t>(l) : l * lane_stride;
  }
};

// Right-hand sides of a pack: row i of right-hand side k of lane l at
// base + l*ls + i*is + k*ks (ls = 1 at compile time for contiguous lanes).
template <class T, bool UnitLanes>
struct rhs_lanes {
  T* base;
  index_t lane_stride, row_stride, rhs_stride;
  KOKKOS_FORCEINLINE_FUNCTION T* row(index_t i, index_t k) const {
    return base + i * row_stride + k * rhs_stride;
  }
  KOKKOS_FORCEINLINE_FUNCTION index_t lane(int l) const {
    return UnitLanes ? static_cast<index_t>(l) : l * lane_stride;
  }
};

// Pivot indices of a pack (1-based rows, as LAPACK's ipiv): row j of lane l at base + l*ls + j*js.
template <bool UnitLanes>
struct pivot_lanes {
  int* base;
  index_t lane_stride, row_stride;
  KOKKOS_FORCEINLINE_FUNCTION int* row(index_t j) const { return base + j * row_stride; }
  KOKKOS_FORCEINLINE_FUNCTION index_t lane(int l) const {
    return UnitLanes ? static_cast<index_t>(l) : l * lane_stride;
  }
};

// Work rows of one pack: (n + kl) rows of ldw entries of L lanes, then n reciprocal pivots.
// Entries lie step() elements apart: L, or for one lane (L = 1) lane_step, which the device
// kernels set to the tile's system count so that the threads of a tile, each with its own
// system's work rows interleaved with the others', touch neighbouring addresses.
template <class T, int L, class Dims>
struct band_work {
  T* rows;
  T* inv;
  Dims dims;
  index_t lane_step = 1;
  KOKKOS_FORCEINLINE_FUNCTION index_t step() const { return L == 1 ? lane_step : L; }
  KOKKOS_FORCEINLINE_FUNCTION int ldw() const { return 2 * dims.kl() + dims.ku() + 1; }
  // Lanes of entry o of work row i.
  KOKKOS_FORCEINLINE_FUNCTION T* at(index_t i, int o) const {
    return rows + (i * ldw() + o) * step();
  }
  static KOKKOS_INLINE_FUNCTION std::size_t bytes(const Dims& d, index_t n) {
    const index_t ldw = 2 * d.kl() + d.ku() + 1;
    return static_cast<std::size_t>(((n + d.kl()) * ldw + n) * L) * sizeof(T);
  }
};

// Copies row i of the matrix into work row i (zeros outside the band and past row n-1).
template <int L, bool Full, class T, class Dims, bool UnitLanes>
KOKKOS_FORCEINLINE_FUNCTION void load_work_row(const band_work<T, L, Dims>& w, index_t n, int nl,
                                               index_t i, const band_lanes<const T, UnitLanes>& ab) {
  const int kl = w.dims.kl(), kv = w.dims.kl() + w.dims.ku(), ldw = w.ldw();
  const int lanes = Full ? L : nl;
  for (int o = 0; o < ldw; ++o) {
    const index_t j = i - kl + o;
    T* dst = w.at(i, o);
    if (i < n && o <= kv && j >= 0 && j < n) {
      const T* src = ab.entry(j, kv + i - j);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) dst[l] = src[ab.lane(l)];
    } else {
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) dst[l] = T(0);
    }
    if constexpr (!Full)  // padding lanes of a partial pack: zeros for whole-pack steps
      for (int l = nl; l < L; ++l) dst[l] = T(0);
  }
}

// Software prefetch of band column jj (its kl+ku+1 non-fill entries) and right-hand-side row
// jj, some steps ahead of the loads. Reading the band row by row walks down a diagonal of the
// storage (one entry in each of kl+ku+1 columns), which the hardware prefetchers do not follow.
inline constexpr index_t band_prefetch_distance = 16;

template <int L, class T, bool BandUnit, class Dims>
KOKKOS_FORCEINLINE_FUNCTION void prefetch_band_column(const Dims& dims, index_t n, int nl,
                                                      index_t jj,
                                                      const band_lanes<const T, BandUnit>& ab) {
  if (jj >= n) return;
  const int kl = dims.kl(), last = 2 * dims.kl() + dims.ku();
  if constexpr (BandUnit) {
    constexpr int lines = pack_lines_v<T, L>;
    for (int r = kl; r <= last; ++r)
      for (int c = 0; c < lines; ++c)
        BANDSOLVE_PREFETCH(reinterpret_cast<const char*>(ab.entry(jj, r)) + 64 * c);
  } else {
    for (int l = 0; l < nl; ++l) {
      BANDSOLVE_PREFETCH(ab.entry(jj, kl) + ab.lane(l));
      BANDSOLVE_PREFETCH(ab.entry(jj, last) + ab.lane(l));
    }
  }
}

template <int L, class T, bool RhsUnit>
KOKKOS_FORCEINLINE_FUNCTION void prefetch_rhs_row(index_t n, int nl, int nrhs, index_t i,
                                                  const rhs_lanes<T, RhsUnit>& b) {
  if (i >= n) return;
  for (int k = 0; k < nrhs; ++k) {
    if constexpr (RhsUnit) {
      constexpr int lines = pack_lines_v<T, L>;
      for (int c = 0; c < lines; ++c)
        BANDSOLVE_PREFETCH(reinterpret_cast<const char*>(b.row(i, k)) + 64 * c);
    } else {
      for (int l = 0; l < nl; ++l) BANDSOLVE_PREFETCH(b.row(i, k) + b.lane(l));
    }
  }
}

// Pivot offsets (0 .. kl) are kept in the real type of the values: the selects that apply them
// then compare and blend vectors of one width, which vectorizes well.
template <class T>
using pivot_offset_t = typename scalar_traits<T>::real_type;

// Step j of the elimination on the work rows: pivot search and interchange (Pivot), multipliers
// (left in entry kl - r of row j+r), update of rows j+1 .. j+kl. Writes the lane's pivot offset
// (0 .. kl) to p, 1/pivot (0 for a zero pivot when pivoting) to w.inv row j, and info.
// Every loop runs across the lanes innermost (simple loops that vectorize for any bandwidth).
template <int L, bool Full, bool Pivot, class T, class Dims>
KOKKOS_FORCEINLINE_FUNCTION void eliminate_column_lanewise(const band_work<T, L, Dims>& w, int nl,
                                                           index_t j, pivot_offset_t<T>* p,
                                                           int* info) {
  using traits = scalar_traits<T>;
  using real = typename traits::real_type;
  const int kl = w.dims.kl();
  const int width = Pivot ? w.dims.kl() + w.dims.ku() : w.dims.ku();  // columns right of j
  const int lanes = Full ? L : nl;
  const index_t down = static_cast<index_t>(w.ldw()) * w.step() - w.step();  // row j+r -> j+r+1, same column
  T* top = w.at(j, kl);                                         // row j, column j
  T* below = top + down;                                        // row j+1, column j
  T* inv = w.inv + j * w.step();
  T t[static_cast<std::size_t>(L)], u[static_cast<std::size_t>(L)];
  // Column j: pivot choice, interchange, multipliers.
  if constexpr (Pivot) {
    real best[static_cast<std::size_t>(L)];
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      best[l] = traits::abs1(top[l]);
      p[l] = real(0);
      t[l] = top[l];
      u[l] = top[l];
    }
    for (int r = 1; r <= kl; ++r) {
      const T* col = below + (r - 1) * down;
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) {
        const real v = traits::abs1(col[l]);
        const real b = best[l];
        p[l] = v > b ? real(r) : p[l];
        best[l] = v > b ? v : b;
      }
    }
    for (int r = 1; r <= kl; ++r) {
      const T* col = below + (r - 1) * down;
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) {
        const T x = col[l];  // loaded unconditionally so that the select if-converts
        u[l] = select(p[l] == real(r), x, u[l]);
      }
    }
  } else {
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      p[l] = real(0);
      t[l] = top[l];
      u[l] = top[l];
    }
  }
  BANDSOLVE_SIMD
  for (int l = 0; l < lanes; ++l) {
    const T pivot = u[l];
    if constexpr (Pivot) {
      const bool zero = traits::is_zero(pivot);
      info[l] = first_info(info[l], pivot_is_good(pivot), j);
      inv[l] = select(zero, T(0), reciprocal(pivot));
    } else {
      info[l] = first_info(info[l], pivot_is_good(pivot), j);
      inv[l] = reciprocal(pivot);
    }
    top[l] = pivot;
  }
  for (int r = 1; r <= kl; ++r) {
    T* m = below + (r - 1) * down;
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const T x = m[l];
      m[l] = product(select(Pivot && p[l] == real(r), t[l], x), inv[l]);
    }
  }
  // Columns j+1 .. j+width: interchange, then update.
  for (int c = 1; c <= width; ++c) {
    T* tc = top + c * w.step();
    T* bc = below + c * w.step();
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      t[l] = tc[l];
      u[l] = tc[l];
    }
    if constexpr (Pivot) {
      for (int r = 1; r <= kl; ++r) {
        const T* o = bc + (r - 1) * down;
        BANDSOLVE_SIMD
        for (int l = 0; l < lanes; ++l) {
          const T x = o[l];
          u[l] = select(p[l] == real(r), x, u[l]);
        }
      }
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) tc[l] = u[l];
    }
    for (int r = 1; r <= kl; ++r) {
      T* o = bc + (r - 1) * down;
      const T* m = below + (r - 1) * down;
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) {
        const T x = o[l];
        const T old = select(Pivot && p[l] == real(r), t[l], x);
        o[l] = minus_product(old, m[l], u[l]);
      }
    }
  }
}

// Step j with partial pivoting on whole packs (pack_vectors.hpp, where pack_vectors_v holds):
// rows j .. j+kl of column j down the work rows, columns j+1 .. j+kv to their right. The same
// arithmetic, selects and strict comparisons as the lane-wise step, so the same pivots. Padding
// lanes of a partial pack hold zeros (load_work_row) and are never written out. One function per
// scalar, width and bandwidths, shared by the solve and the factorization.
template <int L, class T, class Dims>
inline void eliminate_column_pivoting_packed(const band_work<T, L, Dims>& w, index_t j,
                                             pivot_offset_t<T>* p, int* info) {
  const int kl = w.dims.kl(), width = w.dims.kl() + w.dims.ku();
  const index_t down = static_cast<index_t>(w.ldw()) * L - L;  // row j+r -> j+r+1, same column
  T pivot[static_cast<std::size_t>(L)];
  pivoting_elimination_packed<L>(w.at(j, kl), down, kl, width, w.inv + j * L, p, pivot);
  for (int l = 0; l < L; ++l) info[l] = first_info(info[l], pivot_is_good(pivot[l]), j);
}

// Step j of the elimination: whole-pack vectors where the host backend has them (partial
// pivoting; pack_vectors_v: real values, packs of several systems), the lane-wise loops otherwise.
template <int L, bool Full, bool Pivot, class T, class Dims>
KOKKOS_FORCEINLINE_FUNCTION void eliminate_column(const band_work<T, L, Dims>& w, int nl,
                                                  index_t j, pivot_offset_t<T>* p, int* info) {
  if constexpr (Pivot && pack_vectors_v<T, L>)
    eliminate_column_pivoting_packed<L>(w, j, p, info);
  else
    eliminate_column_lanewise<L, Full, Pivot>(w, nl, j, p, info);
}

// The same interchange and elimination on the right-hand sides, rows j .. j+rows (rows = kl,
// or fewer at the bottom; a compile-time kl unrolls the common case). mult(r) gives the lanes of
// multiplier r.
template <int L, bool Full, bool Pivot, class T, bool UnitLanes, class Mult>
KOKKOS_FORCEINLINE_FUNCTION void forward_rhs_rows_lanewise(const rhs_lanes<T, UnitLanes>& b, int nl,
                                                  int nrhs, index_t j, int rows,
                                                  const pivot_offset_t<T>* p, const Mult& mult) {
  using real = pivot_offset_t<T>;
  const int lanes = Full ? L : nl;
  const index_t down = b.row_stride;
  for (int k = 0; k < nrhs; ++k) {
    T* y0 = b.row(j, k);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      const index_t bl = b.lane(l);
      const T y = y0[bl];
      T u = y;
      if constexpr (Pivot)
        for (int r = 1; r <= rows; ++r) {
          const T x = y0[r * down + bl];
          u = select(p[l] == real(r), x, u);
        }
      y0[bl] = u;
      for (int r = 1; r <= rows; ++r) {
        const T x = y0[r * down + bl];
        const T old = select(Pivot && p[l] == real(r), y, x);
        y0[r * down + bl] = minus_product(old, mult(r)[l * mult.lane_step], u);
      }
    }
  }
}

// The same on whole packs of contiguous lanes (see eliminate_column_pivoting_packed).
template <int L, class T, class Mult>
inline void forward_rhs_rows_packed(const rhs_lanes<T, true>& b, int nrhs, index_t j, int rows,
                                    const pivot_offset_t<T>* p, const Mult& mult) {
  pivoted_update_packed<L>([&](int k) { return b.row(j, k); }, nrhs, b.row_stride, rows, p, mult);
}

// Whole packs where the lanes of the right-hand sides and multipliers are contiguous and the
// pack is full, lane by lane otherwise.
template <int L, bool Full, bool Pivot, class T, bool UnitLanes, class Mult>
KOKKOS_FORCEINLINE_FUNCTION void forward_rhs_rows(const rhs_lanes<T, UnitLanes>& b, int nl,
                                                  int nrhs, index_t j, int rows,
                                                  const pivot_offset_t<T>* p, const Mult& mult) {
  if constexpr (Pivot && UnitLanes && Mult::unit_lanes && pack_vectors_v<T, L>) {
    if (Full || nl == L) {
      forward_rhs_rows_packed<L>(b, nrhs, j, rows, p, mult);
      return;
    }
  }
  forward_rhs_rows_lanewise<L, Full, Pivot>(b, nl, nrhs, j, rows, p, mult);
}

template <int L, bool Full, bool Pivot, class T, class Dims, bool UnitLanes, class Mult>
KOKKOS_FORCEINLINE_FUNCTION void forward_rhs(const Dims& dims, const rhs_lanes<T, UnitLanes>& b,
                                             int nl, int nrhs, index_t n, index_t j,
                                             const pivot_offset_t<T>* p, const Mult& mult) {
  if (n - 1 - j >= dims.kl())
    forward_rhs_rows<L, Full, Pivot>(b, nl, nrhs, j, dims.kl(), p, mult);
  else
    forward_rhs_rows<L, Full, Pivot>(b, nl, nrhs, j, static_cast<int>(n - 1 - j), p, mult);
}

// Multipliers of step j as they sit in the work rows (lane-contiguous).
template <class T, int L, class Dims>
struct work_multipliers {
  const band_work<T, L, Dims>& w;
  index_t j;
  static constexpr int lane_step = 1;
  static constexpr bool unit_lanes = true;
  KOKKOS_FORCEINLINE_FUNCTION const T* operator()(int r) const {
    return w.at(j + r, w.dims.kl() - r);
  }
};

// Back substitution of row j on the lanes of a pack: x_j = (x_j - sum_{c=1..count} U(j, j+c)
// x_{j+c}) / U(j, j), with upper.entry(c, l) = U(j, j+c) of lane l and upper.divide(s, l) =
// s / U(j, j). A function, not a lambda, so that it is always inlined: count = width is then a
// constant wherever the bandwidths are, its loop unrolls and the lane loop vectorizes (Clang kept
// a lambda's call and ran the loop scalar, at 2-3x GCC's time).
template <class R, bool RhsUnit, class Upper>
KOKKOS_FORCEINLINE_FUNCTION void back_substitute_row(const rhs_lanes<R, RhsUnit>& b, R* x,
                                                     int lanes, int count, const Upper& upper) {
  const index_t down = b.row_stride;
  BANDSOLVE_SIMD
  for (int l = 0; l < lanes; ++l) {
    const index_t bl = b.lane(l);
    R s = x[bl];
    for (int c = 1; c <= count; ++c) s = minus_product(s, upper.entry(c, l), x[c * down + bl]);
    x[bl] = upper.divide(s, l);
  }
}

// U of row j in the work rows: entry kl + c, lanes contiguous, 1/U(j, j) in w.inv.
template <class T>
struct work_upper {
  const T* u;
  const T* inv;
  index_t step;
  KOKKOS_FORCEINLINE_FUNCTION T entry(int c, int l) const { return u[c * step + l]; }
  template <class R>
  KOKKOS_FORCEINLINE_FUNCTION R divide(const R& s, int l) const { return product(s, inv[l]); }
};

// One-shot solve of a pack: factorization in the work rows with the right-hand sides carried
// along, then back substitution with U from the work rows. x overwrites b; the band is read only.
// The right-hand sides R are of the band's type T, or complex over a real T.
template <int L, bool Full, bool Pivot, class T, class Dims, bool BandUnit, class R, bool RhsUnit>
KOKKOS_INLINE_FUNCTION void banded_solve_pack(const band_work<T, L, Dims>& w, index_t n, int nl,
                                              const band_lanes<const T, BandUnit>& ab,
                                              const rhs_lanes<R, RhsUnit>& b, int nrhs,
                                              int* info) {
  const int kl = w.dims.kl();
  const int lanes = Full ? L : nl;
  pivot_offset_t<T> p[static_cast<std::size_t>(L)];
  for (int l = 0; l < L; ++l) info[l] = 0;
  for (index_t i = 0; i < kl; ++i) load_work_row<L, Full>(w, n, nl, i, ab);
  for (index_t j = 0; j < n; ++j) {
    prefetch_band_column<L>(w.dims, n, nl, j + kl + w.dims.ku() + band_prefetch_distance, ab);
    prefetch_rhs_row<L>(n, nl, nrhs, j + kl + band_prefetch_distance, b);
    load_work_row<L, Full>(w, n, nl, j + kl, ab);
    eliminate_column<L, Full, Pivot>(w, nl, j, p, info);
    forward_rhs<L, Full, Pivot>(w.dims, b, nl, nrhs, n, j, p, work_multipliers<T, L, Dims>{w, j});
  }
  // x_j = (y_j - sum_c U(j, j+c) x_{j+c}) / U(j, j), U(j, j+c) in entry kl + c of work row j.
  const int width = Pivot ? kl + w.dims.ku() : w.dims.ku();
  for (int k = 0; k < nrhs; ++k)
    for (index_t j = n - 1; j >= 0; --j) {
      R* x = b.row(j, k);
      const int cmax = static_cast<int>(n - 1 - j < width ? n - 1 - j : width);
      const work_upper<T> upper{w.at(j, kl), w.inv + j * w.step(), w.step()};
      if (cmax == width) back_substitute_row(b, x, lanes, width, upper);
      else back_substitute_row(b, x, lanes, cmax, upper);
    }
}

// Factorization of a pack into LAPACK band storage (lu, same layout rules as the input) and
// 1-based pivot rows (identity without pivoting).
template <int L, bool Full, bool Pivot, class T, class Dims, bool BandUnit, bool PivUnit>
KOKKOS_INLINE_FUNCTION void banded_factor_pack(const band_work<T, L, Dims>& w, index_t n, int nl,
                                               const band_lanes<const T, BandUnit>& ab,
                                               const band_lanes<T, BandUnit>& lu,
                                               const pivot_lanes<PivUnit>& ipiv, int* info) {
  const int kl = w.dims.kl(), kv = w.dims.kl() + w.dims.ku();
  const int lanes = Full ? L : nl;
  pivot_offset_t<T> p[static_cast<std::size_t>(L)];
  for (int l = 0; l < L; ++l) info[l] = 0;
  for (index_t i = 0; i < kl; ++i) load_work_row<L, Full>(w, n, nl, i, ab);
  for (index_t j = 0; j < n; ++j) {
    prefetch_band_column<L>(w.dims, n, nl, j + kl + w.dims.ku() + band_prefetch_distance, ab);
    load_work_row<L, Full>(w, n, nl, j + kl, ab);
    eliminate_column<L, Full, Pivot>(w, nl, j, p, info);
    int* piv = ipiv.row(j);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) piv[ipiv.lane(l)] = static_cast<int>(j) + 1 + static_cast<int>(p[l]);
  }
  // U(j, j+c) -> band row kv - c of column j+c; multiplier of row j+r -> band row kv + r of column j.
  for (index_t j = 0; j < n; ++j) {
    for (int c = 0; c <= kv && j + c < n; ++c) {
      const T* src = w.at(j, kl + c);
      T* dst = lu.entry(j + c, kv - c);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) dst[lu.lane(l)] = src[l];
    }
    for (int r = 1; r <= kl && j + r < n; ++r) {
      const T* src = w.at(j + r, kl - r);
      T* dst = lu.entry(j, kv + r);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) dst[lu.lane(l)] = src[l];
    }
  }
}

// Multipliers of column j in LAPACK band storage.
template <class T, bool UnitLanes>
struct band_multipliers {
  const band_lanes<const T, UnitLanes>& lu;
  index_t j;
  int kv;
  index_t lane_step;
  static constexpr bool unit_lanes = UnitLanes;
  KOKKOS_FORCEINLINE_FUNCTION const T* operator()(int r) const { return lu.entry(j, kv + r); }
};

// U of row j in LAPACK band storage: U(j, j+c) at band row kv - c of column j+c, diag_step
// (col_stride - row_stride) apart from U(j, j) at d.
template <class T, bool UnitLanes>
struct band_upper {
  const band_lanes<const T, UnitLanes>& lu;
  const T* d;
  index_t diag_step;
  KOKKOS_FORCEINLINE_FUNCTION T entry(int c, int l) const { return d[c * diag_step + lu.lane(l)]; }
  template <class R>
  KOKKOS_FORCEINLINE_FUNCTION R divide(const R& s, int l) const {
    return quotient(s, d[lu.lane(l)]);
  }
};

// Solve with a stored factorization (?gbtrs): interchanges and L forward, then U backward with
// the kl+ku superdiagonals of partial pivoting (ku without). x overwrites b.
template <int L, bool Full, bool Pivot, class T, class Dims, bool BandUnit, class R, bool RhsUnit,
          bool PivUnit>
KOKKOS_INLINE_FUNCTION void banded_factored_solve_pack(const Dims& dims, index_t n, int nl,
                                                       const band_lanes<const T, BandUnit>& lu,
                                                       const pivot_lanes<PivUnit>& ipiv,
                                                       const rhs_lanes<R, RhsUnit>& b, int nrhs) {
  const int kv = dims.kl() + dims.ku();
  const int width = Pivot ? kv : dims.ku();
  const int lanes = Full ? L : nl;
  pivot_offset_t<T> p[static_cast<std::size_t>(L)];
  const index_t lane_step = BandUnit ? 1 : lu.lane_stride;
  for (index_t j = 0; j < n; ++j) {
    if constexpr (Pivot) {
      const int* piv = ipiv.row(j);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l)
        p[l] = static_cast<pivot_offset_t<T>>(piv[ipiv.lane(l)] - 1 - static_cast<int>(j));
    }
    forward_rhs<L, Full, Pivot>(dims, b, nl, nrhs, n, j, p,
                                band_multipliers<T, BandUnit>{lu, j, kv, lane_step});
  }
  // U(j, j+c) at band row kv - c of column j+c: one step of col_stride - row_stride per c.
  const index_t diag_step = lu.col_stride - lu.row_stride;
  for (int k = 0; k < nrhs; ++k)
    for (index_t j = n - 1; j >= 0; --j) {
      R* x = b.row(j, k);
      const int cmax = static_cast<int>(n - 1 - j < width ? n - 1 - j : width);
      const band_upper<T, BandUnit> upper{lu, lu.entry(j, kv), diag_step};
      if (cmax == width) back_substitute_row(b, x, lanes, width, upper);
      else back_substitute_row(b, x, lanes, cmax, upper);
    }
}

}  // namespace bandsolve::detail
