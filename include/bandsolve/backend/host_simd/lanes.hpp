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
#include <bandsolve/core/scalar_traits.hpp>

#include <type_traits>

namespace bandsolve::detail {

// The size of a local array that a lane loop (`omp simd`) reads and writes row after row, for
// `lanes` lanes. Clang promotes a local array of one vector's size (8 doubles, 8 ints) into a
// register, and then cannot vectorize the loop ("loop not vectorized" warnings, scalar code): one
// element more keeps it in memory, where the loop vectorizes. Other compilers get `lanes`.
KOKKOS_INLINE_FUNCTION constexpr std::size_t carried_lanes(int lanes) {
#if defined(__clang__)
  return static_cast<std::size_t>(lanes) + 1;
#else
  return static_cast<std::size_t>(lanes);
#endif
}

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
    simd::vec<T, L> r[static_cast<std::size_t>(L)];
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
    simd::vec<T, L> r[static_cast<std::size_t>(L)];
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
  index_t v[static_cast<std::size_t>(L)];
  KOKKOS_FORCEINLINE_FUNCTION lane_offsets(int nl, index_t system_stride) {
    for (int l = 0; l < L; ++l) v[l] = (l < nl ? l : nl - 1) * system_stride;
  }
};

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
// Whether gathered tiles of complex T (TR rows, one cache line per system) go through register
// transposes of their real parts (simd::load_transposed_complex): two real parts per value, and
// TR lanes of TR/2 values each per transpose.
template <class T, int TR>
inline constexpr bool complex_transposes_v =
    is_complex_v<T> && sizeof(T) == 2 * sizeof(real_type_t<T>) && TR >= 2 && (TR & (TR - 1)) == 0;
#endif

template <int TR, int L, class T>
struct gather_tile {
  T v[static_cast<std::size_t>(TR)][static_cast<std::size_t>(L)];  // v[row in tile][lane]

  // Rows i0 .. i0+rows-1 of the pack, transposed. Full tiles of unit-stride rows (row layout)
  // go through SIMD registers where the compiler allows it (complex values as their real
  // parts, complex_transposes_v); so does a shorter last tile of real values, in
  // blocks of TR/2 and TR/4 rows (at least 4: floats of 4 to 15 rows, doubles of 4 to 7), the
  // rows after them lane by lane (which left floats of 8 rows at a quarter of STREAM).
  template <class U>
  KOKKOS_FORCEINLINE_FUNCTION void load(gathered_lanes<U> src, const lane_offsets<L>& off,
                                        index_t i0, int rows) {
    const index_t si = src.row_stride;
    int first_row = 0;
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
    if constexpr (std::is_floating_point_v<T>) {
      if (si == 1) {
        if (rows == TR) {
          for (int g = 0; g < L / TR; ++g)
            simd::load_transposed<TR>(&v[0][g * TR], L, src.base + i0, off.v + g * TR);
          return;
        }
        load_blocks<TR / 2>(src.base + i0, off, rows, first_row);
      }
    }
    if constexpr (complex_transposes_v<T, TR>) {
      if (si == 1 && rows == TR) {
        using R = real_type_t<T>;
        for (int g = 0; g < L / TR; ++g)
          simd::load_transposed_complex<TR>(reinterpret_cast<R*>(&v[0][g * TR]), L,
                                            reinterpret_cast<const R*>(src.base + i0),
                                            off.v + g * TR);
        return;
      }
    }
#endif
    for (int l = 0; l < L; ++l) {
      const U* p = src.base + off.v[l] + i0 * si;
      for (int j = first_row; j < rows; ++j) v[j][l] = p[j * si];
    }
  }

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  // Rows first_row .. of a last tile of `rows` unit-stride rows from base, H at a time while H
  // of them are left, for H = H, H/2, .. down to 4; first_row moves past them.
  template <int H, class U>
  KOKKOS_FORCEINLINE_FUNCTION void load_blocks(const U* base, const lane_offsets<L>& off,
                                               int rows, int& first_row) {
    if constexpr (H >= 4) {
      if (rows - first_row >= H) {
        for (int g = 0; g < L / H; ++g)
          simd::load_transposed<H>(&v[first_row][g * H], L, base + first_row, off.v + g * H);
        first_row += H;
      }
      load_blocks<H / 2>(base, off, rows, first_row);
    }
  }
#endif
};

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
// Rows done .. of a last tile (n rows in all) of lanes [first, last) back to their systems, H
// rows at a time while H are left, for H = H, H/2, .. down to 4 (as gather_tile::load_blocks);
// done moves past them.
template <int H, int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void store_blocks(const T* rows_in, index_t n, T* base,
                                              const index_t* lane_offset, int first, int last,
                                              index_t& done) {
  if constexpr (H >= 4) {
    if (done + H <= n) {
      for (int h = first; h < last; h += H)
        simd::store_transposed<H>(rows_in + done * L + h, L, base + done, lane_offset + h);
      done += H;
    }
    store_blocks<H / 2, L>(rows_in, n, base, lane_offset, first, last, done);
  }
}
#endif

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
        store_blocks<TR / 2, L>(rows_in, n, dst.base, off.v, first, first + TR, done);
      }
    }
    if constexpr (complex_transposes_v<T, TR>) {
      if (si == 1 && first + TR <= nl) {
        using R = real_type_t<T>;
        for (; done + TR <= n; done += TR)
          simd::store_transposed_complex<TR>(
              reinterpret_cast<const R*>(rows_in + done * L + first), L,
              reinterpret_cast<R*>(dst.base + done), off.v + first);
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
