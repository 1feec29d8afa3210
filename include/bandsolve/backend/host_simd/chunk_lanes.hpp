#pragma once
// The host backend's register-blocked chunk sweeps of the Thomas-PCR hybrid, for a full group of
// L chunks of contiguous rows (unit stride), on CPUs with the in-register transposes of
// simd_transpose.hpp: L x L blocks of the input are transposed straight into SIMD registers (one
// chunk per lane) and the forward elimination runs on them, its recurrence held in registers; the
// back substitution transposes its result straight into the solution. Only pass 2's eliminated
// rows (c', d') go through the L1-resident tile. The arithmetic is the hybrid's (chunk_forward,
// chunk_first_row and chunk_back_substitute of tridiag/thomas_pcr_kernel.hpp) on SIMD vectors,
// which only this backend has.
// The generic sweeps of thomas_pcr_kernel.hpp do the same work through loads into the tile; they
// serve every other case (strides, partial groups, a last chunk longer than the others, device
// code, the exact pivot screen) and name the bad rows when this screen flags one.
#include <bandsolve/backend/host_simd/lanes.hpp>
#include <bandsolve/backend/host_simd/simd_transpose.hpp>
#include <bandsolve/core/pivot.hpp>

namespace bandsolve::detail {

// The L chunks of a group read with this lane stride (elements from one chunk to the next).
template <class T>
struct chunk_group {
  const T *a, *b, *c, *d;
  index_t lane_stride;
};

}  // namespace bandsolve::detail

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
namespace bandsolve::detail::simd {

template <int L, class T>
inline void load_block(const T* p, index_t lane_stride, vec<T, L>* r) {
  load_transpose<L, T>([&](int l) { return p + l * lane_stride; }, r);
}

// Every lane of v set to x (by reference: vectors returned by value make GCC warn, -Wpsabi).
template <int L, class T>
inline void set_all(vec<T, L>& v, T x) {
  for (int l = 0; l < L; ++l) v[l] = x;
}

// Forward sweep on the L chunks of g, rows [0, m), m a multiple of L and >= 2L: calls
// row(i, a, c, d) with row i eliminated (vectors of L lanes). Two forms:
//  - pass 1 (Interior false): the modified Thomas (chunk_forward of thomas_pcr_kernel.hpp, same
//    arithmetic), every row expressed through the chunk's first unknown; zero_top_a: the first
//    lane starts the system (its a of row 0 is ignored, read as zero). (When the last lane
//    ends the system, its c of row m-1 only reaches that row's c', which the reduced system
//    ignores as it ignores any c[n-1].)
//  - pass 2 (Interior true): plain Thomas with the chunk's first unknown known, x[0] = x0[l]
//    (row 0 replaced by that identity; a is passed as zero). Rows 1.. have pass 1's pivots.
// `risk` accumulates the pivot-risk sum of core/pivot.hpp (flagged by risk_is_low_everywhere).
// `ahead` (or null): a group to prefetch, the next one this thread sweeps.
template <bool Interior, int L, class T, class Row>
inline void group_forward(index_t m, const chunk_group<T>& g, bool zero_top_a,
                          const chunk_group<T>* ahead, const T* x0, vec<T, L>& risk,
                          const Row& row) {
  using V = vec<T, L>;
  // Doubles only: the products of four float pivots leave the float range too soon.
  constexpr bool four_rows = sizeof(T) == 8 && L % 4 == 0;
  V one, zero, scale;
  set_all<L>(one, T(1));
  set_all<L>(zero, T(0));
  set_all<L>(scale, pivot_limits<T>::risk_scale);
  V ap = zero, cp = zero, dp = zero;
  // Prefetch: the next group's L*m contiguous elements of each array, spread over the blocks.
  // (The non-temporal hint measured 2.17 against 2.32 ns per unknown at n = 2^22 in minutes when
  // STREAM was 48 GB/s, but 2.59 against 2.44 when it was 85: medians of 6 and 8 alternated
  // runs. The L2 hints were slower.)
  constexpr index_t line = 64 / static_cast<index_t>(sizeof(T));
  const index_t blocks = m / L, span = L * m, per_block = (span + blocks - 1) / blocks;
  for (index_t q = 0; q < blocks; ++q) {
    if (ahead)
      for (index_t e = q * per_block; e < (q + 1) * per_block && e < span; e += line) {
        __builtin_prefetch(ahead->a + e);
        __builtin_prefetch(ahead->b + e);
        __builtin_prefetch(ahead->c + e);
        __builtin_prefetch(ahead->d + e);
      }
    constexpr auto lane_count = static_cast<std::size_t>(L);  // an array bound
    V A[lane_count], B[lane_count], C[lane_count], D[lane_count];
    load_block<L>(g.a + q * L, g.lane_stride, A);
    load_block<L>(g.b + q * L, g.lane_stride, B);
    load_block<L>(g.c + q * L, g.lane_stride, C);
    load_block<L>(g.d + q * L, g.lane_stride, D);
    if (q == 0 && zero_top_a) A[0][0] = T(0);
    if constexpr (Interior)
      if (q == 0) {  // x[0] = x0: the recurrence below then starts with c' = 0, d' = x0
        A[0] = zero;
        B[0] = one;
        C[0] = zero;
        load<T, L>(x0, D[0]);
      }
    const auto screen = [&](const V& pivot, const V& r) {
      const V mag = r < zero ? -r : r;
      risk = mag * scale + (pivot * zero + risk);
    };
    // Row by row: every row without four_rows, else the modified form's first four (its rows 0
    // and 1 start the recurrence their own way).
    const int single_rows = !four_rows ? L : (q == 0 && !Interior ? 4 : 0);
    int j = 0;
    for (; j < single_rows; ++j) {
      const index_t i = q * L + j;
      V r, piv;
      if (!Interior && i < 2) {  // rows 0 and 1: divided by their diagonal
        piv = B[j];
        r = one / piv;
        ap = r * A[j];
      } else {
        piv = B[j] - A[j] * cp;
        r = one / piv;
        dp = r * (D[j] - A[j] * dp);
        if constexpr (!Interior) ap = -r * A[j] * ap;
      }
      if (!Interior && i < 2) dp = r * D[j];
      // c' straight from the pivot, not as r * c: the recurrence then waits for one division,
      // not a division and a product (2.60 -> 2.42 ns per unknown at n = 2^22, medians of 6
      // alternated runs); the second division runs beside it.
      cp = C[j] / piv;
      screen(piv, r);
      row(i, ap, cp, dp);
    }
    // Four rows per step through the products of their pivots, as thomas_four_rows of
    // thomas_kernel.hpp: the chain is four multiply-adds and one division for four rows. The
    // products' reciprocals are screened too, so that a product out of range (pivots beyond
    // about 1e+-77) flags the group, and the generic sweeps redo it.
    if constexpr (four_rows)
      for (; j + 4 <= L; j += 4) {
        const index_t i = q * L + j;
        const V q0 = B[j] - A[j] * cp;
        const V q1 = B[j + 1] * q0 - A[j + 1] * C[j];
        const V q2 = B[j + 2] * q1 - (A[j + 2] * C[j + 1]) * q0;
        const V q3 = B[j + 3] * q2 - (A[j + 3] * C[j + 2]) * q1;
        const V i0 = one / q0, i1 = one / q1, i2 = one / q2, i3 = one / q3;
        const V r[4] = {i0, q0 * i1, q1 * i2, q2 * i3};
        const V cps[4] = {C[j] * i0, C[j + 1] * r[1], C[j + 2] * r[2], (C[j + 3] * q2) * i3};
        screen(q0, i0);
        screen(q1 * i0, r[1]);
        screen(q2 * i1, r[2]);
        screen(q3 * i2, r[3]);
        screen(q1, i1);
        screen(q2, i2);
        screen(q3, i3);
        for (int k = 0; k < 4; ++k) {
          dp = r[k] * (D[j + k] - A[j + k] * dp);
          if constexpr (!Interior) ap = -r[k] * A[j + k] * ap;
          row(i + k, ap, cps[k], dp);
        }
        cp = cps[3];
      }
  }
}

template <int L, class T>
inline bool risk_is_low_everywhere(const vec<T, L>& risk) {
  bool clean = true;
  for (int l = 0; l < L; ++l) clean = clean && risk_is_low(risk[l]);
  return clean;
}

// Pass 1 on the L chunks of g: their two rows of the reduced system, written to ra, rc, rd at
// 2l (first row) and 2l + 1 (last row) for lane l. Row 0 is rewritten as chunk_first_row does,
// with its backward recurrence unrolled into sums taken during the forward sweep (row i enters
// with the weight P_i = prod_{k<i} (-c_k), k from 1), so that nothing is stored. Returns false
// if a pivot may be bad (then the generic sweeps redo the group and name the rows).
template <int L, class T>
inline bool group_reduced_rows(index_t m, const chunk_group<T>& g, bool zero_top_a,
                               const chunk_group<T>* ahead, T* ra, T* rc, T* rd) {
  using V = vec<T, L>;
  V zero, one, scale;
  set_all<L>(zero, T(0));
  set_all<L>(one, T(1));
  set_all<L>(scale, pivot_limits<T>::risk_scale);
  V risk = zero, a0 = zero, c0 = zero, d0 = zero, al = zero, cl = zero, dl = zero;
  V sum_a = zero, sum_d = zero, weight = one;
  group_forward<false, L>(m, g, zero_top_a, ahead, static_cast<const T*>(nullptr), risk,
                          [&](index_t i, const V& a, const V& c, const V& d) {
                           if (i == 0) {
                             a0 = a;
                             c0 = c;
                             d0 = d;
                           } else if (i < m - 1) {
                             sum_a += weight * a;
                             sum_d += weight * d;
                             weight = -c * weight;
                           } else {
                             al = a;
                             cl = c;
                             dl = d;
                           }
                         });
  // Row 1 through x[0] and x[m-1]: sum_a x[0] + x[1] + c1 x[m-1] = sum_d, c1 = -weight.
  const V pivot = one - c0 * sum_a, r = one / pivot;
  const V mag = r < zero ? -r : r;
  risk = mag * scale + (pivot * zero + risk);
  const V first_d = r * (d0 - c0 * sum_d), first_a = r * a0, first_c = r * c0 * weight;
  for (int l = 0; l < L; ++l) {
    ra[2 * l] = first_a[l];
    rc[2 * l] = first_c[l];
    rd[2 * l] = first_d[l];
    ra[2 * l + 1] = al[l];
    rc[2 * l + 1] = cl[l];
    rd[2 * l + 1] = dl[l];
  }
  return risk_is_low_everywhere<L, T>(risk);
}

// Pass 2 on the L chunks of g, whose end unknowns x0 (x[0]) and xl (x[m-1]) are known: plain
// Thomas on rows 1 .. m-2 with x[0] substituted (c', d' into the tile, row i of lane l at
// i*L + l), then the back substitution from x[m-1], written to the L chunks of x (lane stride as
// in g) through in-register transposes. Cheaper than redoing pass 1's modified sweep: no a'
// recurrence, two tile arrays instead of three.
// Returns false, writing nothing to x, if a pivot may be bad; the generic sweeps then redo the
// group.
template <int L, class T>
inline bool group_solve_interior(index_t m, const chunk_group<T>& g, const chunk_group<T>* ahead,
                                 const T* x0, const T* xl, T* tc, T* td, T* x) {
  using V = vec<T, L>;
  V risk;
  set_all<L>(risk, T(0));
  group_forward<true, L>(m, g, false, ahead, x0, risk,
                         [tc, td](index_t i, const V&, const V& c, const V& d) {
                           store<T, L>(tc + i * L, c);
                           store<T, L>(td + i * L, d);
                         });
  if (!risk_is_low_everywhere<L, T>(risk)) return false;
  V next;
  load<T, L>(xl, next);
  for (index_t q = m / L - 1; q >= 0; --q) {
    V X[static_cast<std::size_t>(L)];
    for (int j = L - 1; j >= 0; --j) {
      const index_t i = q * L + j;
      if (i == m - 1) {
        X[j] = next;
      } else {  // row 0 too: its c' = 0, d' = x0
        V c, d;
        load<T, L>(tc + i * L, c);
        load<T, L>(td + i * L, d);
        X[j] = d - c * next;
      }
      next = X[j];
    }
    transpose<L>(X);
    for (int l = 0; l < L; ++l) store<T, L>(x + q * L + l * g.lane_stride, X[l]);
  }
  return true;
}

}  // namespace bandsolve::detail::simd
#endif
