#pragma once
// The local passes of the partitioned Thomas algorithm split into a factorization (what depends
// on a, b, c only) and a right-hand-side pass, so that a factored solve reads d and the stored
// factors and sends one word per reduced row. Same elimination and info codes as reduce_parts
// (partition_kernel.hpp), which describes the method.
//
// Stored per line s and local row i (nsys x m each, see rows_view; row 0 unused): r(s, i) = 1/pivot,
// lo(s, i) = a_i/pivot (0 for row 1), cf(s, i) = the forward sweep's c'_i (used by the backward
// sweep), ap(s, i), cp(s, i) = the final a'_i, c'_i (used by finish_parts). Per line:
// first(s, 0) = 1/b_0, first(s, 1) = forward c'_0, first(s, 2) = 1/(1 - c'_0 a'_1) (1 for m = 2).
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/layout/layout_of.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>

#include <Kokkos_Core.hpp>

namespace bandsolve::mpi::detail {

template <class T, class MemorySpace>
struct part_factors {
  // LayoutLeft or LayoutRight (part_scratch_layout_t of the factored layout).
  using rows_view = Kokkos::View<T**, Kokkos::LayoutStride, MemorySpace>;
  rows_view r, lo, cf, ap, cp;
  Kokkos::View<T* [3], Kokkos::LayoutRight, MemorySpace> first;
};

// Factors of this rank's parts; coef: the reduced rows' coefficients (line s, row j at
// (s*k + j)*2: of the previous interface unknown, of the next); codes(s): info of this part.
// Blocks of part_lanes_v systems, as reduce_parts.
template <class ExecutionSpace, class AView, class BView, class CView, class T, class MemorySpace,
          class Coefficients, class Codes>
void factor_parts(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                  const part_factors<T, MemorySpace>& f, const Coefficients& coef,
                  const Codes& codes, index_t nsys, local_part part) {
  constexpr int L = part_lanes_v<layout_of_t<BView>, T>;
  for_each_block<L>(exec, "bandsolve::mpi::factorize(parts)", nsys, KOKKOS_LAMBDA(const index_t s0, const int nl) {
    using bandsolve::detail::reciprocal;
    using bandsolve::detail::update_info;
    const index_t m = part.m, off = part.offset;
    const int k = part.reduced_rows();
    const auto a_at = [&](index_t s, index_t i) { return part.first && i == 0 ? T(0) : at(a, s, i); };
    const auto c_at = [&](index_t s, index_t i) { return part.last && i == m - 1 ? T(0) : at(c, s, i); };
    int info[L] = {};
    T ap0[L] = {}, cp0[L] = {}, ap_i[L] = {}, cp_i[L] = {};
    for (int l = 0; l < nl; ++l) {
      const index_t s = s0 + l;
      const T b0 = at(b, s, 0);
      info[l] = update_info(0, b0, off);
      const T r0 = reciprocal(b0);
      f.first(s, 0) = r0;
      ap0[l] = r0 * a_at(s, 0), cp0[l] = r0 * c_at(s, 0);
    }
    if (m == 1) {
      for (int l = 0; l < nl; ++l) {
        T* out = coef.data() + (s0 + l) * k * 2;
        out[0] = ap0[l];
        out[1] = cp0[l];
        codes(s0 + l) = info[l];
      }
      return;
    }
    for (int l = 0; l < nl; ++l) {
      const index_t s = s0 + l;
      const T b1 = at(b, s, 1);
      info[l] = update_info(info[l], b1, off + 1);
      const T r1 = reciprocal(b1);
      ap_i[l] = r1 * a_at(s, 1), cp_i[l] = r1 * c_at(s, 1);
      f.r(s, 1) = r1, f.lo(s, 1) = T(0), f.cf(s, 1) = cp_i[l], f.ap(s, 1) = ap_i[l],
      f.cp(s, 1) = cp_i[l];
    }
    for (index_t i = 2; i < m; ++i)
      for (int l = 0; l < nl; ++l) {
        const index_t s = s0 + l;
        const T ai = a_at(s, i);
        const T pivot = at(b, s, i) - ai * cp_i[l];
        info[l] = update_info(info[l], pivot, off + i);
        const T r = reciprocal(pivot);
        cp_i[l] = r * c_at(s, i);
        ap_i[l] = -r * ai * ap_i[l];
        f.r(s, i) = r, f.lo(s, i) = ai * r, f.cf(s, i) = cp_i[l], f.ap(s, i) = ap_i[l],
        f.cp(s, i) = cp_i[l];
      }
    for (int l = 0; l < nl; ++l) {
      T* out = coef.data() + (s0 + l) * k * 2;
      out[2] = ap_i[l];  // row m-1
      out[3] = cp_i[l];
      f.first(s0 + l, 1) = cp0[l];
      f.first(s0 + l, 2) = T(1);
    }
    if (m > 2) {
      T ap_n[L] = {}, cp_n[L] = {};
      for (int l = 0; l < nl; ++l) ap_n[l] = f.ap(s0 + l, m - 2), cp_n[l] = f.cp(s0 + l, m - 2);
      for (index_t i = m - 3; i >= 1; --i)
        for (int l = 0; l < nl; ++l) {
          const index_t s = s0 + l;
          const T ci = f.cf(s, i);
          ap_n[l] = f.ap(s, i) - ci * ap_n[l];
          cp_n[l] = -ci * cp_n[l];
          f.ap(s, i) = ap_n[l], f.cp(s, i) = cp_n[l];
        }
      for (int l = 0; l < nl; ++l) {
        const T den = T(1) - cp0[l] * ap_n[l];
        info[l] = update_info(info[l], den, off);
        const T r = reciprocal(den);
        f.first(s0 + l, 2) = r;
        ap0[l] = r * ap0[l];
        cp0[l] = -r * cp0[l] * cp_n[l];
      }
    }
    for (int l = 0; l < nl; ++l) {
      T* out = coef.data() + (s0 + l) * k * 2;
      out[0] = ap0[l];
      out[1] = cp0[l];
      codes(s0 + l) = info[l];
    }
  });
}

// The reduced right-hand sides of d (line s, row j at rhs(s*k + j)); d's rows 1 .. m-2 receive d'.
template <class ExecutionSpace, class DView, class T, class MemorySpace, class Rhs>
void reduce_rhs(const ExecutionSpace& exec, const DView& d, const part_factors<T, MemorySpace>& f,
                const Rhs& rhs, index_t nsys, local_part part) {
  constexpr int L = part_lanes_v<layout_of_t<DView>, T>;
  for_each_block<L>(exec, "bandsolve::mpi::factorization::solve(reduce)", nsys, KOKKOS_LAMBDA(const index_t s0, const int nl) {
    const index_t m = part.m;
    if (m == 1) {
      for (int l = 0; l < nl; ++l) rhs(s0 + l) = f.first(s0 + l, 0) * at(d, s0 + l, 0);
      return;
    }
    T dp0[L] = {}, dp[L] = {};
    for (int l = 0; l < nl; ++l) {
      const index_t s = s0 + l;
      dp0[l] = f.first(s, 0) * at(d, s, 0);
      dp[l] = f.r(s, 1) * at(d, s, 1);
      if (m > 2) at(d, s, 1) = dp[l];
    }
    for (index_t i = 2; i < m; ++i)
      for (int l = 0; l < nl; ++l) {
        const index_t s = s0 + l;
        dp[l] = f.r(s, i) * at(d, s, i) - f.lo(s, i) * dp[l];
        if (i < m - 1) at(d, s, i) = dp[l];
      }
    for (int l = 0; l < nl; ++l) rhs(2 * (s0 + l) + 1) = dp[l];
    if (m > 2) {
      for (int l = 0; l < nl; ++l) dp[l] = at(d, s0 + l, m - 2);  // row i+1
      for (index_t i = m - 3; i >= 1; --i)
        for (int l = 0; l < nl; ++l) {
          const index_t s = s0 + l;
          dp[l] = at(d, s, i) - f.cf(s, i) * dp[l];
          at(d, s, i) = dp[l];
        }
      for (int l = 0; l < nl; ++l)
        dp0[l] = f.first(s0 + l, 2) * (dp0[l] - f.first(s0 + l, 1) * dp[l]);
    }
    for (int l = 0; l < nl; ++l) rhs(2 * (s0 + l)) = dp0[l];
  });
}

}  // namespace bandsolve::mpi::detail
