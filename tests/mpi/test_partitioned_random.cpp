// Randomized distributed solves (bandsolve::mpi::solve and mpi::factorize of scalar lines, with
// ends and periodic): random splits of the lines over the ranks (parts of one row and more),
// line counts on both sides of the exchange schemes' crossover and forced schemes, batch sizes
// from one line to every line, every batch layout, float and double, one-shot, factored (two
// right-hand sides) and refactored with other matrices. The matrices are those the truncated
// finish is taken for and those it must turn away: dominant with a margin, barely dominant,
// Laplacian lines (coupling that does not die out), lines dominant only in their first eighth,
// and batches whose first line is dominant and the others barely. Every rank gathers the whole
// solution; each line must reach a normwise backward error of 64u with info codes 0. Run by
// mpiexec with 1-4 ranks; every rank draws the same cases from the same seed.
//
// A longer run: BANDSOLVE_AGREEMENT_ITERATIONS=300 BANDSOLVE_AGREEMENT_SEED=7 mpiexec -n 3 ...
#include <bandsolve/mpi.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <random_lines.hpp>
#include <test_support.hpp>

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_test_main.hpp"

namespace test_partitioned_random {  // units compile in groups: tests/mpi/CMakeLists.txt

namespace {

namespace layout = bandsolve::layout;
namespace bmpi = bandsolve::mpi;

using bstest_mpi::rank_space;
using bstest_mpi::world_rank;
using bstest_mpi::world_size;

using bstest_random::env_or;
using bstest_random::matrix;
using bstest_random::name_of;
using whole_lines = bstest_random::lines;  // line s, global row g at s * N + g

// This rank's part (rows first .. first + m - 1 of every line) as a batch View of Layout.
template <class Layout, class T>
auto part_view(const std::string& label, std::size_t nsys, std::size_t m) {
  if constexpr (std::is_same_v<Layout, layout::strided>) {
    Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace> full(label, nsys, m + 3);
    return Kokkos::View<T**, Kokkos::LayoutStride, Kokkos::HostSpace>(
        Kokkos::subview(full, Kokkos::ALL, std::make_pair(std::size_t(1), m + 1)));
  } else {
    return bandsolve::make_batch<Layout, T, Kokkos::HostSpace>(label, nsys, m);
  }
}

template <class View>
void load_part(const View& v, const std::vector<double>& whole, std::size_t nsys, std::size_t N,
               std::size_t first, std::size_t m) {
  using T = typename View::non_const_value_type;
  std::vector<T> h(nsys * m);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < m; ++i) h[s * m + i] = static_cast<T>(whole[s * N + first + i]);
  bstest::fill(v, h, nsys);
}

// The whole solution from every rank's part of x (in d).
template <class View>
std::vector<double> gather_solution(const View& d, std::size_t nsys, std::size_t N,
                                    const std::vector<std::size_t>& sizes) {
  const int P = world_size();
  const auto mine = bstest::to_host(d, nsys);  // line s, row i at s * (its rows) + i
  std::vector<double> send(mine.size());
  for (std::size_t k = 0; k < mine.size(); ++k) send[k] = static_cast<double>(mine[k]);
  std::vector<int> counts(static_cast<std::size_t>(P)), displs(static_cast<std::size_t>(P));
  int at = 0;
  for (int r = 0; r < P; ++r) {
    const auto q = static_cast<std::size_t>(r);
    counts[q] = static_cast<int>(nsys * sizes[q]);
    displs[q] = at;
    at += counts[q];
  }
  std::vector<double> all(nsys * N);
  MPI_Allgatherv(send.data(), static_cast<int>(send.size()), MPI_DOUBLE, all.data(),
                 counts.data(), displs.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  std::vector<double> x(nsys * N);
  std::size_t first = 0;
  for (int r = 0; r < P; ++r) {
    const std::size_t mr = sizes[static_cast<std::size_t>(r)];
    const double* part = all.data() + displs[static_cast<std::size_t>(r)];
    for (std::size_t s = 0; s < nsys; ++s)
      for (std::size_t i = 0; i < mr; ++i) x[s * N + first + i] = part[s * mr + i];
    first += mr;
  }
  return x;
}

struct outcome {
  double worst = 0;
  bool info_ok = true;
};

template <class Layout, class T, class Algo>
outcome run_case(std::mt19937_64& gen, const whole_lines& w, const whole_lines& next,
                 const std::vector<std::size_t>& sizes, const bmpi::options& opts, bool factored) {
  constexpr bool periodic = std::is_same_v<Algo, bandsolve::algo::periodic>;
  const std::size_t nsys = w.count, N = w.n;
  const std::size_t me = static_cast<std::size_t>(world_rank()), m = sizes[me];
  std::size_t first = 0;
  for (std::size_t r = 0; r < me; ++r) first += sizes[r];
  auto a = part_view<Layout, T>("a", nsys, m), b = part_view<Layout, T>("b", nsys, m),
       c = part_view<Layout, T>("c", nsys, m), d = part_view<Layout, T>("d", nsys, m);
  const auto load = [&](const whole_lines& q) {
    load_part(a, q.a, nsys, N, first, m);
    load_part(b, q.b, nsys, N, first, m);
    load_part(c, q.c, nsys, N, first, m);
  };
  outcome out;
  const auto check = [&](const whole_lines& q) {
    const auto x = gather_solution(d, nsys, N, sizes);
    const whole_lines qr = bstest_random::rounded_to<T>(q);
    for (std::size_t s = 0; s < nsys; ++s)
      out.worst = std::max(out.worst, bstest_random::backward_error(qr, x, qr.d, s, periodic) /
                                          bstest_random::backward_error_bound<T>());
  };
  const auto codes_zero = [&](const auto& info) {
    auto h = Kokkos::create_mirror_view(info);
    Kokkos::deep_copy(h, info);
    for (std::size_t s = 0; s < nsys; ++s)
      if (h(s) != 0) out.info_ok = false;
  };
  const rank_space exec;
  load(w);
  load_part(d, w.d, nsys, N, first, m);
  if (!factored) {
    Kokkos::View<int*, Kokkos::HostSpace> info("info", nsys);
    bmpi::solve(exec, MPI_COMM_WORLD, Algo{}, a, b, c, d, info, opts);
    codes_zero(info);
    check(w);
    return out;
  }
  auto f = bmpi::factorize(exec, MPI_COMM_WORLD, Algo{}, a, b, c, nsys, opts);
  exec.fence();
  codes_zero(f.info());
  f.solve(exec, d);
  exec.fence();
  check(w);
  whole_lines w2 = w;  // a second right-hand side
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (auto& v : w2.d) v = unit(gen);
  load_part(d, w2.d, nsys, N, first, m);
  f.solve(exec, d);
  exec.fence();
  check(w2);
  load(next);
  f.refactor(exec, a, b, c);
  exec.fence();
  codes_zero(f.info());
  load_part(d, next.d, nsys, N, first, m);
  f.solve(exec, d);
  exec.fence();
  check(next);
  return out;
}

template <class Layout, class T>
void run_iteration(std::mt19937_64& gen, std::uint64_t seed, std::uint64_t it) {
  const int P = world_size();
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const auto between = [&](double lo, double hi) {  // log-uniform integer in [lo, hi]
    const double span = std::log(hi + 1) - std::log(lo);
    return static_cast<std::size_t>(std::exp(std::log(lo) + u01(gen) * span));
  };
  // Rows per rank: short parts (1 to 9 rows), parts around the truncated finish's tips, long ones.
  const double shape = u01(gen);
  std::vector<std::size_t> sizes(static_cast<std::size_t>(P));
  for (auto& m : sizes)
    m = shape < 0.3 ? between(1, 9) : shape < 0.7 ? between(10, 200) : between(200, 3000);
  std::size_t N = 0;
  for (const auto m : sizes) N += m;
  std::size_t nsys = u01(gen) < 0.3 ? between(1, 8) : between(9, 300);
  nsys = std::max<std::size_t>(std::min<std::size_t>(nsys, (std::size_t(1) << 17) / N), 1);
  std::uniform_int_distribution<int> pick_matrix(0, 4), pick_scheme(0, 2), pick_batch(0, 3);
  const auto kind = static_cast<matrix>(pick_matrix(gen));
  const auto next_kind = static_cast<matrix>(pick_matrix(gen));
  const bool periodic = u01(gen) < 0.3, factored = u01(gen) < 0.5;
  bmpi::options opts;
  const bmpi::exchange schemes[] = {bmpi::exchange::automatic, bmpi::exchange::all_to_all,
                                    bmpi::exchange::gather};
  opts.scheme = schemes[pick_scheme(gen)];
  const std::size_t batches[] = {0, 1, 64 << 10, std::size_t(2) << 20};
  opts.batch_bytes_per_thread = batches[pick_batch(gen)];
  const whole_lines w = bstest_random::make_lines(gen, nsys, N, kind, false, periodic);
  const whole_lines next = bstest_random::make_lines(gen, nsys, N, next_kind, false, periodic);
  const outcome o =
      periodic ? run_case<Layout, T, bandsolve::algo::periodic>(gen, w, next, sizes, opts, factored)
               : run_case<Layout, T, bandsolve::algo::thomas>(gen, w, next, sizes, opts, factored);
  std::ostringstream where;
  where << "seed " << seed << ", iteration " << it << ": " << P << " ranks, "
        << (factored ? "factored" : "one-shot") << (periodic ? " periodic" : "") << ", "
        << Layout::name << ", " << (sizeof(T) == 4 ? "float" : "double") << ", nsys = " << nsys
        << ", parts";
  for (const auto m : sizes) where << ' ' << m;
  where << ", scheme " << static_cast<int>(opts.scheme) << ", batch bytes "
        << opts.batch_bytes_per_thread << ", " << name_of(kind) << " then " << name_of(next_kind)
        << "; backward error / bound = " << o.worst;
  if (env_or("BANDSOLVE_AGREEMENT_VERBOSE", 0) && world_rank() == 0)
    std::cerr << where.str() << '\n';
  INFO(where.str());
  CHECK(o.info_ok);
  CHECK(o.worst <= 1.0);
}

}  // namespace

TEST_CASE("random splits, line counts, batches and matrices solve to the backward error bound",
          "[mpi][agreement]") {
  const std::uint64_t seed = env_or("BANDSOLVE_AGREEMENT_SEED", 20261205);
  const std::uint64_t iterations = env_or("BANDSOLVE_AGREEMENT_ITERATIONS", 24);
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int> pick_case(0, 5);
  for (std::uint64_t it = 0; it < iterations; ++it) {
    switch (pick_case(gen)) {
      case 0: run_iteration<layout::row, double>(gen, seed, it); break;
      case 1: run_iteration<layout::column, float>(gen, seed, it); break;
      case 2: run_iteration<layout::interleaved<8>, double>(gen, seed, it); break;
      case 3: run_iteration<layout::strided, double>(gen, seed, it); break;
      case 4: run_iteration<layout::column, double>(gen, seed, it); break;
      default: run_iteration<layout::row, float>(gen, seed, it); break;
    }
  }
}

}  // namespace test_partitioned_random
