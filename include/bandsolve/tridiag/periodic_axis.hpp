#pragma once
// Periodic (cyclic) tridiagonal systems along any axis of a 2-D, 3-D or 4-D array, without
// transposing it: host API.
//
//   bandsolve::solve_along(exec, bandsolve::algo::periodic{}, axis, a, b, c, d, info);
//       Every line of d along `axis` is one system a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i]
//       with indices taken modulo n = d.extent(axis): a[0] multiplies x[n-1] and c[n-1]
//       multiplies x[0] (a grid direction with periodic boundaries). x overwrites d.
//
// The forms of solve_along(thomas) (thomas_axis.hpp): d of rank 2 to 4 in LayoutRight,
// LayoutLeft or LayoutStride; a, b, c either full arrays of d's extents (any layouts) or rank-1
// Views of length n shared by every line. Scalars: float, double, Kokkos::complex of either;
// over real coefficients d may be Kokkos::complex of their type (the real factors applied to both
// parts). Lines are numbered as for thomas; info(line) = 0, or the 1-based row of the first zero,
// tiny or non-finite pivot, n for the Schur complement of the closing row (solve(periodic)'s
// codes); with shared coefficients every line has the same code. n = 1 and n = 2 fold the
// coefficients as solve(periodic) does. Method: solve(periodic)'s bordering (periodic_kernel.hpp),
// no pivoting. Work is enqueued on exec (one launch) and never fenced here.
// Traffic: full coefficients read a, b, c, d and write x (5 words per unknown, as Thomas); shared
// ones are factored once per pack of lines in its scratch, and only d crosses memory (2 words).
// Backends: the execution space's own, or a trailing backend::device{} (the default on
// Kokkos::Cuda): the lines addressed in place as batches of the device periodic solve
// (along_device.hpp).
//
// Host packing: packs of lines in SIMD lanes, read and written in place (lane_kernel_axis.hpp).
#include <bandsolve/backend/host_simd/lane_block.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/tridiag/along_device.hpp>
#include <bandsolve/tridiag/lane_kernel_axis.hpp>
#include <bandsolve/tridiag/periodic_device.hpp>
#include <bandsolve/tridiag/periodic_kernel.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

// Solve of the L lanes of d with the factors of one matrix shared by them all
// (periodic_factor_block with one lane: rows 1 apart); y: scratch of n rows of L values.
template <int L, int WG, class T, class D>
KOKKOS_INLINE_FUNCTION void periodic_shared_solve_block(index_t n, periodic_factors<const T> f,
                                                        const lane_block<D, L, WG>& d, D* y) {
  D X[L];
  if (n == 1) {
    d.load(0, X);
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) X[l] = X[l] * f.r[0];
    d.store(0, X);
    return;
  }
  const index_t m = n - 1;
  for (index_t i = 0; i < m; ++i) {
    d.load(i, X);
    const T r = f.r[i], lo = f.lo[i];
    D* const yi = y + i * L;
    if (i == 0) {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) yi[l] = r * X[l];
    } else {
      BANDSOLVE_SIMD
      for (int l = 0; l < L; ++l) yi[l] = r * X[l] - lo * yi[l - L];
    }
  }
  for (index_t i = m - 2; i >= 0; --i) {
    const T cp = f.cp[i];
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) y[i * L + l] -= cp * y[(i + 1) * L + l];
  }
  // The closing row holds r = 1/s, lo = a[n-1], c' = c[n-1].
  d.load(n - 1, X);
  const T cl = f.cp[m], al = f.lo[m], rs = f.r[m];
  D xl[L];
  BANDSOLVE_SIMD
  for (int l = 0; l < L; ++l) xl[l] = (X[l] - cl * y[l] - al * y[(m - 1) * L + l]) * rs;
  d.store(n - 1, xl);
  for (index_t i = 0; i < m; ++i) {
    const T z = f.z[i];
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) X[l] = y[i * L + l] - xl[l] * z;
    d.store(i, X);
  }
}

// The shared_solve of shared_matrix_packs (lane_kernel_axis.hpp): the matrix of the rank-1
// coefficients factored into the four rows after y in the work (periodic_shared_scratch), then
// the lanes x solved with it.
template <class AView, class BView, class CView>
struct periodic_shared_solve {
  AView a;
  BView b;
  CView c;
  using T = typename AView::non_const_value_type;

  template <class D>
  static std::size_t scratch(index_t n, int lanes) {
    return static_cast<std::size_t>(n) * (lanes * sizeof(D) + 4 * sizeof(T));
  }
  template <class X>
  KOKKOS_INLINE_FUNCTION int operator()(index_t n, const X& x, void* work) const {
    using D = typename X::value_type;
    constexpr int L = X::width;
    D* const y = static_cast<D*>(work);
    T* const f = reinterpret_cast<T*>(y + n * L);
    int code = 0;
    periodic_factor_block<1, 1, T, 1>(n, shared_line<T>(a), shared_line<T>(b),
                                      shared_line<T>(c),
                                      periodic_factors<T>{f, f + n, f + 2 * n, f + 3 * n}, &code);
    periodic_shared_solve_block(n, periodic_factors<const T>{f, f + n, f + 2 * n, f + 3 * n}, x,
                                y);
    return code;
  }
};

// The host backends' solve of every line (n >= 1 rows, arguments checked): solve(periodic)'s
// block kernel on packs of lines (lane_kernel_axis.hpp); shared coefficients factored once per
// pack into its scratch, then only d is read and written.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void periodic_along_host(const ExecutionSpace& exec, const char* function, int axis,
                         const AView& a, const BView& b, const CView& c, const DView& d,
                         const InfoView& info, index_t n) {
  using T = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  using shared = periodic_shared_solve<AView, BView, CView>;
  block_kernel_along_host(
      exec, function, axis, [n](int lanes) { return periodic_scratch_bytes<T, D>(n, lanes); },
      periodic_block_kernel{}, [n](int lanes) { return shared::template scratch<D>(n, lanes); },
      shared{a, b, c}, a, b, c, d, info, n);
}

// The checks, then the backend's solve.
template <class Backend, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void periodic_along(const ExecutionSpace& exec, int axis, const AView& a, const BView& b,
                    const CView& c, const DView& d, const InfoView& info) {
  thomas_along_static_checks<ExecutionSpace, AView, BView, CView, DView, DView, InfoView>();
  static_assert(std::is_same_v<typename DView::value_type, typename DView::non_const_value_type>,
                "bandsolve::solve_along(periodic): d receives the solution and cannot be a View "
                "of const");
  static_assert(backend::is_backend_v<Backend>,
                "bandsolve::solve_along(periodic): the last argument must be a backend tag "
                "(backend::device, or the execution space's own)");
  const char* function = "bandsolve::solve_along(periodic)";
  const std::size_t nsys = check_along_tridiagonal(function, axis, a, b, c, d, info);
  const index_t n = static_cast<index_t>(d.extent(axis));
  if (nsys == 0) return;
  if (n == 0) {
    Kokkos::deep_copy(exec, info, 0);
    return;
  }
  if constexpr (std::is_same_v<Backend, backend::device>) {
    // The lines addressed in place as batches of the device solve (along_device.hpp).
    using T = typename AView::non_const_value_type;
    using D = typename DView::non_const_value_type;
    for_each_line_batch(
        axis, d, info, static_cast<index_t>(nsys),
        [&](const along_launch& l, const InfoView& codes, index_t lines) {
          periodic_device_solve(exec, l.lines<const T>(a), l.lines<const T>(b),
                                l.lines<const T>(c), l.lines<D>(d), codes, n, lines);
        },
        a, b, c);
  } else {
    static_assert(std::is_same_v<Backend, backend::default_for_t<ExecutionSpace>>,
                  "bandsolve::solve_along(periodic): a host backend runs only on its own "
                  "execution space");
    periodic_along_host(exec, function, axis, a, b, c, d, info, n);
  }
}

}  // namespace detail

// x overwrites d. See the top of this header. Backend: the execution space's own, or
// backend::device to run the device kernels on any execution space (host spaces included).
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView,
          class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along(const ExecutionSpace& exec,
                                                             algo::periodic, int axis,
                                                             const AView& a, const BView& b,
                                                             const CView& c, const DView& d,
                                                             const InfoView& info, Backend) {
  detail::periodic_along<Backend>(exec, axis, a, b, c, d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve_along(const ExecutionSpace& exec, algo::periodic, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info) {
  solve_along(exec, algo::periodic{}, axis, a, b, c, d, info,
              backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
