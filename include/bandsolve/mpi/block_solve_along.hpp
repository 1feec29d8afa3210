#pragma once
// Distributed solve of the block lines along one axis of a 2-D to 4-D grid (m unknowns per
// point, m = 2..8) whose solve axis is split over the ranks of an MPI communicator:
//
//   bandsolve::mpi::solve_along(exec, comm, algo::block_thomas{...}, axis, a, b, c, d, info
//                               [, opts]);
//
// The Views as for the single-process solve_along(block_thomas) (block/block_thomas_axis.hpp):
// d of rank R + 1 (the grid, then the m unknowns of a point), a, b, c full arrays of rank R + 2
// (the grid, then the block's row and column) or rank-3 Views (n_r, m, m), this rank's part of
// one line shared by every line; any layouts, real or complex, complex d over real blocks too.
// Rank r holds global block rows offsets[r] .. offsets[r] + n_r - 1 of every line, in rank
// order, n_r = d.extent(axis) on rank r (at least 1; the parts may differ in size); every other
// extent of d, m and the scalar types are the same on every rank. info: one entry per line,
// numbered as the single-process solve_along numbers them (batch indices in axis order, last
// fastest), the same codes on every rank: the global 1-based block row of the first singular
// diagonal block, as mpi::solve(block_thomas) finds it. x overwrites d. Collective over comm;
// the arguments (the axis, the batch extents and m included) are checked on every rank and
// agreed before any exchange, so bad arguments on one rank make every rank throw the same
// std::invalid_argument. The call fences exec. One rank: the single-process solve_along.
//
// How: the block partition passes of mpi::solve(block_thomas) (block_solve.hpp: the local passes
// on exec, the reduced systems exchanged) read the lines where they lie in the grid, through
// block_grid_lines.hpp's accessors (shared blocks with a line stride of 0): nothing is copied.
// The lines are numbered among the ranks in the order of d's memory where every rank proposes
// the same (line_order.hpp), so that a work item's lines lie side by side; info is put back into
// solve_along's numbering. See docs/distributed.md, "Block lines along an axis". The copies
// below (a row batch of the lines) serve the factorization of one rank
// (block_factorize_along.hpp).
#include <bandsolve/block/block_thomas_axis.hpp>
#include <bandsolve/core/algo.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/mpi/block_grid_lines.hpp>
#include <bandsolve/mpi/block_solve.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/datatype.hpp>
#include <bandsolve/mpi/options.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve::mpi {
namespace detail {

// The grid point of block row i of line s, lines numbered as solve_along numbers them (the batch
// axes in axis order, the last fastest), on a grid of R axes.
template <int R>
struct along_block_points {
  index_t extent[4] = {1, 1, 1, 1};
  int axis = 0;

  KOKKOS_INLINE_FUNCTION void point(index_t s, index_t i, index_t (&p)[4]) const {
    for (int k = R - 1; k >= 0; --k) {
      if (k == axis) {
        p[k] = i;
      } else {
        p[k] = s % extent[k];
        s /= extent[k];
      }
    }
  }
};

// Block (r, c) of a coefficient at grid point p (row p[axis]): a full array of rank R + 2, or a
// shared rank-3 View (n_r, m, m).
template <int R, class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type block_entry(const View& v,
                                                                 const index_t (&p)[4], int axis,
                                                                 index_t r, index_t c) {
  if constexpr (View::rank == 3) return v(p[axis], r, c);
  else if constexpr (R == 2) return v(p[0], p[1], r, c);
  else if constexpr (R == 3) return v(p[0], p[1], p[2], r, c);
  else return v(p[0], p[1], p[2], p[3], r, c);
}

// Unknown r of d (rank R + 1) at grid point p.
template <int R, class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type point_entry(const View& v,
                                                                 const index_t (&p)[4],
                                                                 index_t r) {
  if constexpr (R == 2) return v(p[0], p[1], r);
  else if constexpr (R == 3) return v(p[0], p[1], p[2], r);
  else return v(p[0], p[1], p[2], p[3], r);
}

// The copies' work items: one per (line, block row), counted in index_t.
template <class ExecutionSpace>
using along_policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index_t>>;

template <class T, class MemorySpace>
using along_block_batch = Kokkos::View<T****, Kokkos::LayoutRight, MemorySpace>;
template <class D, class MemorySpace>
using along_block_rhs = Kokkos::View<D***, Kokkos::LayoutRight, MemorySpace>;

// The lines' blocks copied into a row batch (lines, n_r, m, m): consecutive work items write
// consecutive block rows of a line.
template <int R, class ExecutionSpace, class Batch, class View>
void pack_along_blocks(const ExecutionSpace& exec, const Batch& out, const View& v,
                       const along_block_points<R>& g) {
  const auto nlines = static_cast<index_t>(out.extent(0)), n = static_cast<index_t>(out.extent(1));
  const auto m = static_cast<index_t>(out.extent(2));
  const int axis = g.axis;
  Kokkos::parallel_for(
      "bandsolve::mpi::solve_along(block_thomas) pack blocks",
      along_policy<ExecutionSpace>(exec, 0, nlines * n), KOKKOS_LAMBDA(const index_t k) {
        const index_t i = k % n, s = k / n;
        index_t p[4] = {0, 0, 0, 0};
        g.point(s, i, p);
        for (index_t r = 0; r < m; ++r)
          for (index_t c = 0; c < m; ++c) out(s, i, r, c) = block_entry<R>(v, p, axis, r, c);
      });
}

// d's values into the row batch (ToBatch), or the batch's x back into d. (Two kernels: nvcc
// refuses a device lambda whose first use of a View is inside an if constexpr.)
template <bool ToBatch, int R, class ExecutionSpace, class Rhs, class DView>
void move_along_rhs(const ExecutionSpace& exec, const Rhs& batch, const DView& d,
                    const along_block_points<R>& g) {
  const auto nlines = static_cast<index_t>(batch.extent(0));
  const auto n = static_cast<index_t>(batch.extent(1)), m = static_cast<index_t>(batch.extent(2));
  const along_policy<ExecutionSpace> all(exec, 0, nlines * n);
  if constexpr (ToBatch) {
    Kokkos::parallel_for(
        "bandsolve::mpi::solve_along(block_thomas) pack d", all, KOKKOS_LAMBDA(const index_t k) {
          const index_t i = k % n, s = k / n;
          index_t p[4] = {0, 0, 0, 0};
          g.point(s, i, p);
          for (index_t r = 0; r < m; ++r) batch(s, i, r) = point_entry<R>(d, p, r);
        });
  } else {
    Kokkos::parallel_for(
        "bandsolve::mpi::solve_along(block_thomas) unpack x", all, KOKKOS_LAMBDA(const index_t k) {
          const index_t i = k % n, s = k / n;
          index_t p[4] = {0, 0, 0, 0};
          g.point(s, i, p);
          for (index_t r = 0; r < m; ++r) point_entry<R>(d, p, r) = batch(s, i, r);
        });
  }
}

template <int R, class DView>
along_block_points<R> along_block_points_of(const DView& d, int axis) {
  along_block_points<R> g;
  g.axis = axis;
  for (int k = 0; k < R; ++k)
    g.extent[k] = static_cast<index_t>(bandsolve::detail::extent_at(d, k));
  return g;
}

// The axis, d's grid extents (that of the axis itself as 0) and the line order d's memory proposes
// (line_order.hpp) for the collective checks.
template <class DView>
along_shape block_along_shape(const DView& d, int axis) {
  constexpr int R = static_cast<int>(DView::rank) - 1;
  along_shape shape;
  shape.axis = axis;
  for (int k = 0; k < R; ++k)
    shape.extent[k] =
        k == axis ? 0 : static_cast<long long>(bandsolve::detail::extent_at(d, k));
  shape.line_order = memory_order(axis, grid_of(d)).code();
  return shape;
}

// The collective checks of the block lines along an axis: this rank's (those of the
// single-process solve_along), then the axis, the batch extents, the scalar types, the options
// and m agreed over comm. Returns the partition of the lines' block rows.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
partition agree_on_block_along(const ExecutionSpace& exec, const std::string& fn, MPI_Comm comm,
                               int axis, const AView& a, const BView& b, const CView& c,
                               const DView& d, const InfoView& info, const options& opts) {
  using T = typename BView::non_const_value_type;
  using D = typename DView::non_const_value_type;
  constexpr int R = static_cast<int>(DView::rank) - 1;
  const along_shape shape = block_along_shape(d, axis);
  const partition p = agree_on_arguments(
      fn, comm, block_scalar_code<T, D>(),
      [&] {
        const std::size_t nlines =
            bandsolve::detail::block_axis_checks(fn, axis, a, b, c, d, "d", d, info);
        return std::pair<std::size_t, std::size_t>(nlines,
                                                    bandsolve::detail::extent_at(d, axis));
      },
      &opts, &shape, bandsolve::detail::concurrency_of(exec));
  agree_on_block_counts(fn, comm, p, d.extent(static_cast<std::size_t>(R)), 1,
                        [](long long bm, long long) { return 2 * bm * bm + 2 * bm; });
  return p;
}

}  // namespace detail

// Block lines along `axis` (see the top of this header).
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void solve_along(const ExecutionSpace& exec, MPI_Comm comm, algo::block_thomas algorithm, int axis,
                 const AView& a, const BView& b, const CView& c, const DView& d,
                 const InfoView& info, const options& opts = {}) {
  using T = typename BView::non_const_value_type;
  constexpr int R = static_cast<int>(DView::rank) - 1;
  bandsolve::detail::block_axis_static_checks<ExecutionSpace, true, DView, AView, BView, CView>();
  bandsolve::detail::block_axis_info_static_checks<ExecutionSpace, InfoView>();
  const std::string fn = "bandsolve::mpi::solve_along(block_thomas)";
  const detail::partition p =
      detail::agree_on_block_along(exec, fn, comm, axis, a, b, c, d, info, opts);
  if (p.nsys == 0) return;
  if (p.size == 1) {
    bandsolve::solve_along(exec, algorithm, axis, a, b, c, d, info);
    exec.fence();
    return;
  }
  const detail::line_order order = detail::line_order::from_code(p.line_order);
  const auto la = detail::grid_block_coefficient<R>(a, axis, order);
  const auto lb = detail::grid_block_coefficient<R>(b, axis, order);
  const auto lc = detail::grid_block_coefficient<R>(c, axis, order);
  const auto ld = detail::grid_block_rhs<R>(d, axis, order);
  detail::solve_in_line_order(exec, axis, detail::grid_of(d), order, info, [&](const auto& codes) {
    bandsolve::detail::block_size_dispatch(fn, d.extent(R), [&](auto bs) {
      detail::block_solve_reduced<decltype(bs)::value>(exec, comm, algorithm, p,
                                                       detail::rhs_parts_v<T, DView>, opts, la,
                                                       lb, lc, ld, codes);
    });
  });
}

}  // namespace bandsolve::mpi
