#pragma once
// Factored periodic lines along an axis of a 2-D to 4-D array: factor once, solve many (time
// steps of a grid direction with periodic boundaries whose operator does not change).
//
//   auto f = bandsolve::factorize_along(exec, algo::periodic{}, axis, a, b, c[, backend]);
//   auto f = bandsolve::factorize_along(exec, algo::periodic{}, axis, a, b, c, d[, backend]);
//   f.solve(exec, d);   // any number of times: x overwrites d
//   f.solve_add(exec, d, u);  // u += x, d only read (the last sweep of an ADI step)
//   f.info();           // the factorization's codes, one per line (solve_along's numbering)
//
// a, b, c as for solve_along(periodic) (periodic_axis.hpp): full arrays of the grid's rank and
// extents (any layouts, each its own strides), or rank-1 Views of length n shared by every line.
// The first form takes the grid from b (so a, b, c must be full arrays); the second from d, a View
// shaped like the right-hand sides to come (its values are not read). A solve takes d of the
// factored extents in any layout (LayoutRight, LayoutLeft, LayoutStride), of the factored scalar
// type or Kokkos::complex of a real one, and addresses it through its own strides.
// Storage: solve(periodic)'s factors per row and line (r = 1/pivot, l = a r and c' = c r of the
// leading block, z = its inverse applied to the coupling column; the closing row's 1/s, a, c):
// 4 values per unknown; shared coefficients: one line's, once (a solve moves d alone).
// Host backends: the factors of packs of neighbouring lines, a SIMD lane each, streamed with d's
// packs (lane_axis_factor.hpp). Device backend (trailing backend::device{}, the default on
// Kokkos::Cuda): copies of a, b and c and the lines' info codes at factorization; each solve runs
// solve_along(periodic)'s device kernels on the copies. Enqueued on exec, not fenced; a solve
// does not look at info(): lines whose code is not 0 get inf/NaN.
#include <bandsolve/core/algo.hpp>
#include <bandsolve/tridiag/lane_axis_factor.hpp>
#include <bandsolve/tridiag/periodic_axis.hpp>
#include <bandsolve/tridiag/periodic_kernel.hpp>

#include <cstdint>

namespace bandsolve {

namespace detail {

// The periodic family of lane_axis_factorization: solve(periodic)'s factors, 4 per row and line
// (periodic_factors: r, l, c', z, lane-contiguous rows), no flags.
struct periodic_axis_factor_family {
  using lane_family = periodic_lane_family;
  static constexpr const char* factorize_name = "bandsolve::factorize_along(periodic)";
  static constexpr const char* solve_name = "bandsolve::periodic_axis_factorization::solve";
  static constexpr const char* refactor_name =
      "bandsolve::periodic_axis_factorization::refactor";
  static constexpr const char* solve_add_name =
      "bandsolve::periodic_axis_factorization::solve_add";
  static constexpr int values_per_row = 4;
  static constexpr int flag_bytes_per_row = 0;

  template <int L, class T, class Block>
  KOKKOS_INLINE_FUNCTION static void factor(index_t n, const Block& a, const Block& b,
                                            const Block& c, T* f, std::uint8_t*, int* codes) {
    periodic_factor_block<L, L, T, L>(n, a, b, c, factors<L>(f, n), codes);
  }
  template <int L, bool Shared, class T, class X, class D>
  KOKKOS_INLINE_FUNCTION static void solve(index_t n, const T* f, const std::uint8_t*,
                                           const X& x, D* y) {
    if constexpr (Shared)
      periodic_shared_solve_block(n, factors<1>(f, n), x, y);
    else
      periodic_factored_solve_block<L, L, T, D, L>(n, factors<L>(f, n), x, y);
  }

 private:
  // The factors of L lines from f: r, l, c', z, n rows of L lanes each.
  template <int L, class U>
  KOKKOS_INLINE_FUNCTION static periodic_factors<U> factors(U* f, index_t n) {
    return {f, f + n * L, f + 2 * n * L, f + 3 * n * L};
  }
};

}  // namespace detail

// The factors of the periodic lines along one axis of a grid (factorize_along). Backend: the
// backend that factored them and runs the solves.
template <class Scalar, class ExecutionSpace, class Backend>
using periodic_axis_factorization =
    lane_axis_factorization<detail::periodic_axis_factor_family, Scalar, ExecutionSpace, Backend>;

// With d: the extents and the grouping of the lines from d (full or shared coefficients).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<Kokkos::is_view<DView>::value && backend::is_backend_v<Backend>,
                           int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::periodic, int axis, const AView& a,
                     const BView& b, const CView& c, const DView& d, Backend = {}) {
  return detail::lane_axis_factorize_checked<detail::periodic_axis_factor_family, Backend>(
      exec, axis, d, "d", a, b, c);
}

// Without d: the extents and the grouping of the lines from b (a, b, c full arrays).
template <class ExecutionSpace, class AView, class BView, class CView,
          class Backend = backend::default_for_t<ExecutionSpace>,
          std::enable_if_t<backend::is_backend_v<Backend>, int> = 0>
auto factorize_along(const ExecutionSpace& exec, algo::periodic, int axis, const AView& a,
                     const BView& b, const CView& c, Backend = {}) {
  static_assert(BView::rank != 1,
                "bandsolve::factorize_along(periodic): with coefficients shared by every line, "
                "pass d (a View shaped like the right-hand sides to come) after c");
  return detail::lane_axis_factorize_checked<detail::periodic_axis_factor_family, Backend>(
      exec, axis, b, "b", a, b, c);
}

}  // namespace bandsolve
