#pragma once
// Factored lines with partial pivoting along an axis of a 2-D to 4-D array: factor once, solve
// many (time steps of a grid direction whose operator is not diagonally dominant and does not
// change: Helmholtz operators, strong convection).
//
//   auto f = bandsolve::factorize_along(exec, algo::partial_pivoting{}, axis, a, b, c[, backend]);
//   auto f = bandsolve::factorize_along(exec, algo::partial_pivoting{}, axis, a, b, c, d
//                                       [, backend]);
//   f.solve(exec, d);   // any number of times: x overwrites d
//   f.solve_add(exec, d, u);  // u += x, d only read (the last sweep of an ADI step)
//   f.info();           // the factorization's codes, one per line (solve_along's numbering)
//
// a, b, c as for solve_along(partial_pivoting) (pivoting_axis.hpp): full arrays of the grid's
// rank and extents (any layouts, each its own strides), or rank-1 Views of length n shared by
// every line. The first form takes the grid from b (so a, b, c must be full arrays); the second
// from d, a View shaped like the right-hand sides to come (its values are not read). A solve takes
// d of the factored extents in any layout (LayoutRight, LayoutLeft, LayoutStride), of the
// factored scalar type or Kokkos::complex of a real one, and addresses it through its own strides.
// info(line): 0, or the 1-based row of the first U(i, i) that is zero, tiny or not finite
// (solve_along(partial_pivoting)'s codes); a solve does not look at it: lines whose code is not 0
// get inf/NaN.
// Storage: LAPACK ?gttrf's factors per row and line (r = 1/U(i, i), U(i, i+1), U(i, i+2), the
// multiplier) and the row interchange as one byte: 4 values and a byte per unknown; shared
// coefficients: one line's, once (a solve then moves d alone, each interchange one branch for
// every lane).
// Host backends: the factors of packs of neighbouring lines, a SIMD lane each, streamed with d's
// packs (lane_axis_factor.hpp). Device backend (trailing backend::device{}, the default on
// Kokkos::Cuda): copies of a, b and c and the lines' info codes at factorization; each solve runs
// solve_along(partial_pivoting)'s device kernels on the copies. Enqueued on exec, not fenced.
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/lane_axis_factor.hpp>
#include <bandsolve/tridiag/pivoting_axis.hpp>
#include <bandsolve/tridiag/pivoting_kernel.hpp>

#include <cstdint>

namespace bandsolve {

namespace detail {

// The partial pivoting family of lane_axis_factorization: solve(partial_pivoting)'s factors,
// r, u1, u2 and the multiplier (4 values per row and line, lane-contiguous rows), and the
// interchange flags (a byte per row and line).
struct pivoting_axis_factor_family {
  using lane_family = pivoting_lane_family;
  static constexpr const char* factorize_name = "bandsolve::factorize_along(partial_pivoting)";
  static constexpr const char* solve_name = "bandsolve::pivoting_axis_factorization::solve";
  static constexpr const char* refactor_name =
      "bandsolve::pivoting_axis_factorization::refactor";
  static constexpr const char* solve_add_name =
      "bandsolve::pivoting_axis_factorization::solve_add";
  static constexpr int values_per_row = 4;
  static constexpr int flag_bytes_per_row = 1;

  template <int L, class T, class Block>
  KOKKOS_INLINE_FUNCTION static void factor(index_t n, const Block& a, const Block& b,
                                            const Block& c, T* f, std::uint8_t* swapped,
                                            int* codes) {
    const index_t rows = n * L;
    pivoting_factor_block<L, L, T>(n, a, b, c, pivoted_u<T>{f, f + rows, f + 2 * rows},
                                   f + 3 * rows, swapped, codes);
  }
  template <int L, bool Shared, class T, class X, class D>
  KOKKOS_INLINE_FUNCTION static void solve(index_t n, const T* f, const std::uint8_t* swapped,
                                           const X& x, D* y) {
    if constexpr (Shared) {
      // One matrix's rows, one apart, for every lane (RS = 1, LS = 0).
      pivoting_factored_solve_block<L, L, T, D, 1, 0>(
          n, pivoted_u<const T>{f, f + n, f + 2 * n}, f + 3 * n, swapped, x, y);
    } else {
      const index_t rows = n * L;
      pivoting_factored_solve_block<L, L, T, D>(
          n, pivoted_u<const T>{f, f + rows, f + 2 * rows}, f + 3 * rows, swapped, x, y);
    }
  }
};

}  // namespace detail

// The factors of the lines with partial pivoting along one axis of a grid (factorize_along).
// Backend: the backend that factored them and runs the solves.
template <class Scalar, class ExecutionSpace, class Backend>
using pivoting_axis_factorization =
    lane_axis_factorization<detail::pivoting_axis_factor_family, Scalar, ExecutionSpace, Backend>;

// With d: the extents and the grouping of the lines from d (full or shared coefficients).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<Kokkos::is_view<DView>::value && backend::is_backend_v<Backend>,
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::partial_pivoting, int axis,
                     const AView& a, const BView& b, const CView& c, const DView& d,
                     Backend = {}) {
  return detail::lane_axis_factorize_checked<detail::pivoting_axis_factor_family, Backend>(
      exec, axis, d, "d", a, b, c);
}

// Without d: the extents and the grouping of the lines from b (a, b, c full arrays).
template <class ExecutionSpace, class AView, class BView, class CView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::partial_pivoting, int axis,
                     const AView& a, const BView& b, const CView& c, Backend = {}) {
  static_assert(BView::rank != 1,
                "bandsolve::factorize_along(partial_pivoting): with coefficients shared by "
                "every line, pass d (a View shaped like the right-hand sides to come) after c");
  return detail::lane_axis_factorize_checked<detail::pivoting_axis_factor_family, Backend>(
      exec, axis, b, "b", a, b, c);
}

}  // namespace bandsolve
