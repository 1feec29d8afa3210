#pragma once
// solve_along on the device backend: the lines of a 2-D to 4-D array along one axis are handed
// to a device solver (thomas_device.hpp, symmetric_device.hpp, periodic_device.hpp,
// pivoting_device.hpp) as a batch of systems addressed in place (device::axis_lines), with no
// packing and no copy. Line s of the numbering of thomas_axis.hpp (batch indices in axis order,
// last fastest) is s = j * E + q: q
// indexes the last batch axis (extent E), j the batch axes before it. In rank 4 those two axes
// fold into one index when, in every full-coefficient array and d, the first one's stride is the
// second's extent times its stride (any contiguous array); otherwise one launch per index of the
// first batch axis, on its own range of info. The device solver then picks its shape by the
// strides, as for batch Views: a thread per line where neighbouring lines are neighbours in
// memory (every axis but the unit-stride one), row tiles through team scratch where each line is
// contiguous (and, for Thomas, register chunks for short lines and the chunk method for a few
// long ones). Shared (rank-1) coefficients are read by every line from the same n values.
// Called from thomas_axis.hpp, symmetric_axis.hpp, periodic_axis.hpp and pivoting_axis.hpp after
// their checks.
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/view_extents.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <mutex>
#include <optional>
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
    return extent_at(d, o0) <= 1 || extent_at(d, o1) <= 1 ||
           stride_at(v, o0) == extent_at(d, o1) * stride_at(v, o1);
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

// What one launch solves: the lines of an array (a coefficient array or d) for the batch of
// that launch, as the device solvers' stand-in for a batch View.
struct along_launch {
  along_batch_axes ax;
  int axis, pack_axis, width;
  index_t outer_index;  // index of the first batch axis (launches per index), else 0

  template <class T, class View>
  device::axis_lines<T> lines(const View& v) const {
    if constexpr (View::rank == 1) {
      return {device::systems<T>{v.data(), 0, static_cast<index_t>(v.stride(0)), width, 0}};
    } else {
      const index_t pack = pack_axis >= 0 ? static_cast<index_t>(v.stride(pack_axis)) : 0;
      const index_t base =
          outer_index > 0 ? outer_index * static_cast<index_t>(v.stride(ax.outer[0])) : 0;
      return {device::systems<T>{v.data() + base, pack, static_cast<index_t>(v.stride(axis)),
                                 width, static_cast<index_t>(v.stride(ax.inner))}};
    }
  }
};

// The launches of a solve of the nsys >= 1 lines of d along `axis`: calls
// solve(launch, codes, lines) once, or once per index of the first batch axis where rank-4
// strides do not fold in d or in one of the coefficient arrays; codes is that launch's range of
// info, lines its number of lines.
template <class DView, class InfoView, class Solve, class... Coefficients>
void for_each_line_batch(int axis, const DView& d, const InfoView& info, index_t nsys,
                         const Solve& solve, const Coefficients&... coefficients) {
  constexpr int rank = static_cast<int>(DView::rank);
  const along_batch_axes ax = batch_axes_of(rank, axis);
  along_launch l{ax, axis, -1, static_cast<int>(extent_at(d, ax.inner)), 0};
  if (ax.nouter == 0) {
    solve(l, info, nsys);
  } else if (ax.nouter == 1) {
    l.pack_axis = ax.outer[0];
    solve(l, info, nsys);
  } else if ((outer_axes_fold(coefficients, d, ax) && ...) && outer_axes_fold(d, d, ax)) {
    // j = i0 * E1 + i1 steps by the second outer axis's stride (by the first's where E1 is 1).
    l.pack_axis = extent_at(d, ax.outer[1]) > 1 ? ax.outer[1] : ax.outer[0];
    solve(l, info, nsys);
  } else {
    const index_t outer = static_cast<index_t>(extent_at(d, ax.outer[0]));
    const index_t lines = nsys / outer;
    l.pack_axis = ax.outer[1];
    for (index_t i0 = 0; i0 < outer; ++i0) {
      l.outer_index = i0;
      solve(l, info_range(info, i0 * lines, lines), lines);
    }
  }
}

// dst = src (Add false) or dst += src (Add true) on `lines` lines of n rows, one launch on exec.
// A named function, not a lambda in the caller's lambda: nvcc's extended lambdas must be.
template <bool Add, class ExecutionSpace, class S, class D>
void along_copy_lines(const ExecutionSpace& exec, const char* label, const device::systems<S>& src,
                      const device::systems<D>& dst, index_t lines, index_t n) {
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      label, range(exec, 0, static_cast<typename range::member_type>(lines * n)),
      KOKKOS_LAMBDA(const index_t k) {
        const index_t s = k % lines, i = k / lines;  // neighbouring threads, neighbouring lines
        const S value = src.system(s)[i * src.row_stride];
        D& out = dst.system(s)[i * dst.row_stride];
        if constexpr (Add)
          out += value;
        else
          out = value;
      });
}

// What solve_along_add runs first on each launch's lines: add_in_kernel(launch, codes, lines)
// adds x into u in the family's own kernel and returns true, or returns false to add through a
// copy. along_add_through_copy always copies.
struct along_add_through_copy {
  template <class... Args>
  bool operator()(const Args&...) const {
    return false;
  }
};

struct along_device_add_tag {};

// solve_along_add on the device backend (nsys >= 1 lines of n >= 1 rows, arguments checked):
// each launch's lines go to add_in_kernel first; where it declines, d is only read, so its lines
// are copied into a column batch of scratch (line s at x[s + i nsys]), solve(launch, x, codes,
// lines) solves them there in place (x: device::axis_lines<D>), and they are added to u: 5 words
// per unknown besides the solve's (d read, x written; x and u read, u written), where a one-pass
// add costs 1. The scratch is a buffer of its own kept between calls (backend/scratch.hpp),
// taken at the first copy and held until the call's kernels are fenced (only calls that copy
// are fenced).
template <class ExecutionSpace, class DView, class UView, class InfoView, class Solve,
          class AddInKernel, class... Coefficients>
void along_device_add(const ExecutionSpace& exec, const char* function, int axis,
                      const DView& d, const UView& u, const InfoView& info, index_t nsys,
                      index_t n, const Solve& solve, const AddInKernel& add_in_kernel,
                      const Coefficients&... coefficients) {
  using D = typename DView::non_const_value_type;
  using memory_space = typename ExecutionSpace::memory_space;
  std::unique_lock<std::mutex> kept;  // holds the kept buffer until the fence
  // No View until a launch copies (an empty std::optional, not a default-constructed View).
  std::optional<Kokkos::View<char*, memory_space>> buffer;
  for_each_line_batch(
      axis, d, info, nsys,
      [&](const along_launch& l, const InfoView& codes, index_t lines) {
        if (add_in_kernel(l, codes, lines)) return;
        if (!buffer)
          buffer.emplace(scratch_buffer<memory_space, along_device_add_tag>(
              exec, function,
              scratch_total(function, static_cast<std::size_t>(nsys),
                            static_cast<std::size_t>(n) * sizeof(D), 0),
              kept));
        D* const x = reinterpret_cast<D*>(buffer->data());
        const device::systems<D> xs{x + l.outer_index * lines, 1, nsys, 1, 1};
        along_copy_lines<false>(exec, function, device::systems_of(l.lines<const D>(d)), xs,
                                lines, n);
        solve(l, device::axis_lines<D>{xs}, codes, lines);
        along_copy_lines<true>(exec, function,
                               device::systems<const D>{xs.data, 1, xs.row_stride, 1, 1},
                               device::systems_of(l.lines<D>(u)), lines, n);
      },
      coefficients..., u);
  if (buffer) exec.fence();  // the kept buffer is released on return
}

}  // namespace bandsolve::detail
