#pragma once
// layout::row: each system's rows are contiguous, systems one after another.
// Offset of (s, i) = s*n + i. Storage: View<T**, LayoutRight>(nsys, n).
// Known elsewhere as cuSPARSE StridedBatch or tridsolver solvedim 0.
#include <bandsolve/core/config.hpp>

#include <string>

namespace bandsolve::layout {

struct row {
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
    return view_type<T, MemorySpace>(label, nsys, n);
  }

  template <class View>
  KOKKOS_INLINE_FUNCTION static typename View::reference_type at(const View& v, index_t s,
                                                                 index_t i) {
    return v(s, i);
  }
  template <class View>
  static index_t capacity(const View& v) { return static_cast<index_t>(v.extent(0)); }
  template <class View>
  static index_t rows(const View& v) { return static_cast<index_t>(v.extent(1)); }
};

}  // namespace bandsolve::layout
