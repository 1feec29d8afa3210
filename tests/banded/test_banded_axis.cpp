// solve_along(banded_lu) and factorize_along(banded_lu): the band lines along every axis of
// 2-D, 3-D and 4-D arrays against LAPACK ?gbsv on the same systems, for arrays in LayoutRight
// order, LayoutLeft order and padded strided subviews (padding untouched), full and shared
// bands, compiled (kl = ku = 1, 2) and run-time bandwidths, with and without pivoting, real,
// complex and complex d over a real band, on the host and the device backends (a factorization
// solved twice, for d in two layouts); refactor; info codes on their lines' numbers and bad
// input.
#include "axis_support.hpp"
#include "banded_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>
#include <vector>

namespace test_banded_axis {  // units compile in groups: tests/CMakeLists.txt

using bandsolve::algo::banded_lu;
using bstest::at;
using bstest::extend;
using bstest::grid_of;
using bstest::make_array;
using bstest::order;
using bstest::order_name;
using bstest::point_of;
using bstest::strided;

namespace {

// Backward error bound as in the batched banded tests (banded_lu_cases.hpp): 16 (kl + ku + 2)
// eps, and against LAPACK cond(A) times it (cond_inf well under 1e3 for these matrices).
template <class T>
double residual_tol(int kl, int ku) {
  return 16.0 * (kl + ku + 2) * bstest::band_eps<T>;
}

// The band of a case: a full array (rank R + 1, d's extents then ldab) or a shared one (n, ldab).
template <class T, std::size_t R, bool Shared>
struct band_array {
  using view = std::conditional_t<Shared, strided<T, 2>, strided<T, int(R) + 1>>;
  static view make(const std::array<std::size_t, R>& grid, int axis, std::size_t ldab, order o) {
    if constexpr (Shared)
      return make_array<T, 2>("ab", {grid[axis], ldab}, o);
    else
      return make_array<T, R + 1>("ab", extend(grid, ldab), o);
  }
  // Band row r of column j of line s.
  static T& entry(const view& v, const std::array<std::size_t, R>& grid, int axis, std::size_t s,
                  std::size_t j, std::size_t r) {
    if constexpr (Shared)
      return at(v, std::array<std::size_t, 2>{j, r});
    else
      return at(v, extend(point_of(grid, axis, s, j), r));
  }
};

// One case: line s of the grid is system s of a random band (every line the same band when
// Shared); D = Kokkos::complex<T> over real T takes two real right-hand sides as its parts.
// Factored: factorize_along (the grid from d on odd seeds and for a shared band, else from ab),
// then the same right-hand sides solved in a LayoutRight copy first and in d second.
// Add: solve_along_add, or f.solve_add (into the copy first, then into u), into a u in the next
// order after d's holding u0 = (k mod 5) / 4 at its k-th point; x is read back as u - u0, and d
// must keep its values.
template <class T, class D, std::size_t R, bool Shared, bool Factored, bool Add = false,
          class Exec, class... Backend>
void check_case(const Exec& exec, const std::array<std::size_t, R>& grid, int axis,
                const banded_lu& alg, order band_order, order d_order, std::uint32_t seed,
                Backend... backend) {
  constexpr bool split = !std::is_same_v<T, D>;
  const std::size_t n = grid[axis];
  std::size_t nlines = 1;
  for (std::size_t k = 0; k < R; ++k)
    if (int(k) != axis) nlines *= grid[k];
  const double dominance = alg.pivoting && alg.kl > 0 && alg.ku > 0 ? -0.1 : 1.0;
  auto h = bstest::random_band<T>(nlines, n, alg.kl, alg.ku, seed, dominance);
  if (Shared)
    for (std::size_t s = 1; s < nlines; ++s)
      for (std::size_t e = 0; e < n * h.ldab; ++e) h.ab[s * n * h.ldab + e] = h.ab[e];
  const int nrhs = split ? 2 : 1;
  const auto rhs = bstest::random_values<T>(nlines * n * nrhs, seed + 1);
  using band = band_array<T, R, Shared>;
  const auto ab = band::make(grid, axis, h.ldab, band_order);
  const D sentinel = D(777);
  const auto d_array = bstest::make_array_in_buffer<D, R>("d", grid, d_order, sentinel);
  const auto& d = d_array.view;
  const auto& d_whole = d_array.whole;
  for (std::size_t s = 0; s < nlines; ++s)
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t r = 0; r < h.ldab; ++r)
        band::entry(ab, grid, axis, s, j, r) = h.ab[s * n * h.ldab + j * h.ldab + r];
      D& x = at(d, point_of(grid, axis, s, j));
      if constexpr (split)
        x = D(rhs[(s * 2) * n + j], rhs[(s * 2 + 1) * n + j]);
      else
        x = rhs[s * n + j];
    }
  const auto info = bstest::make_info(nlines);
  double worst_copy = 0;  // the factored solve of the LayoutRight copy against d's
  const order u_order = Add ? order((int(d_order) + 1) % 3) : d_order;
  const auto u_array = bstest::make_array_in_buffer<D, R>("u", grid, u_order, sentinel);
  const auto& u = Add ? u_array.view : d;
  const auto& out_whole = Add ? u_array.whole : d_whole;
  const auto u0 = [&](std::size_t s, std::size_t j) {
    return D(T(double((s * n + j) % 5) / 4));
  };
  const auto d_before = std::vector<D>(d_whole.data(), d_whole.data() + d_whole.span());
  const typename strided<D, int(R)>::const_type d_in = d;
  if constexpr (Add)
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t j = 0; j < n; ++j) at(u, point_of(grid, axis, s, j)) = u0(s, j);
  if constexpr (Factored) {
    const auto f = [&] {
      if constexpr (Shared) return bandsolve::factorize_along(exec, alg, axis, ab, d, backend...);
      else if (seed % 2 == 1)
        return bandsolve::factorize_along(exec, alg, axis, ab, d, backend...);
      else return bandsolve::factorize_along(exec, alg, axis, ab, backend...);
    }();
    const auto copy = make_array<D, R>("copy", grid, order::right);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t j = 0; j < n; ++j)
        at(copy, point_of(grid, axis, s, j)) =
            Add ? u0(s, j) : at(d, point_of(grid, axis, s, j));
    if constexpr (Add) {
      f.solve_add(exec, d_in, copy);
      f.solve_add(exec, d_in, u);
    } else {
      f.solve(exec, copy);
      f.solve(exec, d);
    }
    Kokkos::deep_copy(exec, info, f.info());
    exec.fence();
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t j = 0; j < n; ++j) {
        const auto p = point_of(grid, axis, s, j);
        worst_copy = std::max(worst_copy, bstest::magnitude(D(at(copy, p) - at(u, p))));
      }
  } else if constexpr (Add) {
    bandsolve::solve_along_add(exec, alg, axis, ab, d_in, u, info, backend...);
    exec.fence();
  } else {
    bandsolve::solve_along(exec, alg, axis, ab, d, info, backend...);
    exec.fence();
  }
  if constexpr (Add) {
    CHECK(std::equal(d_before.begin(), d_before.end(), d_whole.data()));
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t j = 0; j < n; ++j) at(u, point_of(grid, axis, s, j)) -= u0(s, j);
  }

  std::vector<T> x(rhs.size());
  for (std::size_t s = 0; s < nlines; ++s)
    for (std::size_t j = 0; j < n; ++j) {
      const D v = at(u, point_of(grid, axis, s, j));
      if constexpr (split) {
        x[(s * 2) * n + j] = v.real();
        x[(s * 2 + 1) * n + j] = v.imag();
      } else {
        x[s * n + j] = v;
      }
    }
  const auto ref = bstest::reference_gbsv(h, rhs, nrhs);
  double worst_res = 0, worst_diff = 0;
  for (std::size_t s = 0; s < nlines; ++s)
    for (int k = 0; k < nrhs; ++k) {
      worst_res = std::max(worst_res, bstest::band_residual(h, x, rhs, s, std::size_t(k),
                                                            std::size_t(nrhs)));
      worst_diff = std::max(worst_diff,
                            bstest::vec_rel_diff(x, ref.x, (s * nrhs + std::size_t(k)) * n, n));
    }
  INFO("rank " << R << ", axis " << axis << ", n " << n << ", kl " << alg.kl << ", ku " << alg.ku
               << ", pivoting " << alg.pivoting << ", lines " << nlines << ", band "
               << order_name(band_order) << ", d " << order_name(d_order)
               << (Add ? ", u += x, u " : "") << (Add ? order_name(u_order) : ""));
  CHECK(worst_res <= residual_tol<T>(alg.kl, alg.ku));
  CHECK(worst_diff <= 1000.0 * residual_tol<T>(alg.kl, alg.ku));
  CHECK(worst_copy <= 1000.0 * residual_tol<T>(alg.kl, alg.ku));
  CHECK(bstest::info_to_host(info) == std::vector<int>(nlines, 0));
  if (u_order == order::padded) {  // every element of the allocation outside it keeps its value
    std::vector<char> inside(out_whole.span(), 0);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t j = 0; j < n; ++j)
        inside[&at(u, point_of(grid, axis, s, j)) - out_whole.data()] = 1;
    std::size_t changed = 0;
    for (std::size_t e = 0; e < out_whole.span(); ++e)
      if (!inside[e] && !(out_whole.data()[e] == sentinel)) ++changed;
    CHECK(changed == 0);
  }
}

// Every axis of arrays of rank 2, 3 and 4 (n = 1, 2 and longer lines; lane rows shorter than a
// pack, and longer ones that are not multiples of it, also where the lane axis is not the last
// batch axis: (10, 3, 4) in LayoutLeft along z), every order of the band and d.
// EveryRank = false: the 3-D arrays alone (one instantiation instead of three; for the scalar
// types that add no addressing of their own).
template <class T, class D, bool Shared, bool EveryRank = true, bool Factored = false,
          bool Add = false, class Exec, class... Backend>
void check_every_axis(const Exec& exec, const banded_lu& alg, Backend... backend) {
  const std::vector<std::vector<std::size_t>> grids = {
      {9, 6}, {1, 19}, {3, 2, 10}, {5, 19, 1}, {10, 3, 4}, {2, 3, 2, 7}};
  std::uint32_t seed = 21;
  for (const auto& g : grids)
    for (int axis = 0; axis < int(g.size()); ++axis)
      for (order bo : {order::right, order::left, order::padded})
        for (order dor : {order::right, order::left, order::padded}) {
          ++seed;
          if (g.size() == 3) {
            check_case<T, D, 3, Shared, Factored, Add>(exec, grid_of<3>(g), axis, alg, bo, dor,
                                                       seed, backend...);
          } else if constexpr (EveryRank) {
            if (g.size() == 2)
              check_case<T, D, 2, Shared, Factored, Add>(exec, grid_of<2>(g), axis, alg, bo, dor,
                                                         seed, backend...);
            else
              check_case<T, D, 4, Shared, Factored, Add>(exec, grid_of<4>(g), axis, alg, bo, dor,
                                                         seed, backend...);
          }
        }
}

// refactor along every axis of a (10, 3, 4) grid (lane rows longer and shorter than a pack):
// factored from one random band in LayoutRight order, refactored with another in LayoutLeft
// order whose column 0 is zero on line 1 (a shared band: on every line), its codes and solves
// equal to a fresh factorization's bit for bit; refactored back, the codes cleared.
template <class T, bool Shared, class Exec, class... Backend>
void check_refactor(const Exec& exec, const banded_lu& alg, Backend... backend) {
  const std::array<std::size_t, 3> grid = {10, 3, 4};
  using band = band_array<T, 3, Shared>;
  for (int axis = 0; axis < 3; ++axis) {
    const std::size_t n = grid[std::size_t(axis)], nlines = 120 / n;
    const auto band_of = [&](std::uint32_t seed) {
      auto h = bstest::random_band<T>(nlines, n, alg.kl, alg.ku, seed, 1.0);
      if (Shared)
        for (std::size_t e = n * h.ldab; e < h.ab.size(); ++e) h.ab[e] = h.ab[e % (n * h.ldab)];
      return h;
    };
    auto h1 = band_of(60 + std::uint32_t(axis)), h2 = band_of(70 + std::uint32_t(axis));
    std::vector<int> singular(nlines, 0);
    for (std::size_t s = Shared ? 0 : 1; s < (Shared ? nlines : 2); ++s) {
      for (std::size_t i = 0; i < n && i <= std::size_t(alg.kl); ++i) h2.at(s, i, 0) = T(0);
      singular[s] = 1;
    }
    const auto ab1 = band::make(grid, axis, h1.ldab, order::right);
    const auto ab2 = band::make(grid, axis, h2.ldab, order::left);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t j = 0; j < n; ++j)
        for (std::size_t r = 0; r < h1.ldab; ++r) {
          band::entry(ab1, grid, axis, s, j, r) = h1.ab[(s * n + j) * h1.ldab + r];
          band::entry(ab2, grid, axis, s, j, r) = h2.ab[(s * n + j) * h2.ldab + r];
        }
    const auto rhs = bstest::random_values<T>(nlines * n, 80 + std::uint32_t(axis));
    const auto d1 = make_array<T, 3>("d1", grid, order::right);
    const auto d2 = make_array<T, 3>("d2", grid, order::right);
    const auto same_solves = [&](const auto& f, const auto& fresh) {
      return bstest::same_solves(exec, f, fresh, d1, d2, rhs);
    };
    INFO("axis " << axis << ", kl " << alg.kl << ", ku " << alg.ku << ", pivoting "
                 << alg.pivoting << (Shared ? ", shared" : ""));
    auto f = bandsolve::factorize_along(exec, alg, axis, ab1, d1, backend...);
    f.refactor(exec, ab2);
    const auto fresh2 = bandsolve::factorize_along(exec, alg, axis, ab2, d1, backend...);
    exec.fence();
    CHECK(bstest::info_to_host(f.info()) == singular);
    CHECK(bstest::info_to_host(fresh2.info()) == singular);
    CHECK(same_solves(f, fresh2));
    f.refactor(exec, ab1);
    const auto fresh1 = bandsolve::factorize_along(exec, alg, axis, ab1, d1, backend...);
    exec.fence();
    CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nlines, 0));
    CHECK(same_solves(f, fresh1));
  }
}

}  // namespace

TEST_CASE("solve_along(banded_lu) matches LAPACK gbsv on every axis, host backend",
          "[banded][axis][lapack]") {
  bstest::for_each_exec([](auto exec) {
    for (const banded_lu alg : {banded_lu{2, 2}, banded_lu{1, 1, false}, banded_lu{1, 3},
                                banded_lu{2, 2, false}}) {
      check_every_axis<double, double, false>(exec, alg);
      check_every_axis<double, double, true>(exec, alg);
    }
    check_every_axis<float, float, false, false>(exec, banded_lu{2, 2});
    check_every_axis<Kokkos::complex<double>, Kokkos::complex<double>, false, false>(
        exec, banded_lu{1, 2});
    check_every_axis<double, Kokkos::complex<double>, false, false>(exec, banded_lu{2, 2});
    check_every_axis<float, Kokkos::complex<float>, true, false>(exec, banded_lu{1, 1});
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("solve_along(banded_lu) matches LAPACK gbsv on every axis, device backend",
          "[banded][axis][lapack][device]") {
  bstest::for_each_exec([](auto exec) {
    const bandsolve::backend::device dev;
    for (const banded_lu alg : {banded_lu{2, 2}, banded_lu{1, 3, false}}) {
      check_every_axis<double, double, false>(exec, alg, dev);
      check_every_axis<double, double, true>(exec, alg, dev);
    }
    check_every_axis<float, Kokkos::complex<float>, false, false>(exec, banded_lu{2, 2}, dev);
  });
}
#endif

TEST_CASE("factorize_along(banded_lu) solves match LAPACK gbsv on every axis, host backend",
          "[banded][axis][factor][lapack]") {
  bstest::for_each_exec([](auto exec) {
    for (const banded_lu alg : {banded_lu{2, 2}, banded_lu{1, 1, false}, banded_lu{1, 3}}) {
      check_every_axis<double, double, false, true, true>(exec, alg);
      check_every_axis<double, double, true, true, true>(exec, alg);
    }
    check_every_axis<float, float, false, false, true>(exec, banded_lu{2, 2, false});
    check_every_axis<Kokkos::complex<double>, Kokkos::complex<double>, true, false, true>(
        exec, banded_lu{2, 2});
    check_every_axis<double, Kokkos::complex<double>, false, false, true>(exec, banded_lu{1, 1});
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("factorize_along(banded_lu) solves match LAPACK gbsv on every axis, device backend",
          "[banded][axis][factor][lapack][device]") {
  bstest::for_each_exec([](auto exec) {
    const bandsolve::backend::device dev;
    for (const banded_lu alg : {banded_lu{2, 2}, banded_lu{1, 3, false}}) {
      check_every_axis<double, double, false, true, true>(exec, alg, dev);
      check_every_axis<double, double, true, true, true>(exec, alg, dev);
    }
    check_every_axis<float, Kokkos::complex<float>, false, false, true>(exec, banded_lu{2, 2},
                                                                         dev);
  });
}
#endif

TEST_CASE("solve_along_add and f.solve_add of band lines add x into u, d left as it was",
          "[banded][axis][factor][add][lapack]") {
  bstest::for_each_exec([](auto exec) {
    check_every_axis<double, double, false, true, false, true>(exec, banded_lu{2, 2});
    check_every_axis<double, double, true, false, false, true>(exec, banded_lu{1, 3, false});
    check_every_axis<double, Kokkos::complex<double>, false, false, false, true>(
        exec, banded_lu{1, 1});
#if BANDSOLVE_TESTS_DEVICE_BACKEND
    check_every_axis<double, double, false, false, false, true>(exec, banded_lu{2, 2},
                                                                bandsolve::backend::device{});
#endif
    check_every_axis<double, double, false, true, true, true>(exec, banded_lu{2, 2});
    check_every_axis<double, double, true, false, true, true>(exec, banded_lu{1, 1, false});
#if BANDSOLVE_TESTS_DEVICE_BACKEND
    check_every_axis<double, double, false, false, true, true>(exec, banded_lu{1, 3},
                                                               bandsolve::backend::device{});
#endif
  });
}

TEST_CASE("solve_along(banded_lu) takes LayoutRight and LayoutLeft Views directly",
          "[banded][axis]") {
  // Pentadiagonal lines (1, -4, 8, -4, 1) along each axis: with d = A 1 the solution is all ones.
  const std::size_t e[3] = {5, 9, 4};
  bstest::for_each_exec([&](auto exec) {
    for (int axis = 0; axis < 3; ++axis) {
      const int kl = 2, ku = 2;
      const std::size_t ldab = 2 * kl + ku + 1, n = e[axis];
      const Kokkos::View<double****, Kokkos::LayoutLeft, Kokkos::HostSpace> ab("ab", e[0], e[1],
                                                                               e[2], ldab);
      const Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> d("d", e[0], e[1],
                                                                              e[2]);
      const double coef[5] = {1, -4, 8, -4, 1};
      for (std::size_t i = 0; i < e[0]; ++i)
        for (std::size_t j = 0; j < e[1]; ++j)
          for (std::size_t k = 0; k < e[2]; ++k) {
            const std::size_t q = axis == 0 ? i : axis == 1 ? j : k;  // this point's column
            for (int r = -2; r <= 2; ++r)  // A(q + r, q) at band row kl + ku + r
              ab(i, j, k, std::size_t(kl + ku + r)) = coef[r + 2];
            double row = 0;
            for (int c = -2; c <= 2; ++c)
              if (long(q) + c >= 0 && long(q) + c < long(n)) row += coef[c + 2];
            d(i, j, k) = row;
          }
      const auto info = bstest::make_info(e[0] * e[1] * e[2] / n);
      bandsolve::solve_along(exec, banded_lu{kl, ku}, axis, ab, d, info);
      exec.fence();
      double worst = 0;
      for (std::size_t x = 0; x < d.span(); ++x)
        worst = std::max(worst, std::abs(d.data()[x] - 1.0));
      INFO("axis " << axis);
      CHECK(worst <= 1e-12);
      CHECK(bstest::info_to_host(info) == std::vector<int>(e[0] * e[1] * e[2] / n, 0));
    }
  });
}

TEST_CASE("solve_along(banded_lu) and factorize_along report a zero pivot on its line's number",
          "[banded][axis][info]") {
  // Array (9, 6, 3) along axis 1: line (ix, :, iz) is ix*3 + iz. Line (2, :, 2) = 8 gets a zero
  // column 2 (every band row), so U(3, 3) is 0 with or without pivoting: info 3 there. The band
  // in LayoutRight (packs of one line along z) and LayoutLeft (a pack of 8 lines along x, whose
  // lanes are lines 3 apart, then one).
  const std::array<std::size_t, 3> grid = {9, 6, 3};
  const int axis = 1;
  const std::size_t n = 6, nlines = 27, bad = 8, bad_column = 2;
  const auto run = [&](auto exec, const banded_lu& alg, order band_order, auto... backend) {
    auto h = bstest::random_band<double>(nlines, n, alg.kl, alg.ku, 5, 1.0);
    for (std::size_t r = 0; r < h.ldab; ++r) h.ab[bad * n * h.ldab + bad_column * h.ldab + r] = 0;
    using band = band_array<double, 3, false>;
    const auto ab = band::make(grid, axis, h.ldab, band_order);
    const auto d = make_array<double, 3>("d", grid, order::left);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t r = 0; r < h.ldab; ++r)
          band::entry(ab, grid, axis, s, j, r) = h.ab[s * n * h.ldab + j * h.ldab + r];
        at(d, point_of(grid, axis, s, j)) = 1.0;
      }
    const auto info = bstest::make_info(nlines);
    bandsolve::solve_along(exec, alg, axis, ab, d, info, backend...);
    const auto f = bandsolve::factorize_along(exec, alg, axis, ab, backend...);
    exec.fence();
    std::vector<int> expected(nlines, 0);
    expected[bad] = int(bad_column) + 1;
    INFO("kl " << alg.kl << ", ku " << alg.ku << ", pivoting " << alg.pivoting << ", band "
                << order_name(band_order));
    CHECK(bstest::info_to_host(info) == expected);
    CHECK(bstest::info_to_host(f.info()) == expected);
    // The bad line's band shared by every line: every line reports its code.
    using shared_band = band_array<double, 3, true>;
    const auto shared = shared_band::make(grid, axis, h.ldab, order::left);
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t r = 0; r < h.ldab; ++r)
        shared_band::entry(shared, grid, axis, 0, j, r) = h.ab[bad * n * h.ldab + j * h.ldab + r];
    const auto g = bandsolve::factorize_along(exec, alg, axis, shared, d, backend...);
    exec.fence();
    CHECK(bstest::info_to_host(g.info()) == std::vector<int>(nlines, int(bad_column) + 1));
  };
  bstest::for_each_exec([&](auto exec) {
    for (const banded_lu alg : {banded_lu{1, 1}, banded_lu{2, 2, false}})
      for (const order band_order : {order::right, order::left}) {
        run(exec, alg, band_order);
        run(exec, alg, band_order, bandsolve::backend::device{});
      }
  });
}

TEST_CASE("solve_along(banded_lu) rejects bad input with the function and the values",
          "[banded][axis][checks]") {
  using V4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V2 = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const V4 ab("ab", 2, 3, 4, 7);
  const V3 d("d", 2, 3, 4);
  const auto info = bstest::make_info(8);  // along axis 1: 2 x 4 lines
  const Kokkos::DefaultHostExecutionSpace exec;
  const auto throws = [&](auto&& call, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(
                                  "bandsolve::solve_along(banded_lu)") &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  throws([&] { bandsolve::solve_along(exec, banded_lu{2, 2}, 3, ab, d, info); },
         "axis = 3 but d has rank 3");
  throws([&] { bandsolve::solve_along(exec, banded_lu{2, 2}, 0, ab, d, info); },
         "info.extent(0) = 8 but d has 12 lines along axis 0");
  throws([&] { bandsolve::solve_along(exec, banded_lu{2, 3}, 1, ab, d, info); },
         "ab has ldab = 7 band rows but kl = 2, ku = 3 need 2*kl+ku+1 = 8");
  throws([&] { bandsolve::solve_along(exec, banded_lu{-1, 2}, 1, ab, d, info); },
         "kl = -1 and ku = 2 must both be >= 0");
  const V4 wide("wide", 2, 3, 5, 7);
  throws([&] { bandsolve::solve_along(exec, banded_lu{2, 2}, 1, wide, d, info); },
         "ab.extent(2) = 5 but d.extent(2) = 4");
  const V2 shared_short("shared", 4, 7);
  throws([&] { bandsolve::solve_along(exec, banded_lu{2, 2}, 1, shared_short, d, info); },
         "ab.extent(0) = 4 but d.extent(1) = 3");
  const auto d_in_ab = Kokkos::subview(ab, Kokkos::ALL, Kokkos::ALL, Kokkos::ALL, 1);
  throws([&] { bandsolve::solve_along(exec, banded_lu{2, 2}, 1, ab, d_in_ab, info); },
         "d overlaps ab");
  throws([&] {
    bandsolve::solve_along(exec, banded_lu{2, 2}, 0, ab, d, info, bandsolve::backend::device{});
  },
         "info.extent(0) = 8 but d has 12 lines along axis 0");
  // solve_along_add: u against d, and u written where it must not be.
  const auto throws_add = [&](auto&& call, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(
                                  "bandsolve::solve_along_add(banded_lu)") &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  const V3 u("u", 2, 3, 4), u_short("u_short", 2, 2, 4);
  throws_add([&] { bandsolve::solve_along_add(exec, banded_lu{2, 2}, 1, ab, d, u_short, info); },
             "u.extent(1) = 2 but d.extent(1) = 3");
  throws_add([&] { bandsolve::solve_along_add(exec, banded_lu{2, 2}, 1, ab, d, d, info); },
             "u overlaps d");
  throws_add([&] { bandsolve::solve_along_add(exec, banded_lu{2, 2}, 1, ab, d, d_in_ab, info); },
             "u overlaps ab");
  throws_add([&] { bandsolve::solve_along_add(exec, banded_lu{2, 3}, 1, ab, d, u, info); },
             "ab has ldab = 7 band rows but kl = 2, ku = 3 need 2*kl+ku+1 = 8");
  throws_add([&] { bandsolve::solve_along_add(exec, banded_lu{2, 2}, 0, ab, d, u, info); },
             "info.extent(0) = 8 but d has 12 lines along axis 0");
}

TEST_CASE("factorize_along(banded_lu) and refactor reject bad input with the function and the "
          "values",
          "[banded][axis][factor][refactor][checks]") {
  using V4 = Kokkos::View<double****, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V2 = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const V4 ab("ab", 2, 3, 4, 7);
  const V3 d("d", 2, 3, 4);
  const V2 shared("shared", 3, 7);
  const Kokkos::DefaultHostExecutionSpace exec;
  const auto throws = [&](auto&& call, const std::string& fn, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(fn) &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  const std::string fn = "bandsolve::factorize_along(banded_lu)";
  throws([&] { bandsolve::factorize_along(exec, banded_lu{2, 2}, 3, ab); }, fn,
         "axis = 3 but ab has rank 3");
  throws([&] { bandsolve::factorize_along(exec, banded_lu{2, 2}, -1, shared, d); }, fn,
         "axis = -1 but d has rank 3");
  throws([&] { bandsolve::factorize_along(exec, banded_lu{2, 3}, 1, ab); }, fn,
         "ab has ldab = 7 band rows but kl = 2, ku = 3 need 2*kl+ku+1 = 8");
  throws([&] { bandsolve::factorize_along(exec, banded_lu{2, -2}, 1, ab, d); }, fn,
         "kl = 2 and ku = -2 must both be >= 0");
  const V3 other("other", 2, 3, 5);
  throws([&] { bandsolve::factorize_along(exec, banded_lu{2, 2}, 1, ab, other); }, fn,
         "ab.extent(2) = 4 but d.extent(2) = 5");
  throws([&] { bandsolve::factorize_along(exec, banded_lu{2, 2}, 2, shared, d); }, fn,
         "ab.extent(0) = 3 but d.extent(2) = 4");
  throws([&] {
    bandsolve::factorize_along(exec, banded_lu{2, 2}, 2, shared, d, bandsolve::backend::device{});
  },
         fn, "ab.extent(0) = 3 but d.extent(2) = 4");

  const std::string solve = "bandsolve::banded_axis_factorization::solve";
  auto f = bandsolve::factorize_along(exec, banded_lu{2, 2}, 1, ab);
  throws([&] { f.solve(exec, other); }, solve, "d.extent(2) = 5 but the factored grid has 4");
  const V2 flat("flat", 2, 3);
  throws([&] { f.solve(exec, flat); }, solve, "d has rank 2 but the factored grid has 3");
  bandsolve::banded_axis_factorization<double, Kokkos::DefaultHostExecutionSpace,
                                       bandsolve::backend::default_for_t<
                                           Kokkos::DefaultHostExecutionSpace>>
      empty;
  throws([&] { empty.solve(exec, d); }, solve, "this factorization is empty");
  const std::string solve_add = "bandsolve::banded_axis_factorization::solve_add";
  const V3 u("u", 2, 3, 4);
  throws([&] { f.solve_add(exec, other, u); }, solve_add,
         "d.extent(2) = 5 but the factored grid has 4");
  throws([&] { f.solve_add(exec, d, other); }, solve_add, "u.extent(2) = 5 but d.extent(2) = 4");
  throws([&] { f.solve_add(exec, d, d); }, solve_add, "u overlaps d");
  throws([&] { empty.solve_add(exec, d, u); }, solve_add, "this factorization is empty");
  CHECK(f.nsys() == 8);
  CHECK(f.n() == 3);
  CHECK(f.kl() == 2);
  CHECK(f.ku() == 2);
  CHECK(f.pivoting());
  CHECK(!f.shared());
  CHECK(f.storage_bytes() >= 8 * 3 * (7 * sizeof(double) + sizeof(int)));

  const std::string refactor = "bandsolve::banded_axis_factorization::refactor: ";
  const auto throws_refactor = [&](auto&& call, const std::string& text) {
    CHECK_THROWS_WITH(call(), refactor + text);
  };
  throws_refactor([&] { f.refactor(exec, shared); },
                  "ab has rank 2 but the factored band was an array of rank 4");
  const V4 other_grid("other_grid", 2, 3, 5, 7);
  throws_refactor([&] { f.refactor(exec, other_grid); },
                  "ab.extent(2) = 5 but the factored grid has 4");
  const V4 narrow("narrow", 2, 3, 4, 6);
  throws_refactor([&] { f.refactor(exec, narrow); },
                  "ab has ldab = 6 band rows but kl = 2, ku = 2 need 2*kl+ku+1 = 7 (LAPACK band "
                  "storage with the kl fill-in rows)");
  const Kokkos::View<double*****, Kokkos::LayoutRight, Kokkos::HostSpace> five("five", 2, 3, 4,
                                                                              1, 7);
  throws_refactor([&] { f.refactor(exec, five); },
                  "ab has rank 5 but the factored band was an array of rank 4");
  const V4 wider("wider", 2, 3, 4, 9);  // more band rows than needed: accepted
  f.refactor(exec, wider);
  auto fs = bandsolve::factorize_along(exec, banded_lu{2, 2}, 1, shared, d);
  throws_refactor([&] { fs.refactor(exec, ab); },
                  "ab has rank 4 but the factored band was shared by every line (rank 2)");
  const V2 longer("longer", 4, 7);
  throws_refactor([&] { fs.refactor(exec, longer); },
                  "ab.extent(0) = 4 but the factored lines have 3 rows");
  throws_refactor([&] { empty.refactor(exec, ab); },
                  "this factorization is empty (default-constructed)");
}

TEST_CASE("banded_axis_factorization::refactor factors a new band into its storage",
          "[banded][axis][factor][refactor]") {
  bstest::for_each_exec([](auto exec) {
    check_refactor<double, false>(exec, banded_lu{2, 1});
    check_refactor<double, false>(exec, banded_lu{1, 1, false});
    check_refactor<double, true>(exec, banded_lu{2, 2});
    check_refactor<float, false>(exec, banded_lu{3, 2});
    check_refactor<double, false>(exec, banded_lu{2, 1}, bandsolve::backend::device{});
    check_refactor<double, true>(exec, banded_lu{1, 2, false}, bandsolve::backend::device{});
  });
}

TEST_CASE("factorize_along(banded_lu) of empty grids and lines of no rows",
          "[banded][axis][factor]") {
  const Kokkos::DefaultHostExecutionSpace exec;
  using V3 = Kokkos::View<double***, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  using V4 = Kokkos::View<double****, Kokkos::LayoutLeft, Kokkos::HostSpace>;
  const V4 no_lines("ab", 0, 5, 3, 5);
  const auto f = bandsolve::factorize_along(exec, banded_lu{1, 1}, 1, no_lines);
  const V3 d0("d", 0, 5, 3);
  f.solve(exec, d0);
  CHECK(f.nsys() == 0);
  const V4 no_rows("ab", 2, 0, 3, 5);
  const auto g = bandsolve::factorize_along(exec, banded_lu{1, 1}, 1, no_rows);
  const V3 d1("d", 2, 0, 3);
  g.solve(exec, d1);
  exec.fence();
  CHECK(g.nsys() == 6);
  CHECK(bstest::info_to_host(g.info()) == std::vector<int>(6, 0));
}

}  // namespace test_banded_axis
