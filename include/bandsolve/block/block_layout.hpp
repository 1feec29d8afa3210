#pragma once
// Storage of block-tridiagonal batches: nsys systems of n block rows, blocks of m x m, stored
// row-major inside each block. Element (r, c) of block row i of system s, in each layout:
//
// | layout | coefficient View (A, B or C) | element (s, i, r, c) |
// | --- | --- | --- |
// | `row` | `View<T****, LayoutRight>(nsys, n, m, m)` | `((s*n + i)*m + r)*m + c` |
// | `column` | `View<T****, LayoutStride>(nsys, n, m, m)` | `((i*nsys + s)*m + r)*m + c` |
// | `interleaved<W>` | `View<T****[W], LayoutRight>(ceil(nsys/W), n, m, m)` | `(((s/W*n + i)*m + r)*m + c)*W + s%W` |
//
// Row and column Views are indexed (s, i, r, c); any other rank-4 View (LayoutLeft, subviews of
// larger arrays) is accepted too: the solver reads its strides. Interleaved Views are indexed
// (s/W, i, r, c, s%W). Right-hand sides drop the column index c for one right-hand side
// (`View<T***>(nsys, n, m)`, `View<T***[W]>(ceil(nsys/W), n, m)`) or put the right-hand side
// k in its place (`View<T****>(nsys, n, m, nrhs)`, `View<T****[W]>(ceil(nsys/W), n, m, nrhs)`).
// make_block_batch / make_block_rhs allocate them (zero-filled); block_at addresses them.
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/layout.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {

template <class Layout>
inline constexpr bool is_block_interleaved_v = false;
template <int W>
inline constexpr bool is_block_interleaved_v<layout::interleaved<W>> = true;

template <class Layout>
constexpr void block_layout_check() {
  static_assert(std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::column> ||
                    is_block_interleaved_v<Layout>,
                "bandsolve block batches: Layout must be layout::row, layout::column or "
                "layout::interleaved<W> (strided Views are subviews of existing arrays)");
}

// Pack width of an interleaved View of the given rank (its static last extent), 0 otherwise.
template <class View, int Rank>
KOKKOS_INLINE_FUNCTION constexpr int static_pack_width() {
  if constexpr (static_cast<int>(View::rank) == Rank &&
                std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>)
    return static_cast<int>(View::static_extent(Rank - 1));
  else
    return 0;
}

}  // namespace detail

// One coefficient array (A, B or C) of a block batch, zero-filled.
template <class Layout, class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
auto make_block_batch(const std::string& label, std::size_t nsys, std::size_t n, std::size_t m) {
  detail::block_layout_check<Layout>();
  if constexpr (std::is_same_v<Layout, layout::row>) {
    return Kokkos::View<T****, Kokkos::LayoutRight, MemorySpace>(label, nsys, n, m, m);
  } else if constexpr (std::is_same_v<Layout, layout::column>) {
    return Kokkos::View<T****, Kokkos::LayoutStride, MemorySpace>(
        label, Kokkos::LayoutStride(nsys, m * m, n, nsys * m * m, m, m, m, 1));
  } else {
    constexpr std::size_t W = Layout::width;
    return Kokkos::View<T****[W], Kokkos::LayoutRight, MemorySpace>(label, (nsys + W - 1) / W,
                                                                     n, m, m);
  }
}

// Right-hand sides of a block batch, one per system, zero-filled.
template <class Layout, class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
auto make_block_rhs(const std::string& label, std::size_t nsys, std::size_t n, std::size_t m) {
  detail::block_layout_check<Layout>();
  if constexpr (std::is_same_v<Layout, layout::row>) {
    return Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace>(label, nsys, n, m);
  } else if constexpr (std::is_same_v<Layout, layout::column>) {
    return Kokkos::View<T***, Kokkos::LayoutStride, MemorySpace>(
        label, Kokkos::LayoutStride(nsys, m, n, nsys * m, m, 1));
  } else {
    constexpr std::size_t W = Layout::width;
    return Kokkos::View<T***[W], Kokkos::LayoutRight, MemorySpace>(label, (nsys + W - 1) / W, n,
                                                                    m);
  }
}

// nrhs right-hand sides per system (index k where a coefficient View has its column c).
template <class Layout, class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
auto make_block_rhs(const std::string& label, std::size_t nsys, std::size_t n, std::size_t m,
                    std::size_t nrhs) {
  detail::block_layout_check<Layout>();
  if constexpr (std::is_same_v<Layout, layout::row>) {
    return Kokkos::View<T****, Kokkos::LayoutRight, MemorySpace>(label, nsys, n, m, nrhs);
  } else if constexpr (std::is_same_v<Layout, layout::column>) {
    return Kokkos::View<T****, Kokkos::LayoutStride, MemorySpace>(
        label, Kokkos::LayoutStride(nsys, m * nrhs, n, nsys * m * nrhs, m, nrhs, nrhs, 1));
  } else {
    constexpr std::size_t W = Layout::width;
    return Kokkos::View<T****[W], Kokkos::LayoutRight, MemorySpace>(label, (nsys + W - 1) / W,
                                                                     n, m, nrhs);
  }
}

// Element (r, c) of block row i of system s of a coefficient View (rank 4, or rank 5 for
// interleaved packs), or right-hand side c of a multiple right-hand-side View. Usable in kernels.
template <class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type block_at(const View& v, index_t s, index_t i,
                                                              index_t r, index_t c) {
  constexpr int W = detail::static_pack_width<View, 5>();
  static_assert(View::rank == 4 || W > 0,
                "bandsolve::block_at(v, s, i, r, c): v must be a rank-4 View (row, column, "
                "strided) or a View<T****[W], LayoutRight> (interleaved<W>)");
  if constexpr (W > 0)
    return v(s / W, i, r, c, s % W);
  else
    return v(s, i, r, c);
}

// Component r of block row i of system s of a one right-hand-side View (rank 3, or rank 4 with
// a static last extent W for interleaved packs). Usable in kernels.
template <class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type block_at(const View& v, index_t s, index_t i,
                                                              index_t r) {
  constexpr int W = detail::static_pack_width<View, 4>();
  static_assert(View::rank == 3 || W > 0,
                "bandsolve::block_at(v, s, i, r): v must be a rank-3 View (row, column, strided) "
                "or a View<T***[W], LayoutRight> (interleaved<W>)");
  if constexpr (W > 0)
    return v(s / W, i, r, s % W);
  else
    return v(s, i, r);
}

}  // namespace bandsolve
