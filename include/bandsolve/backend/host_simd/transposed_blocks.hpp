#pragma once
// V blocks of rows of one array swept side by side, one block per SIMD lane, through V x V
// register transposes (simd_transpose.hpp): no strided loads or scatters, one contiguous load and
// one store per cache line of the array. The family passes its per-lane row steps in.
#include <bandsolve/backend/host_simd/simd_transpose.hpp>
#include <bandsolve/core/config.hpp>

namespace bandsolve::detail {

// Whether transposed_blocks_sweep takes register transposes for V blocks of s rows: where the
// compiler has them (not in device passes) and s is a multiple of V. Where it is false the
// callers sweep their blocks with strided lane loops instead.
template <int V>
KOKKOS_INLINE_FUNCTION constexpr bool transposed_blocks_fit(index_t s) {
  return BANDSOLVE_HAS_SIMD_TRANSPOSE && s % V == 0;
}

// V blocks of s rows (block l at base + l*s, s a multiple of V): forward(row) on each row in
// order, then backward(row) on each row in reverse order, row a pointer to that row's V lanes
// (one value of each block). The forward pass reads V rows of each block (one cache line per
// block), transposes them into V lane rows and keeps them in `work` (s V values,
// cache-resident); the backward pass transposes them back into the blocks. Without register
// transposes the same copies are done value by value (transposed_blocks_fit is then false, so
// callers do not come here). Always inlined, so that the caller's per-lane state (the carries of
// its recurrences) stays in registers across the rows.
template <int V, class T, class Forward, class Backward>
KOKKOS_FORCEINLINE_FUNCTION void transposed_blocks_sweep(T* base, index_t s, T* work,
                                                         const Forward& forward,
                                                         const Backward& backward) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  index_t offset[static_cast<std::size_t>(V)];
  for (int l = 0; l < V; ++l) offset[l] = l * s;
  for (index_t k0 = 0; k0 < s; k0 += V) {
    T* tile = work + k0 * V;
    simd::load_transposed<V>(tile, V, base + k0, offset);
    for (int j = 0; j < V; ++j) forward(tile + j * V);
  }
  for (index_t k0 = s - V; k0 >= 0; k0 -= V) {
    T* tile = work + k0 * V;
    for (int j = V - 1; j >= 0; --j) backward(tile + j * V);
    simd::store_transposed<V>(tile, V, base + k0, offset);
  }
#else
  for (index_t k0 = 0; k0 < s; k0 += V) {
    T* tile = work + k0 * V;
    for (int j = 0; j < V; ++j) {
      for (int l = 0; l < V; ++l) tile[j * V + l] = base[l * s + k0 + j];
      forward(tile + j * V);
    }
  }
  for (index_t k0 = s - V; k0 >= 0; k0 -= V) {
    T* tile = work + k0 * V;
    for (int j = V - 1; j >= 0; --j) {
      backward(tile + j * V);
      for (int l = 0; l < V; ++l) base[l * s + k0 + j] = tile[j * V + l];
    }
  }
#endif
}

// The same for V blocks of s complex rows seen as their 2s real parts (Kokkos::complex<R> is two
// R, real part first; 2s a multiple of V, V even): forward(re, im) on each row in order, re and
// im pointing to that row's V lanes' real and imaginary parts, then backward(re, im) in reverse
// order. The tiles hold the parts apart, so the lane loops multiply complex values as real
// vectors with no shuffles. Callers check transposed_blocks_fit<V>(2 s) first.
template <int V, class R, class Forward, class Backward>
KOKKOS_FORCEINLINE_FUNCTION void transposed_complex_blocks_sweep(R* base, index_t s, R* work,
                                                                 const Forward& forward,
                                                                 const Backward& backward) {
  static_assert(V % 2 == 0, "bandsolve: complex block sweeps need an even lane count");
  const index_t reals = 2 * s;
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  index_t offset[static_cast<std::size_t>(V)];
  for (int l = 0; l < V; ++l) offset[l] = l * reals;
  for (index_t k0 = 0; k0 < reals; k0 += V) {
    R* tile = work + k0 * V;
    simd::load_transposed<V>(tile, V, base + k0, offset);
    for (int j = 0; j < V; j += 2) forward(tile + j * V, tile + (j + 1) * V);
  }
  for (index_t k0 = reals - V; k0 >= 0; k0 -= V) {
    R* tile = work + k0 * V;
    for (int j = V - 2; j >= 0; j -= 2) backward(tile + j * V, tile + (j + 1) * V);
    simd::store_transposed<V>(tile, V, base + k0, offset);
  }
#else
  for (index_t k0 = 0; k0 < reals; k0 += V) {
    R* tile = work + k0 * V;
    for (int j = 0; j < V; ++j)
      for (int l = 0; l < V; ++l) tile[j * V + l] = base[l * reals + k0 + j];
    for (int j = 0; j < V; j += 2) forward(tile + j * V, tile + (j + 1) * V);
  }
  for (index_t k0 = reals - V; k0 >= 0; k0 -= V) {
    R* tile = work + k0 * V;
    for (int j = V - 2; j >= 0; j -= 2) backward(tile + j * V, tile + (j + 1) * V);
    for (int j = 0; j < V; ++j)
      for (int l = 0; l < V; ++l) base[l * reals + k0 + j] = tile[j * V + l];
  }
#endif
}

}  // namespace bandsolve::detail
