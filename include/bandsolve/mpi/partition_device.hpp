#pragma once
// The local passes of the partitioned Thomas algorithm on the device backend: one thread per
// system, every layout through device::systems (row, column, strided, interleaved<W>), valid
// device code. The same elimination, pivots and info codes as partition_kernel.hpp, whose header
// describes the method. A device thread cannot keep a part's rows in cache for the backward work,
// so the forward rows go to memory: d'_i over d_i, a'_i and c'_i into scratch (row i of system s
// at i*nsys + s, neighbouring threads on neighbouring entries). The finish reads them back
// instead of sweeping forward again: reduce reads a, b, c, d, writes a', c', d' and reads them
// back (10 words per unknown); finish reads a', c', d' and writes x (4 words).
//
// Factored (partition_factor_kernel.hpp's factors, stored with lanes = nsys: row i of system s
// at i*nsys + s): factor_parts_device runs factor_system a thread per system; a solve's reduce
// reads d and three factors and writes d' over d, then reads d' back for the backward work (6
// words per unknown); its finish reads d' and two factors and writes x (4).
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/mpi/partition_factor_kernel.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>
#include <bandsolve/mpi/reduced_rows.hpp>
#include <bandsolve/mpi/staging.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace bandsolve::mpi::detail {

// The forward rows a' and c' of every system's rows 1 .. m-1 (row 0 stays in registers).
template <class T>
struct forward_rows_device {
  T* a;
  T* c;
  index_t nsys;
  KOKKOS_FORCEINLINE_FUNCTION index_t at(index_t s, index_t i) const { return i * nsys + s; }
  // The rows of the `lines` systems from `first` (parts of m rows) when the scratch is split into
  // batches of consecutive systems, each batch a block of its own.
  forward_rows_device batch(index_t first, index_t m, index_t lines) const {
    return {a + first * m, c + first * m, lines};
  }
};

// Bytes of forward_rows_device of nsys systems of m rows (device_forward_rows), or throws
// allocation_error when they do not fit in size_t.
template <class T, class MemorySpace>
std::size_t device_forward_rows_bytes(index_t nsys, index_t m) {
  const std::size_t rows = static_cast<std::size_t>(nsys) * static_cast<std::size_t>(m);
  bandsolve::detail::scratch_total("bandsolve::mpi::solve", 2 * rows, sizeof(T), 0);
  return 2 * carved_buffer<MemorySpace>::template bytes_for<T>(rows);
}

// forward_rows_device of nsys systems of m rows, carved from `from`.
template <class T, class MemorySpace>
forward_rows_device<T> device_forward_rows(carved_buffer<MemorySpace>& from, index_t nsys,
                                           index_t m) {
  const std::size_t rows = static_cast<std::size_t>(nsys) * static_cast<std::size_t>(m);
  T* const a = from.template take<T>(rows).data();
  T* const c = from.template take<T>(rows).data();
  return {a, c, nsys};
}

// The reduce pass (as reduce_parts) of nsys systems: red gets line s's reduced rows at
// red[s*k*W ..] (W values per row, reduced_rows.hpp), codes(s) its local info code; d'_i
// replaces d_i and ws holds a'_i, c'_i.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Reduced, class Codes, class T>
void reduce_parts_device(const ExecutionSpace& exec, const AView& a, const BView& b,
                         const CView& c, const DView& d, const Reduced& red, const Codes& codes,
                         index_t nsys, local_part part, forward_rows_device<T> ws) {
  using bandsolve::detail::device::systems_of;
  // The coefficients' type: it sets the words of a reduced row (reduced_rows.hpp); the
  // arithmetic runs in T.
  using C = typename BView::non_const_value_type;
  const auto sa = systems_of(a);
  const auto sb = systems_of(b);
  const auto sc = systems_of(c);
  const auto sd = systems_of(d);
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::mpi::solve(reduce, device)",
      range(exec, 0, static_cast<typename range::member_type>(nsys)),
      KOKKOS_LAMBDA(const index_t s) {
        using bandsolve::detail::reciprocal;
        using bandsolve::detail::update_info;
        const auto* pa = sa.system(s);
        const auto* pb = sb.system(s);
        const auto* pc = sc.system(s);
        T* const pd = sd.system(s);
        const index_t ra = sa.row_stride, rb = sb.row_stride, rc = sc.row_stride,
                      rd = sd.row_stride;
        constexpr int W = reduced_row_words_v<C, T>;  // not captured (nvcc)
        const index_t m = part.m, off = part.offset;
        const int k = part.reduced_rows();
        T* const out = red.data() + s * k * W;
        const T b0 = pb[0];
        const T r0b = reciprocal(b0);
        T a0 = r0b * (part.first ? T(0) : T(pa[0]));
        T c0 = r0b * (part.last && m == 1 ? T(0) : T(pc[0]));
        T d0 = r0b * pd[0];
        int info = update_info(0, b0, off);
        if (m == 1) {
          store_reduced_row<C>(out, a0, c0, d0);
          codes(s) = info;
          return;
        }
        // Forward: rows 1 .. m-1 (row 1 divided by its diagonal, then eliminated).
        const T b1 = pb[rb];
        info = update_info(info, b1, off + 1);
        const T r1 = reciprocal(b1);
        T ap = r1 * pa[ra];
        T cp = r1 * (part.last && m == 2 ? T(0) : T(pc[rc]));
        T dp = r1 * pd[rd];
        ws.a[ws.at(s, 1)] = ap, ws.c[ws.at(s, 1)] = cp, pd[rd] = dp;
        for (index_t i = 2; i < m; ++i) {
          const T ai = pa[i * ra];
          const T pivot = pb[i * rb] - ai * cp;
          info = update_info(info, pivot, off + i);
          const T r = reciprocal(pivot);
          dp = r * (pd[i * rd] - ai * dp);
          cp = r * (part.last && i == m - 1 ? T(0) : T(pc[i * rc]));
          ap = -r * ai * ap;
          ws.a[ws.at(s, i)] = ap, ws.c[ws.at(s, i)] = cp, pd[i * rd] = dp;
        }
        store_reduced_row<C>(out + W, ap, cp, dp);  // row m-1
        if (m > 2) {
          // Backward over rows m-3 .. 1 from row m-2: row 1 in terms of x_0 and x_{m-1}.
          T an = ws.a[ws.at(s, m - 2)], cn = ws.c[ws.at(s, m - 2)], dn = pd[(m - 2) * rd];
          for (index_t i = m - 3; i >= 1; --i) {
            const T ci = ws.c[ws.at(s, i)];
            dn = pd[i * rd] - ci * dn;
            an = ws.a[ws.at(s, i)] - ci * an;
            cn = -ci * cn;
          }
          // Row 0 freed of x_1 with row 1.
          const T den = T(1) - c0 * an;
          info = update_info(info, den, off);
          const T r = reciprocal(den);
          a0 = r * a0;
          d0 = r * (d0 - c0 * dn);
          c0 = -r * c0 * cn;
        }
        store_reduced_row<C>(out, a0, c0, d0);
        codes(s) = info;
      });
}

// The finish pass (as finish_parts) from the forward rows that reduce_parts_device kept:
// x_i = d'_i - a'_i x_0 - c'_i x_{i+1} for i = m-2 .. 1, written over d.
template <class ExecutionSpace, class DView, class Interface, class T>
void finish_parts_device(const ExecutionSpace& exec, const DView& d, const Interface& iface,
                         index_t nsys, local_part part, forward_rows_device<T> ws) {
  const auto sd = bandsolve::detail::device::systems_of(d);
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::mpi::solve(finish, device)",
      range(exec, 0, static_cast<typename range::member_type>(nsys)),
      KOKKOS_LAMBDA(const index_t s) {
        const index_t m = part.m, rd = sd.row_stride;
        const int k = part.reduced_rows();
        T* const pd = sd.system(s);
        const T x0 = iface(s * k), xm = iface(s * k + k - 1);
        T x = xm;
        for (index_t i = m - 2; i >= 1; --i) {
          x = pd[i * rd] - ws.a[ws.at(s, i)] * x0 - ws.c[ws.at(s, i)] * x;
          pd[i * rd] = x;
        }
        pd[0] = x0;
        if (m > 1) pd[(m - 1) * rd] = xm;
      });
}

// The factors of nsys systems (f.lanes = nsys), a thread per system; coef and codes as
// factor_parts.
template <class ExecutionSpace, class AView, class BView, class CView, class T, class MemorySpace,
          class Coefficients, class Codes>
void factor_parts_device(const ExecutionSpace& exec, const AView& a, const BView& b,
                         const CView& c, const part_factors<T, MemorySpace>& f,
                         const Coefficients& coef, const Codes& codes, index_t nsys,
                         local_part part) {
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::mpi::factorize(parts, device)",
      range(exec, 0, static_cast<typename range::member_type>(nsys)),
      KOKKOS_LAMBDA(const index_t s) { factor_system(a, b, c, f, coef, codes, s, part); });
}

// The reduced right-hand sides of d with the factors of factor_parts_device (line s, row j at
// rhs(s*k + j)), a thread per system; d's rows 1 .. m-2 receive the forward d'.
template <class ExecutionSpace, class DView, class T, class MemorySpace, class Rhs>
void reduce_rhs_device(const ExecutionSpace& exec, const DView& d,
                       const part_factors<T, MemorySpace>& f, const Rhs& rhs, index_t nsys,
                       local_part part) {
  using D = typename DView::non_const_value_type;  // T, or complex over real factors
  const auto sd = bandsolve::detail::device::systems_of(d);
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::mpi::factorization::solve(reduce, device)",
      range(exec, 0, static_cast<typename range::member_type>(nsys)),
      KOKKOS_LAMBDA(const index_t s) {
        const index_t m = part.m, rd = sd.row_stride, L = f.lanes, fb = f.base(s);
        D* const pd = sd.system(s);
        D dp0 = f.first_row(s, 0) * pd[0];
        if (m == 1) {
          rhs(s) = dp0;
          return;
        }
        D dp = f.r(fb + L) * pd[rd];
        if (m > 2) pd[rd] = dp;
        for (index_t i = 2; i < m; ++i) {
          dp = f.r(fb + i * L) * pd[i * rd] - f.lo(fb + i * L) * dp;
          if (i < m - 1) pd[i * rd] = dp;
        }
        rhs(2 * s + 1) = dp;
        if (m > 2) {
          D dn = pd[(m - 2) * rd];
          for (index_t i = m - 3; i >= 1; --i) dn = pd[i * rd] - f.cf(fb + i * L) * dn;
          dp0 = f.first_row(s, 2) * (dp0 - f.first_row(s, 1) * dn);
        }
        rhs(2 * s) = dp0;
      });
}

// x from the interface values (as finish_factored_parts) and the forward d' that
// reduce_rhs_device left in d, a thread per system.
template <class ExecutionSpace, class DView, class T, class MemorySpace, class Interface>
void finish_factored_device(const ExecutionSpace& exec, const DView& d,
                            const part_factors<T, MemorySpace>& f, const Interface& iface,
                            index_t nsys, local_part part) {
  using D = typename DView::non_const_value_type;
  const auto sd = bandsolve::detail::device::systems_of(d);
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::mpi::factorization::solve(finish, device)",
      range(exec, 0, static_cast<typename range::member_type>(nsys)),
      KOKKOS_LAMBDA(const index_t s) {
        const index_t m = part.m, rd = sd.row_stride, L = f.lanes, fb = f.base(s);
        const int k = part.reduced_rows();
        D* const pd = sd.system(s);
        const D x0 = iface(s * k), xm = iface(s * k + k - 1);
        D x = xm;
        for (index_t i = m - 2; i >= 1; --i) {
          x = pd[i * rd] - f.af(fb + i * L) * x0 - f.cf(fb + i * L) * x;
          pd[i * rd] = x;
        }
        pd[0] = x0;
        if (m > 1) pd[(m - 1) * rd] = xm;
      });
}

}  // namespace bandsolve::mpi::detail
