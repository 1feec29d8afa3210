#pragma once
// Large host buffers on transparent huge pages.
//
// A new factorization or a kept scratch buffer maps its memory afresh and takes a page fault on
// the first touch of every 4 KiB page; for the factors of a large grid those faults cost far more
// than writing the factors (docs/performance.md, "Fresh factors on huge pages"). Advising such a
// buffer onto transparent huge pages (Linux `madvise(MADV_HUGEPAGE)`, which needs THP in the
// `madvise` or `always` mode) takes one fault per 2 MiB instead. Only the buffer's whole 2 MiB
// pages are advised, so no page is shared with other allocations; elsewhere (other systems, device
// memory) nothing happens.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bandsolve {

// Host buffers that the library allocates for factors and scratch are advised onto transparent
// huge pages when they hold at least this many bytes; 0 advises none. Read at each allocation.
inline std::size_t huge_page_min_bytes = std::size_t(4) << 20;

namespace detail {

// Advises the whole 2 MiB pages inside [data, data + bytes) onto transparent huge pages, before
// their first touch, when MemorySpace is host memory and bytes >= huge_page_min_bytes. Advice
// only: a kernel without THP, or a refusal, leaves ordinary pages.
template <class MemorySpace>
void advise_huge_pages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if constexpr (std::is_same_v<MemorySpace, Kokkos::HostSpace>) {
    if (huge_page_min_bytes == 0 || bytes < huge_page_min_bytes || data == nullptr) return;
    constexpr std::uintptr_t huge_page = std::uintptr_t(2) << 20;
    const auto start = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (start + huge_page - 1) & ~(huge_page - 1);
    const std::uintptr_t last = (start + bytes) & ~(huge_page - 1);
    if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#else
  (void)data;
  (void)bytes;
#endif
}

// A View of `extents` labelled `label` in its memory space, zero-filled on `exec` as
// Kokkos::view_alloc(exec, label) would leave it, with its pages advised onto huge pages
// (advise_huge_pages) before that first touch.
template <class View, class ExecutionSpace, class... Extents>
View allocate_zeroed(const ExecutionSpace& exec, const std::string& label, Extents... extents) {
  using value_type = typename View::non_const_value_type;
  using memory_space = typename View::memory_space;
  const View view(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, label), extents...);
  advise_huge_pages<memory_space>(view.data(), view.span() * sizeof(value_type));
  // One contiguous allocation of span() values whatever the layout (a LayoutStride View of Kokkos
  // 3.4 has no deep_copy of a value).
  const Kokkos::View<value_type*, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> values(
      view.data(), view.span());
  Kokkos::deep_copy(exec, values, value_type{});
  return view;
}

// A View of `extents` labelled `label`, not initialized, its pages advised onto huge pages
// (advise_huge_pages): for buffers whose every value is written before it is read.
template <class View, class... Extents>
View allocate_uninitialized(const std::string& label, Extents... extents) {
  const View view(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), extents...);
  advise_huge_pages<typename View::memory_space>(
      view.data(), view.span() * sizeof(typename View::non_const_value_type));
  return view;
}

}  // namespace detail
}  // namespace bandsolve
