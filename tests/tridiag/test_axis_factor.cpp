// factorize_along of Thomas, periodic, partial pivoting and symmetric lines and their solves: the
// lines along every axis of 2-D, 3-D and 4-D arrays, factored once and solved for two right-hand
// sides (and added into a third array by solve_add first), checked by each line's residual (periodic: indices modulo n), for coefficients and
// right-hand sides in every order (d laid out unlike the coefficients too), full and shared
// coefficients, real and complex, complex d over real coefficients, lines that need row
// interchanges (partial pivoting), on the host and the device backends; long lines solved block
// by block, info codes on their lines' numbers, empty arrays, and bad input.
#include <bandsolve/bandsolve.hpp>

#include "axis_support.hpp"
#include "test_support.hpp"

#include <catch2/catch_all.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace test_axis_factor {  // units compile in groups: tests/CMakeLists.txt

namespace {

using bandsolve::algo::partial_pivoting;
using bandsolve::algo::periodic;
using bandsolve::algo::symmetric;
using bandsolve::algo::thomas;
using bstest::at;
using bstest::make_array;
using bstest::order;
using bstest::point_of;

template <class T>
using real_of_t = bandsolve::real_type_t<T>;

template <class T>
T random_value(std::mt19937& gen) {
  bstest::uniform_real u(-1.0, 1.0);
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(u(gen));
  } else {
    using R = real_of_t<T>;
    const R re = static_cast<R>(0.7 * u(gen));
    return T(re, static_cast<R>(0.7 * u(gen)));
  }
}

template <class T>
double magnitude(const T& v) {
  if constexpr (std::is_floating_point_v<T>) return std::abs(double(v));
  else return std::hypot(double(v.real()), double(v.imag()));
}

template <class T>
T conj_value(const T& v) {
  if constexpr (std::is_floating_point_v<T>) return v;
  else return T(v.real(), -v.imag());
}

// Row-dominant coefficients of `lines` lines of n rows, line s row i at s n + i (a_0 = c_{n-1}
// = 0 unless periodic): |b_i| >= |a_i| + |c_i| + 1. Hermitian (symmetric positive definite
// lines): a_i = conj(c_{i-1}) and b_i > 0. Weak (lines that need row interchanges): |b_i| <= 0.3
// and b_0 = 0 (for n > 1), where Thomas's first pivot is zero.
template <class C>
struct lines_of {
  std::size_t n, lines;
  std::vector<C> a, b, c;
  lines_of(std::size_t n_, std::size_t lines_, std::uint32_t seed, bool periodic = false,
           bool hermitian = false, bool weak = false)
      : n(n_), lines(lines_), a(n_ * lines_), b(n_ * lines_), c(n_ * lines_) {
    std::mt19937 gen(seed);
    bstest::uniform_real margin(1.0, 2.0);
    for (std::size_t k = 0; k < a.size(); ++k) {
      const std::size_t i = k % n;
      if (hermitian) a[k] = i == 0 ? C(0) : conj_value(c[k - 1]);
      else a[k] = i == 0 && !periodic ? C(0) : random_value<C>(gen);
      c[k] = i + 1 == n && !periodic ? C(0) : random_value<C>(gen);
      const double bmag = magnitude(a[k]) + magnitude(c[k]) + margin(gen);
      if (weak)
        b[k] = i == 0 && n > 1 ? C(0)
                               : C(static_cast<real_of_t<C>>((k % 3 == 0 ? -0.15 : 0.15) *
                                                             margin(gen)));
      else
        b[k] = C(static_cast<real_of_t<C>>(k % 3 == 0 && !hermitian ? -bmag : bmag));
    }
  }
  std::size_t line_of(std::size_t s) const { return lines == 1 ? 0 : s; }
};

// ||A x - d||_inf / (||A||_inf ||x||_inf + ||d||_inf) of line s of the solve along `axis`;
// periodic: a_i multiplies x_{i-1 mod n} and c_i x_{i+1 mod n} (n = 1, 2 fold as solve(periodic)).
template <class C, std::size_t R, class XView, class DValues>
double line_residual(const lines_of<C>& m, const std::array<std::size_t, R>& grid, int axis,
                     std::size_t s, const XView& x, const DValues& d, bool periodic) {
  const std::size_t n = grid[axis], l = m.line_of(s);
  double rmax = 0, anorm = 0, xnorm = 0, dnorm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = l * n + i;
    const auto xi = at(x, point_of(grid, axis, s, i));
    auto ax = m.b[k] * xi;
    if (i > 0 || periodic) ax += m.a[k] * at(x, point_of(grid, axis, s, (i + n - 1) % n));
    if (i + 1 < n || periodic) ax += m.c[k] * at(x, point_of(grid, axis, s, (i + 1) % n));
    rmax = std::max(rmax, magnitude(ax - d[s * n + i]));
    anorm = std::max(anorm, magnitude(m.a[k]) + magnitude(m.b[k]) + magnitude(m.c[k]));
    xnorm = std::max(xnorm, magnitude(xi));
    dnorm = std::max(dnorm, magnitude(d[s * n + i]));
  }
  const double r = rmax / (anorm * xnorm + dnorm);
  return std::isfinite(r) ? r : 1e300;
}

template <std::size_t R>
std::size_t lines_along(const std::array<std::size_t, R>& grid, int axis) {
  std::size_t count = 1;
  for (std::size_t k = 0; k < R; ++k)
    if (int(k) != axis) count *= grid[k];
  return count;
}

// factorize_along(Algo) of the lines whose coefficients Thomas's a, b, c hold (symmetric: b as
// diag, c as offdiag; a is conj(c) shifted, lines_of's Hermitian lines).
template <class Algo, class Exec, class AView, class BView, class CView, class... Rest>
auto factorize_lines(Exec exec, int axis, const AView& a, const BView& b, const CView& c,
                     Rest... rest) {
  if constexpr (std::is_same_v<Algo, symmetric>)
    return bandsolve::factorize_along(exec, Algo{}, axis, b, c, rest...);
  else
    return bandsolve::factorize_along(exec, Algo{}, axis, a, b, c, rest...);
}

// The diagonal's scalar: symmetric lines take it real (Hermitian lines too).
template <class Algo, class C>
using diag_of_t = std::conditional_t<std::is_same_v<Algo, symmetric>, real_of_t<C>, C>;

template <class B, class C>
B diag_value(const C& v) {
  if constexpr (std::is_floating_point_v<B> && !std::is_floating_point_v<C>) return v.real();
  else return B(v);
}

// f.solve_add(exec, d, u) with d a View of const and u in an order unlike d's (and unlike the
// coefficients' for one of the three d orders): d unchanged, u - u0 solves every line.
template <class Exec, class F, class C, std::size_t R, class DArray, class D>
void check_solve_add(Exec exec, const F& f, const lines_of<C>& m,
                     const std::array<std::size_t, R>& grid, int axis, const DArray& d,
                     const std::vector<D>& rhs, order d_order, double tol, bool cyclic) {
  const std::size_t n = grid[axis], nlines = lines_along(grid, axis);
  const order u_order = d_order == order::right ? order::padded
                        : d_order == order::left ? order::right
                                                 : order::left;
  const auto u = make_array<D, R>("u", grid, u_order, D(3));
  std::vector<D> u0(nlines * n);
  std::mt19937 gen(static_cast<std::uint32_t>(nlines * 31 + n));
  for (std::size_t s = 0; s < nlines; ++s)
    for (std::size_t i = 0; i < n; ++i)
      at(u, point_of(grid, axis, s, i)) = u0[s * n + i] = random_value<D>(gen);
  const typename DArray::const_type d_in = d;
  f.solve_add(exec, d_in, u);
  exec.fence();
  const auto x = make_array<D, R>("x", grid, order::right);
  std::size_t changed = 0;
  for (std::size_t s = 0; s < nlines; ++s)
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = point_of(grid, axis, s, i);
      if (at(d, p) != rhs[s * n + i]) ++changed;
      at(x, p) = at(u, p) - u0[s * n + i];
    }
  INFO("solve_add, u " << bstest::order_name(u_order));
  CHECK(changed == 0);
  double worst = 0;
  for (std::size_t s = 0; s < nlines; ++s)
    worst = std::max(worst, line_residual(m, grid, axis, s, x, rhs, cyclic));
  CHECK(worst <= tol);
}

// Coefficients (full arrays in coefficient_order, or rank-1 Views shared by every line) and two
// right-hand sides in d_order: factored once, both solved, every line's residual checked
// (solve_add first, into a third array).
template <class Algo, class C, class D, std::size_t R, bool Shared, class Exec, class... Backend>
void check_case(Exec exec, const std::array<std::size_t, R>& grid, int axis,
                order coefficient_order, order d_order, std::uint32_t seed, Backend... backend) {
  constexpr bool cyclic = std::is_same_v<Algo, periodic>;
  constexpr bool weak = std::is_same_v<Algo, partial_pivoting>;
  using B = diag_of_t<Algo, C>;
  const std::size_t n = grid[axis], nlines = lines_along(grid, axis);
  INFO("grid rank " << R << ", axis " << axis << ", n " << n << ", coefficients "
                    << bstest::order_name(coefficient_order) << ", d "
                    << bstest::order_name(d_order) << (Shared ? ", shared" : ""));
  const lines_of<C> m(n, Shared ? 1 : nlines, seed, cyclic, std::is_same_v<Algo, symmetric>,
                      weak);
  // Built in place: assigning into a default View crashes on a Kokkos 4.6.99 snapshot.
  const std::array<bstest::strided<D, int(R)>, 2> ds = {make_array<D, R>("d", grid, d_order, D(7)),
                                                        make_array<D, R>("d", grid, d_order, D(7))};
  std::array<std::vector<D>, 2> rhs;
  std::mt19937 gen(seed + 1);
  for (int r = 0; r < 2; ++r) {
    rhs[r].resize(nlines * n);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i)
        at(ds[r], point_of(grid, axis, s, i)) = rhs[r][s * n + i] = random_value<D>(gen);
  }
  const double tol = 50 * double(std::numeric_limits<real_of_t<C>>::epsilon());
  const auto solve_and_check = [&](const auto& f) {
    CHECK(f.nsys() == nlines);
    CHECK(f.n() == n);
    CHECK(f.axis() == axis);
    CHECK(f.shared() == Shared);
    CHECK(bstest::info_to_host(f.info()) == std::vector<int>(nlines, 0));
    check_solve_add(exec, f, m, grid, axis, ds[0], rhs[0], d_order, tol, cyclic);
    for (int r = 0; r < 2; ++r) f.solve(exec, ds[r]);
    exec.fence();
    for (int r = 0; r < 2; ++r) {
      double worst = 0;
      for (std::size_t s = 0; s < nlines; ++s)
        worst = std::max(worst, line_residual(m, grid, axis, s, ds[r], rhs[r], cyclic));
      INFO("right-hand side " << r);
      CHECK(worst <= tol);
    }
  };
  if constexpr (Shared) {
    const Kokkos::View<C*, Kokkos::HostSpace> a("a", n), c("c", n);
    const Kokkos::View<B*, Kokkos::HostSpace> b("b", n);
    for (std::size_t i = 0; i < n; ++i) a(i) = m.a[i], b(i) = diag_value<B>(m.b[i]), c(i) = m.c[i];
    solve_and_check(factorize_lines<Algo>(exec, axis, a, b, c, ds[0], backend...));
  } else {
    const auto a = make_array<C, R>("a", grid, coefficient_order, C(9));
    const auto b = make_array<B, R>("b", grid, coefficient_order, B(9));
    const auto c = make_array<C, R>("c", grid, coefficient_order, C(9));
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = point_of(grid, axis, s, i);
        at(a, p) = m.a[s * n + i], at(c, p) = m.c[s * n + i];
        at(b, p) = diag_value<B>(m.b[s * n + i]);
      }
    solve_and_check(factorize_lines<Algo>(exec, axis, a, b, c, backend...));
  }
}

// Every axis of grids of rank 2 to 4 (n = 1, 2, 3 and odd; lines that fill no pack, and packs
// left partial), the coefficient and d orders varied with the axis.
template <class Algo, class C, class D, bool Shared, class Exec, class... Backend>
void check_every_axis(Exec exec, Backend... backend) {
  const order orders[3] = {order::right, order::left, order::padded};
  std::uint32_t seed = 11;
  const std::array<std::size_t, 2> g2[3] = {{37, 5}, {1, 3}, {2, 1}};
  for (const auto& g : g2)
    for (int axis = 0; axis < 2; ++axis) {
      const std::uint32_t s = seed++;
      check_case<Algo, C, D, 2, Shared>(exec, g, axis, orders[(axis + s) % 3], orders[s % 3],
                                        s, backend...);
    }
  const std::array<std::size_t, 3> g3 = {6, 19, 7};
  for (int axis = 0; axis < 3; ++axis)
    for (int o = 0; o < 3; ++o)
      check_case<Algo, C, D, 3, Shared>(exec, g3, axis, orders[o], orders[(o + axis) % 3],
                                        seed++, backend...);
  const std::array<std::size_t, 4> g4 = {3, 4, 9, 5};
  for (int axis = 0; axis < 4; ++axis)
    check_case<Algo, C, D, 4, Shared>(exec, g4, axis, orders[axis % 3],
                                      orders[(axis + 1) % 3], seed++, backend...);
}

// Grid (20, 5, 4) in LayoutLeft along axis 1 (packs along x, lanes 4 lines apart): line
// (2, :, 1) = 9 has a zero pivot at row 3 (info 4; symmetric lines: b_3 = 0 makes it negative,
// and line 17's b_0 < 0 reports 1; partial pivoting: column 3 zero, c_2 = b_3 = a_4 = 0);
// shared coefficients with b = 0 (partial pivoting: a = c = 0 too): every line reports 1. Both
// backends.
template <class Algo>
void check_bad_pivot_codes() {
  const std::array<std::size_t, 3> grid = {20, 5, 4};
  const std::size_t n = 5, nlines = 80, bad = 9;
  const auto run = [&](auto exec, auto... backend) {
    lines_of<double> m(n, nlines, 5, std::is_same_v<Algo, periodic>,
                       std::is_same_v<Algo, symmetric>);
    constexpr bool spd = std::is_same_v<Algo, symmetric>;
    constexpr bool pivoting = std::is_same_v<Algo, partial_pivoting>;
    const std::size_t indefinite = bad + 8;  // symmetric: b_0 < 0, which Thomas would solve
    if (spd) m.b[bad * n + 3] = 0, m.b[indefinite * n] *= -1;
    else if (pivoting) m.c[bad * n + 2] = m.b[bad * n + 3] = m.a[bad * n + 4] = 0;
    else m.a[bad * n + 3] = m.b[bad * n + 3] = 0;
    const auto a = make_array<double, 3>("a", grid, order::left);
    const auto b = make_array<double, 3>("b", grid, order::left);
    const auto c = make_array<double, 3>("c", grid, order::left);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = point_of(grid, 1, s, i);
        at(a, p) = m.a[s * n + i], at(b, p) = m.b[s * n + i], at(c, p) = m.c[s * n + i];
      }
    const auto f = factorize_lines<Algo>(exec, 1, a, b, c, backend...);
    std::vector<int> expected(nlines, 0);
    expected[bad] = 4;
    if (spd) expected[indefinite] = 1;
    CHECK(bstest::info_to_host(f.info()) == expected);

    const Kokkos::View<double*, Kokkos::HostSpace> sa("sa", n), sb("sb", n);
    Kokkos::deep_copy(sa, pivoting ? 0.0 : 1.0);
    const auto d = make_array<double, 3>("d", grid, order::right);
    const auto fs = factorize_lines<Algo>(exec, 1, sa, sb, sa, d, backend...);
    CHECK(fs.shared());
    CHECK(bstest::info_to_host(fs.info()) == std::vector<int>(nlines, 1));
  };
  bstest::for_each_exec([&](auto exec) {
    run(exec);
    run(exec, bandsolve::backend::device{});
  });
}

// f.refactor with the lines' coefficients as f's algorithm takes them (symmetric: b, c).
template <class Algo, class F, class Exec, class AView, class BView, class CView>
void refactor_lines(F& f, Exec exec, const AView& a, const BView& b, const CView& c) {
  if constexpr (std::is_same_v<Algo, symmetric>)
    f.refactor(exec, b, c);
  else
    f.refactor(exec, a, b, c);
}

// The coefficients of m as arrays of `grid` in order o, or rank-1 Views of one line's (Shared).
template <bool Shared, std::size_t R>
auto coefficient_arrays(const lines_of<double>& m, const std::array<std::size_t, R>& grid,
                        int axis, order o) {
  const std::size_t n = grid[axis], nlines = lines_along(grid, axis);
  if constexpr (Shared) {
    const Kokkos::View<double*, Kokkos::HostSpace> a("a", n), b("b", n), c("c", n);
    for (std::size_t i = 0; i < n; ++i) a(i) = m.a[i], b(i) = m.b[i], c(i) = m.c[i];
    return std::array<Kokkos::View<double*, Kokkos::HostSpace>, 3>{a, b, c};
  } else {
    const std::array<bstest::strided<double, int(R)>, 3> v = {
        make_array<double, R>("a", grid, o), make_array<double, R>("b", grid, o),
        make_array<double, R>("c", grid, o)};
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = point_of(grid, axis, s, i);
        at(v[0], p) = m.a[s * n + i], at(v[1], p) = m.b[s * n + i], at(v[2], p) = m.c[s * n + i];
      }
    return v;
  }
}

// refactor along every axis of a 3-D grid: the new coefficients' factors in the factorization's
// storage (a copy made before sees them), bitwise the solutions of a fresh factorization of them
// in the same order, a zero pivot's code set (line 1, or every line of shared coefficients) and
// cleared again by the first coefficients given in another order, every line's residual.
template <class Algo, bool Shared, class Exec, class... Backend>
void check_refactor(Exec exec, Backend... backend) {
  constexpr bool cyclic = std::is_same_v<Algo, periodic>;
  constexpr bool hermitian = std::is_same_v<Algo, symmetric>;
  const std::array<std::size_t, 3> grid = {6, 19, 7};
  for (int axis = 0; axis < 3; ++axis) {
    INFO("axis " << axis << (Shared ? ", shared" : "") << (sizeof...(Backend) ? ", device" : ""));
    const std::size_t n = grid[axis], nlines = lines_along(grid, axis);
    const lines_of<double> m1(n, Shared ? 1 : nlines, 40 + std::uint32_t(axis), cyclic, hermitian);
    lines_of<double> m2(n, Shared ? 1 : nlines, 50 + std::uint32_t(axis), cyclic, hermitian);
    const std::size_t bad = Shared ? 0 : 1;  // its first row zero: every algorithm's code 1
    m2.b[bad * n] = 0, m2.c[bad * n] = 0;
    if (cyclic) m2.a[bad * n] = 0;
    if (std::is_same_v<Algo, partial_pivoting>) m2.a[bad * n + 1] = 0;  // column 0 zero
    const auto d = make_array<double, 3>("d", grid, order::right);
    const auto v1 = coefficient_arrays<Shared>(m1, grid, axis, order::right);
    const auto v2 = coefficient_arrays<Shared>(m2, grid, axis, order::right);
    auto f = factorize_lines<Algo>(exec, axis, v1[0], v1[1], v1[2], d, backend...);
    const auto copy = f;
    refactor_lines<Algo>(f, exec, v2[0], v2[1], v2[2]);
    const auto g = factorize_lines<Algo>(exec, axis, v2[0], v2[1], v2[2], d, backend...);
    exec.fence();
    CHECK(copy.storage_bytes() == g.storage_bytes());
    const auto codes = bstest::info_to_host(g.info());
    CHECK(bstest::info_to_host(copy.info()) == codes);
    CHECK(codes[bad] == 1);
    const std::array<bstest::strided<double, 3>, 2> x = {
        make_array<double, 3>("x", grid, order::left),
        make_array<double, 3>("y", grid, order::left)};
    std::vector<double> rhs(nlines * n);
    std::mt19937 gen(60 + std::uint32_t(axis));
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        const auto p = point_of(grid, axis, s, i);
        at(x[0], p) = at(x[1], p) = rhs[s * n + i] = random_value<double>(gen);
      }
    copy.solve(exec, x[0]);
    g.solve(exec, x[1]);
    exec.fence();
    CHECK(bstest::bitwise_equal(bstest::raw_copy(x[0]), bstest::raw_copy(x[1])));
    const auto w1 = coefficient_arrays<Shared>(m1, grid, axis, order::padded);
    refactor_lines<Algo>(f, exec, w1[0], w1[1], w1[2]);
    for (std::size_t s = 0; s < nlines; ++s)
      for (std::size_t i = 0; i < n; ++i) at(x[0], point_of(grid, axis, s, i)) = rhs[s * n + i];
    f.solve(exec, x[0]);
    exec.fence();
    CHECK(bstest::info_to_host(copy.info()) == std::vector<int>(nlines, 0));
    double worst = 0;
    for (std::size_t s = 0; s < nlines; ++s)
      worst = std::max(worst, line_residual(m1, grid, axis, s, x[0], rhs, cyclic));
    CHECK(worst <= 50 * std::numeric_limits<double>::epsilon());
  }
}

template <class Algo>
void check_refactor_every_kind() {
  bstest::for_each_exec([](auto exec) {
    check_refactor<Algo, false>(exec);
    check_refactor<Algo, true>(exec);
#if BANDSOLVE_TESTS_DEVICE_BACKEND
    check_refactor<Algo, false>(exec, bandsolve::backend::device{});
    check_refactor<Algo, true>(exec, bandsolve::backend::device{});
#endif
  });
}

}  // namespace

TEST_CASE("factorize_along(thomas) solves every line along every axis",
          "[axis][factor][thomas]") {
  bstest::for_each_exec([](auto exec) {
    check_every_axis<thomas, double, double, false>(exec);
    check_every_axis<thomas, double, double, true>(exec);
    check_every_axis<thomas, float, float, false>(exec);
    check_every_axis<thomas, float, float, true>(exec);
    check_every_axis<thomas, double, Kokkos::complex<double>, false>(exec);
    check_every_axis<thomas, Kokkos::complex<double>, Kokkos::complex<double>, false>(exec);
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("factorize_along(thomas) on the device backend solves every line along every axis",
          "[axis][factor][thomas][device]") {
  bstest::for_each_exec([](auto exec) {
    const bandsolve::backend::device dev;
    check_every_axis<thomas, double, double, false>(exec, dev);
    check_every_axis<thomas, double, double, true>(exec, dev);
    check_every_axis<thomas, double, Kokkos::complex<double>, false>(exec, dev);
    check_every_axis<thomas, float, float, true>(exec, dev);
  });
}
#endif

TEST_CASE("factorize_along(thomas) solves long gathered lines block by block",
          "[axis][factor][thomas]") {
  // Lines along the unit-stride axis are gathered in tiles; with the whole-pack limit lowered,
  // lines of 700 rows go in blocks of rows (d' written back to d and read again).
  const std::size_t saved = bandsolve::detail::factored_gather_whole_bytes;
  bandsolve::detail::factored_gather_whole_bytes = 256;
  bstest::for_each_exec([](auto exec) {
    check_case<thomas, double, double, 2, false>(exec, std::array<std::size_t, 2>{21, 1400}, 1,
                                         order::right, order::padded, 3);
    check_case<thomas, float, float, 2, false>(exec, std::array<std::size_t, 2>{19, 1500}, 1,
                                       order::left, order::right, 4);
  });
  bandsolve::detail::factored_gather_whole_bytes = saved;
}

TEST_CASE("factorize_along(thomas) adds the solution into u over whole packs of lines",
          "[axis][factor][thomas]") {
  // Along axis 1 with d in LayoutRight (u padded: both of unit stride along axis 2), 150 lines
  // per row of the lane axis fill whole packs (64 doubles or 128 floats with AVX-512 tiles)
  // before a partial one.
  bstest::for_each_exec([](auto exec) {
    const std::array<std::size_t, 3> grid = {3, 6, 150};
    check_case<thomas, double, double, 3, false>(exec, grid, 1, order::left, order::right, 21);
    check_case<thomas, double, double, 3, true>(exec, grid, 1, order::left, order::right, 22);
    check_case<thomas, float, float, 3, false>(exec, grid, 1, order::padded, order::right, 23);
    check_case<thomas, float, float, 3, true>(exec, grid, 1, order::left, order::right, 24);
    // Coefficients in LayoutRight: the factored packs run along axis 2 too (whole ones).
    check_case<thomas, double, double, 3, false>(exec, grid, 1, order::right, order::right, 35);
  });
}

TEST_CASE("factorize_along of periodic, partial pivoting and symmetric lines adds the solution "
          "into u over whole packs of lines",
          "[axis][factor][periodic][pivoting][symmetric]") {
  // As for Thomas: 150 lines per row of the lane axis fill whole packs (periodic and pivoting:
  // 32 doubles or 64 floats with AVX-512; symmetric: Thomas's 64 or 128) before a partial one;
  // d in LayoutRight and u padded are read in place.
  bstest::for_each_exec([](auto exec) {
    const std::array<std::size_t, 3> grid = {3, 6, 150};
    check_case<periodic, double, double, 3, false>(exec, grid, 1, order::left, order::right, 25);
    check_case<periodic, double, double, 3, true>(exec, grid, 1, order::left, order::right, 26);
    check_case<periodic, float, float, 3, false>(exec, grid, 1, order::right, order::right, 27);
    check_case<partial_pivoting, double, double, 3, false>(exec, grid, 1, order::right,
                                                           order::right, 28);
    check_case<partial_pivoting, float, float, 3, true>(exec, grid, 1, order::left,
                                                        order::right, 29);
    check_case<symmetric, double, double, 3, false>(exec, grid, 1, order::left, order::right, 30);
    check_case<symmetric, double, double, 3, false>(exec, grid, 1, order::right, order::padded,
                                                    31);
    check_case<symmetric, float, float, 3, true>(exec, grid, 1, order::left, order::right, 32);
    // Coefficients in LayoutRight: the factored packs run along axis 2 too (whole ones).
    check_case<symmetric, double, double, 3, false>(exec, grid, 1, order::right, order::right,
                                                    33);
    check_case<periodic, double, double, 3, false>(exec, grid, 1, order::right, order::right, 34);
  });
}

TEST_CASE("factorize_along(thomas) reports bad pivots on their lines' numbers",
          "[axis][factor][thomas][info]") {
  check_bad_pivot_codes<thomas>();
}

TEST_CASE("factorize_along(thomas) with no lines or no rows", "[axis][factor][thomas]") {
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  bstest::for_each_exec([](auto exec) {
    const V3 none("none", 4, 0, 3), rows0("rows0", 4, 0, 3);
    const auto f = bandsolve::factorize_along(exec, thomas{}, 0, none, none, none);
    CHECK(f.nsys() == 0);
    f.solve(exec, V3("d", 4, 0, 3));
    f.solve_add(exec, V3("d", 4, 0, 3), V3("u", 4, 0, 3));
    const auto g = bandsolve::factorize_along(exec, thomas{}, 1, rows0, rows0, rows0);
    CHECK(g.nsys() == 12);
    CHECK(g.n() == 0);
    CHECK(bstest::info_to_host(g.info()) == std::vector<int>(12, 0));
    g.solve(exec, V3("d", 4, 0, 3));
    g.solve_add(exec, V3("d", 4, 0, 3), V3("u", 4, 0, 3));
  });
}

TEST_CASE("factorize_along(thomas) rejects bad input with the function and the values",
          "[axis][factor][thomas][checks]") {
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V2 = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V1 = Kokkos::View<double*, Kokkos::HostSpace>;
  const V3 a("a", 2, 3, 4), b("b", 2, 3, 4), c("c", 2, 3, 4), d("d", 2, 3, 4);
  const Kokkos::DefaultHostExecutionSpace exec;
  const auto throws = [&](auto&& call, const std::string& fn, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(fn) &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  const std::string factorize = "bandsolve::factorize_along(thomas)";
  throws([&] { (void)bandsolve::factorize_along(exec, thomas{}, 3, a, b, c); }, factorize,
         "axis = 3 but b has rank 3 (axes 0 to 2)");
  throws([&] { (void)bandsolve::factorize_along(exec, thomas{}, -1, a, b, c, d); }, factorize,
         "axis = -1 but d has rank 3 (axes 0 to 2)");
  const V3 wide("wide", 2, 3, 5);
  throws([&] { (void)bandsolve::factorize_along(exec, thomas{}, 1, a, wide, c); }, factorize,
         "a.extent(2) = 4 but b.extent(2) = 5");
  throws([&] { (void)bandsolve::factorize_along(exec, thomas{}, 1, a, b, c, wide); }, factorize,
         "a.extent(2) = 4 but d.extent(2) = 5");
  const V1 s3("s3", 3), s4("s4", 4);
  throws([&] { (void)bandsolve::factorize_along(exec, thomas{}, 1, s3, s4, s3, d); }, factorize,
         "b.extent(0) = 4 but d.extent(1) = 3");
  const auto f = bandsolve::factorize_along(exec, thomas{}, 1, a, b, c);
  const std::string solve = "bandsolve::thomas_axis_factorization::solve";
  throws([&] { f.solve(exec, V3("other", 2, 4, 4)); }, solve,
         "d.extent(1) = 4 but the factored array has 3");
  throws([&] { f.solve(exec, V2("flat", 2, 3)); }, solve,
         "d has rank 2 but the factored array has 3");
  const bandsolve::thomas_axis_factorization<
      double, Kokkos::DefaultHostExecutionSpace,
      bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>>
      empty;
  throws([&] { empty.solve(exec, d); }, solve, "empty");
  const std::string add = "bandsolve::thomas_axis_factorization::solve_add";
  const V3 u("u", 2, 3, 4);
  throws([&] { f.solve_add(exec, V3("other", 2, 4, 4), V3("u4", 2, 4, 4)); }, add,
         "d.extent(1) = 4 but the factored array has 3");
  throws([&] { f.solve_add(exec, d, V3("u5", 2, 3, 5)); }, add,
         "u.extent(2) = 5 but d.extent(2) = 4");
  throws([&] { f.solve_add(exec, d, d); }, add, "u overlaps d");
  throws([&] { empty.solve_add(exec, d, u); }, add, "empty");
}

TEST_CASE("thomas_axis_factorization::refactor factors new coefficients into its storage",
          "[axis][factor][thomas][refactor]") {
  check_refactor_every_kind<thomas>();
}

TEST_CASE("thomas_axis_factorization::refactor checks the coefficients against the factored ones",
          "[axis][factor][thomas][refactor][checks]") {
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V1 = Kokkos::View<double*, Kokkos::HostSpace>;
  using Catch::Matchers::Equals;
  const Kokkos::DefaultHostExecutionSpace exec;
  const std::string fn = "bandsolve::thomas_axis_factorization::refactor: ";
  const V3 a("a", 2, 3, 4), b("b", 2, 3, 4), d("d", 2, 3, 4), other("other", 2, 4, 4);
  Kokkos::deep_copy(b, 4.0);
  auto f = bandsolve::factorize_along(exec, thomas{}, 1, a, b, a);
  CHECK_THROWS_WITH(f.refactor(exec, a, other, a),
                    Equals(fn + "b.extent(1) = 4 but the factored array has 3"));
  const V1 s3("s3", 3), s4("s4", 4);
  CHECK_THROWS_WITH(f.refactor(exec, s3, s3, s3),
                    Equals(fn + "a has rank 1 but the factored coefficients were arrays of "
                                "rank 3"));
  auto g = bandsolve::factorize_along(exec, thomas{}, 1, s3, s3, s3, d);
  CHECK_THROWS_WITH(g.refactor(exec, s3, s4, s3),
                    Equals(fn + "b.extent(0) = 4 but the factored lines have 3 rows"));
  CHECK_THROWS_WITH(g.refactor(exec, a, b, a),
                    Equals(fn + "a has rank 3 but the factored coefficients were shared by every "
                                "line (rank 1)"));
  bandsolve::thomas_axis_factorization<
      double, Kokkos::DefaultHostExecutionSpace,
      bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>>
      empty;
  CHECK_THROWS_WITH(empty.refactor(exec, a, b, a),
                    Equals(fn + "this factorization is empty (default-constructed)"));
  Kokkos::deep_copy(d, 8.0);  // the refused calls left the factors of b = 4
  f.solve(exec, d);
  exec.fence();
  CHECK(d(1, 2, 3) == 2.0);
}

TEST_CASE("periodic, pivoting and symmetric lines along an axis: refactor into the stored factors",
          "[axis][factor][periodic][partial_pivoting][symmetric][refactor]") {
  check_refactor_every_kind<periodic>();
  check_refactor_every_kind<partial_pivoting>();
  check_refactor_every_kind<symmetric>();
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V1 = Kokkos::View<double*, Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace exec;
  const V3 a("a", 2, 3, 4), other("other", 2, 3, 5), d("d", 2, 3, 4);
  auto f = bandsolve::factorize_along(exec, periodic{}, 2, a, a, a);
  CHECK_THROWS_WITH(f.refactor(exec, a, a, other),
                    Catch::Matchers::Equals("bandsolve::periodic_axis_factorization::refactor: "
                                            "c.extent(2) = 5 but the factored array has 4"));
  const V1 s4("s4", 4);
  auto g = bandsolve::factorize_along(exec, partial_pivoting{}, 2, s4, s4, s4, d);
  CHECK_THROWS_WITH(g.refactor(exec, a, a, a),
                    Catch::Matchers::Equals("bandsolve::pivoting_axis_factorization::refactor: a "
                                            "has rank 3 but the factored coefficients were shared "
                                            "by every line (rank 1)"));
}

TEST_CASE("factorize_along(periodic) solves every line along every axis",
          "[axis][factor][periodic]") {
  bstest::for_each_exec([](auto exec) {
    check_every_axis<periodic, double, double, false>(exec);
    check_every_axis<periodic, double, double, true>(exec);
    check_every_axis<periodic, float, float, false>(exec);
    check_every_axis<periodic, double, Kokkos::complex<double>, true>(exec);
    check_every_axis<periodic, Kokkos::complex<double>, Kokkos::complex<double>, false>(exec);
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("factorize_along(periodic) on the device backend solves every line along every axis",
          "[axis][factor][periodic][device]") {
  bstest::for_each_exec([](auto exec) {
    const bandsolve::backend::device dev;
    check_every_axis<periodic, double, double, false>(exec, dev);
    check_every_axis<periodic, double, double, true>(exec, dev);
    check_every_axis<periodic, float, Kokkos::complex<float>, false>(exec, dev);
  });
}
#endif

TEST_CASE("factorize_along(periodic) reports bad pivots on their lines' numbers",
          "[axis][factor][periodic][info]") {
  check_bad_pivot_codes<periodic>();
}

// No lines, no rows, and bad input of factorize_along(Algo) and of the solve of Factorization,
// the families of lane_axis_factorization (periodic, partial pivoting).
template <class Algo, template <class, class, class> class Factorization>
void check_edges_and_bad_input(const std::string& factorize, const std::string& solve) {
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V1 = Kokkos::View<double*, Kokkos::HostSpace>;
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const Exec exec;
  const V3 none("none", 4, 0, 3);
  const auto g = bandsolve::factorize_along(exec, Algo{}, 1, none, none, none);
  CHECK(g.nsys() == 12);
  CHECK(bstest::info_to_host(g.info()) == std::vector<int>(12, 0));
  g.solve(exec, V3("d", 4, 0, 3));
  CHECK(bandsolve::factorize_along(exec, Algo{}, 0, none, none, none).nsys() == 0);

  const V3 a("a", 2, 3, 4), b("b", 2, 3, 4), c("c", 2, 3, 4), d("d", 2, 3, 4);
  const auto throws = [&](auto&& call, const std::string& fn, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(fn) &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  throws([&] { (void)bandsolve::factorize_along(exec, Algo{}, 3, a, b, c); }, factorize,
         "axis = 3 but b has rank 3 (axes 0 to 2)");
  const V1 s3("s3", 3), s4("s4", 4);
  throws([&] { (void)bandsolve::factorize_along(exec, Algo{}, 1, s3, s4, s3, d); }, factorize,
         "b.extent(0) = 4 but d.extent(1) = 3");
  const auto f = bandsolve::factorize_along(exec, Algo{}, 1, a, b, c);
  CHECK(f.storage_bytes() >= 4 * 24 * sizeof(double));
  throws([&] { f.solve(exec, V3("other", 2, 4, 4)); }, solve,
         "d.extent(1) = 4 but the factored grid has 3");
  const Factorization<double, Exec, bandsolve::backend::default_for_t<Exec>> empty;
  throws([&] { empty.solve(exec, d); }, solve, "empty");
  const std::string add = solve + "_add";
  const V3 u("u", 2, 3, 4);
  throws([&] { f.solve_add(exec, V3("other", 2, 4, 4), V3("u4", 2, 4, 4)); }, add,
         "d.extent(1) = 4 but the factored grid has 3");
  throws([&] { f.solve_add(exec, d, V3("u5", 2, 3, 5)); }, add,
         "u.extent(2) = 5 but d.extent(2) = 4");
  throws([&] { f.solve_add(exec, d, d); }, add, "u overlaps d");
  throws([&] { empty.solve_add(exec, d, u); }, add, "empty");
  g.solve_add(exec, V3("d", 4, 0, 3), V3("u", 4, 0, 3));  // no rows: nothing to do
}

TEST_CASE("factorize_along(periodic) with no lines or no rows, and bad input",
          "[axis][factor][periodic][checks]") {
  check_edges_and_bad_input<periodic, bandsolve::periodic_axis_factorization>(
      "bandsolve::factorize_along(periodic)", "bandsolve::periodic_axis_factorization::solve");
}

TEST_CASE("factorize_along(partial_pivoting) solves every line along every axis",
          "[axis][factor][pivoting]") {
  bstest::for_each_exec([](auto exec) {
    check_every_axis<partial_pivoting, double, double, false>(exec);
    check_every_axis<partial_pivoting, double, double, true>(exec);
    check_every_axis<partial_pivoting, float, float, false>(exec);
    check_every_axis<partial_pivoting, double, Kokkos::complex<double>, true>(exec);
    check_every_axis<partial_pivoting, Kokkos::complex<double>, Kokkos::complex<double>, false>(
        exec);
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("factorize_along(partial_pivoting) on the device backend solves every line along "
          "every axis",
          "[axis][factor][pivoting][device]") {
  bstest::for_each_exec([](auto exec) {
    const bandsolve::backend::device dev;
    check_every_axis<partial_pivoting, double, double, false>(exec, dev);
    check_every_axis<partial_pivoting, double, double, true>(exec, dev);
    check_every_axis<partial_pivoting, float, Kokkos::complex<float>, false>(exec, dev);
  });
}
#endif

TEST_CASE("factorize_along(partial_pivoting) reports zero pivots on their lines' numbers",
          "[axis][factor][pivoting][info]") {
  check_bad_pivot_codes<partial_pivoting>();
}

TEST_CASE("factorize_along(partial_pivoting) with no lines or no rows, and bad input",
          "[axis][factor][pivoting][checks]") {
  check_edges_and_bad_input<partial_pivoting, bandsolve::pivoting_axis_factorization>(
      "bandsolve::factorize_along(partial_pivoting)",
      "bandsolve::pivoting_axis_factorization::solve");
}

TEST_CASE("factorize_along(symmetric) solves every line along every axis",
          "[axis][factor][symmetric]") {
  bstest::for_each_exec([](auto exec) {
    check_every_axis<symmetric, double, double, false>(exec);
    check_every_axis<symmetric, double, double, true>(exec);
    check_every_axis<symmetric, float, float, false>(exec);
    check_every_axis<symmetric, double, Kokkos::complex<double>, false>(exec);
    check_every_axis<symmetric, Kokkos::complex<double>, Kokkos::complex<double>, false>(exec);
    check_every_axis<symmetric, Kokkos::complex<double>, Kokkos::complex<double>, true>(exec);
  });
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("factorize_along(symmetric) on the device backend solves every line along every axis",
          "[axis][factor][symmetric][device]") {
  bstest::for_each_exec([](auto exec) {
    const bandsolve::backend::device dev;
    check_every_axis<symmetric, double, double, false>(exec, dev);
    check_every_axis<symmetric, float, float, true>(exec, dev);
    check_every_axis<symmetric, Kokkos::complex<double>, Kokkos::complex<double>, false>(exec,
                                                                                        dev);
  });
}
#endif

TEST_CASE("factorize_along(symmetric) reports pivots that are not positive on their lines' "
          "numbers",
          "[axis][factor][symmetric][info]") {
  check_bad_pivot_codes<symmetric>();
}

TEST_CASE("factorize_along(symmetric) with no lines or no rows, and bad input",
          "[axis][factor][symmetric][checks]") {
  using V3 = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  using V1 = Kokkos::View<double*, Kokkos::HostSpace>;
  const Kokkos::DefaultHostExecutionSpace exec;
  const V3 none("none", 4, 0, 3);
  const auto g = bandsolve::factorize_along(exec, symmetric{}, 1, none, none);
  CHECK(g.nsys() == 12);
  CHECK(bstest::info_to_host(g.info()) == std::vector<int>(12, 0));
  g.solve(exec, V3("d", 4, 0, 3));
  CHECK(bandsolve::factorize_along(exec, symmetric{}, 0, none, none).nsys() == 0);

  const V3 b("b", 2, 3, 4), e("e", 2, 3, 4), d("d", 2, 3, 4), wide("wide", 2, 3, 5);
  const auto throws = [&](auto&& call, const std::string& text) {
    CHECK_THROWS_WITH(call(),
                      Catch::Matchers::ContainsSubstring("bandsolve::factorize_along(symmetric)") &&
                          Catch::Matchers::ContainsSubstring(text));
  };
  throws([&] { (void)bandsolve::factorize_along(exec, symmetric{}, 3, b, e); },
         "axis = 3 but diag has rank 3 (axes 0 to 2)");
  throws([&] { (void)bandsolve::factorize_along(exec, symmetric{}, -1, b, e, d); },
         "axis = -1 but d has rank 3 (axes 0 to 2)");
  throws([&] { (void)bandsolve::factorize_along(exec, symmetric{}, 1, b, wide); },
         "offdiag.extent(2) = 5 but diag.extent(2) = 4");
  throws([&] { (void)bandsolve::factorize_along(exec, symmetric{}, 1, b, e, wide); },
         "diag.extent(2) = 4 but d.extent(2) = 5");
  const V1 s3("s3", 3), s4("s4", 4);
  throws([&] { (void)bandsolve::factorize_along(exec, symmetric{}, 1, s3, s4, d); },
         "offdiag.extent(0) = 4 but d.extent(1) = 3");
  const auto f = bandsolve::factorize_along(exec, symmetric{}, 1, b, e);
  CHECK(f.storage_bytes() >= 2 * 24 * sizeof(double));
  const std::string solve = "bandsolve::symmetric_axis_factorization::solve";
  CHECK_THROWS_WITH(f.solve(exec, V3("other", 2, 4, 4)),
                    Catch::Matchers::ContainsSubstring(solve) &&
                        Catch::Matchers::ContainsSubstring(
                            "d.extent(1) = 4 but the factored array has 3"));
  const bandsolve::symmetric_axis_factorization<
      double, Kokkos::DefaultHostExecutionSpace,
      bandsolve::backend::default_for_t<Kokkos::DefaultHostExecutionSpace>>
      empty;
  CHECK_THROWS_WITH(empty.solve(exec, d), Catch::Matchers::ContainsSubstring(solve) &&
                                              Catch::Matchers::ContainsSubstring("empty"));
  const auto add_throws = [&](auto&& call, const std::string& text) {
    CHECK_THROWS_WITH(call(), Catch::Matchers::ContainsSubstring(solve + "_add") &&
                                  Catch::Matchers::ContainsSubstring(text));
  };
  add_throws([&] { f.solve_add(exec, V3("other", 2, 4, 4), V3("u4", 2, 4, 4)); },
             "d.extent(1) = 4 but the factored array has 3");
  add_throws([&] { f.solve_add(exec, d, wide); }, "u.extent(2) = 5 but d.extent(2) = 4");
  add_throws([&] { f.solve_add(exec, d, d); }, "u overlaps d");
  add_throws([&] { empty.solve_add(exec, d, b); }, "empty");
  g.solve_add(exec, V3("d", 4, 0, 3), V3("u", 4, 0, 3));  // no rows: nothing to do
}

}  // namespace test_axis_factor
