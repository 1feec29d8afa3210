#pragma once
// Periodic (cyclic) tridiagonal systems on a block of L systems at once, one SIMD lane per
// system: a[0] couples x[n-1] into row 0, c[n-1] couples x[0] into row n-1.
//
// Method: bordering (Schur complement on the last unknown). With m = n - 1 and T the leading
// m x m tridiagonal block (rows 0 .. n-2 without their couplings to x[n-1]):
//   T y = d[0 .. m-1],   T z = e,   e = a[0] e_0 + c[m-1] e_{m-1}   (one Thomas sweep, two rhs)
//   s = b[n-1] - c[n-1] z[0] - a[n-1] z[m-1]                        (the Schur complement)
//   x[n-1] = (d[n-1] - c[n-1] y[0] - a[n-1] y[m-1]) / s,   x[i] = y[i] - x[n-1] z[i].
// This is Sherman-Morrison's cost (two right-hand sides, one correction) without its modified
// diagonals: Sherman-Morrison solves with b[0] - gamma and b[n-1] - a[0] c[n-1] / gamma, whose
// conditioning depends on the choice of gamma; here every pivot is a pivot of Gaussian
// elimination on A itself (T is a principal submatrix, s its Schur complement), so for a row
// diagonally dominant A every pivot keeps the dominance margin and info points at A's own rows.
//
// n = 1: the periodic stencil folds onto one unknown, (a[0] + b[0] + c[0]) x[0] = d[0].
// n = 2: entries that meet in one position add: row 0 is b[0] x[0] + (a[0] + c[0]) x[1],
// row 1 is (a[1] + c[1]) x[0] + b[1] x[1]. (Both follow from the formulas above with e and z.)
// info: 0, or the 1-based row of the first zero, tiny or non-finite pivot (Thomas' test on
// |re| + |im|), n for the Schur complement.
//
// Coefficients and factors (c', z, 1/pivot) are of type T, right-hand sides and solutions (y, x)
// of type D: the same type, or D = Kokkos::complex<T> over real T (the pivots and info are those
// of the real matrix).
#include <bandsolve/backend/host_simd/lane_block.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <cstddef>

namespace bandsolve::detail {

// Every kernel here reads d through a block DB (lane_block, or lane_add_block: x added into
// another array), loading every row it reads before it stores any row of x.

// n = 1 for every lane: x = d / (a + b + c).
template <int L, int WG, class T, class DB>
KOKKOS_INLINE_FUNCTION void periodic_single_row(const lane_block<const T, L, WG>& a,
                                                const lane_block<const T, L, WG>& b,
                                                const lane_block<const T, L, WG>& c, const DB& d,
                                                int* info) {
  using D = std::remove_const_t<typename DB::value_type>;
  T A[static_cast<std::size_t>(L)], B[static_cast<std::size_t>(L)], C[static_cast<std::size_t>(L)];
  D X[static_cast<std::size_t>(L)];
  a.load(0, A);
  b.load(0, B);
  c.load(0, C);
  d.load(0, X);
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    const T p = A[l] + B[l] + C[l];
    info[l] = update_info(0, p, 0);
    X[l] = X[l] * reciprocal(p);
  }
  d.store(0, X);
}

// e_i: a[0] in row 0 plus c[m-1] in row m-1 (both in row 0 when m = 1).
template <int L, int WG, class T>
KOKKOS_FORCEINLINE_FUNCTION void coupling_column(index_t i, index_t m,
                                                 const lane_block<const T, L, WG>& a,
                                                 const lane_block<const T, L, WG>& c, T* E) {
  for (int l = 0; l < L; ++l) E[l] = T(0);
  if (i == 0) a.load(0, E);
  if (i == m - 1) {
    T C[static_cast<std::size_t>(L)];
    c.load(m - 1, C);
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) E[l] += C[l];
  }
}

// Rows of y, z and of the stored factors are S entries apart (S = L on the host; the device
// backend runs one lane per thread with rows of its tile of 32 systems, S = 32).

// The last row's closing step, x[n-1] for every lane, and x[i] = y[i] - x[n-1] z[i] into d.
template <int L, int WG, class T, class D, int S = L, class DB = lane_block<D, L, WG>>
KOKKOS_INLINE_FUNCTION void periodic_close(index_t n, const D* y, const T* z, const T* cl,
                                           const T* al, const D* dl, const T* rs, const DB& d) {
  const index_t m = n - 1;
  D xl[static_cast<std::size_t>(L)], X[static_cast<std::size_t>(L)];
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l)
    xl[l] = (dl[l] - cl[l] * y[l] - al[l] * y[(m - 1) * S + l]) * rs[l];
  d.store(n - 1, xl);
  for (index_t i = 0; i < m; ++i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) X[l] = y[i * S + l] - xl[l] * z[i * S + l];
    d.store(i, X);
  }
}

// Backward sweep of Thomas over rows 0 .. m-1 for the lane-contiguous rows v (in place).
template <int L, class T, class V, int S = L>
KOKKOS_FORCEINLINE_FUNCTION void periodic_backward(index_t m, const T* cp, V* v) {
  for (index_t i = m - 2; i >= 0; --i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) v[i * S + l] -= cp[i * S + l] * v[(i + 1) * S + l];
  }
}

// Scratch of the one-shot solve: n*L right-hand side values (y) first, so that the 2*n*L
// coefficient values after them (c', z) stay aligned for either type.
template <class T, class D>
constexpr std::size_t periodic_scratch_bytes(index_t n, int L) {
  return static_cast<std::size_t>(n) * static_cast<std::size_t>(L) * (sizeof(D) + 2 * sizeof(T));
}

// One-shot solve of the block; x overwrites d. scratch: periodic_scratch_bytes<T, D>(n, L).
template <int L, int WG, class T, class DB>
KOKKOS_INLINE_FUNCTION void periodic_solve_block(index_t n, const lane_block<const T, L, WG>& a,
                                                 const lane_block<const T, L, WG>& b,
                                                 const lane_block<const T, L, WG>& c, const DB& d,
                                                 void* scratch, int* info) {
  using D = std::remove_const_t<typename DB::value_type>;
  if (n == 1) {
    periodic_single_row(a, b, c, d, info);
    return;
  }
  const index_t m = n - 1;
  D* y = static_cast<D*>(scratch);
  T *cp = reinterpret_cast<T*>(y + n * L), *z = cp + n * L;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  T A[lane_count], B[lane_count], C[lane_count], E[lane_count];
  D X[lane_count];
  for (int l = 0; l < L; ++l) info[l] = 0;
  for (index_t i = 0; i < m; ++i) {
    if (i + rows_ahead_of_loads < n) prefetch_rows(i + rows_ahead_of_loads, a, b, c, d);
    b.load(i, B);
    d.load(i, X);
    if (i > 0) {
      a.load(i, A);
    } else {
      for (int l = 0; l < L; ++l) A[l] = T(0);
    }
    if (i < m - 1) {
      c.load(i, C);
    } else {
      for (int l = 0; l < L; ++l) C[l] = T(0);
    }
    coupling_column(i, m, a, c, E);
    const index_t o = i * L, prev = i > 0 ? o - L : o;
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const T cprev = i > 0 ? cp[prev + l] : T(0), zprev = i > 0 ? z[prev + l] : T(0);
      const D yprev = i > 0 ? y[prev + l] : D(0);
      const T p = B[l] - A[l] * cprev;
      info[l] = update_info(info[l], p, i);
      const T r = reciprocal(p);
      cp[o + l] = C[l] * r;
      y[o + l] = (X[l] - A[l] * yprev) * r;
      z[o + l] = (E[l] - A[l] * zprev) * r;
    }
  }
  periodic_backward<L>(m, cp, y);
  periodic_backward<L>(m, cp, z);
  a.load(n - 1, A);
  b.load(n - 1, B);
  c.load(n - 1, C);
  d.load(n - 1, X);
  T rs[static_cast<std::size_t>(L)];
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    const T s = B[l] - C[l] * z[l] - A[l] * z[(m - 1) * L + l];
    info[l] = update_info(info[l], s, n - 1);
    rs[l] = reciprocal(s);
  }
  periodic_close<L, WG, T, D>(n, y, z, C, A, X, rs, d);
}

// The stored factorization, lane-contiguous rows of S (= L on the host): rows 0 .. m-1 hold
// r = 1/pivot, l = a r and c' = c r of T and z = T^-1 e; row n-1 holds r = 1/s, l = a[n-1],
// c' = c[n-1] (the closing row's coefficients). n = 1: r = 1/(a + b + c).
template <class T>
struct periodic_factors {
  T* r;
  T* lo;
  T* cp;
  T* z;
};

template <int L, int WG, class T, int S = L>
KOKKOS_INLINE_FUNCTION void periodic_factor_block(index_t n, const lane_block<const T, L, WG>& a,
                                                  const lane_block<const T, L, WG>& b,
                                                  const lane_block<const T, L, WG>& c,
                                                  periodic_factors<T> f, int* info) {
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  T A[lane_count], B[lane_count], C[lane_count], E[lane_count];
  if (n == 1) {
    a.load(0, A);
    b.load(0, B);
    c.load(0, C);
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const T p = A[l] + B[l] + C[l];
      info[l] = update_info(0, p, 0);
      f.r[l] = reciprocal(p);
      f.lo[l] = f.cp[l] = f.z[l] = T(0);
    }
    return;
  }
  const index_t m = n - 1;
  for (int l = 0; l < L; ++l) info[l] = 0;
  for (index_t i = 0; i < m; ++i) {
    b.load(i, B);
    if (i > 0) {
      a.load(i, A);
    } else {
      for (int l = 0; l < L; ++l) A[l] = T(0);
    }
    if (i < m - 1) {
      c.load(i, C);
    } else {
      for (int l = 0; l < L; ++l) C[l] = T(0);
    }
    coupling_column(i, m, a, c, E);
    const index_t o = i * S, prev = i > 0 ? o - S : o;
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const T cprev = i > 0 ? f.cp[prev + l] : T(0), zprev = i > 0 ? f.z[prev + l] : T(0);
      const T p = B[l] - A[l] * cprev;
      info[l] = update_info(info[l], p, i);
      const T r = reciprocal(p);
      f.r[o + l] = r;
      f.lo[o + l] = A[l] * r;
      f.cp[o + l] = C[l] * r;
      f.z[o + l] = (E[l] - A[l] * zprev) * r;
    }
  }
  periodic_backward<L, T, T, S>(m, f.cp, f.z);
  a.load(n - 1, A);
  b.load(n - 1, B);
  c.load(n - 1, C);
  const index_t o = (n - 1) * S;
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    const T s = B[l] - C[l] * f.z[l] - A[l] * f.z[(m - 1) * S + l];
    info[l] = update_info(info[l], s, n - 1);
    f.r[o + l] = reciprocal(s);
    f.lo[o + l] = A[l];
    f.cp[o + l] = C[l];
    f.z[o + l] = T(0);
  }
}

// Solve with stored factors; y: scratch of n rows of S right-hand side values.
template <int L, int WG, class T, class D, int S = L, class DB = lane_block<D, L, WG>>
KOKKOS_INLINE_FUNCTION void periodic_factored_solve_block(index_t n, periodic_factors<const T> f,
                                                          const DB& d, D* y) {
  D X[static_cast<std::size_t>(L)];
  if (n == 1) {
    d.load(0, X);
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) X[l] = X[l] * f.r[l];
    d.store(0, X);
    return;
  }
  const index_t m = n - 1;
  for (index_t i = 0; i < m; ++i) {
    d.load(i, X);
    const index_t o = i * S;
    if (i == 0) {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) y[l] = f.r[l] * X[l];
    } else {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) y[o + l] = f.r[o + l] * X[l] - f.lo[o + l] * y[o - S + l];
    }
  }
  periodic_backward<L, T, D, S>(m, f.cp, y);
  d.load(n - 1, X);
  const index_t o = (n - 1) * S;
  periodic_close<L, WG, T, D, S, DB>(n, y, f.z, f.cp + o, f.lo + o, X, f.r + o, d);
}

// The block kernel of the one-shot launch (backend/host_simd/block_launch.hpp) and
// of the solves along an axis (tridiag/lane_kernel_axis.hpp).
struct periodic_block_kernel {
  template <class AB, class BB, class CB, class DB>
  KOKKOS_INLINE_FUNCTION void operator()(index_t n, const AB& a, const BB& b, const CB& c,
                                         const DB& d, void* work, int* info) const {
    periodic_solve_block(n, a, b, c, d, work, info);
  }
};

}  // namespace bandsolve::detail
