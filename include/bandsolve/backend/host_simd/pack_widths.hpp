#pragma once
// Pack footprints of the host SIMD backend that the banded and block families ask for, beside the
// pack widths of work_shape.hpp: the families compute nothing from the size of a value themselves.

namespace bandsolve::detail {

// 64-byte cache lines spanned by one row of a pack of L values of T (what a prefetch of that row
// touches).
template <class T, int L>
inline constexpr int pack_lines_v = (L * static_cast<int>(sizeof(T)) + 63) / 64;

}  // namespace bandsolve::detail
