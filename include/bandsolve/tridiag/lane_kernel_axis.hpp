#pragma once
// Solves along an axis of a 2-D to 4-D array for the tridiagonal families whose host kernel
// solves a block of L systems through lane_block (partial pivoting, periodic): the argument
// checks, and the host launch that runs the family's block kernel on packs of lines in place.
//
// Packing (layout/axis.hpp): packs of lines along the batch axis of smallest stride, one SIMD
// lane per line. Where that axis has unit stride in every full array, each row of a pack is one
// contiguous run of 512 bytes (along_run_lanes_v, as Thomas's column blocks), the rows ahead
// requested by lane_block::prefetch; else packs of 128 bytes of lanes (along_lanes_v), each lane
// read on its own (the lines are contiguous rows when the solve axis has unit stride).
// Coefficients shared by every line (rank-1 Views) are factored once per pack (the family's
// shared solve), and only d crosses memory.
// At 256^3 doubles (2-vCPU AMD EPYC), runs of 64 lanes against 16 along x and y: periodic lines
// with shared coefficients 0.40-0.49 against 0.78-1.05 ns per unknown, full ones 1.4-2.3
// against 1.8-2.5, partial pivoting (full) 2.9-3.3 against 2.7-5.5 (docs/performance.md).
// Called from periodic_axis.hpp and pivoting_axis.hpp.
#include <bandsolve/backend/host_simd/lane_block.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/core/checks.hpp>
#include <bandsolve/layout/axis.hpp>
#include <bandsolve/tridiag/thomas_axis.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace bandsolve::detail {

// Lines per pack of the host launch, for right-hand sides of type D: packs whose rows are
// contiguous runs, and the others.
template <class D>
inline constexpr int along_run_lanes_v = 4 * lane_block_width_v<D>;
template <class D>
inline constexpr int along_lanes_v = lane_block_width_v<D>;

// Calls launch(std::integral_constant<int, K>{}, g) with the packs g of the lines of d along
// `axis`: K = along_run_lanes_v<D> where each row of a pack is a contiguous run in d and every
// full array of `full`, else along_lanes_v<D>.
template <class D, class Launch, class DView, class... Views>
void with_along_packs(const DView& d, int axis, const Launch& launch, const Views&... full) {
  constexpr int W = along_run_lanes_v<D>, L = along_lanes_v<D>;
  const along_plan plan = plan_along<W, L>(d, axis, full...);
  if (plan.lanes)
    launch(std::integral_constant<int, W>{}, plan.g);
  else
    launch(std::integral_constant<int, L>{}, plan.g);
}

// The lanes of pack k of a full array v (strides st) as a lane block.
template <class T, int L, class View>
KOKKOS_INLINE_FUNCTION lane_block<T, L, L> along_lane_block(const View& v, const nd_strides& st,
                                                            const line_packs& g,
                                                            const line_pack& k) {
  return lane_block<T, L, L>(v.data() + g.offset(st, k), st.s[g.lane_axis], st.s[g.axis],
                             k.lanes);
}

// The run-time checks of solve_along(family, axis, a, b, c, d, info) named fn: the axis, each
// coefficient's shape (d's extents, or rank 1 of length n) and that it does not overlap d, d and
// info apart, one info entry per line. Returns the number of lines.
template <class AView, class BView, class CView, class DView, class InfoView>
std::size_t check_along_tridiagonal(const std::string& fn, int axis, const AView& a,
                                    const BView& b, const CView& c, const DView& d,
                                    const InfoView& info) {
  constexpr int rank = static_cast<int>(DView::rank);
  if (axis < 0 || axis >= rank)
    throw_invalid_argument(fn, "axis = ", axis, " but d has rank ", rank, " (axes 0 to ",
                           rank - 1, ")");
  check_along_coefficient(fn, "a", a, d, axis, "d", d);
  check_along_coefficient(fn, "b", b, d, axis, "d", d);
  check_along_coefficient(fn, "c", c, d, axis, "d", d);
  check_no_overlap(fn, "d", d, "info", info);
  return check_along_lines(fn, axis, d, info);
}

// One work item per pack of L lines of g: kernel(n, a, b, c, d, work, codes) on its lane blocks
// (the family's one-shot block kernel, x overwriting d), `scratch` bytes of work per item.
template <int L, class ExecutionSpace, class BlockKernel, class AView, class BView, class CView,
          class DView, class InfoView>
void block_kernel_packs(const ExecutionSpace& exec, const char* function, const line_packs& g,
                        std::size_t scratch, BlockKernel kernel, const AView& a, const BView& b,
                        const CView& c, const DView& d, const InfoView& info, index_t n) {
  using T = typename AView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  const nd_strides sa = strides_of(a), sb = strides_of(b), sc = strides_of(c),
                   sd = strides_of(d);
  for_each_pack(
      exec, function, g.npacks, scratch, KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);
        int codes[L];
        kernel(n, along_lane_block<const T, L>(a, sa, g, k),
               along_lane_block<const T, L>(b, sb, g, k),
               along_lane_block<const T, L>(c, sc, g, k), along_lane_block<D, L>(d, sd, g, k),
               work, codes);
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = codes[l];
      });
}

// One work item per pack of L lines of g whose coefficients are shared by every line:
// code = solve(n, x, work) factors the shared matrix into the item's scratch (`scratch` bytes)
// and solves the lanes x of d with it; every line of the pack gets its code.
template <int L, class ExecutionSpace, class SharedSolve, class DView, class InfoView>
void shared_matrix_packs(const ExecutionSpace& exec, const char* function, const line_packs& g,
                         std::size_t scratch, SharedSolve solve, const DView& d,
                         const InfoView& info, index_t n) {
  using D = typename DView::non_const_value_type;
  const nd_strides sd = strides_of(d);
  for_each_pack(
      exec, function, g.npacks, scratch, KOKKOS_LAMBDA(const index_t p, void* work) {
        const line_pack k = g.pack(p);
        const int code = solve(n, along_lane_block<D, L>(d, sd, g, k), work);
        const index_t s0 = g.first_system(k);
        for (int l = 0; l < k.lanes; ++l) info(s0 + l * g.lane_system_stride) = code;
      });
}

// The one line of a rank-1 View as a one-lane block (the shared matrix of shared_matrix_packs).
template <class T, class View>
KOKKOS_INLINE_FUNCTION lane_block<const T, 1, 1> shared_line(const View& v) {
  return lane_block<const T, 1, 1>(v.data(), 0, static_cast<index_t>(v.stride(0)), 1);
}

// The host backends' solve of every line (n >= 1 rows, arguments checked): block_kernel_packs on
// the packs of with_along_packs, scratch_of(L) bytes of work per pack of L lines, for full
// coefficients; with rank-1 ones, shared_matrix_packs with shared_solve and shared_scratch_of(L)
// bytes of work per pack.
template <class ExecutionSpace, class BlockKernel, class ScratchOf, class SharedSolve,
          class SharedScratchOf, class AView, class BView, class CView, class DView,
          class InfoView>
void block_kernel_along_host(const ExecutionSpace& exec, const char* function, int axis,
                             const ScratchOf& scratch_of, BlockKernel kernel,
                             const SharedScratchOf& shared_scratch_of, SharedSolve shared_solve,
                             const AView& a, const BView& b, const CView& c, const DView& d,
                             const InfoView& info, index_t n) {
  using D = typename DView::non_const_value_type;
  if constexpr (AView::rank == 1) {
    with_along_packs<D>(d, axis, [&](auto width, const line_packs& g) {
      constexpr int L = decltype(width)::value;
      shared_matrix_packs<L>(exec, function, g, shared_scratch_of(L), shared_solve, d, info, n);
    });
  } else {
    with_along_packs<D>(
        d, axis,
        [&](auto width, const line_packs& g) {
          constexpr int L = decltype(width)::value;
          block_kernel_packs<L>(exec, function, g, scratch_of(L), kernel, a, b, c, d, info, n);
        },
        a, b, c);
  }
}

}  // namespace bandsolve::detail
