#pragma once
// How a CPU backend runs a batch: one work item per pack of systems, each with a private
// scratch buffer (cache-resident intermediate values such as c' of Thomas). Packs are handed to
// threads in contiguous ranges so each thread streams through its part of the batch.
#include <bandsolve/backend/tags.hpp>
#include <bandsolve/core/config.hpp>

namespace bandsolve::detail {

// Calls body(pack, scratch) for pack in [0, npacks); scratch holds scratch_bytes, aligned to 64.
// Enqueued on exec, not fenced.
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
