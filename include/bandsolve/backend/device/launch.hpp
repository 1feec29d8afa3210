#pragma once
// The device backend's launch verb: one team per tile of tile_systems systems (work_shape.hpp),
// with team scratch for the tiles (level 0) and row scratch per tile (level 0, level 1 or one
// allocation per call, by size). On CUDA a team is tile_systems threads; on host execution
// spaces (tests of the device path) a team is one thread and the same code runs the tile's
// systems one after the other. Enqueued on exec, never fenced.
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/core/view_extents.hpp>

#include <cstdint>
#include <type_traits>

namespace bandsolve::detail::device {

// Whether host spaces other than Kokkos::Serial run the device kernels in a GPU's teams: tests
// that define BANDSOLVE_DEVICE_TEAMS_ON_HOST (for a whole program) do, so that team barriers,
// shared scratch and each thread's share of a tile are exercised without a GPU; the space then
// needs at least tile_systems threads.
#if defined(BANDSOLVE_DEVICE_TEAMS_ON_HOST)
inline constexpr bool gpu_teams_on_host = true;
#else
inline constexpr bool gpu_teams_on_host = false;
#endif

template <class ExecutionSpace>
constexpr bool is_serial_space() {
#if defined(KOKKOS_ENABLE_SERIAL)
  return std::is_same_v<ExecutionSpace, Kokkos::Serial>;
#else
  return false;
#endif
}

// Threads per team: one per system of a tile on a device; one on host spaces, a thread that
// stands in for a GPU team's (Kokkos::Serial allows no more), but with gpu_teams_on_host.
template <class ExecutionSpace>
constexpr int team_threads() {
  if constexpr (!std::is_same_v<typename ExecutionSpace::memory_space, Kokkos::HostSpace>)
    return tile_systems;
  else
    return gpu_teams_on_host && !is_serial_space<ExecutionSpace>() ? tile_systems : 1;
}

// Whether a team of ExecutionSpace is one thread that runs every thread's share in turn.
template <class ExecutionSpace>
constexpr bool one_thread_teams() {
  return team_threads<ExecutionSpace>() == 1;
}

// Threads a team of ExecutionSpace may have: a device's limit is left to Kokkos; host spaces
// running a GPU's teams (gpu_teams_on_host) take tile_systems.
template <class ExecutionSpace>
constexpr int team_threads_max() {
  if constexpr (std::is_same_v<typename ExecutionSpace::memory_space, Kokkos::HostSpace>)
    return team_threads<ExecutionSpace>();
  else
    return 1 << 30;
}

inline constexpr std::size_t scratch_alignment = 64;

KOKKOS_FORCEINLINE_FUNCTION char* align_up(char* p) {
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(p) % scratch_alignment;
  return p + (misalignment ? scratch_alignment - misalignment : 0);
}

inline std::size_t round_up(std::size_t bytes) {
  return (bytes + scratch_alignment - 1) / scratch_alignment * scratch_alignment;
}

// Where row scratch of `row_bytes` per tile goes beside `tile_bytes` of tiles, for ntiles tiles
// of which `concurrent` can run at once: 0 (level 0), 1 (level 1) or 2 (one buffer per call, a
// slice per tile). Kokkos holds level 1 for every team that can run at once (on CUDA,
// concurrency / team size of them), whatever the number of tiles: it is taken while that pool
// stays within device_level1_pool_max or within what the per-call buffer would hold.
inline int row_scratch_place(std::size_t tile_bytes, std::size_t row_bytes, index_t ntiles,
                             index_t concurrent) {
  if (round_up(tile_bytes) + row_bytes + scratch_alignment <= device_level0_max) return 0;
  if (row_bytes > device_row_scratch_max) return 2;
  const std::size_t slice = row_bytes + scratch_alignment;
  const std::size_t teams = static_cast<std::size_t>(concurrent > 0 ? concurrent : 1);
  const std::size_t tiles = static_cast<std::size_t>(ntiles > 0 ? ntiles : 1);
  if (teams > static_cast<std::size_t>(-1) / slice) return 2;
  const std::size_t pool = teams * slice;
  return pool <= device_level1_pool_max || teams <= tiles ? 1 : 2;
}

// Teams of exec that run at once (the level 1 pool Kokkos holds for a launch).
template <class ExecutionSpace>
index_t concurrent_teams(const ExecutionSpace& exec) {
  const index_t threads = static_cast<index_t>(exec.concurrency());
  const index_t teams = threads / team_threads<ExecutionSpace>();
  return teams > 0 ? teams : 1;
}

// Bytes of row scratch for_each_tile holds: the level 1 pool (place 1), the per-call buffer
// (place 2), or level 0 per team (place 0).
inline std::size_t row_scratch_bytes(std::size_t tile_bytes, std::size_t row_bytes,
                                     index_t ntiles, index_t concurrent) {
  const int place = row_scratch_place(tile_bytes, row_bytes, ntiles, concurrent);
  if (place == 0) return row_bytes;
  if (place == 1)
    return scratch_total("bandsolve device scratch", static_cast<std::size_t>(concurrent),
                         row_bytes + scratch_alignment, 0);
  return scratch_total("bandsolve device scratch", static_cast<std::size_t>(ntiles),
                       round_up(row_bytes), scratch_alignment);
}

// Calls body(team, tile, tiles, rows) for tile in [0, ntiles): `tiles` holds tile_bytes of team
// scratch level 0 and `rows` row_bytes of row scratch, both aligned to 64 bytes.
template <class ExecutionSpace, class Body>
void for_each_tile(const ExecutionSpace& exec, const char* label, index_t ntiles,
                   std::size_t tile_bytes, std::size_t row_bytes, const Body& body) {
  if (ntiles <= 0) return;
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  using member_type = typename policy_type::member_type;
  const int place = row_scratch_place(tile_bytes, row_bytes, ntiles, concurrent_teams(exec));
  const std::size_t tiles = round_up(tile_bytes);
  policy_type policy(exec, static_cast<int>(ntiles), team_threads<ExecutionSpace>());
  if (place == 2) {
    const std::size_t slice = round_up(row_bytes);
    const auto buffer = allocate_scratch<typename ExecutionSpace::memory_space>(
        exec, label, scratch_total(label, static_cast<std::size_t>(ntiles), slice, scratch_alignment));
    char* const first = align_up(buffer.data());
    const int level0 = static_cast<int>(team_scratch_request(tiles + scratch_alignment));
    Kokkos::parallel_for(
        label, policy.set_scratch_size(0, per_team_bytes(level0)),
        KOKKOS_LAMBDA(const member_type& team) {
          (void)buffer;  // keeps the allocation alive until the kernel has run
          const index_t t = static_cast<index_t>(team.league_rank());
          char* tile_scratch = align_up(static_cast<char*>(team.team_scratch(0).get_shmem(level0)));
          body(team, t, static_cast<void*>(tile_scratch),
               static_cast<void*>(first + static_cast<std::size_t>(t) * slice));
        });
    return;
  }
  const int level0 = static_cast<int>(
      team_scratch_request(tiles + scratch_alignment + (place == 0 ? row_bytes : 0)));
  const int level1 =
      place == 1 ? static_cast<int>(team_scratch_request(row_bytes + scratch_alignment)) : 0;
  Kokkos::parallel_for(
      label,
      policy.set_scratch_size(0, per_team_bytes(level0)).set_scratch_size(1, per_team_bytes(level1)),
      KOKKOS_LAMBDA(const member_type& team) {
        char* tile_scratch = align_up(static_cast<char*>(team.team_scratch(0).get_shmem(level0)));
        char* rows = level1 > 0 ? align_up(static_cast<char*>(team.team_scratch(1).get_shmem(level1)))
                                : tile_scratch + tiles;
        body(team, static_cast<index_t>(team.league_rank()), static_cast<void*>(tile_scratch),
             static_cast<void*>(rows));
      });
}

}  // namespace bandsolve::detail::device
