#pragma once
// How the device backend cuts a batch into work. Both shapes run a team per tile of
// tile_systems systems, one thread per system of the tile:
//  - per-system threads, where neighbouring systems are neighbours in memory (column,
//    interleaved<W>, strided with system stride 1): each thread reads its own system in place and
//    neighbouring threads read neighbouring addresses (coalesced);
//  - row tiles, where each system is contiguous (row layout, strided with row stride 1): blocks
//    of tile_rows_v rows of the tile's systems are loaded coalesced into padded team scratch and
//    written back the same way (tile_transpose.hpp); each thread sweeps its system from scratch.
// Intermediate rows (c' and d' of Thomas) live in per-tile "row scratch" laid out row-major over
// the tile's systems ([row][system], coalesced): team scratch level 0 when it fits beside the
// tiles, else level 1 or one allocation per call (launch.hpp, row_scratch_place).
#include <bandsolve/core/config.hpp>

#include <cstddef>

namespace bandsolve::detail::device {

// Systems per tile: one warp.
inline constexpr int tile_systems = 32;

// Tiles that cover `slots` systems, and the systems of tile t among them (tile_systems, fewer in
// the last tile).
KOKKOS_FORCEINLINE_FUNCTION constexpr index_t tile_count(index_t slots) {
  return (slots + tile_systems - 1) / tile_systems;
}
KOKKOS_FORCEINLINE_FUNCTION constexpr int systems_in_tile(index_t slots, index_t t) {
  return static_cast<int>(slots - t * tile_systems < tile_systems ? slots - t * tile_systems
                                                                  : tile_systems);
}

// Rows per block of a row tile: 64 bytes of each system (two 32-byte sectors) of the widest
// scalar loaded (coefficients C, right-hand sides D). A warp then moves four whole runs per
// access, and the tiles of one team stay near 10 KiB, so that many teams share a multiprocessor.
template <class C, class D = C>
inline constexpr int tile_rows_v =
    static_cast<int>(64 / (sizeof(C) > sizeof(D) ? sizeof(C) : sizeof(D)));

// Rows a thread holds in registers while it sweeps a chunk of its own: 128 bytes of each of a, b,
// c and d (16 doubles, 32 floats, 8 complex doubles), 64 to 128 registers per thread.
template <class C, class D = C>
inline constexpr int register_rows_v =
    static_cast<int>(128 / (sizeof(C) > sizeof(D) ? sizeof(C) : sizeof(D)));

// Elements each thread loads before it stores any, when it copies rows between memory and
// scratch: more loads in flight for narrow scalars.
template <class C, class D = C>
inline constexpr int loads_in_flight_v = sizeof(C) + sizeof(D) <= 16 ? 8 : 4;

// Leading dimension of a tile in scratch: one element of padding per system, so that the threads
// of a sweep (one system each, the same row) touch different banks.
template <class C, class D = C>
inline constexpr int tile_ld_v = tile_rows_v<C, D> + 1;

// Team scratch level 0 holds the tiles and, when the whole stays below device_level0_max, the
// row scratch too; level 1 holds row scratch up to device_row_scratch_max bytes per tile
// (Kokkos allows 20 MiB on CUDA); larger row scratch (very long systems) is allocated per call.
// Not yet tuned on a GPU. Variables so that tests can lower them to exercise each place.
inline constexpr std::size_t device_level0_max = 12 * 1024;
inline std::size_t device_row_scratch_max = std::size_t(16) << 20;
// Level 1 row scratch is a pool for every team that can run at once (about 8000 teams of 32 on
// a large GPU): above this many bytes in all, the call allocates one buffer for its own tiles
// instead when that is smaller.
inline std::size_t device_level1_pool_max = std::size_t(4) << 30;

// Per-system threads of the one-shot Thomas solve load system_rows_ahead rows before they
// eliminate them (more loads in flight per thread) while load_rows_ahead is set; a variable so
// that tests and benchmarks can compare both.
inline constexpr int system_rows_ahead = 8;
inline bool load_rows_ahead = true;

}  // namespace bandsolve::detail::device
