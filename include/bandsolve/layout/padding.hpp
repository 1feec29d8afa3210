#pragma once
// Padded storage: batches and N-D arrays allocated a little wider than their extents, so that
// consecutive rows of a solve's lanes do not start at the same offset in their pages.
//
//   bandsolve::padded_pitch<T>(count)              elements to allocate for `count` per line
//   bandsolve::make_padded_batch<Layout, T>(label, nsys, n)
//   bandsolve::make_padded_array<T***>(label, nx, ny, nz)       (rank 2 to 4)
//
// Why: a column block (and a solve along a non-unit-stride axis) reads a run of 512 bytes on each
// row, rows one pitch apart. When the pitch is a multiple of 4 KiB (a column batch of 65536
// doubles, x in a 256^3 cube), every row's run sits at the same offset in its page, and on the
// test machine the solve ran at 0.77 ns per unknown against 0.61 for a pitch of 65600 (512 bytes
// more). A pitch 64 bytes or 4 KiB past the multiple measured nearly as slow as the multiple; one
// that moves each row's run to the next 512-byte slot of the page (an odd multiple of 512 bytes)
// measured fast. Why is still open: not 4 KiB store-to-load aliasing (kernels that keep their
// stores away from the next row's loads lose as much), not the cache capacity for d' (n = 64
// loses as much); whether the memory traffic alone loses depends on where the arrays lie
// (docs/performance.md). So a padded pitch of 4 KiB or more is an odd
// multiple of 512 bytes; shorter pitches only keep the factors of two that let the next axis's
// pitch be one (docs/api.md, "Layouts").
//
// make_padded_batch<layout::column> returns a View<T**, LayoutLeft> of extents (nsys, n) whose
// stride(1) is padded_pitch<T>(nsys): the same type as make_batch's, so every solver takes it
// as a column batch. The padding lanes are allocated (zero-filled) but never read nor written by
// the solvers; data() + i*stride(1) + s addresses system s, row i. Row and interleaved batches
// need no padding (a pack's rows are contiguous) and come from make_batch.
//
// make_padded_array<T**...>(label, e0, ..., e{R-1}) allocates LayoutRight storage (last index
// fastest) with every extent but the first padded as above, and returns the LayoutStride
// subview of the requested extents: the form solve_along takes for ADI-style fields.
// For 256^3 doubles the storage is 256 x 264 x 264 (6% more memory).
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/errors.hpp>
#include <bandsolve/layout/layout_of.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve {

namespace detail {

inline constexpr std::size_t padding_slot_bytes = 512;  // the run a column block reads per row
inline constexpr std::size_t padding_page_bytes = 4096;

constexpr int twos_in(std::size_t v) {  // 2-adic valuation; v > 0
  int k = 0;
  while (v % 2 == 0) v /= 2, ++k;
  return k;
}

// Whether consecutive lines `bytes` apart start in different 512-byte slots of the page, each in
// the next-but-k slot for an odd k (all eight slots in turn): an odd multiple of 512 bytes.
constexpr bool spreads_over_page(std::size_t bytes) {
  return bytes % (2 * padding_slot_bytes) == padding_slot_bytes;
}

// The smallest multiple of `align` >= count whose pitch (times `step_bytes` per element) is good:
// 4 KiB or more: spreads_over_page; shorter (N-D arrays: this axis's lines are short, but its
// pitch times the next axis's extent is the next pitch): at most 2^9 divides it, so that the next
// axis can still be padded to an odd multiple of 512. At most an eighth more than count rounded
// up to align; where none is that close (a tiny faster axis leaves few factors of two in the
// pitch), count rounded up to align.
constexpr std::size_t padded_count(std::size_t count, std::size_t step_bytes, std::size_t align,
                                   bool short_pitch_rule) {
  const std::size_t first = (count + align - 1) / align * align;
  if (first == 0 || step_bytes == 0) return first;
  const auto good = [&](std::size_t bytes) {
    if (bytes >= padding_page_bytes) return spreads_over_page(bytes);
    return !short_pitch_rule || twos_in(bytes) <= 9;
  };
  for (std::size_t p = first; p <= first + count / 8; p += align)
    if (good(p * step_bytes)) return p;
  return first;
}

}  // namespace detail

// Elements to allocate per row of a column batch of `count` values of T: count when that is under
// 4 KiB or already an odd multiple of 512 bytes, else the next count that is one (at most 1 KiB
// more, and at most an eighth more). T's size must divide 512 (int, float, double, complex).
template <class T>
constexpr std::size_t padded_pitch(std::size_t count) {
  static_assert(detail::padding_slot_bytes % sizeof(T) == 0,
                "bandsolve::padded_pitch: sizeof(T) must divide 512");
  return detail::padded_count(count, sizeof(T), 1, false);
}

// One array of a batch in Layout's storage, padded where the layout reads runs of rows.
template <class Layout, class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
auto make_padded_batch(const std::string& label, std::size_t nsys, std::size_t n) {
  if constexpr (std::is_same_v<Layout, layout::column>) {
    using view = typename layout::column::template view_type<T, MemorySpace>;
    const view storage(label, padded_pitch<T>(nsys), n);
    return view(Kokkos::subview(storage, std::make_pair(std::size_t(0), nsys), Kokkos::ALL));
  } else {
    return make_batch<Layout, T, MemorySpace>(label, nsys, n);
  }
}

namespace detail {

// Padded extents of LayoutRight storage for extents e (rank R): e[0] as is, e[1..R-1] padded from
// the fastest axis outwards so that every axis's pitch (the product of the faster padded
// extents) is good. The fastest axis is rounded up to whole cache lines once it spans one.
template <class T, std::size_t R>
std::array<std::size_t, R> padded_extents(const std::array<std::size_t, R>& e) {
  std::array<std::size_t, R> p = e;
  std::size_t step = sizeof(T);  // bytes per index of axis k (its stride)
  for (std::size_t k = R - 1; k >= 1; --k) {
    const std::size_t line = 64 / sizeof(T);
    const std::size_t align = (k == R - 1 && e[k] >= line) ? line : 1;
    p[k] = padded_count(e[k], step, align, true);
    step *= p[k];
  }
  return p;
}

template <class DataType>
struct padded_array_traits {
  using view = Kokkos::View<DataType, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using value_type = typename view::non_const_value_type;
  static constexpr std::size_t rank = static_cast<std::size_t>(view::rank);
};

// The padded storage, built where it is declared (docs/development.md).
template <class DataType, class MemorySpace, class Extents, std::size_t... K>
Kokkos::View<DataType, Kokkos::LayoutRight, MemorySpace> padded_storage(const std::string& label,
                                                                        const Extents& p,
                                                                        std::index_sequence<K...>) {
  return Kokkos::View<DataType, Kokkos::LayoutRight, MemorySpace>(label, p[K]...);
}

template <class Storage, std::size_t... K>
auto padded_subview(const Storage& storage, const std::array<std::size_t, sizeof...(K)>& e,
                    std::index_sequence<K...>) {
  return Kokkos::subview(storage, std::make_pair(std::size_t(0), e[K])...);
}

}  // namespace detail

// A rank-2 to 4 array of the given extents inside padded LayoutRight storage (zero-filled), as a
// LayoutStride View: DataType is T** to T**** (T float, double or their complex types).
template <class DataType, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space,
          class... Extents>
Kokkos::View<DataType, Kokkos::LayoutStride, MemorySpace> make_padded_array(
    const std::string& label, Extents... extents) {
  using traits = detail::padded_array_traits<DataType>;
  using T = typename traits::value_type;
  constexpr std::size_t R = traits::rank;
  static_assert(R >= 2 && R <= 4, "bandsolve::make_padded_array: rank 2 to 4 (T** to T****)");
  static_assert(sizeof...(Extents) == R,
                "bandsolve::make_padded_array: one extent per rank of DataType");
  static_assert(detail::padding_slot_bytes % sizeof(T) == 0,
                "bandsolve::make_padded_array: sizeof(T) must divide 512");
  const std::array<long long, R> given{static_cast<long long>(extents)...};
  std::array<std::size_t, R> e{};
  for (std::size_t k = 0; k < R; ++k) {
    if (given[k] < 0)
      detail::throw_invalid_argument("bandsolve::make_padded_array", "extent ", k, " = ",
                                     given[k], " is negative");
    e[k] = static_cast<std::size_t>(given[k]);
  }
  const auto p = detail::padded_extents<T, R>(e);
  const auto storage =
      detail::padded_storage<DataType, MemorySpace>(label, p, std::make_index_sequence<R>{});
  return detail::padded_subview(storage, e, std::make_index_sequence<R>{});
}

}  // namespace bandsolve
