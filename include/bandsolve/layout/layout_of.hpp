#pragma once
// Which layout policy a Kokkos::View type stores a batch in, deduced from its rank, array layout
// and static extent. Solvers take plain Views and use this to pick the kernel.
#include <bandsolve/layout/column.hpp>
#include <bandsolve/layout/interleaved.hpp>
#include <bandsolve/layout/row.hpp>
#include <bandsolve/layout/strided.hpp>

#include <type_traits>

namespace bandsolve {

// Marks a View type that holds no batch layout; solvers reject it with a static_assert.
struct unsupported_layout {};

namespace detail {
template <class View, int Rank = static_cast<int>(View::rank),
          class ArrayLayout = typename View::array_layout>
struct layout_of_impl {
  using type = unsupported_layout;
};
template <class View>
struct layout_of_impl<View, 2, Kokkos::LayoutRight> {
  using type = layout::row;
};
template <class View>
struct layout_of_impl<View, 2, Kokkos::LayoutLeft> {
  using type = layout::column;
};
template <class View>
struct layout_of_impl<View, 2, Kokkos::LayoutStride> {
  using type = layout::strided;
};
template <class View>
struct layout_of_impl<View, 3, Kokkos::LayoutRight> {
  // The pack width must be a compile-time extent: View<T**[W]>.
  static constexpr std::size_t W = View::static_extent(2);
  using type = std::conditional_t<(W > 0), layout::interleaved<static_cast<int>(W)>,
                                  unsupported_layout>;
};
}  // namespace detail

template <class View, class = void>
struct layout_of {
  using type = unsupported_layout;
};
template <class View>
struct layout_of<View, std::enable_if_t<Kokkos::is_view<View>::value>> {
  using type = typename detail::layout_of_impl<View>::type;
};
template <class View>
using layout_of_t = typename layout_of<View>::type;

template <class View>
inline constexpr bool is_batch_view_v = !std::is_same_v<layout_of_t<View>, unsupported_layout>;

#define BANDSOLVE_SUPPORTED_VIEWS                                                         \
  "use Kokkos::View<T**, LayoutRight> (layout::row), View<T**, LayoutLeft> "             \
  "(layout::column), View<T**[W], LayoutRight> (layout::interleaved<W>) or View<T**, " \
  "LayoutStride> (layout::strided)"

// Allocates one array of a batch (zero-filled) in the layout's storage.
template <class Layout, class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
auto make_batch(const std::string& label, std::size_t nsys, std::size_t n) {
  static_assert(!std::is_same_v<Layout, layout::strided>,
                "bandsolve::make_batch: layout::strided describes existing Views (subviews, "
                "padded arrays); allocate row or column storage and take a subview");
  return Layout::template allocate<T, MemorySpace>(label, static_cast<index_t>(nsys),
                                                   static_cast<index_t>(n));
}

// Element i of system s of a batch View in any layout (usable in kernels).
template <class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type at(const View& v, index_t s, index_t i) {
  static_assert(is_batch_view_v<View>, "bandsolve::at: " BANDSOLVE_SUPPORTED_VIEWS);
  return layout_of_t<View>::at(v, s, i);
}

// Number of system slots a View holds (padding lanes of interleaved packs included) and rows.
template <class View>
std::size_t capacity(const View& v) {
  static_assert(is_batch_view_v<View>, "bandsolve::capacity: " BANDSOLVE_SUPPORTED_VIEWS);
  return static_cast<std::size_t>(layout_of_t<View>::capacity(v));
}
template <class View>
std::size_t rows(const View& v) {
  static_assert(is_batch_view_v<View>, "bandsolve::rows: " BANDSOLVE_SUPPORTED_VIEWS);
  return static_cast<std::size_t>(layout_of_t<View>::rows(v));
}

}  // namespace bandsolve
