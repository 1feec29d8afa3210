#pragma once
// Lane-wise access to a batch for solvers whose coefficients are shared (only the right-hand side
// is read): work item p holds `lanes` systems, element (l, i) of its lane l at p[i*si + l*sl].
// Interleaved packs are one work item each; row, column and strided batches are cut into items
// of `Lanes` systems.
#include <bandsolve/backend/host_simd/simd_transpose.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/layout_of.hpp>

#include <type_traits>

namespace bandsolve::detail {

template <class T>
struct strided_lanes {
  T* p;
  index_t si, sl;
  KOKKOS_INLINE_FUNCTION T& operator()(int l, index_t i) const { return p[i * si + l * sl]; }
};

// The same with lanes side by side (column, interleaved, strided with system stride 1): the lane
// stride is known at compile time, so loops across lanes vectorize with plain loads and stores.
template <class T>
struct unit_lanes {
  T* p;
  index_t si;
  KOKKOS_INLINE_FUNCTION T& operator()(int l, index_t i) const { return p[i * si + l]; }
};

// Calls body(block) with a unit_lanes where the lanes are side by side, else with x itself.
template <class T, class Body>
KOKKOS_INLINE_FUNCTION void with_lane_block(const strided_lanes<T>& x, const Body& body) {
  if (x.sl == 1) body(unit_lanes<T>{x.p, x.si});
  else body(x);
}

#if BANDSOLVE_HAS_SIMD_TRANSPOSE
// For L systems with contiguous rows (x.si == 1, n a multiple of L): copies them into `work`
// (n L values) lane by lane with L x L register transposes, calls body on that copy, and copies
// the result back.
template <int L, class T, class Body>
inline void transposed_sweep(const strided_lanes<T>& x, index_t n, T* work, const Body& body) {
  index_t offset[static_cast<std::size_t>(L)];
  for (int l = 0; l < L; ++l) offset[l] = l * x.sl;
  for (index_t i0 = 0; i0 < n; i0 += L) simd::load_transposed<L>(work + i0 * L, L, x.p + i0, offset);
  body(unit_lanes<T>{work, L});
  for (index_t i0 = 0; i0 < n; i0 += L) simd::store_transposed<L>(work + i0 * L, L, x.p + i0, offset);
}

// The same for L systems of complex rows (x.si == 1, 2n a multiple of L), seen as their 2n real
// parts (Kokkos::complex<R> is two R, real part first): `work` (2 n L values of R) receives row
// i's real parts of the L lanes at work + 2 i L and its imaginary parts at work + (2 i + 1) L;
// body(work) runs on that copy, which is then copied back.
template <int L, class C, class R, class Body>
inline void transposed_parts_sweep(const strided_lanes<C>& x, index_t n, R* work,
                                   const Body& body) {
  static_assert(sizeof(C) == 2 * sizeof(R), "bandsolve: complex rows are two real parts");
  R* const base = reinterpret_cast<R*>(x.p);
  index_t offset[static_cast<std::size_t>(L)];
  for (int l = 0; l < L; ++l) offset[l] = 2 * l * x.sl;
  for (index_t k0 = 0; k0 < 2 * n; k0 += L)
    simd::load_transposed<L>(work + k0 * L, L, base + k0, offset);
  body(work);
  for (index_t k0 = 0; k0 < 2 * n; k0 += L)
    simd::store_transposed<L>(work + k0 * L, L, base + k0, offset);
}
#endif

template <class Layout>
inline constexpr bool is_pack_layout_v =
    !std::is_same_v<Layout, layout::row> && !std::is_same_v<Layout, layout::column> &&
    !std::is_same_v<Layout, layout::strided> && !std::is_same_v<Layout, unsupported_layout>;

// Whether work items of Layout may sweep a transposed copy (transposed_sweep): where the compiler
// has register transposes (not in device passes), for batches outside interleaved packs.
template <class Layout>
inline constexpr bool transposable_lanes_v =
    BANDSOLVE_HAS_SIMD_TRANSPOSE && !is_pack_layout_v<Layout>;

// Calls body on the L lanes of x: on a lane-contiguous copy in `work` (n L values), filled and
// emptied by register transposes (transposed_sweep), where Transposable and `whole` (rows
// contiguous, x.si == 1, n a multiple of L, all L lanes real systems); else on x itself
// (with_lane_block).
template <int L, bool Transposable, class T, class Body>
KOKKOS_FORCEINLINE_FUNCTION void sweep_lanes(const strided_lanes<T>& x, index_t n, bool whole,
                                             T* work, const Body& body) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  if constexpr (Transposable) {
    if (whole) {
      transposed_sweep<L>(x, n, work, body);
      return;
    }
  }
#endif
  (void)n;
  (void)whole;
  (void)work;
  with_lane_block(x, body);
}

// Systems per work item: the pack width for interleaved batches, Lanes otherwise.
template <class Layout, int Lanes>
constexpr int item_lanes() {
  if constexpr (is_pack_layout_v<Layout>) return Layout::width;
  else return Lanes;
}

template <class Layout, int Lanes, class View>
KOKKOS_INLINE_FUNCTION strided_lanes<typename View::value_type> lanes_of(const View& v, index_t item) {
  const index_t s0 = static_cast<index_t>(v.stride(0)), s1 = static_cast<index_t>(v.stride(1));
  if constexpr (is_pack_layout_v<Layout>)
    return {v.data() + item * s0, s1, 1};
  else
    return {v.data() + item * Lanes * s0, s1, s0};
}

// Work items of a batch of nsys systems.
template <class Layout, int Lanes>
index_t work_items(index_t nsys) {
  constexpr int L = item_lanes<Layout, Lanes>();
  return (nsys + L - 1) / L;
}

}  // namespace bandsolve::detail
