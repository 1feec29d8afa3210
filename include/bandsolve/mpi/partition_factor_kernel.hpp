#pragma once
// The local passes of the partitioned Thomas algorithm split into a factorization (what depends
// on a, b, c only) and a right-hand-side pass, so that a factored solve reads d and the stored
// factors and sends one word per reduced row. Same elimination and info codes as reduce_parts
// (partition_kernel.hpp), which describes the method.
//
// Stored per line s and local row i (nsys x m each; row 0 unused): r(s, i) = 1/pivot,
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
  using rows_view = Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace>;
  rows_view r, lo, cf, ap, cp;
  Kokkos::View<T* [3], Kokkos::LayoutRight, MemorySpace> first;
};

// Factors of this rank's parts; coef: the reduced rows' coefficients (line s, row j at
// (s*k + j)*2: of the previous interface unknown, of the next); codes(s): info of this part.
template <class ExecutionSpace, class AView, class BView, class CView, class T, class MemorySpace,
          class Coefficients, class Codes>
void factor_parts(const ExecutionSpace& exec, const AView& a, const BView& b, const CView& c,
                  const part_factors<T, MemorySpace>& f, const Coefficients& coef,
                  const Codes& codes, index_t nsys, local_part part) {
  using bandsolve::detail::reciprocal;
  using bandsolve::detail::update_info;
  Kokkos::parallel_for(
      "bandsolve::mpi::factorize(parts)", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, nsys),
      KOKKOS_LAMBDA(const index_t s) {
        const index_t m = part.m, off = part.offset;
        const int k = part.reduced_rows();
        const auto a_at = [&](index_t i) { return part.first && i == 0 ? T(0) : at(a, s, i); };
        const auto c_at = [&](index_t i) { return part.last && i == m - 1 ? T(0) : at(c, s, i); };
        T* out = coef.data() + s * k * 2;
        const T b0 = at(b, s, 0);
        int info = update_info(0, b0, off);
        const T r0 = reciprocal(b0);
        f.first(s, 0) = r0;
        if (m == 1) {
          out[0] = r0 * a_at(0);
          out[1] = r0 * c_at(0);
          codes(s) = info;
          return;
        }
        const T b1 = at(b, s, 1);
        info = update_info(info, b1, off + 1);
        const T r1 = reciprocal(b1);
        T ap0 = r0 * a_at(0), cp0 = r0 * c_at(0);
        T ap_i = r1 * a_at(1), cp_i = r1 * c_at(1);
        f.r(s, 1) = r1, f.lo(s, 1) = T(0), f.cf(s, 1) = cp_i, f.ap(s, 1) = ap_i, f.cp(s, 1) = cp_i;
        for (index_t i = 2; i < m; ++i) {
          const T ai = a_at(i);
          const T pivot = at(b, s, i) - ai * cp_i;
          info = update_info(info, pivot, off + i);
          const T r = reciprocal(pivot);
          cp_i = r * c_at(i);
          ap_i = -r * ai * ap_i;
          f.r(s, i) = r, f.lo(s, i) = ai * r, f.cf(s, i) = cp_i, f.ap(s, i) = ap_i, f.cp(s, i) = cp_i;
        }
        out[2] = ap_i;  // row m-1
        out[3] = cp_i;
        f.first(s, 1) = cp0;
        f.first(s, 2) = T(1);
        if (m > 2) {
          T ap_n = f.ap(s, m - 2), cp_n = f.cp(s, m - 2);
          for (index_t i = m - 3; i >= 1; --i) {
            const T ci = f.cf(s, i);
            ap_n = f.ap(s, i) - ci * ap_n;
            cp_n = -ci * cp_n;
            f.ap(s, i) = ap_n, f.cp(s, i) = cp_n;
          }
          const T den = T(1) - cp0 * ap_n;
          info = update_info(info, den, off);
          const T r = reciprocal(den);
          f.first(s, 2) = r;
          ap0 = r * ap0;
          cp0 = -r * cp0 * cp_n;
        }
        out[0] = ap0;
        out[1] = cp0;
        codes(s) = info;
      });
}

// The reduced right-hand sides of d (line s, row j at rhs(s*k + j)); d's rows 1 .. m-2 receive d'.
template <class ExecutionSpace, class DView, class T, class MemorySpace, class Rhs>
void reduce_rhs(const ExecutionSpace& exec, const DView& d, const part_factors<T, MemorySpace>& f,
                const Rhs& rhs, index_t nsys, local_part part) {
  Kokkos::parallel_for(
      "bandsolve::mpi::factorization::solve(reduce)",
      Kokkos::RangePolicy<ExecutionSpace>(exec, 0, nsys), KOKKOS_LAMBDA(const index_t s) {
        const index_t m = part.m;
        if (m == 1) {
          rhs(s) = f.first(s, 0) * at(d, s, 0);
          return;
        }
        T dp0 = f.first(s, 0) * at(d, s, 0);
        T dp = f.r(s, 1) * at(d, s, 1);
        if (m > 2) at(d, s, 1) = dp;
        for (index_t i = 2; i < m; ++i) {
          dp = f.r(s, i) * at(d, s, i) - f.lo(s, i) * dp;
          if (i < m - 1) at(d, s, i) = dp;
        }
        rhs(2 * s + 1) = dp;
        if (m > 2) {
          T dp_n = at(d, s, m - 2);
          for (index_t i = m - 3; i >= 1; --i) {
            dp_n = at(d, s, i) - f.cf(s, i) * dp_n;
            at(d, s, i) = dp_n;
          }
          dp0 = f.first(s, 2) * (dp0 - f.first(s, 1) * dp_n);
        }
        rhs(2 * s) = dp0;
      });
}

}  // namespace bandsolve::mpi::detail
