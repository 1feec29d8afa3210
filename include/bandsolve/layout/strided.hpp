#pragma once
// layout::strided: a rank-2 View<T**, LayoutStride>(nsys, n) with any strides, e.g. a subview
// that picks every other system or a padded array. Offset of (s, i) = s*stride(0) + i*stride(1).
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/rank2_access.hpp>

#include <string>

namespace bandsolve::layout {

struct strided : detail::rank2_access {
  static constexpr const char* name = "strided";

  template <class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
  using view_type = Kokkos::View<T**, Kokkos::LayoutStride, MemorySpace>;

  struct mapping {
    index_t system_stride, row_stride;
    KOKKOS_INLINE_FUNCTION constexpr index_t operator()(index_t s, index_t i) const {
      return s * system_stride + i * row_stride;
    }
  };
};

}  // namespace bandsolve::layout
