#pragma once
// layout::interleaved<W>: packs of W systems; inside a pack, row i of the W systems is contiguous.
// Offset of (s, i) = (s/W)*n*W + i*W + s%W. Storage: View<T**[W], LayoutRight>(ceil(nsys/W), n).
// Known elsewhere as AoSoA or SIMD packs. The last pack may hold up to W-1 padding lanes: solvers
// compute them (they are allocated) but report info codes for the nsys real systems only.
#include <bandsolve/core/config.hpp>

#include <string>

namespace bandsolve::layout {

template <int W>
struct interleaved {
  static_assert(W >= 1, "bandsolve::layout::interleaved<W>: W must be at least 1");
  static constexpr int width = W;
  static constexpr const char* name = "interleaved";

  template <class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
  using view_type =
      Kokkos::View<T**[static_cast<std::size_t>(W)], Kokkos::LayoutRight, MemorySpace>;

  struct mapping {
    index_t nsys, n;
    KOKKOS_INLINE_FUNCTION constexpr index_t operator()(index_t s, index_t i) const {
      return (s / W) * n * W + i * W + s % W;
    }
    KOKKOS_INLINE_FUNCTION constexpr index_t required_span_size() const {
      return packs(nsys) * n * W;
    }
  };

  KOKKOS_INLINE_FUNCTION static constexpr index_t packs(index_t nsys) { return (nsys + W - 1) / W; }

  template <class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
  static view_type<T, MemorySpace> allocate(const std::string& label, index_t nsys, index_t n) {
    return view_type<T, MemorySpace>(label, static_cast<std::size_t>(packs(nsys)),
                                     static_cast<std::size_t>(n));
  }

  template <class View>
  KOKKOS_INLINE_FUNCTION static typename View::reference_type at(const View& v, index_t s,
                                                                 index_t i) {
    return v(s / W, i, s % W);
  }
  // Number of system slots, padding lanes included.
  template <class View>
  static index_t capacity(const View& v) { return static_cast<index_t>(v.extent(0)) * W; }
  template <class View>
  static index_t rows(const View& v) { return static_cast<index_t>(v.extent(1)); }
};

}  // namespace bandsolve::layout
