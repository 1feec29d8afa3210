#pragma once
// The lines along one axis of a 2-D to 4-D array, grouped into packs for the batched solvers.
//
// A solve along axis k treats every line (all indices fixed except the k-th) as one system of
// n = extent(k) rows; the other axes are the batch. The lane axis is the batch axis with the
// smallest stride: a pack is up to `width` neighbouring lines along it (one SIMD lane each), so
// with a unit-stride lane axis every row of a pack is a contiguous run (like layout::column),
// and when the solve axis itself has unit stride the lines are contiguous rows (like layout::row).
// The remaining batch axes (outer axes) number the packs. Nothing is transposed or copied.
//
// System numbering (info codes): the batch indices of a line in axis order, k removed, last
// fastest. For d of extents (nx, ny, nz) and k = 1, line (ix, :, iz) is system ix*nz + iz.
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/view_extents.hpp>

namespace bandsolve::detail {

inline constexpr int max_axis_rank = 4;

// Element strides of one array (unused axes 0).
struct nd_strides {
  index_t s[max_axis_rank] = {0, 0, 0, 0};
};

template <class View>
nd_strides strides_of(const View& v) {
  nd_strides r;
  for (int k = 0; k < static_cast<int>(View::rank); ++k) r.s[k] = static_cast<index_t>(v.stride(k));
  return r;
}

// One pack: `lanes` lines starting at index first_lane of the lane axis, at (o0, o1) of the
// outer axes.
struct line_pack {
  index_t first_lane, o0, o1;
  int lanes;
};

struct line_packs {
  int axis = 0, lane_axis = 0;
  int outer_axis[2] = {0, 0};  // an absent outer axis points at `axis` with extent 1 (index 0)
  int width = 1;
  index_t n = 0, lane_extent = 0, outer_extent[2] = {1, 1};
  index_t chunks = 0, npacks = 0, nsys = 0;
  index_t lane_system_stride = 0, outer_system_stride[2] = {0, 0};

  // Packs run along the lane axis first, then the outer axis of smaller stride: consecutive
  // packs are neighbours in memory.
  KOKKOS_INLINE_FUNCTION line_pack pack(index_t p) const {
    const index_t chunk = p % chunks, q = p / chunks;
    line_pack k;
    k.first_lane = chunk * width;
    k.o1 = q % outer_extent[1];
    k.o0 = q / outer_extent[1];
    const index_t left = lane_extent - k.first_lane;
    k.lanes = static_cast<int>(left < width ? left : width);
    return k;
  }
  void count_packs() {
    chunks = (lane_extent + width - 1) / width;
    npacks = chunks * outer_extent[0] * outer_extent[1];
  }
  // Offset of row 0 of the pack's first line in an array of these extents and strides `st`.
  KOKKOS_INLINE_FUNCTION index_t offset(const nd_strides& st, const line_pack& k) const {
    return k.first_lane * st.s[lane_axis] + k.o0 * st.s[outer_axis[0]] +
           k.o1 * st.s[outer_axis[1]];
  }
  // System number of the pack's first line; lane l is first_system + l * lane_system_stride.
  KOKKOS_INLINE_FUNCTION index_t first_system(const line_pack& k) const {
    return k.first_lane * lane_system_stride + k.o0 * outer_system_stride[0] +
           k.o1 * outer_system_stride[1];
  }
};

// The lane axis of d for a solve along `axis`: the batch axis of smallest stride among those
// with more than one index (the first batch axis if none has).
template <class View>
int lane_axis_of(const View& d, int axis) {
  int best = -1;
  for (int k = 0; k < static_cast<int>(View::rank); ++k) {
    if (k == axis) continue;
    if (best < 0) best = k;
    if (extent_at(d, k) > 1 && (extent_at(d, best) <= 1 || stride_at(d, k) < stride_at(d, best)))
      best = k;
  }
  return best;
}

// Packs of up to `width` lines along `axis` of d (rank 2 to 4, axis already checked).
template <class View>
line_packs make_line_packs(const View& d, int axis, int lane_axis, int width) {
  constexpr int rank = static_cast<int>(View::rank);
  static_assert(rank >= 2 && rank <= max_axis_rank, "bandsolve: line packs need rank 2 to 4");
  line_packs g;
  g.axis = axis;
  g.lane_axis = lane_axis;
  g.width = width;
  g.n = static_cast<index_t>(extent_at(d, axis));
  g.lane_extent = static_cast<index_t>(extent_at(d, lane_axis));

  // System numbering: row-major over the batch axes in axis order.
  index_t system_stride[max_axis_rank] = {0, 0, 0, 0};
  index_t count = 1;
  for (int k = rank - 1; k >= 0; --k) {
    if (k == axis) continue;
    system_stride[k] = count;
    count *= static_cast<index_t>(extent_at(d, k));
  }
  g.nsys = count;

  // Outer axes, the one of larger stride first.
  int outer[2] = {axis, axis}, found = 0;
  for (int k = 0; k < rank; ++k)
    if (k != axis && k != lane_axis) outer[found++] = k;
  if (found == 2 && d.stride(outer[0]) < d.stride(outer[1])) {
    const int t = outer[0];
    outer[0] = outer[1];
    outer[1] = t;
  }
  for (int m = 0; m < 2; ++m) {
    g.outer_axis[m] = outer[m];
    g.outer_extent[m] = outer[m] == axis ? 1 : static_cast<index_t>(extent_at(d, outer[m]));
    g.outer_system_stride[m] = outer[m] == axis ? 0 : system_stride[outer[m]];
  }
  g.lane_system_stride = system_stride[lane_axis];
  g.count_packs();
  return g;
}

// Folds the outer axis of smaller stride into the lane axis while it continues the lane axis in
// every array (its stride is lane_extent lane strides in each of `arrays`, and in the system
// numbering): the lines of a solve along x of a contiguous cube are then one long lane row, as
// in layout::column, instead of one short row per y index, and only the last pack of all can
// hold fewer than `width` lines (not the last of every row, when the row is not a multiple).
inline void merge_contiguous_outer_axes(line_packs& g, const nd_strides* arrays, int count) {
  for (int merged = 0; merged < 2; ++merged) {
    // The outer axis of smaller stride: slot 1 when there are two, else slot 0.
    const int m = g.outer_axis[1] != g.axis ? 1 : (g.outer_axis[0] != g.axis ? 0 : -1);
    if (m < 0) return;
    const int outer = g.outer_axis[m];
    if (g.outer_system_stride[m] != g.lane_extent * g.lane_system_stride) return;
    for (int k = 0; k < count; ++k)
      if (arrays[k].s[outer] != g.lane_extent * arrays[k].s[g.lane_axis]) return;
    g.lane_extent *= g.outer_extent[m];
    if (m == 1) {  // the other outer axis moves to slot 1
      g.outer_axis[1] = g.outer_axis[0];
      g.outer_extent[1] = g.outer_extent[0];
      g.outer_system_stride[1] = g.outer_system_stride[0];
    }
    g.outer_axis[0] = g.axis;
    g.outer_extent[0] = 1;
    g.outer_system_stride[0] = 0;
    g.count_packs();
  }
}

// The grid of an array whose last axis is not a grid axis (a point's m unknowns, a column's
// band rows): its first rank - 1 axes at entry 0 of the last, a View of rank 2 to 4.
template <class View>
auto leading_grid(const View& v) {
  constexpr int R = static_cast<int>(View::rank) - 1;
  const auto all = Kokkos::ALL;
  if constexpr (R == 2) return Kokkos::subview(v, all, all, 0);
  else if constexpr (R == 3) return Kokkos::subview(v, all, all, all, 0);
  else return Kokkos::subview(v, all, all, all, all, 0);
}

}  // namespace bandsolve::detail
