#pragma once
// Coalesced transfers between a tile of systems in global memory and padded team scratch:
// tile[k * ld + j] is row i0 + j of system s0 + k. Consecutive threads of the team take
// consecutive rows of one system, so where a system's rows are contiguous every warp reads or
// writes one run of memory; the sweeps then read the tile across systems (ld = rows + 1 keeps
// those reads on different banks). Valid in device code; on host spaces the same loops run on a
// team of one thread.
#include <bandsolve/backend/device/systems.hpp>

namespace bandsolve::detail::device {

// Rows [i0, i0 + nr) of systems [s0, s0 + ns) into the tile.
template <class Member, class T, class U>
KOKKOS_INLINE_FUNCTION void load_tile(const Member& team, const systems<T>& src, index_t s0,
                                      int ns, index_t i0, int nr, U* tile, int ld) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ns * nr), [&](const int e) {
    const int k = e / nr, j = e % nr;
    tile[k * ld + j] = src.system(s0 + k)[(i0 + j) * src.row_stride];
  });
}

// The tile back into rows [i0, i0 + nr) of systems [s0, s0 + ns).
template <class Member, class T, class U>
KOKKOS_INLINE_FUNCTION void store_tile(const Member& team, const U* tile, int ld,
                                       const systems<T>& dst, index_t s0, int ns, index_t i0,
                                       int nr) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ns * nr), [&](const int e) {
    const int k = e / nr, j = e % nr;
    dst.system(s0 + k)[(i0 + j) * dst.row_stride] = tile[k * ld + j];
  });
}

// Calls f(k) for the systems k in [0, ns) of a tile, one thread each.
template <class Member, class F>
KOKKOS_INLINE_FUNCTION void for_each_system_of_tile(const Member& team, int ns, const F& f) {
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, ns), f);
}

}  // namespace bandsolve::detail::device
