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
// ones are read by every lane from cache (2 words), each lane repeating the elimination.
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

#include <type_traits>

namespace bandsolve {

namespace detail {

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
    block_kernel_along_host(
        exec, function, axis, [n](int lanes) { return pivoting_scratch_bytes<T, D>(n, lanes); },
        pivoting_block_kernel{}, a, b, c, d, info, n);
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
