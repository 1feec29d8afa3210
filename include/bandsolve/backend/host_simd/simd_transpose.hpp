#pragma once
// In-register L x L transposes for CPU backends: move tiles of row-layout data (one cache line
// per system) into SIMD lanes (one system per lane) and back, as in the register-blocked Thomas
// of docs/algorithms.md ("Register-blocked sweeps for the row layout"). Uses the GCC/Clang vector
// extension; BANDSOLVE_HAS_SIMD_TRANSPOSE is 0 where it is not available (device passes, other
// compilers) and callers fall back to scalar copies.
#include <bandsolve/core/config.hpp>

#include <cstring>
#include <type_traits>
#include <utility>

#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector) && !defined(__CUDACC__) && !defined(__HIPCC__) && \
    !defined(__SYCL_DEVICE_ONLY__)
#define BANDSOLVE_HAS_SIMD_TRANSPOSE 1
#endif
#endif
#ifndef BANDSOLVE_HAS_SIMD_TRANSPOSE
#define BANDSOLVE_HAS_SIMD_TRANSPOSE 0
#endif

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
// The helpers that hold a tile in vector registers are always inlined in optimized builds: out of
// line, a tile goes through memory at every call. GCC 12 left transpose_stage out of line in a
// large translation unit (the MPI benchmark), where the factored register sweeps of row doubles
// ran 2.2-2.3x slower than with it inlined. Unoptimized builds keep plain inline: nothing is
// inlined for speed there.
#ifdef __OPTIMIZE__
#define BANDSOLVE_SIMD_INLINE __attribute__((always_inline)) inline
#else
#define BANDSOLVE_SIMD_INLINE inline
#endif

namespace bandsolve::detail::simd {

template <class T, int L>
struct vector_of {
  typedef T type __attribute__((vector_size(L * sizeof(T))));
};
template <class T, int L>
using vec = typename vector_of<T, L>::type;
template <class V>
using vec_half = typename vector_of<std::remove_reference_t<decltype(V{}[0])>,
                                    static_cast<int>(sizeof(V) / sizeof(V{}[0]) / 2)>::type;

// Stage of the recursive transpose with blocks of B: interleave blocks of rows r and r+B.
template <int L, int B, bool Upper>
constexpr int stage_index(int e) {
  const int pair = e / (2 * B), offset = e % (2 * B);
  const int base = pair * 2 * B + (Upper ? B : 0);
  return offset < B ? base + offset : L + base + offset - B;
}

// Vectors go by reference everywhere: by value, GCC warns (-Wpsabi) where AVX-512 is off.
template <int L, int B, bool Upper, class V, int... E>
BANDSOLVE_SIMD_INLINE void stage(const V& x, const V& y, V& out, std::integer_sequence<int, E...>) {
  out = __builtin_shufflevector(x, y, stage_index<L, B, Upper>(E)...);
}

// Stages B, 2B, ... up to (not including) End.
template <int L, int B, int End = L, class V>
BANDSOLVE_SIMD_INLINE void transpose_stage(V* r) {
  if constexpr (B < End) {
    using seq = std::make_integer_sequence<int, L>;
    V out[static_cast<std::size_t>(L)];
    for (int g = 0; g < L; g += 2 * B)
      for (int i = g; i < g + B; ++i) {
        stage<L, B, false>(r[i], r[i + B], out[i], seq{});
        stage<L, B, true>(r[i], r[i + B], out[i + B], seq{});
      }
    for (int i = 0; i < L; ++i) r[i] = out[i];
    transpose_stage<L, 2 * B, End>(r);
  }
}

// r[i][j] <- r[j][i] for an L x L tile held as L vectors (L a power of two).
template <int L, class V>
BANDSOLVE_SIMD_INLINE void transpose(V* r) {
  static_assert((L & (L - 1)) == 0, "bandsolve: SIMD transposes need a power-of-two width");
  transpose_stage<L, 1>(r);
}

template <class T, int L>
BANDSOLVE_SIMD_INLINE void load(const T* p, vec<T, L>& v) {
  std::memcpy(&v, p, sizeof v);
}
template <class T, int L>
BANDSOLVE_SIMD_INLINE void store(T* p, const vec<T, L>& v) {
  std::memcpy(p, &v, sizeof v);
}

template <int L, class V, int... E>
BANDSOLVE_SIMD_INLINE void join_halves(const vec_half<V>& lo, const vec_half<V>& hi, V& out,
                                       std::integer_sequence<int, E...>) {
  out = __builtin_shufflevector(lo, hi, E...);
}

// r[j][l] = lane(l)[j] for j, l < L: L contiguous values of each of L lanes (lane(l) points at
// lane l's) become L vectors of one value per lane. The transpose's last stage (the halves of
// vectors l and l + L/2) is done by the loads, each vector joining the same half of two lanes'
// values: 2 L half-width loads and joins in place of L loads and L cross-lane shuffles. In
// cache, 8 x 8 doubles, the row layout's gathered forward sweep (four arrays' tiles): 22-27
// against 26-30 cycles per row.
template <int L, class T, class Lane>
BANDSOLVE_SIMD_INLINE void load_transpose(const Lane& lane, vec<T, L>* r) {
  if constexpr (L >= 4) {
    using H = vec<T, L / 2>;
    for (int l = 0; l < L / 2; ++l) {
      const T* x = lane(l);
      const T* y = lane(l + L / 2);
      H x0, x1, y0, y1;
      std::memcpy(&x0, x, sizeof x0);
      std::memcpy(&x1, x + L / 2, sizeof x1);
      std::memcpy(&y0, y, sizeof y0);
      std::memcpy(&y1, y + L / 2, sizeof y1);
      join_halves<L>(x0, y0, r[l], std::make_integer_sequence<int, L>{});
      join_halves<L>(x1, y1, r[l + L / 2], std::make_integer_sequence<int, L>{});
    }
    transpose_stage<L, 1, L / 2>(r);
  } else {
    for (int l = 0; l < L; ++l) load<T, L>(lane(l), r[l]);
    transpose<L>(r);
  }
}

// How many tiles ahead load_transposed prefetches: L systems are L separate streams, more than
// the hardware prefetchers follow well.
#ifndef BANDSOLVE_PREFETCH_TILES
#define BANDSOLVE_PREFETCH_TILES 4
#endif

// tile[j*tile_stride + l] = src_l[j], src_l = base + lane_offset[l]: L contiguous values of each
// of L systems become L rows of L lanes.
//
// Not inlined: inlined into a sweep that loads the tiles of four arrays, the one-shot row solve
// measured slower (GCC 12; probably vector-register pressure from the interleaved tiles). Out of
// line: 0.85-0.87 against 1.15 ns per unknown (double, 8 systems per item), 0.49 against 0.55
// (float, 64 systems).
template <int L, class T>
__attribute__((noinline)) void load_transposed(T* tile, index_t tile_stride, const T* base,
                                               const index_t* lane_offset) {
  vec<T, L> r[static_cast<std::size_t>(L)];
  load_transpose<L, T>([&](int l) { return base + lane_offset[l]; }, r);
#if BANDSOLVE_PREFETCH_TILES > 0
  for (int l = 0; l < L; ++l)
    __builtin_prefetch(base + lane_offset[l] + BANDSOLVE_PREFETCH_TILES * L);
#endif
  for (int j = 0; j < L; ++j) store<T, L>(tile + j * tile_stride, r[j]);
}

// dst_l[j] = rows[j*rows_stride + l] for the L lanes: the inverse of load_transposed.
template <int L, class T>
inline void store_transposed(const T* rows, index_t rows_stride, T* base,
                             const index_t* lane_offset) {
  vec<T, L> r[static_cast<std::size_t>(L)];
  for (int j = 0; j < L; ++j) load<T, L>(rows + j * rows_stride, r[j]);
  transpose<L>(r);
  for (int l = 0; l < L; ++l) store<T, L>(base + lane_offset[l], r[l]);
}

// Complex values as their two real parts (real part first): element e of `lo` and `hi` is the
// e/2-th real (e even) or imaginary (e odd) part of the first and second halves of the lanes.
template <int L, class V, int... E>
BANDSOLVE_SIMD_INLINE void zip_parts(const V& re, const V& im, V& lo, V& hi,
                                     std::integer_sequence<int, E...>) {
  lo = __builtin_shufflevector(re, im, (E % 2 == 0 ? E / 2 : L + E / 2)...);
  hi = __builtin_shufflevector(re, im, (E % 2 == 0 ? L / 2 + E / 2 : L + L / 2 + E / 2)...);
}
template <int L, class V, int... E>
BANDSOLVE_SIMD_INLINE void unzip_parts(const V& lo, const V& hi, V& re, V& im,
                                       std::integer_sequence<int, E...>) {
  re = __builtin_shufflevector(lo, hi, (2 * E)...);
  im = __builtin_shufflevector(lo, hi, (2 * E + 1)...);
}

// load_transposed for complex values seen as reals R: tile row j (L complex lanes, 2 L reals at
// tile + 2 j tile_stride) receives value j of each lane l (lane l's L complex values at
// base + 2 lane_offset[l]; offsets and tile_stride count complex values). Two L x L transposes
// of reals, each giving L/2 rows as real and imaginary parts, which are zipped back into values.
template <int L, class R>
__attribute__((noinline)) void load_transposed_complex(R* tile, index_t tile_stride,
                                                       const R* base,
                                                       const index_t* lane_offset) {
  using V = vec<R, L>;
  constexpr int H = L / 2;
  for (int h = 0; h < 2; ++h) {
    V r[static_cast<std::size_t>(L)];
    load_transpose<L, R>([&](int l) { return base + 2 * (lane_offset[l] + h * H); }, r);
    for (int j = 0; j < H; ++j) {
      V lo, hi;
      zip_parts<L>(r[2 * j], r[2 * j + 1], lo, hi, std::make_integer_sequence<int, L>{});
      R* const row = tile + 2 * (h * H + j) * tile_stride;
      store<R, L>(row, lo);
      store<R, L>(row + L, hi);
    }
  }
#if BANDSOLVE_PREFETCH_TILES > 0
  for (int l = 0; l < L; ++l)
    __builtin_prefetch(base + 2 * (lane_offset[l] + BANDSOLVE_PREFETCH_TILES * L));
#endif
}

// The inverse of load_transposed_complex: value j of lane l from row j of `rows`.
template <int L, class R>
inline void store_transposed_complex(const R* rows, index_t rows_stride, R* base,
                                     const index_t* lane_offset) {
  using V = vec<R, L>;
  constexpr int H = L / 2;
  for (int h = 0; h < 2; ++h) {
    V r[static_cast<std::size_t>(L)];
    for (int j = 0; j < H; ++j) {
      const R* const row = rows + 2 * (h * H + j) * rows_stride;
      V lo, hi;
      load<R, L>(row, lo);
      load<R, L>(row + L, hi);
      unzip_parts<L>(lo, hi, r[2 * j], r[2 * j + 1], std::make_integer_sequence<int, L>{});
    }
    transpose<L>(r);
    for (int l = 0; l < L; ++l) store<R, L>(base + 2 * (lane_offset[l] + h * H), r[l]);
  }
}

}  // namespace bandsolve::detail::simd
#endif
