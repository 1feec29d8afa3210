// Randomized check of lines along an axis of 2-D to 4-D arrays (solve_along, solve_along_add,
// factorize_along with solve, solve_add and refactor): random ranks, extents (lines of 1 row to
// a few thousand, batch extents around the packs' widths), axes, array layouts (LayoutRight,
// LayoutLeft, strided windows of padded arrays), coefficients full or shared by every line,
// float and double, through algo::thomas, algo::periodic, algo::partial_pivoting and
// algo::symmetric, on the matrices of test_path_agreement.cpp (dominant, barely dominant,
// Laplacian, dominant in part of each line, a dominant first line among barely dominant ones).
// Every line must reach a normwise backward error of 64u with info codes 0, and no value outside
// a strided window may change.
//
// Fixed seed by default. A longer run:
//   BANDSOLVE_AGREEMENT_ITERATIONS=400 BANDSOLVE_AGREEMENT_SEED=7
//     build/test/tests/tridiag_group_axis --filenames-as-tags "[#test_axis_agreement]"
#include <bandsolve/bandsolve.hpp>
#include <random_arrays.hpp>
#include <random_lines.hpp>
#include <test_support.hpp>

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace test_axis_agreement {  // units compile in groups: tests/CMakeLists.txt

namespace {

using exec_space = Kokkos::DefaultHostExecutionSpace;

using bstest_random::env_or;
using bstest_random::matrix;
using bstest_random::name_of;
using problem = bstest_random::lines;

using bstest_random::element;
using bstest_random::gather;
using bstest_random::grid;
using bstest_random::layout_name;
using bstest_random::make_array;
using bstest_random::padding_untouched;
using bstest_random::scatter;

enum class path {
  thomas,
  thomas_add,
  thomas_factored,
  thomas_shared,
  thomas_shared_factored,
  periodic,
  periodic_factored,
  pivoting,
  symmetric,
  count
};
const char* name_of(path p) {
  const char* names[] = {"solve_along(thomas)",
                         "solve_along_add(thomas)",
                         "factorize_along(thomas): solve, solve_add, refactor",
                         "solve_along(thomas), shared coefficients",
                         "factorize_along(thomas), shared coefficients",
                         "solve_along(periodic)",
                         "factorize_along(periodic): solve, refactor",
                         "solve_along(partial_pivoting)",
                         "solve_along(symmetric)"};
  return names[static_cast<int>(p)];
}

struct outcome {
  double worst = 0;
  bool info_ok = true, padding_ok = true;
};

template <path P, class T, int R, class ArrayLayout>
outcome run_path(const grid& g, const problem& p, const problem& next) {
  constexpr bool periodic = P == path::periodic || P == path::periodic_factored;
  constexpr bool shared = P == path::thomas_shared || P == path::thomas_shared_factored;
  const exec_space exec;
  const std::size_t n = g.n(), lines = g.lines();
  auto d = make_array<T, R, ArrayLayout>("d", g);
  auto u = make_array<T, R, ArrayLayout>("u", g);
  auto a = make_array<T, R, ArrayLayout>("a", g), b = make_array<T, R, ArrayLayout>("b", g),
       c = make_array<T, R, ArrayLayout>("c", g);
  using line_view = Kokkos::View<T*, Kokkos::HostSpace>;
  const line_view sa("a", n), sb("b", n), sc("c", n);
  const auto load = [&](const problem& q) {
    if (shared) {
      for (std::size_t i = 0; i < n; ++i) {
        sa(i) = static_cast<T>(q.a[i]);
        sb(i) = static_cast<T>(q.b[i]);
        sc(i) = static_cast<T>(q.c[i]);
      }
    } else {
      scatter(a.v, g, q.a);
      scatter(b.v, g, q.b);
      scatter(c.v, g, q.c);
    }
  };
  outcome out;
  const auto check = [&](const problem& q, const std::vector<double>& x,
                         const std::vector<double>* added = nullptr) {
    const problem qr = bstest_random::rounded_to<T>(q);
    for (std::size_t s = 0; s < lines; ++s)
      out.worst = std::max(out.worst,
                           bstest_random::backward_error(qr, x, qr.d, s, periodic, added) /
                               bstest_random::backward_error_bound<T>());
    for (const auto* arr : {&a, &b, &c, &d, &u})
      out.padding_ok = out.padding_ok && padding_untouched(*arr, g);
  };
  const auto codes_zero = [&](const auto& info) {
    auto h = Kokkos::create_mirror_view(info);
    Kokkos::deep_copy(h, info);
    for (std::size_t s = 0; s < lines; ++s)
      if (h(s) != 0) out.info_ok = false;
  };
  Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
  load(p);
  scatter(d.v, g, p.d);
  const int axis = g.axis;
  if constexpr (P == path::thomas || P == path::periodic || P == path::pivoting ||
                P == path::symmetric || P == path::thomas_shared) {
    if constexpr (P == path::thomas)
      bandsolve::solve_along(exec, bandsolve::algo::thomas{}, axis, a.v, b.v, c.v, d.v, info);
    if constexpr (P == path::thomas_shared)
      bandsolve::solve_along(exec, bandsolve::algo::thomas{}, axis, sa, sb, sc, d.v, info);
    if constexpr (P == path::periodic)
      bandsolve::solve_along(exec, bandsolve::algo::periodic{}, axis, a.v, b.v, c.v, d.v, info);
    if constexpr (P == path::pivoting)
      bandsolve::solve_along(exec, bandsolve::algo::partial_pivoting{}, axis, a.v, b.v, c.v, d.v,
                             info);
    if constexpr (P == path::symmetric)
      bandsolve::solve_along(exec, bandsolve::algo::symmetric{}, axis, b.v, c.v, d.v, info);
    exec.fence();
    codes_zero(info);
    check(p, gather(d.v, g));
  } else if constexpr (P == path::thomas_add) {
    std::vector<double> u0(lines * n);
    std::mt19937_64 ugen(lines * 31 + n);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (auto& v : u0) v = static_cast<double>(static_cast<T>(unit(ugen)));
    scatter(u.v, g, u0);
    bandsolve::solve_along_add(exec, bandsolve::algo::thomas{}, axis, a.v, b.v, c.v, d.v, u.v,
                               info);
    exec.fence();
    codes_zero(info);
    auto x = gather(u.v, g);
    for (std::size_t k = 0; k < x.size(); ++k) x[k] -= u0[k];
    check(p, x, &u0);  // u + x rounds to u's ulps where |x| is smaller
  } else {
    const auto factor = [&]() {
      if constexpr (P == path::thomas_factored)
        return bandsolve::factorize_along(exec, bandsolve::algo::thomas{}, axis, a.v, b.v, c.v);
      if constexpr (P == path::thomas_shared_factored)
        return bandsolve::factorize_along(exec, bandsolve::algo::thomas{}, axis, sa, sb, sc, d.v);
      if constexpr (P == path::periodic_factored)
        return bandsolve::factorize_along(exec, bandsolve::algo::periodic{}, axis, a.v, b.v, c.v);
    };
    auto f = factor();
    exec.fence();
    codes_zero(f.info());
    f.solve(exec, d.v);
    exec.fence();
    check(p, gather(d.v, g));
    load(next);
    if constexpr (P == path::thomas_shared_factored) f.refactor(exec, sa, sb, sc);
    else f.refactor(exec, a.v, b.v, c.v);
    exec.fence();
    codes_zero(f.info());
    scatter(d.v, g, next.d);
    f.solve(exec, d.v);
    exec.fence();
    check(next, gather(d.v, g));
    if constexpr (P != path::periodic_factored) {
      std::vector<double> zero(lines * n, 0.0);
      scatter(u.v, g, zero);
      scatter(d.v, g, next.d);
      f.solve_add(exec, d.v, u.v);
      exec.fence();
      check(next, gather(u.v, g));
    }
  }
  return out;
}

template <class T, int R, class L>
outcome run(path which, const grid& g, const problem& p, const problem& next) {
  switch (which) {
    case path::thomas: return run_path<path::thomas, T, R, L>(g, p, next);
    case path::thomas_add: return run_path<path::thomas_add, T, R, L>(g, p, next);
    case path::thomas_factored: return run_path<path::thomas_factored, T, R, L>(g, p, next);
    case path::thomas_shared: return run_path<path::thomas_shared, T, R, L>(g, p, next);
    case path::thomas_shared_factored:
      return run_path<path::thomas_shared_factored, T, R, L>(g, p, next);
    case path::periodic: return run_path<path::periodic, T, R, L>(g, p, next);
    case path::periodic_factored: return run_path<path::periodic_factored, T, R, L>(g, p, next);
    case path::pivoting: return run_path<path::pivoting, T, R, L>(g, p, next);
    default: return run_path<path::symmetric, T, R, L>(g, p, next);
  }
}

// Extents: lines of 1 to 9 rows, around pack and tile boundaries, or long; batch extents small,
// around SIMD widths, or larger; at most 2^18 values in all.
grid pick_grid(std::mt19937_64& gen, int rank) {
  static const std::size_t edges[] = {7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const auto pick = [&](std::size_t lo, std::size_t hi) {
    return lo + static_cast<std::size_t>(u01(gen) * static_cast<double>(hi - lo + 1));
  };
  grid g;
  g.rank = rank;
  g.axis = static_cast<int>(pick(0, static_cast<std::size_t>(rank - 1)));
  for (int k = 0; k < rank; ++k) {
    const double w = u01(gen);
    g.e[static_cast<std::size_t>(k)] =
        w < 0.35 ? pick(1, 6) : w < 0.8 ? edges[pick(0, 14)] : pick(130, 700);
  }
  const double w = u01(gen);
  g.e[static_cast<std::size_t>(g.axis)] = w < 0.3 ? pick(1, 9) : w < 0.8 ? edges[pick(0, 14)]
                                                                          : pick(130, 5000);
  // Shrink the largest batch extent until the array fits.
  const auto total = [&] { return g.e[0] * g.e[1] * g.e[2] * g.e[3]; };
  while (total() > (std::size_t(1) << 18)) {
    std::size_t widest = 0, at = 0;
    for (int k = 0; k < rank; ++k)
      if (k != g.axis && g.e[static_cast<std::size_t>(k)] > widest)
        widest = g.e[static_cast<std::size_t>(k)], at = static_cast<std::size_t>(k);
    if (widest <= 1) break;
    g.e[at] = (g.e[at] + 1) / 2;
  }
  return g;
}

template <class T, int R, class L>
void run_iteration(std::mt19937_64& gen, std::uint64_t seed, std::uint64_t it) {
  const grid g = pick_grid(gen, R);
  std::uniform_int_distribution<int> pick_path(0, static_cast<int>(path::count) - 1),
      pick_matrix(0, 4);
  const auto which = static_cast<path>(pick_path(gen));
  const auto kind = static_cast<matrix>(pick_matrix(gen));
  const auto next_kind = static_cast<matrix>(pick_matrix(gen));
  const bool symmetric = which == path::symmetric;
  const bool periodic = which == path::periodic || which == path::periodic_factored;
  const bool shared = which == path::thomas_shared || which == path::thomas_shared_factored;
  using bstest_random::make_lines;
  const problem p = make_lines(gen, g.lines(), g.n(), kind, symmetric, periodic, shared);
  const problem next = make_lines(gen, g.lines(), g.n(), next_kind, symmetric, periodic, shared);
  const outcome o = run<T, R, L>(which, g, p, next);
  std::ostringstream where;
  where << "seed " << seed << ", iteration " << it << ": " << name_of(which) << ", "
        << (sizeof(T) == 4 ? "float" : "double") << ", " << layout_name<L>() << ", extents";
  for (int k = 0; k < R; ++k) where << ' ' << g.e[static_cast<std::size_t>(k)];
  where << ", axis " << g.axis << ", " << name_of(kind) << " then " << name_of(next_kind)
        << "; backward error / bound = " << o.worst;
  if (env_or("BANDSOLVE_AGREEMENT_VERBOSE", 0)) std::cerr << where.str() << '\n';
  INFO(where.str());
  CHECK(o.info_ok);
  CHECK(o.padding_ok);
  CHECK(o.worst <= 1.0);
}

}  // namespace

TEST_CASE("lines along every axis of random arrays solve to the backward error bound",
          "[agreement]") {
  const std::uint64_t seed = env_or("BANDSOLVE_AGREEMENT_SEED", 20261205);
  const std::uint64_t iterations = env_or("BANDSOLVE_AGREEMENT_ITERATIONS", 60);
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int> pick_case(0, 7);
  using right = Kokkos::LayoutRight;
  using left = Kokkos::LayoutLeft;
  using strided = Kokkos::LayoutStride;
  for (std::uint64_t it = 0; it < iterations; ++it) {
    switch (pick_case(gen)) {
      case 0: run_iteration<double, 3, right>(gen, seed, it); break;
      case 1: run_iteration<double, 3, left>(gen, seed, it); break;
      case 2: run_iteration<double, 3, strided>(gen, seed, it); break;
      case 3: run_iteration<double, 2, right>(gen, seed, it); break;
      case 4: run_iteration<double, 4, left>(gen, seed, it); break;
      case 5: run_iteration<float, 3, right>(gen, seed, it); break;
      case 6: run_iteration<float, 2, strided>(gen, seed, it); break;
      default: run_iteration<float, 4, right>(gen, seed, it); break;
    }
  }
}

}  // namespace test_axis_agreement
