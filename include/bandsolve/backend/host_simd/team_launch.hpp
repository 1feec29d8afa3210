#pragma once
// How the host backend (Serial, OpenMP) runs a batch a team per item, for the solvers that
// parallelise inside a system (PCR, CR, the Thomas-PCR hybrid): teams with scratch memory, and
// when that pays against packs of systems.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/view_extents.hpp>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <type_traits>

namespace bandsolve::detail {

// Threads x SIMD lanes the execution space offers.
template <class ExecutionSpace>
int concurrency_of(const ExecutionSpace& exec) {
  const int c = static_cast<int>(exec.concurrency());
  return c > 0 ? c : 1;
}

// Inside-a-system parallelism pays when the batch cannot fill every thread's SIMD lanes.
inline bool inside_system_pays(index_t nsys, int threads, int lanes) {
  return nsys < static_cast<index_t>(threads) * lanes;
}

// Teams that run at once: the scratch slices launch_teams allocates when it does not use team
// scratch (see below).
inline index_t concurrent_teams(index_t league, int team_size, int concurrency) {
  const index_t fit = static_cast<index_t>(concurrency / (team_size > 0 ? team_size : 1));
  const index_t g = fit > 0 ? fit : 1;
  return league < g ? league : g;
}

// Whether launch_teams allocates its scratch (see below) instead of using team scratch: where
// the league is no larger than the threads (Kokkos's team scratch would hold a buffer for every
// thread, twice over in Kokkos 3's OpenMP backend: launch.hpp, small_team_scratch_bytes), or
// where Kokkos cannot hold it. A larger league runs in rounds when it allocates, so it takes
// team scratch.
inline bool team_scratch_is_allocated(index_t league, std::size_t scratch_bytes,
                                      int concurrency) {
  return scratch_bytes + 64 > max_team_scratch_bytes ||
         (scratch_bytes > 0 && league <= static_cast<index_t>(concurrency));
}

// Scratch bytes launch_teams holds for `league` teams of `team_size` threads with scratch_bytes
// each: concurrent_teams slices of scratch_bytes (rounded up to 64, plus 64) when it allocates
// (team_scratch_is_allocated), else Kokkos's team scratch, one buffer per thread (twice that in
// Kokkos 3's OpenMP backend). A single system never costs more than its own scratch.
inline std::size_t team_scratch_bytes(index_t league, int team_size, std::size_t scratch_bytes,
                                      int concurrency) {
  constexpr std::size_t alignment = 64;
  if (league <= 0) return 0;
  const std::size_t threads = static_cast<std::size_t>(concurrency > 0 ? concurrency : 1);
  if (!team_scratch_is_allocated(league, scratch_bytes, concurrency))
    return scratch_total("bandsolve::team_scratch_bytes", threads, scratch_bytes + alignment, 0);
  const std::size_t slice = (scratch_bytes + alignment - 1) / alignment * alignment;
  return scratch_total("bandsolve::team_scratch_bytes",
                       static_cast<std::size_t>(concurrent_teams(league, team_size, concurrency)),
                       slice, alignment);
}

// Calls body(team, league_index, scratch) for league_index in [0, league) with teams of
// team_size threads (clamped to what the backend allows) and scratch_bytes of scratch, aligned
// to 64. Team scratch where Kokkos can hold it; otherwise (one long system) one buffer allocated
// here on the host, a slice per concurrent team, the league run in rounds of that many teams; an
// allocation failure throws allocation_error naming `label`. Enqueued on exec, not fenced.
template <class ExecutionSpace, class Body>
void launch_teams(const ExecutionSpace& exec, const char* label, index_t league, int team_size,
                  std::size_t scratch_bytes, const Body& body) {
  using backend_tag = backend::default_for_t<ExecutionSpace>;
  static_assert(std::is_same_v<backend_tag, backend::serial> ||
                    std::is_same_v<backend_tag, backend::openmp_simd>,
                "bandsolve::launch_teams: only the serial and openmp_simd backends launch here");
  if (league <= 0) return;
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  using member_type = typename policy_type::member_type;
  constexpr std::size_t alignment = 64;
  const std::size_t bytes = team_scratch_request(scratch_total(label, 1, scratch_bytes, alignment));
  const int concurrency = concurrency_of(exec);
  if (team_scratch_is_allocated(league, scratch_bytes, concurrency)) {
    const std::size_t slice = (scratch_bytes + alignment - 1) / alignment * alignment;
    const auto probe = KOKKOS_LAMBDA(const member_type&){};
    const int most =
        policy_type(exec, 1, 1).team_size_max(probe, Kokkos::ParallelForTag());
    const int ts = team_size < 1 ? 1 : (team_size > most ? most : team_size);
    const index_t rounds_of = concurrent_teams(league, ts, concurrency);
    std::unique_lock<std::mutex> kept;  // holds the kept buffer until the kernels have run
    const auto buffer = scratch_buffer<typename ExecutionSpace::memory_space>(
        exec, label, scratch_total(label, static_cast<std::size_t>(rounds_of), slice, alignment),
        kept);
    const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(buffer.data()) % alignment;
    char* const first = buffer.data() + (misalignment ? alignment - misalignment : 0);
    for (index_t base = 0; base < league; base += rounds_of) {
      const index_t count = league - base < rounds_of ? league - base : rounds_of;
      Kokkos::parallel_for(
          label, policy_type(exec, static_cast<int>(count), ts),
          KOKKOS_LAMBDA(const member_type& team) {
            (void)buffer;  // keeps the allocation alive until the kernel has run
            const std::size_t r = static_cast<std::size_t>(team.league_rank());
            body(team, base + static_cast<index_t>(r), static_cast<void*>(first + r * slice));
          });
    }
    return;
  }
  const int int_bytes = static_cast<int>(bytes);  // below max_team_scratch_bytes
  auto kernel = KOKKOS_LAMBDA(const member_type& team) {
    char* raw = static_cast<char*>(team.team_scratch(1).get_shmem(int_bytes));
    const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(raw) % alignment;
    body(team, static_cast<index_t>(team.league_rank()),
         static_cast<void*>(raw + (misalignment ? alignment - misalignment : 0)));
  };
  const int most = policy_type(exec, static_cast<int>(league), 1)
                       .set_scratch_size(1, per_team_bytes(int_bytes))
                       .team_size_max(kernel, Kokkos::ParallelForTag());
  const int ts = team_size < 1 ? 1 : (team_size > most ? most : team_size);
  Kokkos::parallel_for(
      label,
      policy_type(exec, static_cast<int>(league), ts).set_scratch_size(1, per_team_bytes(int_bytes)),
      kernel);
}

}  // namespace bandsolve::detail
