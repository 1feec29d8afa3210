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
// j+p is a chain of kl conditional swaps (row j with row j+r where p == r): at most one fires.
// A zero pivot sets info = j+1 (first one only) and its multipliers to 0, so the lane goes on
// exactly as ?gbtf2 does (it skips that elimination).
// Without pivoting, U keeps ku superdiagonals and info flags zero, tiny or non-finite pivots like
// the core's Thomas.
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
template <class T, int L, class Dims>
struct band_work {
  T* rows;
  T* inv;
  Dims dims;
  KOKKOS_FORCEINLINE_FUNCTION int ldw() const { return 2 * dims.kl() + dims.ku() + 1; }
  // Lanes of entry o of work row i.
  KOKKOS_FORCEINLINE_FUNCTION T* at(index_t i, int o) const {
    return rows + (i * ldw() + o) * L;
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
  }
}

// Step j of the elimination on the work rows: pivot search and interchange (Pivot), multipliers
// (left in entry kl - r of row j+r), update of rows j+1 .. j+kl. Writes the lane's pivot offset
// (0 .. kl) to p, 1/pivot (0 for a zero pivot when pivoting) to w.inv row j, and info.
template <int L, bool Full, bool Pivot, class T, class Dims>
KOKKOS_FORCEINLINE_FUNCTION void eliminate_column(const band_work<T, L, Dims>& w, int nl,
                                                  index_t j, int* p, int* info) {
  using traits = scalar_traits<T>;
  using real = typename traits::real_type;
  const int kl = w.dims.kl(), kl_ku = w.dims.kl() + w.dims.ku();
  const int width = Pivot ? kl_ku : w.dims.ku();  // columns right of the pivot that change
  const int lanes = Full ? L : nl;
  T* top = w.at(j, kl);  // row j, column j
  if constexpr (Pivot) {
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) {
      real best = traits::abs1(top[l]);
      int pick = 0;
      for (int r = 1; r <= kl; ++r) {
        const real v = traits::abs1(w.at(j + r, kl - r)[l]);
        const bool better = v > best;
        best = better ? v : best;
        pick = better ? r : pick;
      }
      p[l] = pick;
    }
    for (int r = 1; r <= kl; ++r)
      for (int c = 0; c <= kl_ku; ++c) {
        T* t = top + c * L;
        T* o = w.at(j + r, kl - r + c);
        BANDSOLVE_SIMD
        for (int l = 0; l < lanes; ++l) {
          const bool swap = p[l] == r;
          const T a = t[l], b = o[l];
          t[l] = swap ? b : a;
          o[l] = swap ? a : b;
        }
      }
  } else {
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) p[l] = 0;
  }
  T* inv = w.inv + j * L;
  BANDSOLVE_SIMD
  for (int l = 0; l < lanes; ++l) {
    const T pivot = top[l];
    if constexpr (Pivot) {
      const bool zero = traits::is_zero(pivot);
      info[l] = first_info(info[l], !zero, j);
      inv[l] = zero ? T(0) : T(1) / pivot;
    } else {
      info[l] = first_info(info[l], banded_pivot_is_good(pivot), j);
      inv[l] = T(1) / pivot;
    }
  }
  for (int r = 1; r <= kl; ++r) {
    T* m = w.at(j + r, kl - r);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) m[l] = m[l] * inv[l];
    for (int c = 1; c <= width; ++c) {
      T* o = m + c * L;
      const T* u = top + c * L;
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) o[l] -= m[l] * u[l];
    }
  }
}

// The same interchange and elimination on the right-hand sides (rows j .. j+km, km = the rows
// below j that exist). mult(r) gives the lanes of multiplier r.
template <int L, bool Full, bool Pivot, class T, bool UnitLanes, class Mult>
KOKKOS_FORCEINLINE_FUNCTION void forward_rhs(const rhs_lanes<T, UnitLanes>& b, int nl, int nrhs,
                                             index_t j, int km, const int* p, const Mult& mult) {
  const int lanes = Full ? L : nl;
  for (int k = 0; k < nrhs; ++k) {
    T* y0 = b.row(j, k);
    if constexpr (Pivot) {
      for (int r = 1; r <= km; ++r) {
        T* yr = b.row(j + r, k);
        BANDSOLVE_SIMD
        for (int l = 0; l < lanes; ++l) {
          const bool swap = p[l] == r;
          const T x = y0[b.lane(l)], y = yr[b.lane(l)];
          y0[b.lane(l)] = swap ? y : x;
          yr[b.lane(l)] = swap ? x : y;
        }
      }
    }
    for (int r = 1; r <= km; ++r) {
      T* yr = b.row(j + r, k);
      const T* m = mult(r);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) yr[b.lane(l)] -= m[l * mult.lane_step] * y0[b.lane(l)];
    }
  }
}

// Multipliers of step j as they sit in the work rows (lane-contiguous).
template <class T, int L, class Dims>
struct work_multipliers {
  const band_work<T, L, Dims>& w;
  index_t j;
  static constexpr int lane_step = 1;
  KOKKOS_FORCEINLINE_FUNCTION const T* operator()(int r) const {
    return w.at(j + r, w.dims.kl() - r);
  }
};

KOKKOS_FORCEINLINE_FUNCTION int rows_below(index_t n, index_t j, int kl) {
  return static_cast<int>(n - 1 - j < kl ? n - 1 - j : kl);
}

// One-shot solve of a pack: factorization in the work rows with the right-hand sides carried
// along, then back substitution with U from the work rows. x overwrites b; the band is read only.
template <int L, bool Full, bool Pivot, class T, class Dims, bool BandUnit, bool RhsUnit>
KOKKOS_INLINE_FUNCTION void banded_solve_pack(const band_work<T, L, Dims>& w, index_t n, int nl,
                                              const band_lanes<const T, BandUnit>& ab,
                                              const rhs_lanes<T, RhsUnit>& b, int nrhs,
                                              int* info) {
  const int kl = w.dims.kl();
  const int lanes = Full ? L : nl;
  int p[L];
  for (int l = 0; l < L; ++l) info[l] = 0;
  for (index_t i = 0; i < kl; ++i) load_work_row<L, Full>(w, n, nl, i, ab);
  for (index_t j = 0; j < n; ++j) {
    load_work_row<L, Full>(w, n, nl, j + kl, ab);
    eliminate_column<L, Full, Pivot>(w, nl, j, p, info);
    forward_rhs<L, Full, Pivot>(b, nl, nrhs, j, rows_below(n, j, kl), p,
                                work_multipliers<T, L, Dims>{w, j});
  }
  // x_j = (y_j - sum_c U(j, j+c) x_{j+c}) / U(j, j), U(j, j+c) in entry kl + c of work row j.
  const int width = Pivot ? kl + w.dims.ku() : w.dims.ku();
  for (int k = 0; k < nrhs; ++k)
    for (index_t j = n - 1; j >= 0; --j) {
      T* x = b.row(j, k);
      const int cmax = static_cast<int>(n - 1 - j < width ? n - 1 - j : width);
      for (int c = 1; c <= cmax; ++c) {
        const T* u = w.at(j, kl + c);
        const T* xc = b.row(j + c, k);
        BANDSOLVE_SIMD
        for (int l = 0; l < lanes; ++l) x[b.lane(l)] -= u[l] * xc[b.lane(l)];
      }
      const T* inv = w.inv + j * L;
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) x[b.lane(l)] = x[b.lane(l)] * inv[l];
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
  int p[L];
  for (int l = 0; l < L; ++l) info[l] = 0;
  for (index_t i = 0; i < kl; ++i) load_work_row<L, Full>(w, n, nl, i, ab);
  for (index_t j = 0; j < n; ++j) {
    load_work_row<L, Full>(w, n, nl, j + kl, ab);
    eliminate_column<L, Full, Pivot>(w, nl, j, p, info);
    int* piv = ipiv.row(j);
    BANDSOLVE_SIMD
    for (int l = 0; l < lanes; ++l) piv[ipiv.lane(l)] = static_cast<int>(j) + 1 + p[l];
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
  KOKKOS_FORCEINLINE_FUNCTION const T* operator()(int r) const { return lu.entry(j, kv + r); }
};

// Solve with a stored factorization (?gbtrs): interchanges and L forward, then U backward with
// the kl+ku superdiagonals of partial pivoting (ku without). x overwrites b.
template <int L, bool Full, bool Pivot, class T, class Dims, bool BandUnit, bool RhsUnit,
          bool PivUnit>
KOKKOS_INLINE_FUNCTION void banded_factored_solve_pack(const Dims& dims, index_t n, int nl,
                                                       const band_lanes<const T, BandUnit>& lu,
                                                       const pivot_lanes<PivUnit>& ipiv,
                                                       const rhs_lanes<T, RhsUnit>& b, int nrhs) {
  const int kl = dims.kl(), kv = dims.kl() + dims.ku();
  const int width = Pivot ? kv : dims.ku();
  const int lanes = Full ? L : nl;
  int p[L];
  const index_t lane_step = BandUnit ? 1 : lu.lane_stride;
  for (index_t j = 0; j < n; ++j) {
    if constexpr (Pivot) {
      const int* piv = ipiv.row(j);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) p[l] = piv[ipiv.lane(l)] - 1 - static_cast<int>(j);
    }
    forward_rhs<L, Full, Pivot>(b, nl, nrhs, j, rows_below(n, j, kl), p,
                                band_multipliers<T, BandUnit>{lu, j, kv, lane_step});
  }
  for (int k = 0; k < nrhs; ++k)
    for (index_t j = n - 1; j >= 0; --j) {
      T* x = b.row(j, k);
      const int cmax = static_cast<int>(n - 1 - j < width ? n - 1 - j : width);
      for (int c = 1; c <= cmax; ++c) {
        const T* u = lu.entry(j + c, kv - c);
        const T* xc = b.row(j + c, k);
        BANDSOLVE_SIMD
        for (int l = 0; l < lanes; ++l) x[b.lane(l)] -= u[lu.lane(l)] * xc[b.lane(l)];
      }
      const T* d = lu.entry(j, kv);
      BANDSOLVE_SIMD
      for (int l = 0; l < lanes; ++l) x[b.lane(l)] = x[b.lane(l)] / d[lu.lane(l)];
    }
}

}  // namespace bandsolve::detail
