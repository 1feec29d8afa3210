#pragma once
// layout::row: each system's rows are contiguous, systems one after another.
// Offset of (s, i) = s*n + i. Storage: View<T**, LayoutRight>(nsys, n).
// Known elsewhere as cuSPARSE StridedBatch or tridsolver solvedim 0.
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/rank2_access.hpp>

#include <string>

namespace bandsolve::layout {

struct row : detail::rank2_access {
  static constexpr const char* name = "row";

  template <class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
  using view_type = Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace>;

  struct mapping {
    index_t nsys, n;
    KOKKOS_INLINE_FUNCTION constexpr index_t operator()(index_t s, index_t i) const {
      return s * n + i;
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
