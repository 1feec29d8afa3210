#pragma once
// layout::column: row i of every system is contiguous, the systems side by side.
// Offset of (s, i) = i*nsys + s. Storage: View<T**, LayoutLeft>(nsys, n).
// Known elsewhere as cuSPARSE InterleavedBatch or tridsolver's last solvedim.
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/rank2_access.hpp>

#include <string>

namespace bandsolve::layout {

struct column : detail::rank2_access {
  static constexpr const char* name = "column";

  template <class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
  using view_type = Kokkos::View<T**, Kokkos::LayoutLeft, MemorySpace>;

  struct mapping {
    index_t nsys, n;
    KOKKOS_INLINE_FUNCTION constexpr index_t operator()(index_t s, index_t i) const {
      return i * nsys + s;
    }
    KOKKOS_INLINE_FUNCTION constexpr index_t required_span_size() const { return nsys * n; }
  };

  template <class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
  static view_type<T, MemorySpace> allocate(const std::string& label, index_t nsys, index_t n) {
    return view_type<T, MemorySpace>(label, static_cast<std::size_t>(nsys),
                                     static_cast<std::size_t>(n));
  }
};

}  // namespace bandsolve::layout
