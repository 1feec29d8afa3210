#pragma once
// Arrays of 2 to 4 dimensions for the randomized tests of lines along an axis
// (test_axis_agreement, mpi/test_along_random): the grid's extents and its lines, Views of them
// in LayoutRight, LayoutLeft or as strided windows of padded arrays, and their values line by
// line (line s, row i at s * n + i).
#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bstest_random {

// The array's extents (unused trailing ones 1) and the axis; lines are numbered as solve_along's
// info numbers them (the other indices in axis order, last fastest).
struct grid {
  int rank = 2, axis = 0;
  std::array<std::size_t, 4> e = {1, 1, 1, 1};
  std::size_t n() const { return e[static_cast<std::size_t>(axis)]; }
  std::size_t lines() const { return e[0] * e[1] * e[2] * e[3] / n(); }
  // The multi-index of row i of line s.
  std::array<std::size_t, 4> at(std::size_t s, std::size_t i) const {
    std::array<std::size_t, 4> idx = {0, 0, 0, 0};
    for (int k = rank - 1; k >= 0; --k) {
      const auto q = static_cast<std::size_t>(k);
      if (k == axis) {
        idx[q] = i;
      } else {
        idx[q] = s % e[q];
        s /= e[q];
      }
    }
    return idx;
  }
};

template <class T, int R>
struct data_type;
template <class T>
struct data_type<T, 2> {
  using type = T**;
};
template <class T>
struct data_type<T, 3> {
  using type = T***;
};
template <class T>
struct data_type<T, 4> {
  using type = T****;
};

template <class ArrayLayout>
const char* layout_name() {
  if constexpr (std::is_same_v<ArrayLayout, Kokkos::LayoutRight>) return "LayoutRight";
  if constexpr (std::is_same_v<ArrayLayout, Kokkos::LayoutLeft>) return "LayoutLeft";
  return "strided window";
}

// An array of the grid's extents in ArrayLayout; LayoutStride: a window of a LayoutRight array
// with one layer of padding on every side, which holds a marker value (`whole`).
template <class T, int R, class ArrayLayout>
struct grid_array {
  using view = Kokkos::View<typename data_type<T, R>::type, ArrayLayout, Kokkos::HostSpace>;
  using right =
      Kokkos::View<typename data_type<T, R>::type, Kokkos::LayoutRight, Kokkos::HostSpace>;
  view v;
  right whole;
};

template <class T, int R, class ArrayLayout>
grid_array<T, R, ArrayLayout> make_array(const std::string& label, const grid& g) {
  using A = grid_array<T, R, ArrayLayout>;
  const auto e = [&](int k) { return g.e[static_cast<std::size_t>(k)]; };
  const auto pair = [&](int k) { return std::make_pair(std::size_t(1), e(k) + 1); };
  A out;
  if constexpr (!std::is_same_v<ArrayLayout, Kokkos::LayoutStride>) {
    if constexpr (R == 2) out.v = typename A::view(label, e(0), e(1));
    if constexpr (R == 3) out.v = typename A::view(label, e(0), e(1), e(2));
    if constexpr (R == 4) out.v = typename A::view(label, e(0), e(1), e(2), e(3));
  } else {
    if constexpr (R == 2) out.whole = typename A::right(label, e(0) + 2, e(1) + 2);
    if constexpr (R == 3) out.whole = typename A::right(label, e(0) + 2, e(1) + 2, e(2) + 2);
    if constexpr (R == 4)
      out.whole = typename A::right(label, e(0) + 2, e(1) + 2, e(2) + 2, e(3) + 2);
    Kokkos::deep_copy(out.whole, T(777));
    if constexpr (R == 2) out.v = Kokkos::subview(out.whole, pair(0), pair(1));
    if constexpr (R == 3) out.v = Kokkos::subview(out.whole, pair(0), pair(1), pair(2));
    if constexpr (R == 4) out.v = Kokkos::subview(out.whole, pair(0), pair(1), pair(2), pair(3));
  }
  return out;
}

template <class View>
auto& element(const View& v, const std::array<std::size_t, 4>& i) {
  return v.access(i[0], i[1], i[2], i[3]);
}

template <class View>
void scatter(const View& v, const grid& g, const std::vector<double>& h) {
  using T = typename View::non_const_value_type;
  const std::size_t n = g.n();
  for (std::size_t s = 0; s < g.lines(); ++s)
    for (std::size_t i = 0; i < n; ++i) element(v, g.at(s, i)) = static_cast<T>(h[s * n + i]);
}

template <class View>
std::vector<double> gather(const View& v, const grid& g) {
  const std::size_t n = g.n();
  std::vector<double> h(g.lines() * n);
  for (std::size_t s = 0; s < g.lines(); ++s)
    for (std::size_t i = 0; i < n; ++i) h[s * n + i] = static_cast<double>(element(v, g.at(s, i)));
  return h;
}

// Whether every padding value of a strided window still holds the marker.
template <class A>
bool padding_untouched(const A& arr, const grid& g) {
  using T = typename A::right::value_type;
  if (arr.whole.size() == 0) return true;
  const T* p = arr.whole.data();
  for (std::size_t k = 0; k < arr.whole.size(); ++k) {
    std::size_t rest = k;
    bool padding = false;
    for (int q = g.rank - 1; q >= 0; --q) {
      const std::size_t ext = g.e[static_cast<std::size_t>(q)] + 2, i = rest % ext;
      rest /= ext;
      padding = padding || i == 0 || i == ext - 1;
    }
    if (padding && !(p[k] == T(777))) return false;
  }
  return true;
}

}  // namespace bstest_random
