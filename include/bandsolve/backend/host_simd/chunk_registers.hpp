#pragma once
// Whether and how a group of the hybrid's chunks takes the register-blocked sweeps: real chunks
// those of chunk_lanes.hpp, complex chunks those of chunk_lanes_complex.hpp. Callable from any
// kernel; builds without register transposes answer false and the generic sweeps run.
#include <bandsolve/backend/host_simd/chunk_lanes_complex.hpp>

#include <type_traits>

namespace bandsolve::detail {

// Whether a group of nl chunks of m rows may take the register-blocked sweeps: builds with
// register transposes, a full group of L lanes, m a multiple of L and at least 2L, rows
// contiguous (all four strides 1).
template <int L>
KOKKOS_INLINE_FUNCTION bool chunk_group_in_registers(int nl, index_t m, index_t stride_a,
                                                     index_t stride_b, index_t stride_c,
                                                     index_t stride_d) {
  return register_transposes_v && L > 1 && nl == L && m % L == 0 && m >= 2 * L &&
         stride_a == 1 && stride_b == 1 && stride_c == 1 && stride_d == 1;
}

// Pass 1 of the L chunks of g in registers (simd::group_reduced_rows, or its complex form);
// false when the build has no register transposes or a pivot may be bad (then the generic
// sweeps redo the group).
template <int L, class T>
KOKKOS_INLINE_FUNCTION bool chunk_reduced_rows_in_registers(index_t m, const chunk_group<T>& g,
                                                            bool zero_top_a,
                                                            const chunk_group<T>* ahead, T* ra,
                                                            T* rc, T* rd) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  if constexpr (std::is_floating_point_v<T>)
    return simd::group_reduced_rows<L>(m, g, zero_top_a, ahead, ra, rc, rd);
  else if constexpr (L > 1)  // a complex row needs two lanes' reals
    return simd::complex_group_reduced_rows<L>(m, g, zero_top_a, ahead, ra, rc, rd);
#endif
  (void)m, (void)g, (void)zero_top_a, (void)ahead, (void)ra, (void)rc, (void)rd;
  return false;
}

// Pass 2 of the L chunks of g in registers (simd::group_solve_interior, or its complex form);
// false, x untouched, when the build has no register transposes or a pivot may be bad.
template <int L, class T>
KOKKOS_INLINE_FUNCTION bool chunk_interior_in_registers(index_t m, const chunk_group<T>& g,
                                                        const chunk_group<T>* ahead, const T* x0,
                                                        const T* xl, T* tc, T* td, T* x) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE
  if constexpr (std::is_floating_point_v<T>)
    return simd::group_solve_interior<L>(m, g, ahead, x0, xl, tc, td, x);
  else if constexpr (L > 1)
    return simd::complex_group_solve_interior<L>(m, g, ahead, x0, xl, tc, td, x);
#endif
  (void)m, (void)g, (void)ahead, (void)x0, (void)xl, (void)tc, (void)td, (void)x;
  return false;
}

}  // namespace bandsolve::detail
