#pragma once
// Makes AddressSanitizer see reads and writes just past the end of a Kokkos View on the host.
// Kokkos 3.4 allocates a View as malloc(header + data + 8 + 64) and aligns the header up to 64
// bytes, so 0-64 bytes after the data belong to the allocation and an overrun of a few values
// passes unseen. With ASan on, poison_view_tails() registers a Kokkos Tools allocation callback
// that poisons those bytes (the error reads "use-after-poison"); without ASan it does nothing.
// Reads just before a View's data land in Kokkos' allocation header and stay unseen.
// Call it once, after Kokkos::initialize; every test main does. Tests that watch allocations
// through Kokkos Tools call observe_allocations(f) and observe_allocations(nullptr) instead of
// setting the allocation callback themselves, which would end the poisoning.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BSTEST_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(BSTEST_ADDRESS_SANITIZER)
#define BSTEST_ADDRESS_SANITIZER 1
#endif

#ifdef BSTEST_ADDRESS_SANITIZER
#include <sanitizer/allocator_interface.h>
#include <sanitizer/asan_interface.h>
#endif

namespace bstest {

#ifdef BSTEST_ADDRESS_SANITIZER
namespace detail {
// What observe_allocations() installed: called after the poisoning.
inline Kokkos_Profiling_allocateDataFunction allocation_observer = nullptr;

// The block that ASan's allocator handed out for a Kokkos allocation starting at `ptr`: `ptr`
// itself (Kokkos 4 aligns through operator new), or the pointer Kokkos 3.4 keeps just before
// `ptr` (its malloc then align). nullptr when neither is the start of an ASan heap block.
inline const char* heap_block_of(const char* ptr) {
  if (__sanitizer_get_ownership(ptr)) return ptr;
  const char* kept = nullptr;
  std::memcpy(&kept, ptr - sizeof(void*), sizeof(void*));
  const bool kept_is_block = kept != nullptr && kept < ptr && ptr - kept <= 2 * 64 &&
                             __sanitizer_get_ownership(kept);
  return kept_is_block ? kept : nullptr;
}

// Kokkos Tools allocation callback: `ptr` is the allocation's header, `size` the View's bytes.
// Allocations without a header (Kokkos' own scratch) give a data end past the block: skipped.
inline void poison_tail_after_view(const Kokkos_Profiling_SpaceHandle space, const char* label,
                                   const void* ptr, const std::uint64_t size) {
  const char* block = nullptr;
  if (ptr != nullptr && std::strcmp(space.name, Kokkos::HostSpace::name()) == 0)
    block = heap_block_of(static_cast<const char*>(ptr));
  if (block != nullptr) {
    const char* block_end = block + __sanitizer_get_allocated_size(block);
    const char* data_end = static_cast<const char*>(ptr) +
                           sizeof(Kokkos::Impl::SharedAllocationHeader) + size;
    if (data_end < block_end)
      ASAN_POISON_MEMORY_REGION(data_end, static_cast<std::size_t>(block_end - data_end));
  }
  if (allocation_observer != nullptr) allocation_observer(space, label, ptr, size);
}
}  // namespace detail

inline void poison_view_tails() {
  Kokkos::Tools::Experimental::set_allocate_data_callback(&detail::poison_tail_after_view);
}

// Makes `observer` see every allocation from now on (nullptr: none), the poisoning kept.
inline void observe_allocations(Kokkos_Profiling_allocateDataFunction observer) {
  detail::allocation_observer = observer;
}
#else
inline void poison_view_tails() {}

inline void observe_allocations(Kokkos_Profiling_allocateDataFunction observer) {
  Kokkos::Tools::Experimental::set_allocate_data_callback(observer);
}
#endif

}  // namespace bstest
