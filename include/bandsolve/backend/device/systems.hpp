#pragma once
// Where system s of a batch lives, for the device kernels: element i of system s is at
// data[(s / width) * pack_stride + (s % width) * lane_stride + i * row_stride]. One type for
// every layout: row, column and strided Views (width 1, pack_stride = the system stride),
// interleaved<W> packs (width W, lane_stride 1) and the lines of an N-D array along one axis
// (axis_lines below: width = the extent of the last batch axis). Valid in device code.
#include <bandsolve/core/config.hpp>

#include <type_traits>

namespace bandsolve::detail::device {

template <class T>
struct systems {
  T* data;
  index_t pack_stride, row_stride;
  int width;
  index_t lane_stride = 1;

  // Row 0 of system s.
  KOKKOS_FORCEINLINE_FUNCTION T* system(index_t s) const {
    return offset_or_null(data, (s / width) * pack_stride + (s % width) * lane_stride);
  }
  // Whether each system's rows are contiguous and systems are not (row layout, strided Views of
  // unit row stride, lines along an array's unit-stride axis): such batches are read in tiles
  // through team scratch.
  bool rows_contiguous() const {
    return row_stride == 1 && (width == 1 ? pack_stride != 1 : lane_stride != 1);
  }
  // Whether neighbouring systems are neighbouring entries of each row (column layout, interleaved
  // packs, strided Views of unit system stride): a warp then reads one row of 32 systems at once.
  bool side_by_side() const {
    return row_stride != 1 && (width == 1 ? pack_stride == 1 : lane_stride == 1);
  }
};

// The systems of a batch View (rank 2: row, column, strided; rank 3: interleaved packs).
template <class T = void, class View>
auto systems_of(const View& v) {
  using value_type = std::conditional_t<std::is_void_v<T>, typename View::value_type, T>;
  if constexpr (View::rank == 3)
    return systems<value_type>{v.data(), static_cast<index_t>(v.stride(0)),
                               static_cast<index_t>(v.stride(1)), static_cast<int>(v.extent(2))};
  else
    return systems<value_type>{v.data(), static_cast<index_t>(v.stride(0)),
                               static_cast<index_t>(v.stride(1)), 1};
}

// Systems the kernels compute for a batch View of nsys systems: every slot of interleaved packs
// (rank 3; padding lanes included, as on the host), else the nsys systems.
template <class View>
index_t computed_slots(const View& v, index_t nsys) {
  if constexpr (View::rank == 3) return static_cast<index_t>(v.extent(0) * v.extent(2));
  else return nsys;
}

// The lines of an N-D array along one axis seen as a batch of systems (the device path of
// solve_along): line s is element (s / width) * pack_stride + (s % width) * lane_stride, rows
// row_stride apart. It stands in for a batch View where the device solvers take one: it has
// the typedefs they read and systems_of below.
template <class T>
struct axis_lines {
  using value_type = T;
  using non_const_value_type = std::remove_const_t<T>;
  static constexpr int rank = 2;
  systems<T> lines;
};

template <class T = void, class U>
auto systems_of(const axis_lines<U>& v) {
  using value_type = std::conditional_t<std::is_void_v<T>, U, T>;
  return systems<value_type>{v.lines.data, v.lines.pack_stride, v.lines.row_stride,
                             v.lines.width, v.lines.lane_stride};
}

// Element i of one system (for first_bad_pivot and other per-element readers).
template <class T>
struct system_elements {
  const T* row0;
  index_t row_stride;
  KOKKOS_FORCEINLINE_FUNCTION T operator()(index_t i) const { return row0[i * row_stride]; }
};

// One system seen as a batch View of one system (data, stride, rank), for the per-lane kernels
// that read rows through backend/host_simd/lane_block.hpp: lane_block<T, 1, 1>(system_view<T>{...}, 0, 1)
// reads row i at row0[i * row_stride].
template <class T>
struct system_view {
  static constexpr int rank = 2;
  T* row0;
  index_t row_stride;
  KOKKOS_FORCEINLINE_FUNCTION T* data() const { return row0; }
  KOKKOS_FORCEINLINE_FUNCTION index_t stride(int dim) const { return dim == 0 ? 1 : row_stride; }
};

}  // namespace bandsolve::detail::device
