#pragma once
// Copies a batch between any two layouts on the device, without a host round trip.
#include <bandsolve/core/errors.hpp>
#include <bandsolve/layout/layout_of.hpp>

namespace bandsolve {

namespace detail {
template <class Layout>
constexpr index_t padding_slack() {
  if constexpr (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::column> ||
                std::is_same_v<Layout, layout::strided>)
    return 0;
  else
    return Layout::width - 1;
}
}  // namespace detail

// dst(s, i) = src(s, i) for the first nsys systems, where nsys is the smaller capacity. The two
// capacities may differ only by the padding of interleaved packs; anything else throws.
// Enqueued on exec; not fenced.
template <class ExecutionSpace, class SrcView, class DstView>
void convert(const ExecutionSpace& exec, const SrcView& src, const DstView& dst) {
  static_assert(is_batch_view_v<SrcView> && is_batch_view_v<DstView>,
                "bandsolve::convert: " BANDSOLVE_SUPPORTED_VIEWS);
  static_assert(std::is_same_v<typename DstView::non_const_value_type,
                               typename DstView::value_type>,
                "bandsolve::convert: dst must not be a View of const");
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, typename SrcView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecutionSpace, typename DstView::memory_space>::accessible,
                "bandsolve::convert: src and dst must be accessible from the execution space");
  using SrcLayout = layout_of_t<SrcView>;
  using DstLayout = layout_of_t<DstView>;
  const char* fn = "bandsolve::convert";
  const index_t n = SrcLayout::rows(src);
  if (DstLayout::rows(dst) != n)
    detail::throw_invalid_argument(fn, "dst has ", DstLayout::rows(dst), " rows but src has ", n);
  const index_t cs = SrcLayout::capacity(src), cd = DstLayout::capacity(dst);
  const index_t nsys = cs < cd ? cs : cd;
  const index_t slack = cs > cd ? detail::padding_slack<SrcLayout>() : detail::padding_slack<DstLayout>();
  if ((cs > cd ? cs - cd : cd - cs) > slack)
    detail::throw_invalid_argument(fn, "src holds ", cs, " systems (", SrcLayout::name,
                                   ") but dst holds ", cd, " (", DstLayout::name,
                                   "); they may differ only by the padding of the last pack");
  if (nsys == 0 || n == 0) return;
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(
      "bandsolve::convert", range(exec, 0, static_cast<typename range::member_type>(nsys * n)),
      KOKKOS_LAMBDA(const index_t k) {
        const index_t s = k / n, i = k % n;
        DstLayout::at(dst, s, i) = SrcLayout::at(src, s, i);
      });
}

}  // namespace bandsolve
