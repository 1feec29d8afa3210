#pragma once
// Tridiagonal Gaussian elimination with partial pivoting (LAPACK ?gtsv / ?gttrf / ?gttrs) on a
// block of L systems at once, one SIMD lane per system. Row interchanges are per-lane selects,
// never branches across lanes. Valid in device code (no exceptions, no allocation, no std::).
//
// Step i (0-based) holds the carried row (cd, cu, cy): its entries in columns i, i+1 and its
// right-hand side, and meets the original row i+1 (a, b, c, d) with entries in columns i, i+1,
// i+2. The row with the larger |entry in column i| (cabs1 = |re| + |im| for complex, as LAPACK;
// ties keep the carried row) becomes row i of U, the other one is reduced by it:
//   U(i, i) = p, U(i, i+1) = u1, U(i, i+2) = u2 (the fill, nonzero only after an interchange),
//   l_i = other(i) / p, carried row = other(i+1 .. i+2) - l_i * (u1, u2), right-hand side alike.
// A zero pivot (then the other entry is zero too) gives l_i = 0; info = i+1 for the first row
// whose U(i, i) is zero, tiny (its reciprocal overflows) or not finite (NaN or Inf in the input
// reaches a pivot), the library's one contract; back substitution then yields inf/NaN there.
//
// Coefficients and factors are of type C, right-hand sides and solutions of type D: the same
// type, or D = Kokkos::complex<C> over real C. Pivots depend on the coefficients alone, so a
// complex right-hand side over real coefficients takes the interchanges and info of the real
// solve, and its real and imaginary parts are the two real solutions.
#include <bandsolve/backend/host_simd/lane_block.hpp>
#include <bandsolve/backend/host_simd/pack_vectors.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace bandsolve::detail {

// The rows of U and of the transformed right-hand side, lane-contiguous: row i of an array at
// base + i*L. r = 1/U(i, i), u1 = U(i, i+1), u2 = U(i, i+2).
template <class T>
struct pivoted_u {
  T* r;
  T* u1;
  T* u2;
};

template <class T>
KOKKOS_FORCEINLINE_FUNCTION bool is_zero(const T& x) {
  if constexpr (is_complex_v<T>)
    return (int(x.real() == 0) & int(x.imag() == 0)) != 0;
  else
    return x == T(0);
}

// info after row i's pivot. GCC vectorizes the elimination step only with the pivot test done
// for every row (update_info: selects); host Clang leaves that loop scalar, where the test done
// only while info is 0 (a branch always predicted) ran the one-shot solve 1.5x faster.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION int step_info(int info, const T& pivot, index_t i) {
#if defined(__clang__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
  return info != 0 ? info : (pivot_is_good(pivot) ? 0 : static_cast<int>(i + 1));
#else
  return update_info(info, pivot, i);
#endif
}

// Whether the one-shot solve's step and the factored solve's forward rows on real values run on
// whole packs (GNU vectors, backend/host_simd/pack_vectors.hpp): under host Clang, which leaves
// their lane loops scalar however they are written; there the packs ran the one-shot solve
// 1.6-2.5x and the factored solve 1.1-1.25x faster. GCC vectorizes the lane loops and ran the
// pack step 4-22x slower, so it keeps the loops.
#if defined(__clang__) && BANDSOLVE_HOST_PACK_VECTORS
inline constexpr bool pivot_step_on_packs = true;
#else
inline constexpr bool pivot_step_on_packs = false;
#endif

// A row's interchanges and multipliers applied to a complex right-hand side over real
// coefficients, on its 2L real parts (rows d and cy in, y out, cy carried): in the elimination
// step's loop GCC left the complex lanes scalar, and slower than with a loop of its own.
template <int L, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void pivot_rhs_on_parts(const int* swaps, const T* facts, const D* d,
                                                    D* cy, D* y) {
  const T* const dp = real_parts(d);
  T* const cyp = real_parts(cy);
  T* const yp = real_parts(y);
  BANDSOLVE_SIMD
  for (int p = 0; p < 2 * L; ++p) {
    const bool sw = swaps[p / 2] != 0;
    const T fact = facts[p / 2], next = dp[p], carried = cyp[p];
    const T py = sw ? next : carried, oy = sw ? carried : next;
    yp[p] = py;
    cyp[p] = oy - fact * py;
  }
}

// One elimination step for the L lanes; y (if not null) receives row i of the transformed
// right-hand side, lm and swapped (if not null) the multiplier and the interchange flag.
template <int L, bool WithRhs, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void pivot_step(index_t i, const T* a, const T* b, const T* c,
                                            const D* d, T* cd, T* cu, D* cy, T* r, T* u1, T* u2,
                                            D* y, T* lm, std::uint8_t* swapped, int* info) {
  if constexpr (pivot_step_on_packs && WithRhs && std::is_same_v<T, D> && pack_vectors_v<T, L>) {
    tridiagonal_pivot_step_packed<L>(i, a, b, c, d, cd, cu, cy, r, u1, u2, y, info,
                                     pivot_limits<T>::tiny, pivot_limits<T>::huge);
    return;
  }
  constexpr bool rhs_on_parts = WithRhs && is_complex_over_real_v<T, D>;
  constexpr auto kept = static_cast<std::size_t>(rhs_on_parts ? L : 1);
  T facts[kept];
  int swaps[kept];
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    // Every operand loaded before the selects: selects of array elements became conditional
    // loads that GCC did not if-convert, leaving the loop scalar.
    const T al = a[l], bl = b[l], cl = c[l], cdl = cd[l], cul = cu[l];
    const bool sw = magnitude1(al) > magnitude1(cdl);
    const T pd = select(sw, al, cdl), pu = select(sw, bl, cul), pu2 = select(sw, cl, T(0));
    const T od = select(sw, cdl, al), ou = select(sw, cul, bl), ou2 = select(sw, T(0), cl);
    const bool zero = is_zero(pd);
    const T rec = reciprocal(pd);
    const T fact = select(zero, T(0), od * rec);
    info[l] = step_info(info[l], pd, i);
    r[l] = rec;
    u1[l] = pu;
    u2[l] = pu2;
    cd[l] = ou - fact * pu;
    cu[l] = ou2 - fact * pu2;
    if constexpr (rhs_on_parts) {
      facts[l] = fact;
      swaps[l] = sw ? 1 : 0;
    } else if constexpr (WithRhs) {
      const D dl = d[l], cyl = cy[l];
      const D py = select(sw, dl, cyl), oy = select(sw, cyl, dl);
      y[l] = py;
      cy[l] = oy - fact * py;
    } else {
      lm[l] = fact;
      swapped[l] = sw ? 1 : 0;
    }
  }
  if constexpr (rhs_on_parts) pivot_rhs_on_parts<L>(swaps, facts, d, cy, y);
}

// The last row: U(n-1, n-1) is what is left of the carried row.
template <int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void pivot_last(index_t n, const T* cd, T* r, T* u1, T* u2,
                                            int* info) {
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    info[l] = update_info(info[l], cd[l], n - 1);
    r[l] = reciprocal(cd[l]);
    u1[l] = T(0);
    u2[l] = T(0);
  }
}

// x_i = (y_i - u1_i x_{i+1} - u2_i x_{i+2}) / U(i, i), from the last row up; y rows in scratch
// (lane-contiguous), x stored into d. Factor entry (i, l) at i * RS + l * LS: lane-contiguous
// rows, or (RS = 1, LS = 0) one matrix's factors shared by every lane.
template <int L, int WG, class T, class D, int RS = L, int LS = 1,
          class DB = lane_block<D, L, WG>>
KOKKOS_INLINE_FUNCTION void pivot_back_substitute(index_t n, const T* r, const T* u1,
                                                  const T* u2, const D* y, const DB& d) {
  D x1[static_cast<std::size_t>(L)], x2[static_cast<std::size_t>(L)];
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    x1[l] = y[(n - 1) * L + l] * r[(n - 1) * RS + l * LS];
    x2[l] = D(0);
  }
  d.store(n - 1, x1);
  for (index_t i = n - 2; i >= 0; --i) {
    const index_t o = i * L, f = i * RS;
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const index_t k = f + l * LS;
      const D x = (y[o + l] - u1[k] * x1[l] - u2[k] * x2[l]) * r[k];
      x2[l] = x1[l];
      x1[l] = x;
    }
    d.store(i, x1);
  }
}

// Row i+1 of a, b, c, d into A, B, C, D; the last row's c is ignored (read as 0).
template <int L, int WG, class T>
KOKKOS_FORCEINLINE_FUNCTION void load_next_row(index_t n, index_t i,
                                               const lane_block<const T, L, WG>& a,
                                               const lane_block<const T, L, WG>& b,
                                               const lane_block<const T, L, WG>& c, T* A, T* B,
                                               T* C) {
  a.load(i + 1, A);
  b.load(i + 1, B);
  if (i + 2 < n) {
    c.load(i + 1, C);
  } else {
    for (int l = 0; l < L; ++l) C[l] = T(0);
  }
}

template <int L, int WG, class T>
KOKKOS_FORCEINLINE_FUNCTION void load_first_row(index_t n, const lane_block<const T, L, WG>& b,
                                                const lane_block<const T, L, WG>& c, T* cd,
                                                T* cu) {
  b.load(0, cd);
  if (n > 1) {
    c.load(0, cu);
  } else {
    for (int l = 0; l < L; ++l) cu[l] = T(0);
  }
}

// Scratch of the one-shot solve: n*L right-hand side values (y) first, so that the 3*n*L
// coefficient values after them (r, u1, u2) stay aligned for either type.
template <class T, class D>
constexpr std::size_t pivoting_scratch_bytes(index_t n, int L) {
  return static_cast<std::size_t>(n) * static_cast<std::size_t>(L) * (sizeof(D) + 3 * sizeof(T));
}

// One-shot solve of the block; x overwrites d. scratch: pivoting_scratch_bytes<T, D>(n, L).
template <int L, int WG, class T, class DB>
KOKKOS_INLINE_FUNCTION void pivoting_solve_block(index_t n, const lane_block<const T, L, WG>& a,
                                                 const lane_block<const T, L, WG>& b,
                                                 const lane_block<const T, L, WG>& c, const DB& d,
                                                 void* scratch, int* info) {
  using D = std::remove_const_t<typename DB::value_type>;
  D* y = static_cast<D*>(scratch);
  T *r = reinterpret_cast<T*>(y + n * L), *u1 = r + n * L, *u2 = u1 + n * L;
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  T cd[lane_count], cu[lane_count], A[lane_count], B[lane_count], C[lane_count];
  D cy[lane_count], Dn[lane_count];
  for (int l = 0; l < L; ++l) info[l] = 0;
  load_first_row(n, b, c, cd, cu);
  d.load(0, cy);
  for (index_t i = 0; i + 1 < n; ++i) {
    if (i + 1 + rows_ahead_of_loads < n) prefetch_rows(i + 1 + rows_ahead_of_loads, a, b, c, d);
    load_next_row(n, i, a, b, c, A, B, C);
    d.load(i + 1, Dn);
    const index_t o = i * L;
    pivot_step<L, true>(i, A, B, C, Dn, cd, cu, cy, r + o, u1 + o, u2 + o, y + o,
                        static_cast<T*>(nullptr), static_cast<std::uint8_t*>(nullptr), info);
  }
  const index_t o = (n - 1) * L;
  pivot_last<L>(n, cd, r + o, u1 + o, u2 + o, info);
  for (int l = 0; l < L; ++l) y[o + l] = cy[l];
  pivot_back_substitute<L, WG, T, D>(n, r, u1, u2, y, d);
}

// Factorization of the block into lane-contiguous factor rows (row i at + i*L): r, u1, u2, the
// multipliers lm and the interchange flags.
template <int L, int WG, class T>
KOKKOS_INLINE_FUNCTION void pivoting_factor_block(index_t n, const lane_block<const T, L, WG>& a,
                                                  const lane_block<const T, L, WG>& b,
                                                  const lane_block<const T, L, WG>& c,
                                                  pivoted_u<T> u, T* lm, std::uint8_t* swapped,
                                                  int* info) {
  constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
  T cd[lane_count], cu[lane_count], A[lane_count], B[lane_count], C[lane_count];
  for (int l = 0; l < L; ++l) info[l] = 0;
  load_first_row(n, b, c, cd, cu);
  for (index_t i = 0; i + 1 < n; ++i) {
    load_next_row(n, i, a, b, c, A, B, C);
    const index_t o = i * L;
    pivot_step<L, false>(i, A, B, C, static_cast<const T*>(nullptr), cd, cu,
                         static_cast<T*>(nullptr), u.r + o, u.u1 + o, u.u2 + o,
                         static_cast<T*>(nullptr), lm + o, swapped + o, info);
  }
  const index_t o = (n - 1) * L;
  pivot_last<L>(n, cd, u.r + o, u.u1 + o, u.u2 + o, info);
  for (int l = 0; l < L; ++l) {
    lm[o + l] = T(0);
    swapped[o + l] = 0;
  }
}

// Solve with stored factors: apply the interchanges and multipliers to d (forward), then back
// substitution. y: scratch of n*L right-hand side values. Factor entry (i, l) at i * RS + l * LS
// (as pivot_back_substitute): lane-contiguous rows, or one matrix's shared by every lane.
template <int L, int WG, class T, class D, int RS = L, int LS = 1,
          class DB = lane_block<D, L, WG>>
KOKKOS_INLINE_FUNCTION void pivoting_factored_solve_block(index_t n, pivoted_u<const T> u,
                                                          const T* lm, const std::uint8_t* swapped,
                                                          const DB& d, D* y) {
  D cy[static_cast<std::size_t>(L)], Dn[static_cast<std::size_t>(L)];
  d.load(0, cy);
  for (index_t i = 0; i + 1 < n; ++i) {
    d.load(i + 1, Dn);
    const index_t o = i * L, f = i * RS;
    if constexpr (LS == 0) {
      // One interchange for every lane: a branch, not per-lane selects (staged lines along the
      // unit-stride axis measured 0.63 against 0.93 ns per unknown).
      const bool sw = swapped[f] != 0;
      const T m = lm[f];
      D* const yo = y + o;
      const D* const py = sw ? Dn : cy;
      const D* const oy = sw ? cy : Dn;
      D next[static_cast<std::size_t>(L)];
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) {
        yo[l] = py[l];
        next[l] = oy[l] - m * py[l];
      }
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) cy[l] = next[l];
    } else if constexpr (pivot_step_on_packs && std::is_same_v<T, D> && RS == L && LS == 1 &&
                         pack_vectors_v<T, L>) {
      pivoted_rhs_row_packed<L>(swapped + f, lm + f, Dn, cy, y + o);
    } else {
      // Real right-hand sides in packs of fewer than 32 lanes (doubles): the flags widened first
      // (GCC asked for vectors of 64 bytes for the loop of 16 flags beside 16 doubles and left it
      // scalar) and the operands loaded before the selects, as in pivot_step. Packs of 32 floats
      // vectorize as they are (widened, they ran 1.2x slower); complex right-hand sides stay
      // scalar under GCC either way (also on their parts), and measured no slower as they are.
      constexpr bool widened = !is_complex_v<D> && L < 32;
      int flag[static_cast<std::size_t>(widened ? L : 1)];
      if constexpr (widened) {
        for (int l = 0; l < L; ++l) flag[l] = swapped[f + l * LS];
      }
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) {
        if constexpr (widened) {
          const bool sw = flag[l] != 0;
          const D next = Dn[l], carried = cy[l];
          const D py = select(sw, next, carried), oy = select(sw, carried, next);
          y[o + l] = py;
          cy[l] = oy - lm[f + l * LS] * py;
        } else {
          const bool sw = swapped[f + l * LS] != 0;
          const D py = select(sw, Dn[l], cy[l]), oy = select(sw, cy[l], Dn[l]);
          y[o + l] = py;
          cy[l] = oy - lm[f + l * LS] * py;
        }
      }
    }
  }
  for (int l = 0; l < L; ++l) y[(n - 1) * L + l] = cy[l];
  pivot_back_substitute<L, WG, T, D, RS, LS, DB>(n, u.r, u.u1, u.u2, y, d);
}

// The block kernel of the one-shot launch (backend/host_simd/block_launch.hpp) and
// of the solves along an axis (tridiag/lane_kernel_axis.hpp).
struct pivoting_block_kernel {
  template <class AB, class BB, class CB, class DB>
  KOKKOS_INLINE_FUNCTION void operator()(index_t n, const AB& a, const BB& b, const CB& c,
                                         const DB& d, void* work, int* info) const {
    pivoting_solve_block(n, a, b, c, d, work, info);
  }
};

}  // namespace bandsolve::detail
