// A Kokkos Tools library that poisons the bytes after every host View's data and the spare bytes of
// its header (view_tail_poisoning.hpp) in a program built with AddressSanitizer that does not call
// bstest::poison_view_tails() itself, such as the examples: Kokkos loads it at initialize from
// KOKKOS_PROFILE_LIBRARY (KOKKOS_TOOLS_LIBS from Kokkos 4). Built in the sanitizer tree only
// (cmake/BandSolveViewTailTool.cmake).
#include "view_tail_poisoning.hpp"

#include <cstdint>

#ifndef BSTEST_ADDRESS_SANITIZER
#error "view_tail_tool.cpp is built with AddressSanitizer only"
#endif

extern "C" void kokkosp_allocate_data(const Kokkos_Profiling_SpaceHandle space, const char* label,
                                      const void* ptr, const std::uint64_t size) {
  bstest::detail::poison_tail_after_view(space, label, ptr, size);
}
