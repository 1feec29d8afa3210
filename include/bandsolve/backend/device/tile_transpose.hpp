#pragma once
// Coalesced transfers between a tile of systems in global memory and padded team scratch:
// tile[k * ld + j] is row i0 + j of system s0 + k. Consecutive threads of the team take
// consecutive rows of one system, so where a system's rows are contiguous every warp reads or
// writes one run of memory; the sweeps then read the tile across systems (ld = rows + 1 keeps
// those reads on different banks). Valid in device code; on host spaces the same loops run on a
// team of one thread.
#include <bandsolve/backend/device/systems.hpp>

namespace bandsolve::detail::device {

// Rows [i0, i0 + nr) of systems [s0, s0 + ns) into the tile. Each thread loads tile_loads_ahead
// elements before it stores the first, so that as many loads are in flight (a thread that stored
// each element as it came would wait for memory once per element).
inline constexpr int tile_loads_ahead = 8;

template <class Member, class T, class U>
KOKKOS_INLINE_FUNCTION void load_tile(const Member& team, const systems<T>& src, index_t s0,
                                      int ns, index_t i0, int nr, U* tile, int ld) {
  const int total = ns * nr, step = team.team_size();
  for (int e0 = team.team_rank(); e0 < total; e0 += tile_loads_ahead * step) {
    U v[tile_loads_ahead];
    for (int u = 0; u < tile_loads_ahead; ++u) {
      const int e = e0 + u * step;
      if (e < total) v[u] = src.system(s0 + e / nr)[(i0 + e % nr) * src.row_stride];
    }
    for (int u = 0; u < tile_loads_ahead; ++u) {
      const int e = e0 + u * step;
      if (e < total) tile[(e / nr) * ld + e % nr] = v[u];
    }
  }
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
