#pragma once
// How the host SIMD backend (Serial, OpenMP) cuts a batch into work items: how many systems run
// side by side as SIMD lanes of one item. The families ask these traits and never name a vector
// width themselves; the device backend answers the same questions in backend/device/work_shape.hpp.
#include <bandsolve/core/config.hpp>

namespace bandsolve::detail {

// Values of T in one 64-byte cache line (8 doubles, 16 floats, 4 complex doubles), at least 1:
// the lanes of a pack whose rows are read a cache line per system, and the rows of the tiles
// that gathered layouts transpose.
template <class T>
inline constexpr int cache_line_lanes_v = sizeof(T) >= 64 ? 1 : static_cast<int>(64 / sizeof(T));

// The lanes of one pack of the reduction families (PCR, CR, the Thomas-PCR hybrid): one cache line.
template <class T>
inline constexpr int vector_lanes_v = cache_line_lanes_v<T>;

}  // namespace bandsolve::detail
