#pragma once
// u += x for the solves along an axis whose kernels overwrite their right-hand sides (band lines
// on every backend, block lines on the device backend; one-shot and factored): d, only read, is
// copied into scratch shaped like d (compact, its axes in the order of d's strides, so that its
// lines group into the packs d's would), the family's solve runs there in place, and the
// solution is added into u. Two passes
// besides the solve: d read and the copy written, then the copy and u read and u written: 5
// words per unknown, where the solves of these families read 2kl + ku + 1 band values or 3m + 1
// block values per unknown besides d (their arithmetic, not their traffic, sets their time).
// The scratch is a buffer of its own kept between calls (backend/scratch.hpp; freed by
// bandsolve::release_scratch_cache()), held until the call's kernels are fenced.
#include <bandsolve/backend/scratch.hpp>
#include <bandsolve/core/config.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <mutex>
#include <type_traits>

namespace bandsolve::detail {

struct add_through_copy_tag {};

// dst = src (Add false) or dst += src (Add true), one element per index of an MDRange.
template <bool Add, class Src, class Dst>
struct elementwise_copy {
  Src src;
  Dst dst;
  template <class... I>
  KOKKOS_INLINE_FUNCTION void operator()(const I... i) const {
    if constexpr (Add)
      dst(i...) += src(i...);
    else
      dst(i...) = src(i...);
  }
};

// Either pass over every index of src's extents, Order::Left with the first index fastest.
template <bool Add, Kokkos::Iterate Order, class ExecutionSpace, class Src, class Dst>
void copy_elements(const ExecutionSpace& exec, const char* label, const Src& src, const Dst& dst) {
  constexpr unsigned rank = Src::rank;
  constexpr Kokkos::Iterate order = Order;
  using policy = Kokkos::MDRangePolicy<ExecutionSpace, Kokkos::Rank<rank, order, order>>;
  typename policy::point_type first{}, last{};
  for (unsigned k = 0; k < rank; ++k) {
    first[k] = 0;
    last[k] = static_cast<typename policy::point_type::value_type>(src.extent(k));
  }
  Kokkos::parallel_for(label, policy(exec, first, last), elementwise_copy<Add, Src, Dst>{src, dst});
}

// Either pass over `size` elements of two arrays that have the same strides, both dense: one
// flat loop (an MDRange whose fastest extent is a point's m unknowns runs several times slower).
template <bool Add, class ExecutionSpace, class S, class D>
void copy_flat(const ExecutionSpace& exec, const char* label, S* src, D* dst, std::size_t size) {
  using range = Kokkos::RangePolicy<ExecutionSpace>;
  Kokkos::parallel_for(label, range(exec, 0, static_cast<typename range::member_type>(size)),
                       KOKKOS_LAMBDA(const index_t k) {
                         const D value = src[k];
                         D& out = dst[k];
                         if constexpr (Add)
                           out += value;
                         else
                           out = value;
                       });
}

// Whether v has x's strides (then v, like x, is dense and laid out as x is).
template <class View, class CopyView>
bool strides_match(const View& v, const CopyView& x) {
  for (unsigned k = 0; k < View::rank; ++k)
    if (v.extent(k) > 1 && v.stride(k) != x.stride(k)) return false;
  return true;
}

// u += x of the lines of d: solve(x) solves the lines of x, a View of d's extents and
// non-const scalar in LayoutStride, in place (the family's solve after its checks, which the
// caller has run on d and u). Fenced before return, as the scratch is released then.
template <class ExecutionSpace, class DView, class UView, class Solve>
void add_through_copy(const ExecutionSpace& exec, const char* label, const DView& d,
                      const UView& u, const Solve& solve) {
  using D = typename DView::non_const_value_type;
  using memory_space = typename ExecutionSpace::memory_space;
  using copy_view =
      Kokkos::View<typename DView::non_const_data_type, Kokkos::LayoutStride,
                   Kokkos::Device<ExecutionSpace, memory_space>,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  constexpr int rank = static_cast<int>(DView::rank);
  // The axes from d's smallest stride to its largest (ties: the later axis first, as in
  // LayoutRight), each the product of the extents before it.
  int by_stride[8] = {};
  for (int k = 0; k < rank; ++k) by_stride[k] = rank - 1 - k;
  for (int k = 1; k < rank; ++k)
    for (int j = k; j > 0 && d.stride(static_cast<std::size_t>(by_stride[j])) <
                                 d.stride(static_cast<std::size_t>(by_stride[j - 1]));
         --j) {
      const int t = by_stride[j];
      by_stride[j] = by_stride[j - 1];
      by_stride[j - 1] = t;
    }
  Kokkos::LayoutStride layout;
  std::size_t size = 1;
  for (int k = 0; k < rank; ++k) {
    const auto axis = static_cast<std::size_t>(by_stride[k]);
    layout.dimension[axis] = d.extent(axis);
    layout.stride[axis] = size;
    size = scratch_total(label, size, d.extent(axis), 0);
  }
  std::unique_lock<std::mutex> kept;  // holds the buffer until the kernels are fenced
  const auto buffer = scratch_buffer<memory_space, add_through_copy_tag>(
      exec, label, scratch_total(label, size, sizeof(D), 0), kept);
  const copy_view x(reinterpret_cast<D*>(buffer.data()), layout);
  // In d's memory order where d is LayoutLeft (first index fastest), else last index fastest.
  constexpr Kokkos::Iterate order =
      std::is_same_v<typename DView::array_layout, Kokkos::LayoutLeft> ? Kokkos::Iterate::Left
                                                                       : Kokkos::Iterate::Right;
  if (strides_match(d, x))
    copy_flat<false>(exec, label, d.data(), x.data(), size);
  else
    copy_elements<false, order>(exec, label, d, x);
  solve(x);
  if (strides_match(u, x))
    copy_flat<true>(exec, label, static_cast<const D*>(x.data()), u.data(), size);
  else
    copy_elements<true, order>(exec, label, x, u);
  exec.fence();
}

}  // namespace bandsolve::detail
