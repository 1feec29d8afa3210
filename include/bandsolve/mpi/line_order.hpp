#pragma once
// The order in which the distributed solves along an axis number the lines among themselves:
// the batch axes (every axis but the solve axis) sorted by their stride, largest first, so that
// lines with neighbouring numbers lie side by side in memory wherever the array allows. In a
// LayoutRight array that is solve_along's own numbering (last batch axis fastest); in a
// LayoutLeft array it is the reverse, and numbered as solve_along numbers them its lines would
// be read far apart (the strided packs: 2-9x slower than the row and column passes, measured).
// The passes and the exchange work on Views whose batch axes are permuted into this order (no
// data moves); the info codes are put back into solve_along's numbering at the end. Every rank
// must number alike: each proposes its order in the collective check and the ranks take it when
// all agree, else solve_along's numbering (collective_checks.hpp).
#include <bandsolve/core/config.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace bandsolve::mpi::detail {

// axes[k]: the axis of the caller's array at position k of the permuted one (the solve axis
// keeps its position).
struct line_order {
  int axes[4] = {0, 1, 2, 3};

  bool natural() const {
    for (int k = 0; k < 4; ++k)
      if (axes[k] != k) return false;
    return true;
  }
  // One number for the collective check: 1 + sum of axes[k] 4^k (never 0).
  long long code() const {
    long long c = 0;
    for (int k = 3; k >= 0; --k) c = 4 * c + axes[k];
    return c + 1;
  }
  // The order of code() (anything else, 0 included: solve_along's numbering).
  static line_order from_code(long long c) {
    line_order o;
    if (c < 1 || c > 256) return o;
    c -= 1;
    bool used[4] = {false, false, false, false};
    for (int k = 0; k < 4; ++k, c /= 4) {
      o.axes[k] = static_cast<int>(c % 4);
      if (used[o.axes[k]]) return line_order{};
      used[o.axes[k]] = true;
    }
    return o;
  }
};

// The batch axes of v (all but `axis`) sorted by stride, largest first; equal strides keep their
// order, so a LayoutRight array (and a rank-1 View) keeps solve_along's numbering.
template <class View>
line_order memory_order(int axis, const View& v) {
  constexpr int rank = static_cast<int>(View::rank);
  line_order o;
  if constexpr (rank > 1) {
    int batch[4] = {0, 0, 0, 0}, sorted[4] = {0, 0, 0, 0};
    int count = 0;
    for (int k = 0; k < rank; ++k)
      if (k != axis) {
        batch[count] = sorted[count] = k;
        ++count;
      }
    for (int i = 1; i < count; ++i)  // insertion sort: stable
      for (int j = i; j > 0 && v.stride(sorted[j]) > v.stride(sorted[j - 1]); --j) {
        const int t = sorted[j];
        sorted[j] = sorted[j - 1];
        sorted[j - 1] = t;
      }
    for (int i = 0; i < count; ++i) o.axes[batch[i]] = sorted[i];
  }
  return o;
}

template <class T, int Rank>
struct pointer_of_rank {
  using type = typename pointer_of_rank<T, Rank - 1>::type*;
};
template <class T>
struct pointer_of_rank<T, 0> {
  using type = T;
};

// v with its axes in order o: a LayoutStride View over v's own memory (unmanaged; v keeps it
// alive). Rank-1 Views (coefficients shared by every line) are returned as they are.
template <class View>
auto permuted(const View& v, const line_order& o) {
  constexpr int rank = static_cast<int>(View::rank);
  if constexpr (rank == 1) {
    return v;
  } else {
    using P = Kokkos::View<typename pointer_of_rank<typename View::value_type, rank>::type,
                           Kokkos::LayoutStride, typename View::memory_space>;
    const auto e = [&](int k) { return v.extent(static_cast<std::size_t>(o.axes[k])); };
    const auto s = [&](int k) { return v.stride(static_cast<std::size_t>(o.axes[k])); };
    if constexpr (rank == 2)
      return P(v.data(), Kokkos::LayoutStride(e(0), s(0), e(1), s(1)));
    else if constexpr (rank == 3)
      return P(v.data(), Kokkos::LayoutStride(e(0), s(0), e(1), s(1), e(2), s(2)));
    else
      return P(v.data(), Kokkos::LayoutStride(e(0), s(0), e(1), s(1), e(2), s(2), e(3), s(3)));
  }
}

// Line number j in order o (batch indices of the permuted array, last fastest) -> its number in
// solve_along's (batch indices of the caller's array in axis order, last fastest).
struct line_renumbering {
  int rank = 0;
  index_t extent[4] = {1, 1, 1, 1};       // of the permuted array's positions (the axis's: 1)
  index_t user_weight[4] = {0, 0, 0, 0};  // the weight of each position's axis in the caller's

  template <class View>
  line_renumbering(int axis, const View& v, const line_order& o)
      : rank(static_cast<int>(View::rank)) {
    index_t weight[4] = {0, 0, 0, 0}, w = 1;
    for (int k = rank - 1; k >= 0; --k)
      if (k != axis) {
        weight[k] = w;
        w *= static_cast<index_t>(v.extent(static_cast<std::size_t>(k)));
      }
    for (int k = 0; k < rank; ++k)
      if (k != axis) {
        extent[k] = static_cast<index_t>(v.extent(static_cast<std::size_t>(o.axes[k])));
        user_weight[k] = weight[o.axes[k]];
      }
  }

  KOKKOS_INLINE_FUNCTION index_t operator()(index_t j) const {
    index_t u = 0;
    for (int k = rank - 1; k >= 0; --k) {
      u += (j % extent[k]) * user_weight[k];
      j /= extent[k];
    }
    return u;
  }
};

// info(renumber(j)) = codes(j) for every line j, on exec (not fenced).
template <class CodesView, class InfoView>
struct renumber_codes {
  CodesView codes;
  InfoView info;
  line_renumbering renumber;
  KOKKOS_INLINE_FUNCTION void operator()(index_t j) const { info(renumber(j)) = codes(j); }
};

template <class ExecutionSpace, class CodesView, class InfoView>
void put_codes_in_caller_order(const ExecutionSpace& exec, const line_renumbering& renumber,
                               const CodesView& codes, const InfoView& info) {
  Kokkos::parallel_for("bandsolve::mpi::line_order renumber",
                       Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<index_t>>(
                           exec, 0, static_cast<index_t>(codes.extent(0))),
                       renumber_codes<CodesView, InfoView>{codes, info, renumber});
}

// solve(codes) with the info codes of the lines in order o: straight into info when o is
// solve_along's numbering, else into a View of codes put back into info's order after it.
// Fences exec.
template <class ExecutionSpace, class View, class InfoView, class Solve>
void solve_in_line_order(const ExecutionSpace& exec, int axis, const View& d, const line_order& o,
                         const InfoView& info, const Solve& solve) {
  if (o.natural()) {
    solve(info);
  } else {
    const Kokkos::View<int*, typename InfoView::memory_space> codes(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "bandsolve::mpi line order info"),
        info.extent(0));
    solve(codes);
    put_codes_in_caller_order(exec, line_renumbering(axis, d, o), codes, info);
  }
  exec.fence();
}

}  // namespace bandsolve::mpi::detail
