#pragma once
// How a CPU backend runs a batch: one work item per pack of systems, each with a private
// scratch buffer (cache-resident intermediate values such as c' of Thomas). Packs are handed to
// threads in contiguous ranges so each thread streams through its part of the batch.
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/view_extents.hpp>

#include <cstdint>
#include <mutex>

namespace bandsolve::detail {

// Kokkos keeps team scratch sizes in int: buffers larger than this (Thomas on a few very long
// systems) come from one allocation per call instead, a slice per concurrent work item. A
// variable so that tests can lower it to exercise that path.
inline std::size_t max_team_scratch_bytes = std::size_t(1) << 30;

// Per-item scratch above this comes from a buffer of the call's (one slice per item running at
// once) rather than from Kokkos's per-thread team scratch, which holds one buffer of that size
// for every thread whether it runs an item or not, and which Kokkos 3's OpenMP backend reserves
// twice over (its parallel_for over a TeamPolicy adds the level-1 size to a total holding it).
inline constexpr std::size_t small_team_scratch_bytes = std::size_t(1) << 20;

// Whether for_each_pack allocates its scratch (see below) instead of using team scratch.
inline bool pack_scratch_is_allocated(std::size_t scratch_bytes) {
  const std::size_t bytes = scratch_bytes + 64;
  return bytes > max_team_scratch_bytes || bytes > small_team_scratch_bytes;
}

// Scratch bytes for_each_pack holds for `npacks` work items of `scratch_bytes` each on
// `concurrency` threads: min(npacks, concurrency) slices (rounded up to 64 bytes, plus 64) when
// it allocates, else Kokkos's team scratch, concurrency x (scratch_bytes + 64), at most
// concurrency x 1 MiB (twice that in Kokkos 3's OpenMP backend, see small_team_scratch_bytes).
// Either way it grows with the work items actually run, and one item never costs more than its
// own scratch.
inline std::size_t pack_scratch_bytes(index_t npacks, std::size_t scratch_bytes, int concurrency) {
  constexpr std::size_t alignment = 64;
  if (npacks <= 0) return 0;
  const std::size_t threads = static_cast<std::size_t>(concurrency > 0 ? concurrency : 1);
  if (!pack_scratch_is_allocated(scratch_bytes))
    return scratch_total("bandsolve::pack_scratch_bytes", threads, scratch_bytes + alignment, 0);
  const std::size_t items = static_cast<std::size_t>(npacks) < threads
                                ? static_cast<std::size_t>(npacks)
                                : threads;
  const std::size_t slice = (scratch_bytes + alignment - 1) / alignment * alignment;
  return scratch_total("bandsolve::pack_scratch_bytes", items, slice, alignment);
}

// Calls body(pack, scratch) for pack in [0, npacks); scratch holds scratch_bytes, aligned to 64.
// Enqueued on exec, not fenced. Allocates only where pack_scratch_is_allocated says so:
// min(npacks, concurrency) slices, indexed by the pack itself when every pack has its own, in the
// buffer kept between calls (scratch.hpp) while it fits scratch_cache_limit.
template <class ExecutionSpace, class Body>
void for_each_pack(const ExecutionSpace& exec, const char* label, index_t npacks,
                   std::size_t scratch_bytes, const Body& body) {
  using backend_tag = backend::default_for_t<ExecutionSpace>;
  static_assert(std::is_same_v<backend_tag, backend::serial> ||
                    std::is_same_v<backend_tag, backend::openmp_simd>,
                "bandsolve::for_each_pack: only the serial and openmp_simd backends launch here");
  if (npacks <= 0) return;
  using policy_type = Kokkos::TeamPolicy<ExecutionSpace>;
  using member_type = typename policy_type::member_type;
  constexpr std::size_t alignment = 64;
  const std::size_t bytes = team_scratch_request(scratch_total(label, 1, scratch_bytes, alignment));
  if (pack_scratch_is_allocated(scratch_bytes)) {
    const Kokkos::Experimental::UniqueToken<ExecutionSpace> token(exec);
    const bool own_slice = npacks <= static_cast<index_t>(token.size());
    const std::size_t slices =
        own_slice ? static_cast<std::size_t>(npacks) : static_cast<std::size_t>(token.size());
    const std::size_t slice = (scratch_bytes + alignment - 1) / alignment * alignment;
    std::unique_lock<std::mutex> kept;  // holds the kept buffer until the kernel has run
    const auto buffer = scratch_buffer<typename ExecutionSpace::memory_space>(
        exec, label, scratch_total(label, slices, slice, alignment), kept);
    const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(buffer.data()) % alignment;
    char* const first = buffer.data() + (misalignment ? alignment - misalignment : 0);
    using policy = Kokkos::RangePolicy<ExecutionSpace>;
    Kokkos::parallel_for(
        label, policy(exec, 0, static_cast<typename policy::member_type>(npacks)),
        KOKKOS_LAMBDA(index_t p) {
          (void)buffer;  // keeps the allocation alive until the kernel has run
          if (own_slice) {
            body(p, static_cast<void*>(first + static_cast<std::size_t>(p) * slice));
          } else {
            const int id = token.acquire();
            body(p, static_cast<void*>(first + static_cast<std::size_t>(id) * slice));
            token.release(id);
          }
        });
    return;
  }
  policy_type policy(exec, static_cast<int>(npacks), 1);
  Kokkos::parallel_for(
      label, policy.set_scratch_size(1, per_team_bytes(bytes)),
      KOKKOS_LAMBDA(const member_type& team) {
        char* raw = static_cast<char*>(team.team_scratch(1).get_shmem(bytes));
        const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(raw) % alignment;
        void* scratch = raw + (misalignment ? alignment - misalignment : 0);
        body(static_cast<index_t>(team.league_rank()), scratch);
      });
}

}  // namespace bandsolve::detail
