#pragma once
// Scratch that a call allocates itself, and the host backends' scratch kept between calls.
//
// Allocation: allocate_scratch takes a buffer on the host before any kernel runs, so that a
// failure throws allocation_error naming the function and the size; a large host buffer is
// advised onto huge pages (huge_pages.hpp).
//
// Kept between calls: a solve that needs more scratch than Kokkos's per-thread team scratch holds
// (few work items with large scratch each, one long system) takes it from one buffer per memory
// space that stays allocated after the call, so that repeated solves of long systems touch pages
// already mapped instead of mapping and first-touching fresh ones every time. Bounded: the
// buffer grows to the largest scratch asked, up to bandsolve::scratch_cache_limit bytes; larger
// scratch is allocated per call and freed at its end. Some calls keep a buffer of their own (a
// tag: shared factors, the copy of d of solve_along_add through a copy, the distributed solves'
// staging). bandsolve::release_scratch_cache() frees every kept buffer; Kokkos::finalize does too.
//
// Calls that use the buffer run one at a time (a mutex), their kernels inside: the Serial and
// OpenMP backends finish a parallel_for before it returns, so no kernel is left reading the
// buffer when the next call takes it.
#include <bandsolve/backend/huge_pages.hpp>
#include <bandsolve/core/errors.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace bandsolve {

// Largest scratch buffer (bytes) a host solve keeps between calls, per memory space; 0 keeps
// none. Read at each call.
inline std::size_t scratch_cache_limit = std::size_t(256) << 20;

namespace detail {

// Bytes of `slices` slices of `slice` bytes plus `extra`, or throws allocation_error naming the
// function when the product does not fit in size_t.
inline std::size_t scratch_total(const char* label, std::size_t slices, std::size_t slice,
                                 std::size_t extra) {
  if (slice != 0 && slices > (static_cast<std::size_t>(-1) - extra) / slice)
    throw allocation_error(concat(label, ": scratch of ", slices, " x ", slice,
                                  " bytes does not fit in size_t"),
                           static_cast<std::size_t>(-1));
  return slices * slice + extra;
}

// One scratch buffer of `bytes` bytes in MemorySpace, allocated on the host before any kernel
// runs: a failure throws allocation_error naming the function and the size (Kokkos's own
// allocation failure inside a parallel launch cannot be caught).
template <class MemorySpace, class ExecutionSpace>
Kokkos::View<char*, MemorySpace> allocate_scratch(const ExecutionSpace& exec, const char* label,
                                                  std::size_t bytes) {
  try {
    const Kokkos::View<char*, MemorySpace> scratch(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label) + " scratch"),
        bytes);
    advise_huge_pages<MemorySpace>(scratch.data(), bytes);
    return scratch;
  } catch (const std::exception& e) {
    throw allocation_error(concat(label, ": cannot allocate ", bytes, " bytes (",
                                  static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0),
                                  " GiB) of scratch: ", e.what()),
                           bytes);
  }
}

// The release of every kept buffer used so far (each registers at its first use), for
// release_scratch_cache.
struct scratch_cache_registry {
  std::mutex mutex;
  std::vector<void (*)()> releases;
  static scratch_cache_registry& instance() {
    static scratch_cache_registry registry;
    return registry;
  }
};

// Tag: a kept buffer of its own, with its own lock, for callers that hold one buffer while the
// solves they call take the untagged one (the distributed solves' staging, mpi/staging.hpp).
template <class MemorySpace, class Tag = void>
struct scratch_cache {
  std::mutex mutex;
  // No View until the first use (an empty std::optional, not a default-constructed View).
  std::optional<Kokkos::View<char*, MemorySpace>> buffer;
  bool release_at_finalize = false;

  static scratch_cache& instance() {
    static scratch_cache cache;
    return cache;
  }
  void release() {
    const std::lock_guard<std::mutex> lock(mutex);
    buffer.reset();
  }
};

// A View of at least `bytes` bytes of scratch in MemorySpace for one call: the kept buffer (grown
// when too small) while bytes <= scratch_cache_limit, with `lock` holding it for the call until
// the lock goes; else one allocated for this call alone. An allocation failure throws
// allocation_error naming `label` (allocate_scratch).
template <class MemorySpace, class Tag = void, class ExecutionSpace>
Kokkos::View<char*, MemorySpace> scratch_buffer(const ExecutionSpace& exec, const char* label,
                                                std::size_t bytes,
                                                std::unique_lock<std::mutex>& lock) {
  if (bytes > scratch_cache_limit) return allocate_scratch<MemorySpace>(exec, label, bytes);
  auto& cache = scratch_cache<MemorySpace, Tag>::instance();
  lock = std::unique_lock<std::mutex>(cache.mutex);
  if (!cache.buffer || cache.buffer->extent(0) < bytes) {
    cache.buffer.reset();  // the old buffer goes before the larger one comes
    cache.buffer.emplace(allocate_scratch<MemorySpace>(exec, label, bytes));
    if (!cache.release_at_finalize) {
      cache.release_at_finalize = true;
      Kokkos::push_finalize_hook(
          [] { scratch_cache<MemorySpace, Tag>::instance().buffer.reset(); });
      auto& registry = scratch_cache_registry::instance();
      const std::lock_guard<std::mutex> registering(registry.mutex);
      registry.releases.push_back([] { scratch_cache<MemorySpace, Tag>::instance().release(); });
    }
  }
  return *cache.buffer;
}

}  // namespace detail

// Frees the scratch buffers solves keep between calls, in every memory space (see
// scratch_cache_limit). Call it between solves, not during one.
inline void release_scratch_cache() {
  auto& registry = detail::scratch_cache_registry::instance();
  std::vector<void (*)()> releases;
  {
    const std::lock_guard<std::mutex> lock(registry.mutex);
    releases = registry.releases;
  }
  for (const auto release : releases) release();
}

}  // namespace bandsolve
