// solve_along(block_thomas): block lines along x, y and z of a 64^3 grid of m = 3 and 5
// unknowns per point (double), the arrays in array-of-structures order (LayoutRight: a point's
// m unknowns together, a(i, j, k, r, c)) and structure-of-arrays order (LayoutLeft: each
// unknown's field apart), full coefficients (one matrix per line) and coefficients shared by
// every line (rank-3 Views), one-shot (solve_along) and factored (factorize_along once, then
// f.solve) for full coefficients. The peer in the same run: solve(block_thomas) of a column-layout
// batch of as many systems and rows, the layout block Thomas reads fastest, i.e. what the
// solve costs once the lines have been transposed into a batch (block_thomas/one_shot/column in
// bench_block_thomas.cpp, registered here with these sizes).
// Floor bytes per scalar unknown: 3m coefficients and 2 right-hand-side values (full), or the
// 2 right-hand-side values alone (shared); factored: 3m + 1 factor values and the 2.
// The "_add" cases: solve_along_add / f.solve_add into u (d only read), one value more (d read,
// u read and written); their ratio to the solve in place is the cost of adding through a copy.
// block_axis/factorize and block_axis/refactor: factorize_along of full coefficients timed alone
// (new factors mapped and first touched each time) against f.refactor of the same blocks into
// one factorization's storage; floor: 3m coefficients read and 3m + 1 factors written.
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <string>
#include <type_traits>
#include <utility>

namespace bandsolve_bench {
namespace bench_block_axis {  // each file its own: the test trees check them as one unit
namespace {

constexpr long grid_side = 64;

// Point k (row i of its line of n block rows): set(which, r, col, value) with which 0, 1, 2
// for A, B, C (col < m) and 3 for d (col = 0). Every scalar row sums to 1: off-diagonal entries
// -(0.25 + 0.5 h) / (3m), the diagonal 1 minus their sum, so A 1 = 1 and repeated solves stay
// put.
template <class Set>
KOKKOS_INLINE_FUNCTION void block_point_values(std::size_t k, std::size_t i, std::size_t n,
                                               std::size_t m, const Set& set) {
  for (std::size_t r = 0; r < m; ++r) {
    double sum = 0;
    for (std::size_t col = 0; col < m; ++col) {
      const std::uint64_t h = 4 * ((k * m + r) * m + col);
      const double scale = 1.0 / (3.0 * double(m));
      const double va = -(0.25 + 0.5 * hash01(h)) * scale;
      const double vb = col == r ? 0.0 : -(0.25 + 0.5 * hash01(h + 1)) * scale;
      const double vc = -(0.25 + 0.5 * hash01(h + 2)) * scale;
      set(0, r, col, va);
      set(2, r, col, vc);
      if (col != r) set(1, r, col, vb);
      sum += (i > 0 ? va : 0.0) + vb + (i + 1 < n ? vc : 0.0);
    }
    set(1, r, r, 1 - sum);
    set(3, r, 0, 1 + hash01(4 * (k * m + r) + 3));
  }
}

// The grid's values for lines along `axis`.
template <class Grid5, class Grid4>
void fill_grid(const Grid5& a, const Grid5& b, const Grid5& c, const Grid4& d, int axis) {
  const std::size_t side = d.extent(0), m = d.extent(3);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, side * side * side), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t p[3] = {k / (side * side), k / side % side, k % side};
        block_point_values(k, p[axis], side, m, [&](int which, std::size_t r, std::size_t col,
                                                     double v) {
          if (which == 0) a(p[0], p[1], p[2], r, col) = v;
          else if (which == 1) b(p[0], p[1], p[2], r, col) = v;
          else if (which == 2) c(p[0], p[1], p[2], r, col) = v;
          else d(p[0], p[1], p[2], r) = v;
        });
      });
  host_exec().fence();
}

// Factored: factorize_along once (full coefficients), then f.solve per iteration. Add:
// solve_along_add or f.solve_add into u.
template <class Layout, bool Shared, bool Factored = false, bool Add = false>
void block_axis_benchmark(benchmark::State& state) {
  const int axis = static_cast<int>(state.range(0));
  const auto m = static_cast<std::size_t>(state.range(1));
  const std::size_t side = grid_side;
  using grid5 = Kokkos::View<double*****, Layout, host_exec::memory_space>;
  using grid4 = Kokkos::View<double****, Layout, host_exec::memory_space>;
  const grid5 a("a", side, side, side, m, m), b("b", side, side, side, m, m),
      c("c", side, side, side, m, m);
  const grid4 d("d", side, side, side, m), u("u", Add ? side : 0, side, side, m);
  const typename grid4::const_type d_in = d;
  fill_grid(a, b, c, d, axis);
  const host_exec exec;
  const Kokkos::View<int*, host_exec::memory_space> info("info", side * side);
  iteration_timer t;
  // Shared: the line at grid index 0 of the other axes, as rank-3 Views (n, m, m).
  using shared_view = Kokkos::View<double***, Kokkos::LayoutStride, host_exec::memory_space>;
  const auto line = [&](const grid5& v) {
    const auto all = Kokkos::ALL;
    if constexpr (Shared) {
      if (axis == 0) return shared_view(Kokkos::subview(v, all, 0, 0, all, all));
      if (axis == 1) return shared_view(Kokkos::subview(v, 0, all, 0, all, all));
      return shared_view(Kokkos::subview(v, 0, 0, all, all, all));
    } else {
      return v;
    }
  };
  const auto la = line(a), lb = line(b), lc = line(c);
  const double unknowns = double(side * side * side * m);
  if constexpr (Factored) {
    const auto f = bandsolve::factorize_along(exec, bandsolve::algo::block_thomas{}, axis, la, lb,
                                              lc, d);
    exec.fence();
    for (auto _ : state) {
      t.start();
      if constexpr (Add) f.solve_add(exec, d_in, u);
      else f.solve(exec, d);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a line failed");
    // The factors: 3m^2 + m values per block row, 3m + 1 per scalar unknown (one line's with
    // shared blocks, read from cache).
    report(state, t,
           ((Shared ? 0.0 : 3.0 * double(m) + 1.0) + (Add ? 3.0 : 2.0)) * sizeof(double) *
               unknowns,
           unknowns);
  } else {
    for (auto _ : state) {
      t.start();
      if constexpr (Add)
        bandsolve::solve_along_add(exec, bandsolve::algo::block_thomas{}, axis, la, lb, lc, d_in,
                                   u, info);
      else
        bandsolve::solve_along(exec, bandsolve::algo::block_thomas{}, axis, la, lb, lc, d, info);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a line failed");
    report(state, t,
           ((Shared ? 0.0 : 3.0 * double(m)) + (Add ? 3.0 : 2.0)) * sizeof(double) * unknowns,
           unknowns);
  }
}

// factorize_along of full coefficients (Again false: a new factorization each time) or
// f.refactor of them into one factorization's storage (Again).
template <bool Again>
void block_factor_benchmark(benchmark::State& state) {
  const int axis = static_cast<int>(state.range(0));
  const auto m = static_cast<std::size_t>(state.range(1));
  const std::size_t side = grid_side;
  using grid5 = Kokkos::View<double*****, Kokkos::LayoutRight, host_exec::memory_space>;
  using grid4 = Kokkos::View<double****, Kokkos::LayoutRight, host_exec::memory_space>;
  const grid5 a("a", side, side, side, m, m), b("b", side, side, side, m, m),
      c("c", side, side, side, m, m);
  const grid4 d("d", side, side, side, m);
  fill_grid(a, b, c, d, axis);
  const host_exec exec;
  const bandsolve::algo::block_thomas alg;
  auto f = bandsolve::factorize_along(exec, alg, axis, a, b, c);
  exec.fence();
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    if constexpr (Again) {
      f.refactor(exec, a, b, c);
      exec.fence();
    } else {
      const auto g = bandsolve::factorize_along(exec, alg, axis, a, b, c);
      exec.fence();
      benchmark::DoNotOptimize(g.storage_bytes());
    }
    t.stop(state);
  }
  if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a line failed");
  const double unknowns = double(side * side * side * m);
  report(state, t, (6.0 * double(m) + 1.0) * sizeof(double) * unknowns, unknowns);
}

// The peer: a column-layout batch of side^2 systems of side block rows.
void block_batch_peer(benchmark::State& state) {
  using column = bandsolve::layout::column;
  const auto m = static_cast<std::size_t>(state.range(1));
  const std::size_t n = grid_side, nsys = grid_side * grid_side;
  using mem = host_exec::memory_space;
  const auto a = bandsolve::make_block_batch<column, double, mem>("a", nsys, n, m);
  const auto b = bandsolve::make_block_batch<column, double, mem>("b", nsys, n, m);
  const auto c = bandsolve::make_block_batch<column, double, mem>("c", nsys, n, m);
  const auto d = bandsolve::make_block_rhs<column, double, mem>("d", nsys, n, m);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        const std::size_t s = k / n;
        block_point_values(k, k % n, n, m, [&](int which, std::size_t r, std::size_t col,
                                              double v) {
          if (which == 0) bandsolve::block_at(a, s, k % n, r, col) = v;
          else if (which == 1) bandsolve::block_at(b, s, k % n, r, col) = v;
          else if (which == 2) bandsolve::block_at(c, s, k % n, r, col) = v;
          else bandsolve::block_at(d, s, k % n, r) = v;
        });
      });
  host_exec().fence();
  const host_exec exec;
  const Kokkos::View<int*, mem> info("info", nsys);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    bandsolve::solve(exec, bandsolve::algo::block_thomas{}, a, b, c, d, info);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  const double unknowns = double(n * nsys * m);
  report(state, t, (3.0 * double(m) + 2.0) * sizeof(double) * unknowns, unknowns);
}

template <class Layout, bool Shared, bool Factored = false, bool Add = false>
void register_axis(const char* order, long m) {
  const char* axes[3] = {"x", "y", "z"};
  for (long axis = 0; axis < 3; ++axis) {
    const std::string name = std::string("block_axis/") + (Shared ? "shared" : "full") +
                             (Factored ? "_factored" : "") + (Add ? "_add/" : "/") + order +
                             "/double/m:" + std::to_string(m) + "/" + axes[axis];
    benchmark::RegisterBenchmark(name.c_str(),
                                 block_axis_benchmark<Layout, Shared, Factored, Add>)
        ->Args({axis, m})
        ->UseManualTime()
        ->MinTime(0.2)
        ->Unit(benchmark::kMillisecond);
  }
}

const bool registered = [] {
  for (long m : {3, 5}) {
    const std::string peer = "block_axis/peer_column_batch/double/m:" + std::to_string(m);
    benchmark::RegisterBenchmark(peer.c_str(), block_batch_peer)
        ->Args({0, m})
        ->UseManualTime()
        ->MinTime(0.2)
        ->Unit(benchmark::kMillisecond);
    register_axis<Kokkos::LayoutRight, false>("aos", m);
    register_axis<Kokkos::LayoutLeft, false>("soa", m);
    register_axis<Kokkos::LayoutRight, true>("aos", m);
    register_axis<Kokkos::LayoutRight, false, true>("aos", m);
    register_axis<Kokkos::LayoutLeft, false, true>("soa", m);
  }
  register_axis<Kokkos::LayoutRight, false, false, true>("aos", 3);
  register_axis<Kokkos::LayoutRight, false, true, true>("aos", 3);
  const char* axes[3] = {"x", "y", "z"};
  const std::pair<const char*, void (*)(benchmark::State&)> factor_kinds[] = {
      {"factorize", block_factor_benchmark<false>}, {"refactor", block_factor_benchmark<true>}};
  for (long axis = 0; axis < 3; ++axis)
    for (const auto& kind : factor_kinds)
      benchmark::RegisterBenchmark(
          (std::string("block_axis/") + kind.first + "/aos/double/m:3/" + axes[axis]).c_str(),
          kind.second)
          ->Args({axis, 3})
          ->UseManualTime()
          ->MinTime(0.2)
          ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace bench_block_axis
}  // namespace bandsolve_bench
