// Randomized distributed lines along an axis (bandsolve::mpi::solve_along and
// mpi::factorize_along, lines with ends and periodic): arrays of rank 2 to 4 with random extents
// and axes, the solve axis split over the ranks in random parts (1 row and more), d in
// LayoutRight, LayoutLeft or a strided window of a padded array, the coefficients in the same or
// another layout or shared by every line, float and double, one-shot, factored and refactored with
// other matrices, on the matrices of tests/support/random_lines.hpp. Every rank gathers the whole
// solution; each line must reach a normwise backward error of 64u with info codes 0, and no value
// outside a strided window may change. Run by mpiexec with 1-4 ranks; every rank draws the same
// cases from the same seed.
//
// A longer run: BANDSOLVE_AGREEMENT_ITERATIONS=300 BANDSOLVE_AGREEMENT_SEED=7 mpiexec -n 3 ...
#include <bandsolve/mpi.hpp>
#include <random_arrays.hpp>
#include <random_lines.hpp>

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "mpi_test_main.hpp"

namespace test_along_random {  // units compile in groups: tests/mpi/CMakeLists.txt

namespace {

namespace bmpi = bandsolve::mpi;
using bstest_mpi::rank_space;
using bstest_mpi::world_rank;
using bstest_mpi::world_size;
using bstest_random::element;
using bstest_random::env_or;
using bstest_random::grid;
using bstest_random::make_array;
using bstest_random::matrix;
using bstest_random::name_of;
using bstest_random::padding_untouched;

struct outcome {
  double worst = 0;
  bool info_ok = true, padding_ok = true;
};

// The global grid (every rank's part along the axis together) and this rank's part of it.
struct split_grid {
  grid global, part;
  std::size_t first = 0;  // this rank's first global row along the axis
};

// Values of the global lines (line s, global row g at s * N + g) into this rank's part.
template <class View>
void load_part(const View& v, const split_grid& sg, const std::vector<double>& whole) {
  using T = typename View::non_const_value_type;
  const std::size_t N = sg.global.n(), m = sg.part.n();
  for (std::size_t s = 0; s < sg.part.lines(); ++s)
    for (std::size_t i = 0; i < m; ++i)
      element(v, sg.part.at(s, i)) = static_cast<T>(whole[s * N + sg.first + i]);
}

// The whole solution, every rank's part summed into zeros elsewhere.
template <class View>
std::vector<double> gather_solution(const View& d, const split_grid& sg) {
  const std::size_t N = sg.global.n(), m = sg.part.n();
  std::vector<double> x(sg.global.lines() * N, 0.0);
  for (std::size_t s = 0; s < sg.part.lines(); ++s)
    for (std::size_t i = 0; i < m; ++i)
      x[s * N + sg.first + i] = static_cast<double>(element(d, sg.part.at(s, i)));
  MPI_Allreduce(MPI_IN_PLACE, x.data(), static_cast<int>(x.size()), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  return x;
}

template <class T, int R, class DLayout, class CLayout, class Algo>
outcome run_case(const split_grid& sg, const bstest_random::lines& w,
                 const bstest_random::lines& next, bool shared, bool factored,
                 const bmpi::options& opts) {
  constexpr bool periodic = std::is_same_v<Algo, bandsolve::algo::periodic>;
  const grid& part = sg.part;
  const std::size_t lines = part.lines(), m = part.n();
  auto d = make_array<T, R, DLayout>("d", part);
  auto a = make_array<T, R, CLayout>("a", part), b = make_array<T, R, CLayout>("b", part),
       c = make_array<T, R, CLayout>("c", part);
  const Kokkos::View<T*, Kokkos::HostSpace> sa("a", m), sb("b", m), sc("c", m);
  const auto load = [&](const bstest_random::lines& q) {
    if (shared) {
      for (std::size_t i = 0; i < m; ++i) {
        sa(i) = static_cast<T>(q.a[sg.first + i]);
        sb(i) = static_cast<T>(q.b[sg.first + i]);
        sc(i) = static_cast<T>(q.c[sg.first + i]);
      }
    } else {
      load_part(a.v, sg, q.a);
      load_part(b.v, sg, q.b);
      load_part(c.v, sg, q.c);
    }
  };
  outcome out;
  const auto check = [&](const bstest_random::lines& q) {
    const auto x = gather_solution(d.v, sg);
    const auto qr = bstest_random::rounded_to<T>(q);
    for (std::size_t s = 0; s < lines; ++s)
      out.worst = std::max(out.worst, bstest_random::backward_error(qr, x, qr.d, s, periodic) /
                                          bstest_random::backward_error_bound<T>());
    out.padding_ok = out.padding_ok && padding_untouched(d, part) && padding_untouched(a, part) &&
                     padding_untouched(b, part) && padding_untouched(c, part);
  };
  const auto codes_zero = [&](const auto& info) {
    auto h = Kokkos::create_mirror_view(info);
    Kokkos::deep_copy(h, info);
    for (std::size_t s = 0; s < lines; ++s)
      if (h(s) != 0) out.info_ok = false;
  };
  const rank_space exec;
  const int axis = part.axis;
  load(w);
  load_part(d.v, sg, w.d);
  if (!factored) {
    Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
    if (shared)
      bmpi::solve_along(exec, MPI_COMM_WORLD, Algo{}, axis, sa, sb, sc, d.v, info, opts);
    else
      bmpi::solve_along(exec, MPI_COMM_WORLD, Algo{}, axis, a.v, b.v, c.v, d.v, info, opts);
    codes_zero(info);
    check(w);
    return out;
  }
  const auto factor = [&]() {
    if (shared)
      return bmpi::factorize_along(exec, MPI_COMM_WORLD, Algo{}, axis, sa, sb, sc, d.v, opts);
    return bmpi::factorize_along(exec, MPI_COMM_WORLD, Algo{}, axis, a.v, b.v, c.v, opts);
  };
  auto f = factor();
  exec.fence();
  codes_zero(f.info());
  f.solve(exec, d.v);
  exec.fence();
  check(w);
  load(next);
  if (shared) f.refactor(exec, sa, sb, sc, d.v);
  else f.refactor(exec, a.v, b.v, c.v);
  exec.fence();
  codes_zero(f.info());
  load_part(d.v, sg, next.d);
  f.solve(exec, d.v);
  exec.fence();
  check(next);
  return out;
}

template <class T, int R, class DLayout, class CLayout>
void run_iteration(std::mt19937_64& gen, std::uint64_t seed, std::uint64_t it) {
  const int P = world_size();
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const auto pick = [&](std::size_t lo, std::size_t hi) {
    return lo + static_cast<std::size_t>(u01(gen) * static_cast<double>(hi - lo + 1));
  };
  static const std::size_t edges[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
  split_grid sg;
  grid& g = sg.global;
  g.rank = R;
  g.axis = static_cast<int>(pick(0, R - 1));
  for (int k = 0; k < R; ++k) g.e[static_cast<std::size_t>(k)] = edges[pick(0, 14)];
  // Rows per rank along the axis: short parts, parts around the truncated finish's tips, long.
  const double shape = u01(gen);
  std::vector<std::size_t> sizes(static_cast<std::size_t>(P));
  for (auto& m : sizes) m = shape < 0.3 ? pick(1, 5) : shape < 0.7 ? pick(6, 80) : pick(81, 400);
  std::size_t N = 0;
  for (const auto m : sizes) N += m;
  g.e[static_cast<std::size_t>(g.axis)] = N;
  while (g.e[0] * g.e[1] * g.e[2] * g.e[3] > (std::size_t(1) << 16)) {  // shrink the batch
    std::size_t widest = 0, at = 0;
    for (int k = 0; k < R; ++k)
      if (k != g.axis && g.e[static_cast<std::size_t>(k)] > widest)
        widest = g.e[static_cast<std::size_t>(k)], at = static_cast<std::size_t>(k);
    if (widest <= 1) break;
    g.e[at] = (g.e[at] + 1) / 2;
  }
  const std::size_t me = static_cast<std::size_t>(world_rank());
  for (std::size_t r = 0; r < me; ++r) sg.first += sizes[r];
  sg.part = g;
  sg.part.e[static_cast<std::size_t>(g.axis)] = sizes[me];
  std::uniform_int_distribution<int> pick_matrix(0, 4);
  const auto kind = static_cast<matrix>(pick_matrix(gen));
  const auto next_kind = static_cast<matrix>(pick_matrix(gen));
  const bool periodic = u01(gen) < 0.3, factored = u01(gen) < 0.5, shared = u01(gen) < 0.25;
  bmpi::options opts;
  const bmpi::exchange schemes[] = {bmpi::exchange::automatic, bmpi::exchange::all_to_all,
                                    bmpi::exchange::gather};
  opts.scheme = schemes[pick(0, 2)];
  const std::size_t batches[] = {0, 1, 64 << 10, std::size_t(2) << 20};
  opts.batch_bytes_per_thread = batches[pick(0, 3)];
  using bstest_random::make_lines;
  const auto w = make_lines(gen, g.lines(), N, kind, false, periodic, shared);
  const auto next = make_lines(gen, g.lines(), N, next_kind, false, periodic, shared);
  const outcome o =
      periodic ? run_case<T, R, DLayout, CLayout, bandsolve::algo::periodic>(sg, w, next, shared,
                                                                             factored, opts)
               : run_case<T, R, DLayout, CLayout, bandsolve::algo::thomas>(sg, w, next, shared,
                                                                           factored, opts);
  std::ostringstream where;
  where << "seed " << seed << ", iteration " << it << ": " << P << " ranks, "
        << (factored ? "factored" : "one-shot") << (periodic ? " periodic" : "") << ", "
        << (sizeof(T) == 4 ? "float" : "double") << ", d " << bstest_random::layout_name<DLayout>()
        << ", coefficients "
        << (shared ? "shared" : bstest_random::layout_name<CLayout>()) << ", extents";
  for (int k = 0; k < R; ++k) where << ' ' << g.e[static_cast<std::size_t>(k)];
  where << ", axis " << g.axis << ", parts";
  for (const auto m : sizes) where << ' ' << m;
  where << ", scheme " << static_cast<int>(opts.scheme) << ", batch bytes "
        << opts.batch_bytes_per_thread << ", " << name_of(kind) << " then " << name_of(next_kind)
        << "; backward error / bound = " << o.worst;
  if (env_or("BANDSOLVE_AGREEMENT_VERBOSE", 0) && world_rank() == 0)
    std::cerr << where.str() << '\n';
  INFO(where.str());
  CHECK(o.info_ok);
  CHECK(o.padding_ok);
  CHECK(o.worst <= 1.0);
}

}  // namespace

TEST_CASE("lines along a random axis split over the ranks solve to the backward error bound",
          "[mpi][agreement]") {
  const std::uint64_t seed = env_or("BANDSOLVE_AGREEMENT_SEED", 20261205);
  const std::uint64_t iterations = env_or("BANDSOLVE_AGREEMENT_ITERATIONS", 24);
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int> pick_case(0, 5);
  using right = Kokkos::LayoutRight;
  using left = Kokkos::LayoutLeft;
  using strided = Kokkos::LayoutStride;
  for (std::uint64_t it = 0; it < iterations; ++it) {
    switch (pick_case(gen)) {
      case 0: run_iteration<double, 3, right, right>(gen, seed, it); break;
      case 1: run_iteration<double, 3, left, left>(gen, seed, it); break;
      case 2: run_iteration<double, 2, strided, right>(gen, seed, it); break;
      case 3: run_iteration<float, 4, right, left>(gen, seed, it); break;
      case 4: run_iteration<double, 4, left, strided>(gen, seed, it); break;
      default: run_iteration<float, 3, strided, strided>(gen, seed, it); break;
    }
  }
}

}  // namespace test_along_random
