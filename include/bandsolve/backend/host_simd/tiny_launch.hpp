#pragma once
// Small work on the calling thread: a batch whose whole solve takes about as long as opening a
// parallel region (a Kokkos parallel_for on OpenMP wakes every thread: a few microseconds, the
// time Thomas takes for a few thousand unknowns on one core) runs its work items one after
// another on the thread that called, with one scratch slice kept between calls (a buffer of each
// thread's own for small scratch, else the kept buffer of backend/scratch.hpp). Host backends
// only: their parallel_for finishes before it returns, so running the items inline keeps the
// order of work on the instance.
#include <bandsolve/backend/host_simd/launch.hpp>
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/core/config.hpp>

#include <cstdint>
#include <mutex>
#include <vector>

namespace bandsolve::detail {

// Up to this many unknowns in all, a host solve runs on the calling thread. One system of 4096
// doubles takes about 8 us on one core with the gathered sweeps; a parallel launch costs 3-5 us
// before any work starts, and half the work on each of 2 threads does not win it back below this.
inline constexpr index_t inline_solve_unknowns = 4096;

// Scratch up to this size (a system of 4096 doubles, c' and d') of a solve run inline comes from
// a buffer each host thread keeps; larger scratch (one long system) from the kept buffer.
inline constexpr std::size_t inline_local_scratch_bytes = std::size_t(64) << 10;

// Whether a host solve of `unknowns` in `npacks` work items runs inline: one item never uses a
// second thread anyway; a few thousand unknowns are cheaper than the launch.
inline bool runs_inline(index_t npacks, index_t unknowns) {
  return npacks == 1 || unknowns <= inline_solve_unknowns;
}

// for_each_pack (backend/host_simd/launch.hpp), or, where `inline_items` holds, body(p, scratch) for p in
// [0, npacks) in turn on the calling thread, each item reusing one slice of scratch_bytes
// (aligned to 64).
template <class ExecutionSpace, class Body>
void for_each_pack_or_inline(const ExecutionSpace& exec, const char* label, index_t npacks,
                             std::size_t scratch_bytes, bool inline_items, const Body& body) {
  static_assert(Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                           typename ExecutionSpace::memory_space>::accessible,
                "bandsolve::for_each_pack_or_inline: host execution spaces only");
  if (npacks <= 0) return;
  if (!inline_items) {
    for_each_pack(exec, label, npacks, scratch_bytes, body);
    return;
  }
  constexpr std::size_t alignment = 64;
  if (scratch_bytes == 0) {
    for (index_t p = 0; p < npacks; ++p) body(p, nullptr);
    return;
  }
  const std::size_t bytes = scratch_total(label, 1, scratch_bytes, alignment);
  if (bytes <= inline_local_scratch_bytes) {
    // Small scratch from a buffer of the calling thread's own: solves called from several host
    // threads at once do not wait for each other on the kept buffer's lock.
    thread_local std::vector<char> local;
    if (local.size() < bytes) local.resize(inline_local_scratch_bytes);
    const std::size_t off = reinterpret_cast<std::uintptr_t>(local.data()) % alignment;
    void* const scratch = local.data() + (off ? alignment - off : 0);
    for (index_t p = 0; p < npacks; ++p) body(p, scratch);
    return;
  }
  std::unique_lock<std::mutex> kept;  // holds the kept buffer until the items have run
  const auto buffer =
      scratch_buffer<typename ExecutionSpace::memory_space>(exec, label, bytes, kept);
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(buffer.data()) % alignment;
  void* const scratch = buffer.data() + (misalignment ? alignment - misalignment : 0);
  for (index_t p = 0; p < npacks; ++p) body(p, scratch);
}

}  // namespace bandsolve::detail
