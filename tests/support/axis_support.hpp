#pragma once
// Helpers of the tests of solves along an axis of an N-D array (block and banded lines): arrays
// of any rank in LayoutRight order, LayoutLeft order or as padded strided subviews, all as one
// LayoutStride View type per rank (one instantiation of the solver per rank), element access
// through the strides, and the grid point of row i of line s in solve_along's numbering.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace bstest {

template <class T, int N>
struct pointers {
  using type = typename pointers<T, N - 1>::type*;
};
template <class T>
struct pointers<T, 0> {
  using type = T;
};
// Every array of the tests is a host View of this type: one instantiation per rank, any order.
template <class T, int N>
using strided =
    Kokkos::View<typename pointers<T, N>::type, Kokkos::LayoutStride, Kokkos::HostSpace>;

enum class order { right, left, padded };

inline const char* order_name(order o) {
  return o == order::right ? "right" : o == order::left ? "left" : "padded";
}

// An array of extents ext in `o` order and the allocation it lies in: `padded` is a LayoutRight
// array one larger in every extent, its padding holding `fill`; the other orders fill their own
// allocation. Both Views are built where they are declared (never a default View assigned or
// destroyed: the Kokkos 4.6.99 snapshot crashes on either, see docs/development.md).
template <class T, int N>
struct array_in_buffer {
  strided<T, N> view;
  strided<T, N> whole;
};
template <class T, std::size_t N, std::size_t... I>
array_in_buffer<T, int(N)> make_array_in_buffer(const std::string& label,
                                                const std::array<std::size_t, N>& ext, order o,
                                                T fill, std::index_sequence<I...>) {
  using data = typename pointers<T, int(N)>::type;
  using left = Kokkos::View<data, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  using right = Kokkos::View<data, Kokkos::LayoutRight, Kokkos::HostSpace>;
  if (o == order::left) {
    const strided<T, int(N)> v(left(label, ext[I]...));
    return {v, v};
  }
  if (o == order::right) {
    const strided<T, int(N)> v(right(label, ext[I]...));
    return {v, v};
  }
  const right big(label, (ext[I] + 1)...);
  Kokkos::deep_copy(big, fill);
  return {strided<T, int(N)>(Kokkos::subview(big, std::make_pair(std::size_t(0), ext[I])...)),
          strided<T, int(N)>(big)};
}
template <class T, std::size_t N>
array_in_buffer<T, int(N)> make_array_in_buffer(const std::string& label,
                                                const std::array<std::size_t, N>& ext, order o,
                                                T fill = T(0)) {
  return make_array_in_buffer<T, N>(label, ext, o, fill, std::make_index_sequence<N>{});
}
template <class T, std::size_t N>
strided<T, int(N)> make_array(const std::string& label, const std::array<std::size_t, N>& ext,
                              order o, T fill = T(0)) {
  return make_array_in_buffer<T, N>(label, ext, o, fill).view;
}

// Element idx of v (any rank), through its strides.
template <class View, std::size_t N>
typename View::value_type& at(const View& v, const std::array<std::size_t, N>& idx) {
  std::size_t off = 0;
  for (std::size_t k = 0; k < N; ++k) off += idx[k] * v.stride(k);
  return v.data()[off];
}

// Grid point of row i of line s along `axis` (lines numbered by the other axes, last fastest).
template <std::size_t R>
std::array<std::size_t, R> point_of(const std::array<std::size_t, R>& grid, int axis,
                                    std::size_t s, std::size_t i) {
  std::array<std::size_t, R> p{};
  for (int k = int(R) - 1; k >= 0; --k) {
    if (k == axis) continue;
    p[k] = s % grid[k];
    s /= grid[k];
  }
  p[axis] = i;
  return p;
}

template <std::size_t R, class... Tail>
std::array<std::size_t, R + sizeof...(Tail)> extend(const std::array<std::size_t, R>& p,
                                                    Tail... tail) {
  std::array<std::size_t, R + sizeof...(Tail)> q{};
  for (std::size_t k = 0; k < R; ++k) q[k] = p[k];
  const std::size_t t[] = {static_cast<std::size_t>(tail)...};
  for (std::size_t k = 0; k < sizeof...(Tail); ++k) q[R + k] = t[k];
  return q;
}

template <std::size_t R>
std::array<std::size_t, R> grid_of(const std::vector<std::size_t>& g) {
  std::array<std::size_t, R> a{};
  for (std::size_t k = 0; k < R; ++k) a[k] = g[k];
  return a;
}

// Whether factorizations f and g solve the same right-hand sides to the same bits: rhs (every
// value of an allocation laid out as x's and y's) copied into x and y, x by f and y by g.
template <class Exec, class F, class G, class View, class T>
bool same_solves(const Exec& exec, const F& f, const G& g, const View& x, const View& y,
                 const std::vector<T>& rhs) {
  std::copy(rhs.begin(), rhs.end(), x.data());
  std::copy(rhs.begin(), rhs.end(), y.data());
  f.solve(exec, x);
  g.solve(exec, y);
  exec.fence();
  return std::memcmp(x.data(), y.data(), rhs.size() * sizeof(T)) == 0;
}

}  // namespace bstest
