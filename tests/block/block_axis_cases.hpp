#pragma once
// Cases of the block lines along an axis (solve_along(block_thomas), or with Factored
// factorize_along and two solves; with Add solve_along_add or f.solve_add into a u in another
// order, d left as it was), shared by test_block_axis.cpp and test_block_axis_factor.cpp:
// random block-dominant lines of every axis of 2-D, 3-D and 4-D grids in every order against
// LAPACK ?gbsv, info codes and untouched padding. The including file defines
// BANDSOLVE_BLOCK_SIZES first.
#include "axis_support.hpp"
#include "block_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <array>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

using bandsolve::algo::block_thomas;
using bstest::at;
using bstest::extend;
using bstest::grid_of;
using bstest::make_array;
using bstest::order;
using bstest::order_name;
using bstest::point_of;
using bstest::strided;

namespace {

// The coefficient arrays of a case: a full grid array (rank R + 2) or a shared one (n, m, m).
template <class T, std::size_t R, bool Shared>
struct coefficient {
  using view = std::conditional_t<Shared, strided<T, 3>, strided<T, int(R) + 2>>;
  static view make(const std::string& label, const std::array<std::size_t, R>& grid, int axis,
                   std::size_t m, order o) {
    if constexpr (Shared)
      return make_array<T, 3>(label, {grid[axis], m, m}, o);
    else
      return make_array<T, R + 2>(label, extend(grid, m, m), o);
  }
  static T& entry(const view& v, const std::array<std::size_t, R>& grid, int axis, std::size_t s,
                  std::size_t i, std::size_t r, std::size_t c) {
    if constexpr (Shared)
      return at(v, std::array<std::size_t, 3>{i, r, c});
    else
      return at(v, extend(point_of(grid, axis, s, i), r, c));
  }
};

// Line s of p into the grid arrays (d: p's right-hand side, or for complex D over real T its
// two right-hand sides as real and imaginary parts).
template <std::size_t R, class CA, class CB, class CC, class T, class DArray>
void scatter_lines(const bstest::host_block_batch<T>& p, const std::array<std::size_t, R>& grid,
                   int axis, const typename CA::view& a, const typename CB::view& b,
                   const typename CC::view& c, const DArray& d) {
  using D = typename DArray::value_type;
  for (std::size_t s = 0; s < p.nsys; ++s)
    for (std::size_t i = 0; i < p.n; ++i)
      for (std::size_t r = 0; r < p.m; ++r) {
        for (std::size_t col = 0; col < p.m; ++col) {
          CA::entry(a, grid, axis, s, i, r, col) = p.a[p.blk(s, i, r, col)];
          CB::entry(b, grid, axis, s, i, r, col) = p.b[p.blk(s, i, r, col)];
          CC::entry(c, grid, axis, s, i, r, col) = p.c[p.blk(s, i, r, col)];
        }
        D& x = at(d, extend(point_of(grid, axis, s, i), r));
        if constexpr (!std::is_same_v<T, D>)
          x = D(p.d[p.vec(s, i, r, 0)], p.d[p.vec(s, i, r, 1)]);
        else
          x = p.d[p.vec(s, i, r, 0)];
      }
}

struct shape {
  std::vector<std::size_t> grid;
  int axis;
};

// One case: lines of p (line s of the grid is system s) solved along `axis`; returns the worst
// difference from LAPACK relative to its tolerance (<= 1 passes) and checks info and padding.
// D = Kokkos::complex<T> over real T takes p's two right-hand sides as real and imaginary parts.
// Add: u += x into a u in the next order after d's, holding u0 = (k mod 5) / 4 at its k-th
// point; x is read back as u - u0, and d must keep its values.
template <class T, class D, std::size_t R, bool SharedA, bool SharedB, bool SharedC,
          bool Factored = false, bool Add = false, class Exec, class... Backend>
void check_case(const Exec& exec, const std::array<std::size_t, R>& grid, int axis, std::size_t m,
                order coef_order, order d_order, std::uint32_t seed, block_thomas alg,
                Backend... backend) {
  constexpr bool split = !std::is_same_v<T, D>;  // complex d over real coefficients
  constexpr bool shared = SharedA || SharedB || SharedC;
  const std::size_t n = grid[axis];
  std::size_t nlines = 1;
  for (std::size_t k = 0; k < R; ++k)
    if (int(k) != axis) nlines *= grid[k];
  auto p = bstest::random_block_dominant<T>(nlines, n, m, split ? 2 : 1, seed);
  if (shared)  // every line the matrix of line 0 (the shared arrays hold it)
    for (std::size_t s = 1; s < nlines; ++s)
      for (std::size_t e = 0; e < n * m * m; ++e) {
        if (SharedA) p.a[s * n * m * m + e] = p.a[e];
        if (SharedB) p.b[s * n * m * m + e] = p.b[e];
        if (SharedC) p.c[s * n * m * m + e] = p.c[e];
      }
  using ca = coefficient<T, R, SharedA>;
  using cb = coefficient<T, R, SharedB>;
  using cc = coefficient<T, R, SharedC>;
  const auto a = ca::make("a", grid, axis, m, coef_order);
  const auto b = cb::make("b", grid, axis, m, coef_order);
  const auto c = cc::make("c", grid, axis, m, coef_order);
  const D sentinel = D(777);
  const auto d_array = bstest::make_array_in_buffer<D, R + 1>("d", extend(grid, m), d_order,
                                                               sentinel);
  const auto& d = d_array.view;
  const auto& d_whole = d_array.whole;
  scatter_lines<R, ca, cb, cc>(p, grid, axis, a, b, c, d);
  const auto info = bstest::make_info(nlines);
  const order u_order = Add ? order((int(d_order) + 1) % 3) : d_order;
  const auto u_array = bstest::make_array_in_buffer<D, R + 1>("u", extend(grid, m), u_order,
                                                               sentinel);
  const auto& u = Add ? u_array.view : d;
  const auto u0 = [&](std::size_t s, std::size_t i, std::size_t r) {
    return D(T(double((s * n * m + i * m + r) % 5) / 4));
  };
  if constexpr (Add) {
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < m; ++r)
          at(u, extend(point_of(grid, axis, s, i), r)) = u0(s, i, r);
    const auto d_before = std::vector<D>(d_whole.data(), d_whole.data() + d_whole.span());
    const typename bstest::strided<D, int(R) + 1>::const_type d_in = d;
    if constexpr (Factored) {
      const auto f = bandsolve::factorize_along(exec, alg, axis, a, b, c, d, backend...);
      f.solve_add(exec, d_in, u);
      Kokkos::deep_copy(info, f.info());
    } else {
      bandsolve::solve_along_add(exec, alg, axis, a, b, c, d_in, u, info, backend...);
    }
    exec.fence();
    CHECK(std::memcmp(d_before.data(), d_whole.data(), d_before.size() * sizeof(D)) == 0);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < m; ++r)
          at(u, extend(point_of(grid, axis, s, i), r)) -= u0(s, i, r);
  } else if constexpr (Factored) {
    // Factored once (d gives the grid; its values are not read), solved twice: the second
    // solve of the same right-hand sides must give the first one's x bit for bit.
    const auto f = bandsolve::factorize_along(exec, alg, axis, a, b, c, d, backend...);
    f.solve(exec, d);
    exec.fence();
    Kokkos::deep_copy(info, f.info());
    const auto raw = [&] {  // every value of d's allocation
      return std::vector<D>(d_whole.data(), d_whole.data() + d_whole.span());
    };
    const std::vector<D> first = raw();
    scatter_lines<R, ca, cb, cc>(p, grid, axis, a, b, c, d);
    f.solve(exec, d);
    exec.fence();
    const std::vector<D> second = raw();
    CHECK(std::memcmp(first.data(), second.data(), first.size() * sizeof(D)) == 0);
  } else {
    bandsolve::solve_along(exec, alg, axis, a, b, c, d, info, backend...);
    exec.fence();
  }

  std::vector<T> x(p.d.size());
  for (std::size_t s = 0; s < nlines; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < m; ++r) {
        const D v = at(u, extend(point_of(grid, axis, s, i), r));
        if constexpr (split) {
          x[p.vec(s, i, r, 0)] = v.real();
          x[p.vec(s, i, r, 1)] = v.imag();
        } else {
          x[p.vec(s, i, r, 0)] = v;
        }
      }
  const auto expected = bstest::gbsv_reference(p);
  INFO("grid rank " << R << ", axis " << axis << ", n " << n << ", m " << m << ", lines "
                    << nlines << ", coefficients " << order_name(coef_order) << ", d "
                    << order_name(d_order) << (Add ? ", u += x, u " : "")
                    << (Add ? order_name(u_order) : ""));
  CHECK(bstest::block_max_rel_diff(p, x, expected) <= bstest::block_lapack_tol<T>(m));
  CHECK(bstest::block_max_residual(p, x) <= bstest::block_residual_tol<T>(m));
  CHECK(bstest::info_to_host(info) == std::vector<int>(nlines, 0));
  const auto& out_whole = Add ? u_array.whole : d_whole;
  if (u_order == order::padded) {  // every element of the allocation outside it keeps its value
    std::vector<char> inside(out_whole.span(), 0);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t r = 0; r < m; ++r)
          inside[&at(u, extend(point_of(grid, axis, s, i), r)) - out_whole.data()] = 1;
    std::size_t changed = 0;
    for (std::size_t e = 0; e < out_whole.span(); ++e)
      if (!inside[e] && !(out_whole.data()[e] == sentinel)) ++changed;
    CHECK(changed == 0);
  }
}

// Every axis of grids of rank 2, 3 and 4 (n = 1, 2, 3 and longer lines; lane rows that are not
// multiples of the SIMD packs), in each order of d and the coefficients.
// EveryRank = false: the 3-D grids alone (one instantiation instead of three; for the scalar
// types that add no addressing of their own).
template <class T, class D, bool Shared, bool Factored = false, bool EveryRank = true,
          bool Add = false, class Exec, class... Backend>
void check_every_axis(const Exec& exec, std::size_t m, block_thomas alg, Backend... backend) {
  const std::vector<std::vector<std::size_t>> grids = {
      {7, 5}, {1, 11}, {3, 2, 10}, {4, 9, 1}, {10, 3, 4}, {2, 3, 2, 5}};
  std::uint32_t seed = 11;
  for (const auto& g : grids)
    for (int axis = 0; axis < int(g.size()); ++axis)
      for (order co : {order::right, order::left, order::padded})
        for (order dor : {order::right, order::left, order::padded}) {
          ++seed;
          if (g.size() == 3) {
            check_case<T, D, 3, Shared, Shared, Shared, Factored, Add>(exec, grid_of<3>(g), axis, m,
                                                                  co, dor, seed, alg, backend...);
          } else if constexpr (EveryRank) {
            if (g.size() == 2)
              check_case<T, D, 2, Shared, Shared, Shared, Factored, Add>(
                  exec, grid_of<2>(g), axis, m, co, dor, seed, alg, backend...);
            else
              check_case<T, D, 4, Shared, Shared, Shared, Factored, Add>(
                  exec, grid_of<4>(g), axis, m, co, dor, seed, alg, backend...);
          }
        }
}

// The adds (solve_along_add, or f.solve_add where Factored) on every axis: m = 3 and 2, full and
// shared coefficients, complex d over real blocks with pivoting, the device backend's kernels.
template <bool Factored, class Exec>
void check_every_add(const Exec& exec) {
  check_every_axis<double, double, false, Factored, true, true>(exec, 3, block_thomas{});
  check_every_axis<double, double, true, Factored, false, true>(exec, 2, block_thomas{});
  check_every_axis<double, Kokkos::complex<double>, false, Factored, false, true>(
      exec, 2, block_thomas{block_thomas::pivoting::partial});
  check_every_axis<double, double, false, Factored, false, true>(exec, 2, block_thomas{},
                                                                 bandsolve::backend::device{});
}

}  // namespace
