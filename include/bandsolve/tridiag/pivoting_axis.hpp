#pragma once
// Tridiagonal systems with partial pivoting along any axis of a 2-D, 3-D or 4-D array, without
// transposing it: host API.
//
//   bandsolve::solve_along(exec, bandsolve::algo::partial_pivoting{}, axis, a, b, c, d, info);
//       Every line of d along `axis` is one system a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i],
//       i = 0 .. n-1, n = d.extent(axis), solved with row interchanges (LAPACK ?gtsv's); x
//       overwrites d; a[0] and c[n-1] are ignored. For lines that are not diagonally dominant
//       (Helmholtz operators, strong convection), where Thomas's solve_along may fail.
//
// The forms of solve_along(thomas) (thomas_axis.hpp): d of rank 2 to 4 in LayoutRight,
// LayoutLeft or LayoutStride; a, b, c either full arrays of d's extents (any layouts) or rank-1
// Views of length n shared by every line. Scalars: float, double, Kokkos::complex of either;
// over real coefficients d may be Kokkos::complex of their type (the real interchanges and
// factors applied to both parts). Lines are numbered as for thomas; info(line) = 0, or the
// 1-based row of the first U(i, i) that is zero, tiny or not finite (solve(partial_pivoting)'s
// codes); with shared coefficients every line has the same code. Work is enqueued on exec (one
// launch) and never fenced here.
// Traffic: full coefficients read a, b, c, d and write x (5 words per unknown, as Thomas); shared
// ones are factored once per pack of lines in its scratch, and only d crosses memory (2 words).
// Backends: the execution space's own, or a trailing backend::device{} (the default on
// Kokkos::Cuda): the lines addressed in place as batches of the device pivoting solve
// (along_device.hpp).
//
// Host packing: packs of lines in SIMD lanes, read and written in place (lane_kernel_axis.hpp),
// solved by solve(partial_pivoting)'s block kernel (pivoting_kernel.hpp).
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/along_device.hpp>
#include <bandsolve/tridiag/lane_kernel_axis.hpp>
#include <bandsolve/tridiag/pivoting_device.hpp>
#include <bandsolve/tridiag/pivoting_kernel.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace bandsolve {

namespace detail {

// Solve of the L lanes of d with the factors of one matrix shared by them all (pivoting_factor_block
// with one lane: rows 1 apart): the interchanges and multipliers applied to d, then back
// substitution. y: scratch of n rows of L values.
template <int L, int WG, class T, class D>
KOKKOS_INLINE_FUNCTION void pivoting_shared_solve_block(index_t n, pivoted_u<const T> u,
                                                        const T* lm, const std::uint8_t* swapped,
                                                        const lane_block<D, L, WG>& d, D* y) {
  D cy[L], Dn[L];
  d.load(0, cy);
  for (index_t i = 0; i + 1 < n; ++i) {
    d.load(i + 1, Dn);
    D* const yi = y + i * L;
    const T f = lm[i];
    if (swapped[i] != 0) {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) {
        yi[l] = Dn[l];
        cy[l] = cy[l] - f * Dn[l];
      }
    } else {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) {
        yi[l] = cy[l];
        cy[l] = Dn[l] - f * cy[l];
      }
    }
  }
  D x1[L], x2[L];
  const T last = u.r[n - 1];
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) {
    x1[l] = cy[l] * last;
    x2[l] = D(0);
  }
  d.store(n - 1, x1);
  for (index_t i = n - 2; i >= 0; --i) {
    const T r = u.r[i], u1 = u.u1[i], u2 = u.u2[i];
    const D* const yi = y + i * L;
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) {
      const D x = (yi[l] - u1 * x1[l] - u2 * x2[l]) * r;
      x2[l] = x1[l];
      x1[l] = x;
    }
    d.store(i, x1);
  }
}

// The shared_solve of shared_matrix_packs (lane_kernel_axis.hpp): the matrix of the rank-1
// coefficients factored into the rows after y in the work (r, u1, u2, the multipliers, then the
// interchange flags), then the lanes x solved with it.
template <class AView, class BView, class CView>
struct pivoting_shared_solve {
  AView a;
  BView b;
  CView c;
  using T = typename AView::non_const_value_type;

  template <class D>
  static std::size_t scratch(index_t n, int lanes) {
    return static_cast<std::size_t>(n) * (lanes * sizeof(D) + 4 * sizeof(T) + 1);
  }
  template <class X>
  KOKKOS_INLINE_FUNCTION int operator()(index_t n, const X& x, void* work) const {
    using D = typename X::value_type;
    constexpr int L = X::width;
    D* const y = static_cast<D*>(work);
    T* const f = reinterpret_cast<T*>(y + n * L);
    std::uint8_t* const swapped = reinterpret_cast<std::uint8_t*>(f + 4 * n);
    int code = 0;
    pivoting_factor_block<1, 1, T>(n, shared_line<T>(a), shared_line<T>(b), shared_line<T>(c),
                                   pivoted_u<T>{f, f + n, f + 2 * n}, f + 3 * n, swapped, &code);
    pivoting_shared_solve_block(n, pivoted_u<const T>{f, f + n, f + 2 * n}, f + 3 * n, swapped,
                                x, y);
    return code;
  }
};

// The checks, then the backend's solve.
template <class Backend, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void pivoting_along(const ExecutionSpace& exec, int axis, const AView& a, const BView& b,
                    const CView& c, const DView& d, const InfoView& info) {
  thomas_along_static_checks<ExecutionSpace, AView, BView, CView, DView, DView, InfoView>();
  static_assert(std::is_same_v<typename DView::value_type, typename DView::non_const_value_type>,
                "bandsolve::solve_along(partial_pivoting): d receives the solution and cannot be "
                "a View of const");
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::solve_along(partial_pivoting): the last argument must be a backend "
                "tag (backend::device, or the execution space's own)");
  using T = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  const char* function = "bandsolve::solve_along(partial_pivoting)";
  const std::size_t nsys = check_along_tridiagonal(function, axis, a, b, c, d, info);
  const index_t n = static_cast<index_t>(d.extent(axis));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    // The lines addressed in place as batches of the device solve (along_device.hpp).
    for_each_line_batch(
        axis, d, info, static_cast<index_t>(nsys),
        [&](const along_launch& l, const InfoView& codes, index_t lines) {
          pivoting_device_solve(exec, l.lines<const T>(a), l.lines<const T>(b),
                                l.lines<const T>(c), l.lines<D>(d), codes, n, lines);
        },
        a, b, c);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve_along(partial_pivoting): a host backend runs only on its own "
                  "execution space");
    using shared = pivoting_shared_solve<AView, BView, CView>;
    block_kernel_along_host(
        exec, function, axis, [n](int lanes) { return pivoting_scratch_bytes<T, D>(n, lanes); },
        pivoting_block_kernel{}, [n](int lanes) { return shared::template scratch<D>(n, lanes); },
        shared{a, b, c}, a, b, c, d, info, n);
  }
}

}  // namespace detail

// x overwrites d. See the top of this header. Backend: the execution space's own, or
// backend::device to run the device kernels on any execution space (host spaces included).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along(const ExecutionSpace& exec,
                                                             algo::partial_pivoting, int axis,
                                                             const AView& a, const BView& b,
                                                             const CView& c, const DView& d,
                                                             const InfoView& info, Backend) {
  detail::pivoting_along<Backend>(exec, axis, a, b, c, d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve_along(const ExecutionSpace& exec, algo::partial_pivoting, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info) {
  solve_along(exec, algo::partial_pivoting{}, axis, a, b, c, d, info,
              backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
