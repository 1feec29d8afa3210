#pragma once
// layout::strided: a rank-2 View<T**, LayoutStride>(nsys, n) with any strides, e.g. a subview
// that picks every other system or a padded array. Offset of (s, i) = s*stride(0) + i*stride(1).
#include <bandsolve/core/config.hpp>

#include <string>

namespace bandsolve::layout {

struct strided {
  static constexpr const char* name = "strided";

  template <class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
  using view_type = Kokkos::View<T**, Kokkos::LayoutStride, MemorySpace>;

  struct mapping {
    index_t system_stride, row_stride;
    KOKKOS_INLINE_FUNCTION constexpr index_t operator()(index_t s, index_t i) const {
      return s * system_stride + i * row_stride;
    }
  };

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
