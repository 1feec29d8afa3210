#pragma once
// How a CPU backend runs a batch: one work item per pack of systems, each with a private
// scratch buffer (cache-resident intermediate values such as c' of Thomas). Packs are handed to
// threads in contiguous ranges so each thread streams through its part of the batch.
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/config.hpp>

#include <cstdint>
#include <string>

namespace bandsolve::detail {

// Kokkos keeps team scratch sizes in int: buffers larger than this (Thomas on a few very long
// systems) come from one allocation per call instead, a slice per concurrent work item claimed
// through a UniqueToken. A variable so that tests can lower it to exercise that path.
inline std::size_t max_team_scratch_bytes = std::size_t(1) << 30;

// Calls body(pack, scratch) for pack in [0, npacks); scratch holds scratch_bytes, aligned to 64.
// Enqueued on exec, not fenced. Allocates only when scratch_bytes > max_team_scratch_bytes.
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
  const std::size_t bytes = scratch_bytes + alignment;
  if (bytes > max_team_scratch_bytes) {
    const Kokkos::Experimental::UniqueToken<ExecutionSpace> token(exec);
    const std::size_t slice = (scratch_bytes + alignment - 1) / alignment * alignment;
    const Kokkos::View<char*, typename ExecutionSpace::memory_space> buffer(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label) + " scratch"),
        static_cast<std::size_t>(token.size()) * slice + alignment);
    const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(buffer.data()) % alignment;
    char* const first = buffer.data() + (misalignment ? alignment - misalignment : 0);
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<ExecutionSpace>(exec, 0, npacks), KOKKOS_LAMBDA(index_t p) {
          (void)buffer;  // keeps the allocation alive until the kernel has run
          const int id = token.acquire();
          body(p, static_cast<void*>(first + static_cast<std::size_t>(id) * slice));
          token.release(id);
        });
    return;
  }
  policy_type policy(exec, static_cast<int>(npacks), 1);
  Kokkos::parallel_for(
      label, policy.set_scratch_size(1, Kokkos::PerTeam(bytes)),
      KOKKOS_LAMBDA(const member_type& team) {
        char* raw = static_cast<char*>(team.team_scratch(1).get_shmem(bytes));
        const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(raw) % alignment;
        void* scratch = raw + (misalignment ? alignment - misalignment : 0);
        body(static_cast<index_t>(team.league_rank()), scratch);
      });
}

}  // namespace bandsolve::detail
