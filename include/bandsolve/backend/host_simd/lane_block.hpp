#pragma once
// A block of L consecutive systems of a batch, seen as L SIMD lanes, in any layout: the access
// path of the pivoting and periodic tridiagonal kernels.
//
// Lane l of row i lives at base + off[l] + i*row_stride. Where WG consecutive lanes are also
// consecutive in memory (an interleaved pack, a block of a column-layout batch, a strided View
// with unit system stride), rows are copied as runs of WG values that vectorize; otherwise (row
// layout, general strides) each lane is gathered on its own. Lanes past the last allocated system
// of the batch re-read that system (finite values, results never stored).
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/layout_of.hpp>

#include <type_traits>

namespace bandsolve::detail {

// Systems per work item: about 128 bytes of each row (16 doubles, 8 complex doubles) so that a few
// independent recurrences run side by side; interleaved<W> items hold whole packs.
template <class T>
inline constexpr int lane_block_width_v = two_line_lanes_v<T>;

template <class Layout, class T>
struct lane_packing {  // row, column, strided: one run of L lanes when contiguous
  static constexpr int L = lane_block_width_v<T>, WG = L;
};
template <int W, class T>
struct lane_packing<layout::interleaved<W>, T> {  // G whole packs of W lanes
  static constexpr int G = lane_block_width_v<T> / W < 1 ? 1 : lane_block_width_v<T> / W;
  static constexpr int WG = W, L = G * W;
};

// One system per work item: one-shot batches (row, column, strided) of fewer systems than a
// lane_packing holds take it, so their scratch is that of the systems solved, not of a pack.
struct one_lane_packing {
  static constexpr int L = 1, WG = 1;
};

// Calls f(P{}) with the packing a one-shot solve of nsys systems uses: lane_packing, or
// one_lane_packing for fewer systems than it holds (interleaved storage is pack-wide already).
template <class Layout, class T, class F>
void with_lane_packing(index_t nsys, const F& f) {
  using P = lane_packing<Layout, T>;
  if constexpr (!std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::column> &&
                !std::is_same_v<Layout, layout::strided>) {
    f(P{});
  } else {
    if (nsys < P::L)
      f(one_lane_packing{});
    else
      f(P{});
  }
}

// Rows at least this far apart are requested ahead by lane_block::prefetch.
inline constexpr index_t far_rows_bytes = 4096;

template <class T, int L, int WG>
struct lane_block {
  static_assert(L % WG == 0, "bandsolve lane_block: L must be a multiple of WG");
  using value_type = T;
  static constexpr int width = L;
  T* base = nullptr;
  index_t row_stride = 0;
  int allocated = 0;  // lanes with a system slot of their own (padding lanes of packs included)
  bool contiguous = false;
  index_t off[static_cast<std::size_t>(L)] = {};

  // Systems first .. first+L-1 of v; `allocated` of them have storage.
  template <class View>
  KOKKOS_INLINE_FUNCTION lane_block(const View& v, index_t first, int allocated_lanes)
      : base(v.data()), allocated(allocated_lanes) {
    row_stride = static_cast<index_t>(v.stride(1));
    const index_t ss = static_cast<index_t>(v.stride(0));
    for (int l = 0; l < L; ++l) {
      const index_t s = first + (l < allocated ? l : allocated - 1);
      if constexpr (View::rank == 3)
        off[l] = (s / WG) * ss + (s % WG) * static_cast<index_t>(v.stride(2));
      else
        off[l] = s * ss;
    }
    if constexpr (View::rank == 3)
      contiguous = allocated == L && v.stride(2) == 1;
    else
      contiguous = allocated == L && ss == 1;
  }

  // `lanes` lines of an N-D array along an axis (solve_along): lane l starts at
  // first + l * lane_stride, lanes past the last line re-read it; lane_stride 0 gives every lane
  // the same line (coefficients shared by every line).
  KOKKOS_INLINE_FUNCTION lane_block(T* first, index_t lane_stride, index_t rows_apart, int lanes)
      : base(first), row_stride(rows_apart), allocated(lanes) {
    for (int l = 0; l < L; ++l) off[l] = (l < lanes ? l : lanes - 1) * lane_stride;
    contiguous = lanes == L && lane_stride == 1;
  }

  // Requests row i into the caches ahead of its load, where each row is one run per group on
  // pages far apart (column-like blocks: lines along a non-unit-stride axis, column batches),
  // which the hardware prefetchers do not follow; interleaved packs and gathered lanes stream.
  KOKKOS_FORCEINLINE_FUNCTION void prefetch(index_t i) const {
    if (!contiguous || row_stride * static_cast<index_t>(sizeof(T)) < far_rows_bytes) return;
    for (int g = 0; g < L / WG; ++g) {
      const char* p = reinterpret_cast<const char*>(base + off[g * WG] + i * row_stride);
      for (index_t k = 0; k < static_cast<index_t>(WG * sizeof(T)); k += 64)
        BANDSOLVE_PREFETCH(p + k);
    }
  }

  template <class U>
  KOKKOS_FORCEINLINE_FUNCTION void load(index_t i, U* out) const {
    const index_t r = i * row_stride;
    if (contiguous) {
      for (int g = 0; g < L / WG; ++g) {
        const T* p = base + off[g * WG] + r;
        U* o = out + g * WG;
        BANDSOLVE_SIMD
        for (int w = 0; w < WG; ++w) o[w] = p[w];
      }
    } else {
      for (int l = 0; l < L; ++l) out[l] = base[off[l] + r];
    }
  }

  template <class U>
  KOKKOS_FORCEINLINE_FUNCTION void store(index_t i, const U* in) const {
    const index_t r = i * row_stride;
    if (contiguous) {
      for (int g = 0; g < L / WG; ++g) {
        T* p = base + off[g * WG] + r;
        const U* s = in + g * WG;
        BANDSOLVE_SIMD
        for (int w = 0; w < WG; ++w) p[w] = s[w];
      }
    } else {
      for (int l = 0; l < allocated; ++l) base[off[l] + r] = in[l];
    }
  }
};

// The lanes of a kernel's right-hand sides read from d and its solution added into u (the
// solve_along_add of the lane kernels): load reads d's row, store adds into u's row. Valid for
// kernels that load every row of d before they store any row of x (periodic and partial
// pivoting: the forward sweep reads d, the closing or back substitution writes x), so that d
// is only read and u is read and written once, in one pass.
template <class D, int L, int WG, int WU>
struct lane_add_block {
  using value_type = D;
  static constexpr int width = L;
  lane_block<const D, L, WG> d;
  lane_block<D, L, WU> u;

  KOKKOS_FORCEINLINE_FUNCTION void prefetch(index_t i) const {
    d.prefetch(i);
    u.prefetch(i);
  }
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION void load(index_t i, V* out) const {
    d.load(i, out);
  }
  template <class V>
  KOKKOS_FORCEINLINE_FUNCTION void store(index_t i, const V* in) const {
    D row[static_cast<std::size_t>(L)];
    u.load(i, row);
    BANDSOLVE_SIMD
    for (int l = 0; l < L; ++l) row[l] += in[l];
    u.store(i, row);
  }
};

// Rows ahead of the row being loaded that the one-shot kernels request (lane_block::prefetch).
#ifndef BANDSOLVE_LANE_ROWS_AHEAD
#define BANDSOLVE_LANE_ROWS_AHEAD 1
#endif
inline constexpr index_t rows_ahead_of_loads = BANDSOLVE_LANE_ROWS_AHEAD;

// Row i of every block requested ahead of its load.
template <class... Blocks>
KOKKOS_FORCEINLINE_FUNCTION void prefetch_rows(index_t i, const Blocks&... blocks) {
  (blocks.prefetch(i), ...);
}

// The lane blocks of one View for work item p: systems p*L .. p*L+L-1 out of `slots` allocated.
template <class Packing, class T, class View>
KOKKOS_INLINE_FUNCTION lane_block<T, Packing::L, Packing::WG> block_of(const View& v, index_t p,
                                                                        index_t slots) {
  const index_t first = p * Packing::L;
  const index_t left = slots - first;
  const int allocated = static_cast<int>(left < Packing::L ? left : Packing::L);
  return lane_block<T, Packing::L, Packing::WG>(v, first, allocated);
}

}  // namespace bandsolve::detail
