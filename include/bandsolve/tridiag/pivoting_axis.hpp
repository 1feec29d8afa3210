#pragma once
// Tridiagonal systems with partial pivoting along any axis of a 2-D, 3-D or 4-D array, without
// transposing it: host API.
//
//   bandsolve::solve_along(exec, bandsolve::algo::partial_pivoting{}, axis, a, b, c, d, info);
//       Every line of d along `axis` is one system a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i],
//       i = 0 .. n-1, n = d.extent(axis), solved with row interchanges (LAPACK ?gtsv's); x
//       overwrites d; a[0] and c[n-1] are ignored. For lines that are not diagonally dominant
//       (Helmholtz operators, strong convection), where Thomas's solve_along may fail.
//   bandsolve::solve_along_add(exec, bandsolve::algo::partial_pivoting{}, axis, a, b, c, d, u,
//                              info);
//       u += x in the same pass, d only read, u of d's extents and scalar type in any layout.
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
#include <bandsolve/tridiag/lane_kernel_axis.hpp>
#include <bandsolve/tridiag/pivoting_device.hpp>
#include <bandsolve/tridiag/pivoting_kernel.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace bandsolve {

namespace detail {

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
    return static_cast<std::size_t>(n) *
           (static_cast<std::size_t>(lanes) * sizeof(D) + 4 * sizeof(T) + 1);
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
    // The factor rows are one apart and shared by every lane (RS = 1, LS = 0).
    pivoting_factored_solve_block<L, L, T, D, 1, 0>(n, pivoted_u<const T>{f, f + n, f + 2 * n},
                                                    f + 3 * n, swapped, x, y);
    return code;
  }
};

// The partial pivoting family of lane_family_along (lane_kernel_axis.hpp).
struct pivoting_lane_family {
  using block_kernel = pivoting_block_kernel;
  template <class T, class D>
  static std::size_t scratch(index_t n, int lanes) {
    return pivoting_scratch_bytes<T, D>(n, lanes);
  }
  template <class AView, class BView, class CView>
  using shared_solve = pivoting_shared_solve<AView, BView, CView>;
  template <class... Args>
  static void device_solve(const Args&... args) {
    pivoting_device_solve(args...);
  }
};

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
  detail::lane_family_along<detail::pivoting_lane_family, Backend, false>(
      exec, "bandsolve::solve_along(partial_pivoting)", axis, a, b, c, d, d, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve_along(const ExecutionSpace& exec, algo::partial_pivoting, int axis, const AView& a,
                 const BView& b, const CView& c, const DView& d, const InfoView& info) {
  solve_along(exec, algo::partial_pivoting{}, axis, a, b, c, d, info,
              backend::default_for_t<ExecutionSpace>{});
}

// u += x; d is only read (it may be a View of const), u has d's extents and any layout. The
// last sweep of an ADI step. Backend as for solve_along.
template <class ExecutionSpace, class AView, class BView, class CView, class DView, class UView,
          class InfoView, class Backend>
std::enable_if_t<backend::is_backend_v<Backend>> solve_along_add(
    const ExecutionSpace& exec, algo::partial_pivoting, int axis, const AView& a, const BView& b,
    const CView& c, const DView& d, const UView& u, const InfoView& info, Backend) {
  detail::lane_family_along<detail::pivoting_lane_family, Backend, true>(
      exec, "bandsolve::solve_along_add(partial_pivoting)", axis, a, b, c, d, u, info);
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class UView,
          class InfoView>
void solve_along_add(const ExecutionSpace& exec, algo::partial_pivoting, int axis, const AView& a,
                     const BView& b, const CView& c, const DView& d, const UView& u,
                     const InfoView& info) {
  solve_along_add(exec, algo::partial_pivoting{}, axis, a, b, c, d, u, info,
                  backend::default_for_t<ExecutionSpace>{});
}

}  // namespace bandsolve
