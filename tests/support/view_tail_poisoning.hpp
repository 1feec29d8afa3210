#pragma once
// Makes AddressSanitizer see reads and writes just past the end of a Kokkos View on the host, and
// just before its start. Kokkos 3.4 allocates a View as malloc(header + data + 8 + 64) and aligns
// the header up to 64 bytes, so 0-64 bytes after the data belong to the allocation and an overrun
// of a few values passes unseen; before the data lies Kokkos' 128-byte header (a record pointer,
// then the label and its zero padding). With ASan on, poison_view_tails() registers a Kokkos
// Tools allocation callback that poisons the bytes after the data at once, and the header's
// bytes after the label's end at the next allocation (Kokkos writes the header after the callback
// returns), so an underrun of up to 119 - strlen(label) bytes is seen from then on (the error
// reads "use-after-poison"); without ASan it does nothing.
// Call it once, after Kokkos::initialize; every test main does. Tests that watch allocations
// through Kokkos Tools call observe_allocations(f) and observe_allocations(nullptr) instead of
// setting the allocation callback themselves, which would end the poisoning.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

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

// A View's header whose bytes after the label are still to be poisoned: its heap block, the
// header and the label as the allocation callback saw it.
struct unpoisoned_header {
  const char* block;
  const Kokkos::Impl::SharedAllocationHeader* header;
  std::string label;
};
inline std::mutex header_mutex;
inline std::vector<unpoisoned_header> unpoisoned_headers;

// Poisons the header bytes after the label's terminating zero of the Views allocated since the
// last call, those still allocated whose header holds the label seen (a block freed and handed
// out again in between is left alone, the allocation in progress at `current` above all, whose
// header Kokkos has yet to write). Kokkos reads the label only up to that zero.
inline void poison_headers_of_earlier_views(const void* current) {
  const std::lock_guard<std::mutex> lock(header_mutex);
  for (const unpoisoned_header& h : unpoisoned_headers) {
    const char* start = h.header->label();
    const char* end = reinterpret_cast<const char*>(h.header + 1);
    const std::size_t kept = h.label.size() + 1;
    if (static_cast<const void*>(h.header) == current || !__sanitizer_get_ownership(h.block) ||
        static_cast<std::size_t>(end - start) <= kept ||
        std::strncmp(start, h.label.c_str(), kept) != 0)
      continue;
    ASAN_POISON_MEMORY_REGION(start + kept, static_cast<std::size_t>(end - start) - kept);
  }
  unpoisoned_headers.clear();
}

// Kokkos Tools allocation callback: `ptr` is the allocation's header, `size` the View's bytes.
// Allocations without a header (Kokkos' own scratch) give a data end past the block: skipped.
inline void poison_tail_after_view(const Kokkos_Profiling_SpaceHandle space, const char* label,
                                   const void* ptr, const std::uint64_t size) {
  poison_headers_of_earlier_views(ptr);
  const char* block = nullptr;
  if (ptr != nullptr && std::strcmp(space.name, Kokkos::HostSpace::name()) == 0)
    block = heap_block_of(static_cast<const char*>(ptr));
  if (block != nullptr) {
    using header_t = Kokkos::Impl::SharedAllocationHeader;
    const char* block_end = block + __sanitizer_get_allocated_size(block);
    const char* data_end = static_cast<const char*>(ptr) + sizeof(header_t) + size;
    if (data_end <= block_end) {
      if (data_end < block_end)
        ASAN_POISON_MEMORY_REGION(data_end, static_cast<std::size_t>(block_end - data_end));
      const auto* header = static_cast<const header_t*>(ptr);
      // The label as Kokkos will store it: cut to the header's room, less its terminating zero.
      const std::size_t room = static_cast<std::size_t>(
          reinterpret_cast<const char*>(header + 1) - header->label());
      std::string stored = label != nullptr ? label : "";
      if (stored.size() > room - 1) stored.resize(room - 1);
      const std::lock_guard<std::mutex> lock(header_mutex);
      unpoisoned_headers.push_back({block, header, std::move(stored)});
    }
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
