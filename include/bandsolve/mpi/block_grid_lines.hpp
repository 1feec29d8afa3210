#pragma once
// The block lines along one axis of a grid, read where they lie: an accessor that the block
// partition passes (block_partition_kernel.hpp) take in place of a batch View, so that the
// distributed block solves along an axis copy nothing.
//
// grid_block_lines<T, 4> addresses block (r, c) of block row i of line s as a(s, i, r, c) of a
// row batch would, grid_block_lines<T, 3> component r of a vector as d(s, i, r). The lines are
// numbered in an order every rank agrees on (line_order.hpp: the batch axes by stride, so that
// neighbouring lines lie side by side where the grid allows); block row i is grid index i along
// the axis. Batch axes whose strides chain (the faster one's extent times its stride is the
// slower one's stride, as in LayoutRight grids along the first or last axis) merge into one
// level, so that a line's offset takes at most one division per level left. A rank-3 coefficient
// View (n_r, m, m) shared by every line reads with a line stride of 0. The passes read each group
// of lines through grid_block_group, whose line starts are found once.
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/mpi/block_partition_kernel.hpp>
#include <bandsolve/mpi/line_order.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <type_traits>

namespace bandsolve::mpi::detail {

// What the passes ask of a View, and where an entry lies from its line's start.
template <class T, int Rank>
struct grid_entries {
  static_assert(Rank == 3 || Rank == 4, "grid_entries: vectors (3) or blocks (4)");
  using value_type = T;
  using non_const_value_type = std::remove_const_t<T>;
  using reference_type = T&;
  using array_layout = Kokkos::LayoutStride;
  static constexpr int rank = Rank;

  T* base = nullptr;
  index_t row_stride = 0;
  index_t entry_stride[2] = {0, 0};  // the block's row and column (a vector's component)

  KOKKOS_INLINE_FUNCTION T& at(index_t start, index_t i, index_t r, index_t c) const {
    return base[start + i * row_stride + r * entry_stride[0] + c * entry_stride[1]];
  }
  // Strides of the entry axes (2: the block's row or vector's component, 3: the block's column),
  // as block_partition_kernel.hpp reads them; 1: the block rows.
  KOKKOS_INLINE_FUNCTION index_t stride(int k) const {
    return k == 1 ? row_stride : k == 2 ? entry_stride[0] : k == 3 ? entry_stride[1] : 0;
  }
};

template <class T, int Rank>
struct grid_block_lines : grid_entries<T, Rank> {
  // Line s starts at sum over levels k of digit_k(s) * line_stride[k], the digits of s in the
  // mixed radix line_extent (level 0 fastest; the slowest level takes the rest of s).
  index_t line_extent[3] = {1, 1, 1};
  index_t line_stride[3] = {0, 0, 0};
  int levels = 1;

  KOKKOS_INLINE_FUNCTION index_t line_offset(index_t s) const {
    index_t offset = 0;
    for (int k = 0; k < levels - 1; ++k) {
      offset += (s % line_extent[k]) * line_stride[k];
      s /= line_extent[k];
    }
    return offset + s * line_stride[levels - 1];
  }
  KOKKOS_INLINE_FUNCTION T& operator()(index_t s, index_t i, index_t r, index_t c = 0) const {
    return this->at(line_offset(s), i, r, c);
  }
};

// The lines of one group of L systems (block_partition_kernel.hpp's block_lane_group: lines s0
// .. s0 + L - 1, the lanes past the batch reading line s0), their starts found once for the
// group's passes.
template <class T, int Rank, int L>
struct grid_block_group : grid_entries<T, Rank> {
  index_t s0 = 0;
  index_t line[static_cast<std::size_t>(L)] = {};
  // Whether the group's L lines are neighbours in memory (line l starts at line 0's start + l:
  // lines across the unit-stride axis, as those of LayoutLeft grids along y and z).
  bool side_by_side = false;
  // The passes ask the group (side_by_side) whether its lanes load as vectors.
  static constexpr bool lanes_found_per_group = true;

  KOKKOS_INLINE_FUNCTION T& operator()(index_t s, index_t i, index_t r, index_t c = 0) const {
    return this->at(line[s - s0], i, r, c);
  }
};

template <int L, class T, int Rank>
KOKKOS_INLINE_FUNCTION grid_block_group<T, Rank, L> lines_of_group(
    const grid_block_lines<T, Rank>& v, const block_lane_group& g) {
  grid_block_group<T, Rank, L> out;
  static_cast<grid_entries<T, Rank>&>(out) = v;
  out.s0 = g.s0;
  for (int l = 0; l < L; ++l) out.line[l] = v.line_offset(g.system(l));
  out.side_by_side = g.nl == L && L > 1;
  for (int l = 1; l < L; ++l) out.side_by_side = out.side_by_side && out.line[l] == out.line[0] + l;
  return out;
}

template <int L, int W, class T, int Rank>
KOKKOS_INLINE_FUNCTION bool group_lanes_adjacent(const grid_block_group<T, Rank, L>& v,
                                                 const block_lane_group&) {
  return v.side_by_side;
}

// The lines along `axis` of a grid of R axes, from v (R grid axes, then the block's row and
// column, or a vector's component), numbered in order o (line_order.hpp: the batch axes of the
// permuted grid, the last fastest): the batch axes from the fastest-numbered to the slowest,
// chained strides merged, axes of extent 1 left out.
template <int Rank, int R, class View>
grid_block_lines<typename View::value_type, Rank> grid_lines_of(const View& v, int axis,
                                                                const line_order& o) {
  grid_block_lines<typename View::value_type, Rank> g;
  g.base = v.data();
  g.row_stride = static_cast<index_t>(bandsolve::detail::stride_at(v, axis));
  g.entry_stride[0] = static_cast<index_t>(bandsolve::detail::stride_at(v, R));
  if constexpr (Rank == 4)
    g.entry_stride[1] = static_cast<index_t>(bandsolve::detail::stride_at(v, R + 1));
  int level = -1;
  for (int k = R - 1; k >= 0; --k) {
    if (k == axis) continue;
    const int q = o.axes[k];  // the grid's axis at position k
    const auto extent = static_cast<index_t>(bandsolve::detail::extent_at(v, q));
    const auto stride = static_cast<index_t>(bandsolve::detail::stride_at(v, q));
    if (extent == 1) continue;
    if (level >= 0 && g.line_stride[level] * g.line_extent[level] == stride) {
      g.line_extent[level] *= extent;
    } else {
      ++level;
      g.line_extent[level] = extent;
      g.line_stride[level] = stride;
    }
  }
  g.levels = level < 0 ? 1 : level + 1;
  return g;
}

// A coefficient of the block lines along `axis` of a grid of R axes: a full array (rank R + 2)
// or a rank-3 View (n_r, m, m) shared by every line.
template <int R, class View>
grid_block_lines<typename View::value_type, 4> grid_block_coefficient(const View& v, int axis,
                                                                      const line_order& o) {
  if constexpr (static_cast<int>(View::rank) == 3) {
    grid_block_lines<typename View::value_type, 4> g;
    g.base = v.data();
    g.row_stride = static_cast<index_t>(bandsolve::detail::stride_at(v, 0));
    g.entry_stride[0] = static_cast<index_t>(bandsolve::detail::stride_at(v, 1));
    g.entry_stride[1] = static_cast<index_t>(bandsolve::detail::stride_at(v, 2));
    return g;
  } else {
    return grid_lines_of<4, R>(v, axis, o);
  }
}

// The right-hand sides (rank R + 1: the grid, then the m unknowns of a point).
template <int R, class View>
grid_block_lines<typename View::value_type, 3> grid_block_rhs(const View& d, int axis,
                                                              const line_order& o) {
  return grid_lines_of<3, R>(d, axis, o);
}

// The grid of d (rank R + 1): its first component, a View of rank R whose extents and strides
// are the grid's (what line_order.hpp reads).
template <class View>
auto grid_of(const View& d) {
  constexpr int R = static_cast<int>(View::rank) - 1;
  static_assert(R >= 2 && R <= 4, "grid_of: a 2-D to 4-D grid of vectors");
  const auto all = Kokkos::ALL;
  if constexpr (R == 2) return Kokkos::subview(d, all, all, 0);
  else if constexpr (R == 3) return Kokkos::subview(d, all, all, all, 0);
  else return Kokkos::subview(d, all, all, all, all, 0);
}

}  // namespace bandsolve::mpi::detail
