#pragma once
// solve_along(thomas) on the device backend: the lines of a 2-D to 4-D array along one axis are
// handed to the device Thomas (thomas_device.hpp) as a batch of systems addressed in place
// (device::axis_lines), with no packing and no copy. Line s of the numbering of thomas_axis.hpp
// (batch indices in axis order, last fastest) is s = j * E + q: q indexes the last batch axis
// (extent E), j the batch axes before it. In rank 4 those two axes fold into one index when, in
// every full-coefficient array, the first one's stride is the second's extent times its stride
// (any contiguous array); otherwise one launch per index of the first batch axis, on its own
// range of info. The device Thomas then picks its shape by the strides, as for batch Views:
// a thread per line where neighbouring lines are neighbours in memory (every axis but the
// unit-stride one), row tiles through team scratch where each line is contiguous, register
// chunks for short lines and the chunk method for a few long ones. Shared (rank-1) coefficients
// are read by every line from the same n values. Called from thomas_axis.hpp after its checks.
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/tridiag/thomas_device.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace bandsolve::detail {

// The batch axes of a solve along `axis` of a rank-`rank` array: the last one (inner) and up to
// two before it (outer), in axis order.
struct along_batch_axes {
  int inner = -1;
  int outer[2] = {-1, -1};
  int nouter = 0;
};

inline along_batch_axes batch_axes_of(int rank, int axis) {
  along_batch_axes r;
  for (int k = 0; k < rank; ++k) {
    if (k == axis) continue;
    if (r.inner >= 0) r.outer[r.nouter++] = r.inner;
    r.inner = k;
  }
  return r;
}

// Whether the two outer batch axes of a rank-4 solve fold into one index in array v (always for
// shared rank-1 coefficients).
template <class View, class DView>
bool outer_axes_fold(const View& v, const DView& d, const along_batch_axes& ax) {
  if constexpr (View::rank == 1) {
    return true;
  } else {
    const int o0 = ax.outer[0], o1 = ax.outer[1];
    return d.extent(o0) <= 1 || d.extent(o1) <= 1 ||
           v.stride(o0) == d.extent(o1) * v.stride(o1);
  }
}

// The lines of v starting at element `base`: j steps by the stride of batch axis `pack_axis`
// (none: -1), q by the inner axis's stride; shared coefficients give every line the same rows.
template <class T, class View, class DView>
device::axis_lines<T> lines_of(const View& v, const DView& d, int axis,
                               const along_batch_axes& ax, int pack_axis, index_t base) {
  const int width = static_cast<int>(d.extent(ax.inner));
  if constexpr (View::rank == 1) {
    (void)axis, (void)pack_axis, (void)base;
    return {device::systems<T>{v.data(), 0, static_cast<index_t>(v.stride(0)), width, 0}};
  } else {
    const index_t pack = pack_axis >= 0 ? static_cast<index_t>(v.stride(pack_axis)) : 0;
    return {device::systems<T>{v.data() + base, pack, static_cast<index_t>(v.stride(axis)), width,
                               static_cast<index_t>(v.stride(ax.inner))}};
  }
}

// info entries [first, first + count) as a View of InfoView's own type (so the kernels are those
// of a batch solve).
template <class InfoView>
InfoView info_range(const InfoView& info, index_t first, index_t count) {
  using layout = typename InfoView::array_layout;
  if constexpr (std::is_same_v<layout, Kokkos::LayoutStride>)
    return InfoView(info.data() + first * static_cast<index_t>(info.stride(0)),
                    Kokkos::LayoutStride(static_cast<std::size_t>(count), info.stride(0)));
  else
    return InfoView(info.data() + first, static_cast<std::size_t>(count));
}

// One-shot solve of every line of d along `axis` (n >= 1 rows, nsys >= 1 lines, arguments
// checked); enqueued on exec.
template <class ExecutionSpace, class AView, class BView, class CView, class DView,
          class InfoView>
void thomas_along_device(const ExecutionSpace& exec, int axis, const AView& a, const BView& b,
                         const CView& c, const DView& d, const InfoView& info, index_t n,
                         index_t nsys) {
  using T = typename DView::non_const_value_type;
  constexpr int rank = static_cast<int>(DView::rank);
  const along_batch_axes ax = batch_axes_of(rank, axis);
  const auto solve_lines = [&](int pack_axis, index_t base, const InfoView& codes, index_t lines) {
    const auto strides_base = [&](const auto& v) -> index_t {
      if constexpr (std::remove_reference_t<decltype(v)>::rank == 1) return 0;
      else return base * static_cast<index_t>(v.stride(ax.outer[0]));
    };
    thomas_device_solve(exec, lines_of<const T>(a, d, axis, ax, pack_axis, strides_base(a)),
                        lines_of<const T>(b, d, axis, ax, pack_axis, strides_base(b)),
                        lines_of<const T>(c, d, axis, ax, pack_axis, strides_base(c)),
                        lines_of<T>(d, d, axis, ax, pack_axis, strides_base(d)), codes, n, lines);
  };
  if (ax.nouter == 0) {
    solve_lines(-1, 0, info, nsys);
  } else if (ax.nouter == 1) {
    solve_lines(ax.outer[0], 0, info, nsys);
  } else if (outer_axes_fold(a, d, ax) && outer_axes_fold(b, d, ax) && outer_axes_fold(c, d, ax) &&
             outer_axes_fold(d, d, ax)) {
    // j = i0 * E1 + i1 steps by the second outer axis's stride (by the first's where E1 is 1).
    solve_lines(d.extent(ax.outer[1]) > 1 ? ax.outer[1] : ax.outer[0], 0, info, nsys);
  } else {
    const index_t outer = static_cast<index_t>(d.extent(ax.outer[0]));
    const index_t lines = nsys / outer;
    for (index_t i0 = 0; i0 < outer; ++i0)
      solve_lines(ax.outer[1], i0, info_range(info, i0 * lines, lines), lines);
  }
}

}  // namespace bandsolve::detail
