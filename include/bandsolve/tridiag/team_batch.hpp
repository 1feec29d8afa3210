#pragma once
// What the solvers that parallelise inside a system (PCR, CR, the Thomas-PCR hybrid) share: the
// rows of system s in any layout, the argument checks of a one-shot solve, and the info code they
// all agree on; their team launch is the host backend's (backend/host_simd/team_launch.hpp).
//
// Two ways to run a batch (chosen per call by inside_system_pays):
//   across systems  one work item per pack of L systems (L = SIMD lanes of 64 bytes), a team of
//                   one thread, SIMD across the systems of the pack;
//   inside a system one team per system, its threads split the rows, SIMD across rows; for
//                   batches too small to fill threads x lanes. (On a GPU this is the natural
//                   team-per-system mapping.)
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/host_simd/team_launch.hpp>
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/tridiag/batch_checks.hpp>
#include <bandsolve/tridiag/reduction_kernel.hpp>

#include <string>
#include <type_traits>

namespace bandsolve::detail {

template <class Layout>
inline constexpr bool is_interleaved_layout_v =
    !std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::column> &&
    !std::is_same_v<Layout, layout::strided> && !std::is_same_v<Layout, unsupported_layout>;

// The rows of system s of a batch View in any layout.
template <class View>
KOKKOS_INLINE_FUNCTION system_rows<typename View::value_type> system_of(const View& v,
                                                                         index_t s) {
  using Layout = layout_of_t<View>;
  if constexpr (is_interleaved_layout_v<Layout>) {
    constexpr index_t W = Layout::width;
    return {v.data() + (s / W) * static_cast<index_t>(v.stride(0)) +
                (s % W) * static_cast<index_t>(v.stride(2)),
            static_cast<index_t>(v.stride(1))};
  } else {
    return {v.data() + s * static_cast<index_t>(v.stride(0)), static_cast<index_t>(v.stride(1))};
  }
}

// The info contract of every elimination without pivoting: the 1-based first row whose LU
// pivot (Thomas's b[i] - a[i] c'[i-1]) is zero, tiny or not finite, 0 if there is none.
// Sequential over the original coefficients.
template <class T>
KOKKOS_INLINE_FUNCTION int lu_pivot_row(index_t n, system_rows<const T> a, system_rows<const T> b,
                                        system_rows<const T> c) {
  if (n <= 0) return 0;
  T pivot = b.p[0];
  if (!pivot_is_good(pivot)) return 1;
  T cp = (n > 1 ? c.p[0] : T(0)) / pivot;
  for (index_t i = 1; i < n; ++i) {
    pivot = b.p[i * b.stride] - a.p[i * a.stride] * cp;
    if (!pivot_is_good(pivot)) return static_cast<int>(i + 1);
    cp = (i + 1 < n ? c.p[i * c.stride] : T(0)) / pivot;
  }
  return 0;
}

// A system on which PCR, CR or the hybrid met a bad pivot (own != 0) reports the row Thomas
// would (lu_pivot_row), so every algorithm without pivoting names the same row; its own code
// only when the LU pivots are all good (a breakdown of the reduction order alone). Runs only
// for failed systems.
template <class AView, class BView, class CView>
KOKKOS_INLINE_FUNCTION int agreed_info(int own, index_t n, const AView& a, const BView& b,
                                       const CView& c, index_t s) {
  if (own == 0) return 0;
  using T = typename BView::non_const_value_type;
  const auto sa = system_of(a, s);
  const auto sb = system_of(b, s);
  const auto sc = system_of(c, s);
  const int lu = lu_pivot_row<T>(n, {sa.p, sa.stride}, {sb.p, sb.stride}, {sc.p, sc.stride});
  return lu != 0 ? lu : own;
}

// Compile-time checks of a one-shot solve(exec, algo, a, b, c, d, info) by these paths, which
// take d of the coefficients' own scalar type only.
template <class Algo, class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
struct team_solve_static_checks
    : one_shot_static_checks<Algo, ExecutionSpace, AView, BView, CView, DView, InfoView> {
  static_assert(std::is_same_v<typename BView::non_const_value_type,
                               typename DView::non_const_value_type>,
                "bandsolve::solve: a, b, c and d must have the same scalar type");
};

// Run-time checks of a one-shot solve; returns the number of systems (info.extent(0)).
template <class AView, class BView, class CView, class DView, class InfoView>
index_t check_team_solve(const std::string& fn, const AView& a, const BView& b, const CView& c,
                         const DView& d, const InfoView& info) {
  using Layout = layout_of_t<DView>;
  check_same_shape(fn, "a", a, "d", d);
  check_same_shape(fn, "b", b, "d", d);
  check_same_shape(fn, "c", c, "d", d);
  check_no_overlap(fn, "d", d, "a", a);
  check_no_overlap(fn, "d", d, "b", b);
  check_no_overlap(fn, "d", d, "c", c);
  check_no_overlap(fn, "d", d, "info", info);
  check_rows_fit_int(fn, rows(d));
  return static_cast<index_t>(systems_from_info<Layout>(fn, info, d));
}

}  // namespace bandsolve::detail
