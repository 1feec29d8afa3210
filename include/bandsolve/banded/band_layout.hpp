#pragma once
// Storage of batched banded matrices and their right-hand sides.
//
// Band storage is LAPACK's (?gbtrf/?gbsv): with kv = kl + ku and ldab >= 2*kl + ku + 1, entry
// A(i, j) (0-based, max(0, j-ku) <= i <= min(n-1, j+kl)) lives in band row kv + i - j of column j.
// Band rows 0 .. kl-1 are the fill-in rows that partial pivoting writes U's extra superdiagonals
// into; they need no values on input. Rows past 2*kl + ku are never touched.
//
// | layout                  | band View (one per batch)                    | band of system s          |
// | ----------------------- | -------------------------------------------- | ------------------------- |
// | `layout::row`           | `View<T***, LayoutRight>(nsys, n, ldab)`     | a LAPACK AB at &ab(s,0,0)  |
// | `layout::column`        | `View<T***, LayoutLeft>(nsys, n, ldab)`      | element (s, j, r)          |
// | `layout::interleaved<W>`| `View<T***[W], LayoutRight>(ceil(nsys/W), n, ldab)` | (s/W, j, r, s%W)    |
// | `layout::strided`       | `View<T***, LayoutStride>(nsys, n, ldab)`, any strides | (s, j, r)       |
//
// Strided Views describe existing arrays (a subview of a larger band array: every other system,
// a padded leading dimension); the solver reads their strides, and runs lane-contiguous packs
// when the system stride of the band and the right-hand sides is 1.
// Element (s, j, r) is band row r of column j of system s in every layout. Row layout keeps each
// system's band contiguous (column-major with leading dimension ldab: LAPACK can read it as is);
// interleaved<W> packs put W systems side by side in every band entry, so SIMD lanes are systems
// and the fill-in rows are never read; column layout puts all systems side by side.
//
// Right-hand sides (x overwrites them), with nrhs right-hand sides per system:
// | layout                  | one right-hand side                 | several                              |
// | ----------------------- | ----------------------------------- | ------------------------------------ |
// | `layout::row`           | `View<T**, LayoutRight>(nsys, n)`   | `View<T***, LayoutRight>(nsys, nrhs, n)` |
// | `layout::column`        | `View<T**, LayoutLeft>(nsys, n)`    | `View<T***, LayoutLeft>(nsys, n, nrhs)`  |
// | `layout::interleaved<W>`| `View<T**[W], LayoutRight>(packs, n)` | `View<T***[W], LayoutRight>(packs, nrhs, n)` |
// | `layout::strided`       | `View<T**, LayoutStride>(nsys, n)`  | `View<T***, LayoutStride>(nsys, n, nrhs)` |
// Row layout's several right-hand sides are LAPACK's B with ldb = n for every system.
#include <bandsolve/core/config.hpp>
#include <bandsolve/layout/layout_of.hpp>

#include <string>
#include <type_traits>

namespace bandsolve {

namespace detail {
template <class View, int Rank = static_cast<int>(View::rank),
          class ArrayLayout = typename View::array_layout>
struct band_layout_impl {
  using type = unsupported_layout;
};
template <class View>
struct band_layout_impl<View, 3, Kokkos::LayoutRight> {
  using type = std::conditional_t<View::static_extent(2) == 0, layout::row, unsupported_layout>;
};
template <class View>
struct band_layout_impl<View, 3, Kokkos::LayoutLeft> {
  using type = layout::column;
};
template <class View>
struct band_layout_impl<View, 3, Kokkos::LayoutStride> {
  using type = layout::strided;
};
template <class View>
struct band_layout_impl<View, 4, Kokkos::LayoutRight> {
  static constexpr std::size_t W = View::static_extent(3);
  using type = std::conditional_t<(W > 0), layout::interleaved<static_cast<int>(W)>,
                                  unsupported_layout>;
};

// Right-hand sides: the batch Views of the core (one per system) or one rank more (several).
template <class View, int Rank = static_cast<int>(View::rank),
          class ArrayLayout = typename View::array_layout>
struct rhs_layout_impl {
  using type = unsupported_layout;
  static constexpr bool several = false;
};
template <class View>
struct rhs_layout_impl<View, 2, Kokkos::LayoutRight> {
  using type = layout::row;
  static constexpr bool several = false;
};
template <class View>
struct rhs_layout_impl<View, 2, Kokkos::LayoutLeft> {
  using type = layout::column;
  static constexpr bool several = false;
};
template <class View>
struct rhs_layout_impl<View, 3, Kokkos::LayoutRight> {
  static constexpr std::size_t W = View::static_extent(2);
  using type = std::conditional_t<(W > 0), layout::interleaved<static_cast<int>(W)>, layout::row>;
  static constexpr bool several = W == 0;
};
template <class View>
struct rhs_layout_impl<View, 3, Kokkos::LayoutLeft> {
  using type = layout::column;
  static constexpr bool several = true;
};
template <class View>
struct rhs_layout_impl<View, 2, Kokkos::LayoutStride> {
  using type = layout::strided;
  static constexpr bool several = false;
};
template <class View>
struct rhs_layout_impl<View, 3, Kokkos::LayoutStride> {
  using type = layout::strided;
  static constexpr bool several = true;
};
template <class View>
struct rhs_layout_impl<View, 4, Kokkos::LayoutRight> {
  static constexpr std::size_t W = View::static_extent(3);
  using type = std::conditional_t<(W > 0), layout::interleaved<static_cast<int>(W)>,
                                  unsupported_layout>;
  static constexpr bool several = true;
};
}  // namespace detail

// Layout policy of a band View (unsupported_layout if it is none of the three shapes above).
template <class View>
using band_layout_of_t = typename detail::band_layout_impl<View>::type;
// Layout policy of a right-hand-side View, and whether it holds several per system.
template <class View>
using rhs_layout_of_t = typename detail::rhs_layout_impl<View>::type;
template <class View>
inline constexpr bool rhs_has_several_v = detail::rhs_layout_impl<View>::several;

#define BANDSOLVE_SUPPORTED_BAND_VIEWS                                                     \
  "band storage must be Kokkos::View<T***, LayoutRight>(nsys, n, ldab) (layout::row), "  \
  "View<T***, LayoutLeft>(nsys, n, ldab) (layout::column), "                            \
  "View<T***[W], LayoutRight>(packs, n, ldab) (layout::interleaved<W>) or "              \
  "View<T***, LayoutStride>(nsys, n, ldab) (layout::strided)"
#define BANDSOLVE_SUPPORTED_RHS_VIEWS                                                       \
  "right-hand sides must be View<T**, LayoutRight>(nsys, n) or View<T***, LayoutRight>"   \
  "(nsys, nrhs, n) (row), View<T**, LayoutLeft>(nsys, n) or View<T***, LayoutLeft>(nsys, " \
  "n, nrhs) (column), View<T**[W]>(packs, n) or View<T***[W]>(packs, nrhs, n) "            \
  "(interleaved<W>), View<T**, LayoutStride>(nsys, n) or View<T***, LayoutStride>(nsys, n, " \
  "nrhs) (strided), in the layout of the band"

namespace banded {

// Leading dimension LAPACK's ?gbtrf needs: the band plus kl fill-in rows.
inline std::size_t ldab_for(int kl, int ku) {
  return 2 * static_cast<std::size_t>(kl) + static_cast<std::size_t>(ku) + 1;
}

// Zero-filled band storage for nsys systems of n rows with bandwidths kl, ku (ldab = 2kl+ku+1).
template <class Layout, class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
auto make_band(const std::string& label, std::size_t nsys, std::size_t n, int kl, int ku) {
  const std::size_t ldab = ldab_for(kl < 0 ? 0 : kl, ku < 0 ? 0 : ku);
  if constexpr (std::is_same_v<Layout, layout::row>) {
    return Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace>(label, nsys, n, ldab);
  } else if constexpr (std::is_same_v<Layout, layout::column>) {
    return Kokkos::View<T***, Kokkos::LayoutLeft, MemorySpace>(label, nsys, n, ldab);
  } else if constexpr (!std::is_same_v<Layout, layout::strided> &&
                       !std::is_same_v<Layout, unsupported_layout>) {
    constexpr auto W = static_cast<std::size_t>(Layout::width);
    return Kokkos::View<T*** [W], Kokkos::LayoutRight, MemorySpace>(label, (nsys + W - 1) / W, n,
                                                                   ldab);
  } else {
    static_assert(std::is_same_v<Layout, layout::row>,
                  "bandsolve::banded::make_band: the layout must be layout::row, layout::column "
                  "or layout::interleaved<W>");
  }
}

// Zero-filled storage for nrhs right-hand sides of nsys systems of n rows (the "several" shapes).
template <class Layout, class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
auto make_rhs(const std::string& label, std::size_t nsys, std::size_t n, std::size_t nrhs) {
  if constexpr (std::is_same_v<Layout, layout::row>) {
    return Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace>(label, nsys, nrhs, n);
  } else if constexpr (std::is_same_v<Layout, layout::column>) {
    return Kokkos::View<T***, Kokkos::LayoutLeft, MemorySpace>(label, nsys, n, nrhs);
  } else if constexpr (!std::is_same_v<Layout, layout::strided> &&
                       !std::is_same_v<Layout, unsupported_layout>) {
    constexpr auto W = static_cast<std::size_t>(Layout::width);
    return Kokkos::View<T*** [W], Kokkos::LayoutRight, MemorySpace>(label, (nsys + W - 1) / W,
                                                                   nrhs, n);
  } else {
    static_assert(std::is_same_v<Layout, layout::row>,
                  "bandsolve::banded::make_rhs: the layout must be layout::row, layout::column "
                  "or layout::interleaved<W>");
  }
}

// Band row r of column j of system s, in any band layout (usable in kernels).
template <class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type band_entry(const View& ab, index_t s,
                                                                index_t j, index_t r) {
  using Layout = band_layout_of_t<View>;
  static_assert(!std::is_same_v<Layout, unsupported_layout>,
                "bandsolve::banded::band_entry: " BANDSOLVE_SUPPORTED_BAND_VIEWS);
  if constexpr (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::column> ||
                std::is_same_v<Layout, layout::strided>)
    return ab(s, j, r);
  else
    return ab(s / Layout::width, j, r, s % Layout::width);
}

// A(i, j) of system s for bandwidths kl, ku: band row kl + ku + i - j of column j. The caller
// keeps (i, j) inside the band.
template <class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type band_at(const View& ab, int kl, int ku,
                                                             index_t s, index_t i, index_t j) {
  return band_entry(ab, s, j, static_cast<index_t>(kl) + ku + i - j);
}

// Row i of right-hand side k of system s, in any right-hand-side shape (usable in kernels).
template <class View>
KOKKOS_INLINE_FUNCTION typename View::reference_type rhs_at(const View& b, index_t s, index_t i,
                                                            index_t k = 0) {
  using Layout = rhs_layout_of_t<View>;
  static_assert(!std::is_same_v<Layout, unsupported_layout>,
                "bandsolve::banded::rhs_at: " BANDSOLVE_SUPPORTED_RHS_VIEWS);
  constexpr bool several = rhs_has_several_v<View>;
  if constexpr (std::is_same_v<Layout, layout::row>) {
    if constexpr (several) return b(s, k, i);
    else return b(s, i);
  } else if constexpr (std::is_same_v<Layout, layout::column> ||
                       std::is_same_v<Layout, layout::strided>) {
    if constexpr (several) return b(s, i, k);
    else return b(s, i);
  } else {
    constexpr int W = Layout::width;
    if constexpr (several) return b(s / W, k, i, s % W);
    else return b(s / W, i, s % W);
  }
}

}  // namespace banded
}  // namespace bandsolve
