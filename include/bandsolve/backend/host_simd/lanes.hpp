#pragma once
// How the host SIMD backend reaches the rows of a work item of L systems (one SIMD lane each),
// whatever the layout:
//  - lane-contiguous packs (interleaved<W> packs, blocks of column-layout systems): a work item
//    holds G groups of W lanes, group g, row i, lane l at base + g*group_stride + i*stride + l.
//    One group per row step would leave a forward recurrence latency-bound; G independent groups
//    in the same row step keep the FPUs busy;
//  - gathered packs (row layout, general strides): lane l of row i at base + l*system_stride +
//    i*row_stride. Tiles of TR rows (one cache line of each system) by L lanes are transposed
//    into lane-contiguous rows. Lanes past nl re-read the last real system (finite values, never
//    stored), so every tile is full width.
// The families' per-lane arithmetic runs on the lane-contiguous rows either way.
#include <bandsolve/backend/host_simd/simd_transpose.hpp>
#include <bandsolve/core/config.hpp>

#include <type_traits>

namespace bandsolve::detail {

template <class T>
struct lane_rows {
  T* base;
  index_t stride;
  index_t group_stride = 0;
  KOKKOS_FORCEINLINE_FUNCTION T* row(index_t i, int g = 0) const {
    return base + g * group_stride + i * stride;
  }
};

template <class T>
struct lane_element {  // element i of lane l of group g
  lane_rows<const T> rows;
  int g, l;
  KOKKOS_FORCEINLINE_FUNCTION T operator()(index_t i) const { return rows.row(i, g)[l]; }
};

// The rows of one work item for thomas_solve_lanes_chain.
template <class C, class D>
struct lane_item {
  lane_rows<const C> a, b, c;
  lane_rows<D> d;
};

// Packs per chain of thomas_solve_lanes_chain: about 8 chains per thread, so that each chain's
// fill and drain (one lone sweep each) stay a small part of it and the threads still balance.
KOKKOS_INLINE_FUNCTION index_t chain_length(index_t npacks, int concurrency) {
  const index_t chains = 8 * static_cast<index_t>(concurrency > 0 ? concurrency : 1);
  const index_t length = (npacks + chains - 1) / chains;
  return length > 0 ? length : 1;
}

// Whether this build transposes tiles in SIMD registers (host GCC and Clang; never in a device
// compiler's passes). The verbs below serve every build; without register transposes they copy
// element by element.
inline constexpr bool register_transposes_v = BANDSOLVE_HAS_SIMD_TRANSPOSE != 0;

// tile[j*tile_stride + l] = base[lane_offset[l] + j] for j, l < L: L contiguous rows of L systems
// into L lane-contiguous rows (simd::load_transposed, which also prefetches the lanes' next tiles).
template <int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void load_rows_transposed(T* tile, index_t tile_stride, const T* base,
                                                      const index_t* lane_offset) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  if constexpr (std::is_floating_point_v<T>) {
    simd::load_transposed<L>(tile, tile_stride, base, lane_offset);
    return;
  }
#endif
  for (int j = 0; j < L; ++j)
    for (int l = 0; l < L; ++l) tile[j * tile_stride + l] = base[lane_offset[l] + j];
}

// base[lane_offset[l] + j] = rows[j*rows_stride + l] for j, l < L: the inverse of
// load_rows_transposed.
template <int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void store_rows_transposed(const T* rows, index_t rows_stride, T* base,
                                                       const index_t* lane_offset) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  if constexpr (std::is_floating_point_v<T>) {
    simd::store_transposed<L>(rows, rows_stride, base, lane_offset);
    return;
  }
#endif
  for (int j = 0; j < L; ++j)
    for (int l = 0; l < L; ++l) base[lane_offset[l] + j] = rows[j * rows_stride + l];
}

// out[j*L + l] = lane(l)[j] for j, l < L (lane(l): the first of L contiguous values of lane l),
// transposed in registers, no prefetch: for tiles staged once, outside a sweep.
template <int L, class T, class Lane>
KOKKOS_FORCEINLINE_FUNCTION void gather_block(const Lane& lane, T* out) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  if constexpr (std::is_floating_point_v<T>) {
    simd::vec<T, L> r[L];
    simd::load_transpose<L, T>(lane, r);
    for (int j = 0; j < L; ++j) simd::store<T, L>(out + j * L, r[j]);
    return;
  }
#endif
  for (int j = 0; j < L; ++j)
    for (int l = 0; l < L; ++l) out[j * L + l] = lane(l)[j];
}

// lane(l)[j] = in[j*L + l] for j, l < L: the inverse of gather_block.
template <int L, class T, class Lane>
KOKKOS_FORCEINLINE_FUNCTION void scatter_block(const T* in, const Lane& lane) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  if constexpr (std::is_floating_point_v<T>) {
    simd::vec<T, L> r[L];
    for (int j = 0; j < L; ++j) simd::load<T, L>(in + j * L, r[j]);
    simd::transpose<L>(r);
    for (int l = 0; l < L; ++l) simd::store<T, L>(lane(l), r[l]);
    return;
  }
#endif
  for (int j = 0; j < L; ++j)
    for (int l = 0; l < L; ++l) lane(l)[j] = in[j * L + l];
}

template <class T>
struct gathered_lanes {
  T* base;
  index_t system_stride, row_stride;
};

template <int L>
struct lane_offsets {
  index_t v[L];
  KOKKOS_FORCEINLINE_FUNCTION lane_offsets(int nl, index_t system_stride) {
    for (int l = 0; l < L; ++l) v[l] = (l < nl ? l : nl - 1) * system_stride;
  }
};

template <int TR, int L, class T>
struct gather_tile {
  T v[TR][L];  // v[row in tile][lane]

  // Rows i0 .. i0+rows-1 of the pack, transposed. Full tiles of unit-stride rows (row layout)
  // go through SIMD registers where the compiler allows it; so does the first half of a last
  // tile of at least TR/2 rows (floats of 8 to 15 rows, where lane by lane the one-shot solve
  // of 8-row systems read a quarter of STREAM), the rows after it lane by lane.
  template <class U>
  KOKKOS_FORCEINLINE_FUNCTION void load(gathered_lanes<U> src, const lane_offsets<L>& off,
                                        index_t i0, int rows) {
    const index_t si = src.row_stride;
    int first_row = 0;
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
    if constexpr (std::is_floating_point_v<T>) {
      if (rows == TR && si == 1) {
        for (int g = 0; g < L / TR; ++g)
          simd::load_transposed<TR>(&v[0][g * TR], L, src.base + i0, off.v + g * TR);
        return;
      }
      constexpr int H = TR / 2;
      if constexpr (H >= 4) {
        if (rows >= H && si == 1) {
          for (int g = 0; g < L / H; ++g)
            simd::load_transposed<H>(&v[0][g * H], L, src.base + i0, off.v + g * H);
          first_row = H;
        }
      }
    }
#endif
    for (int l = 0; l < L; ++l) {
      const U* p = src.base + off.v[l] + i0 * si;
      for (int j = first_row; j < rows; ++j) v[j][l] = p[j * si];
    }
  }
};

// Writes lane-contiguous rows (row i of the pack at rows_in + i*L) back to the nl real systems.
template <int TR, int L, class T>
KOKKOS_INLINE_FUNCTION void scatter_rows(const T* rows_in, index_t n, gathered_lanes<T> dst,
                                         const lane_offsets<L>& off, int nl) {
  const index_t si = dst.row_stride;
  for (int g = 0; g < L / TR; ++g) {
    const int first = g * TR;
    if (first >= nl) break;
    index_t done = 0;
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
    if constexpr (std::is_floating_point_v<T>) {
      if (si == 1 && first + TR <= nl) {
        for (; done + TR <= n; done += TR)
          simd::store_transposed<TR>(rows_in + done * L + first, L, dst.base + done,
                                     off.v + first);
        constexpr int H = TR / 2;  // the first half of a last tile of at least TR/2 rows
        if constexpr (H >= 4) {
          if (done + H <= n) {
            for (int h = first; h < first + TR; h += H)
              simd::store_transposed<H>(rows_in + done * L + h, L, dst.base + done, off.v + h);
            done += H;
          }
        }
      }
    }
#endif
    const int last = first + TR < nl ? first + TR : nl;
    for (int l = first; l < last; ++l) {
      T* p = dst.base + off.v[l];
      for (index_t i = done; i < n; ++i) p[i * si] = rows_in[i * L + l];
    }
  }
}

template <class T>
struct gathered_element {  // element i of lane l
  gathered_lanes<const T> v;
  int l;
  KOKKOS_FORCEINLINE_FUNCTION T operator()(index_t i) const {
    return v.base[l * v.system_stride + i * v.row_stride];
  }
};

KOKKOS_FORCEINLINE_FUNCTION int tile_rows(index_t n, index_t i0, int TR) {
  return static_cast<int>(n - i0 < TR ? n - i0 : TR);
}

}  // namespace bandsolve::detail
