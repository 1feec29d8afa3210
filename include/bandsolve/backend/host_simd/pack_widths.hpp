#pragma once
// Pack widths and pack footprints of the host SIMD backend that the block, banded and Toeplitz
// families ask for, beside the cache-line lanes of work_shape.hpp: the families name no vector
// width and compute no width from the size of a value themselves.
#include <bandsolve/backend/host_simd/work_shape.hpp>

namespace bandsolve::detail {

// Lanes of a pack whose coefficients every system shares (only the right-hand sides stream
// through memory): two cache lines of values per row (16 doubles, 32 floats, 8 complex doubles).
template <class T>
inline constexpr int shared_coefficient_lanes_v = 2 * cache_line_lanes_v<T>;

// 64-byte cache lines spanned by one row of a pack of L values of T (what a prefetch of that row
// touches).
template <class T, int L>
inline constexpr int pack_lines_v = (L * static_cast<int>(sizeof(T)) + 63) / 64;

}  // namespace bandsolve::detail
