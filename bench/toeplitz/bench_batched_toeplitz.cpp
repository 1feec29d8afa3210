// Batches whose coefficients are shared, against the general batched Thomas on the same systems
// in the same run (n = 256, nsys = 65536, double):
//   toeplitz_batch/<layout>      one Toeplitz matrix, stored factors shared by all systems
//   shared_offdiag/<layout>      shared off-diagonals, diagonal generated per system (a functor)
//   thomas_general/<layout>      bandsolve::solve(thomas) with a, b, c, d arrays (the peer)
// Floor bytes: 16 per unknown for the shared-coefficient solvers (read d, write x), 40 for Thomas.
// speedup_vs_thomas: best time of thomas_general for the same layout (registered, so run, first)
// over the solver's.
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <map>
#include <string>

namespace bandsolve_bench {
namespace {

constexpr double t1 = -0.2, t2 = 1.5, t3 = -0.3;  // rows sum to 1: repeated solves stay near 1
constexpr long n_rows = 256, n_systems = 65536;

template <class Layout>
std::string name_of() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

std::map<std::string, double>& thomas_best() {
  static std::map<std::string, double> best;
  return best;
}

template <class View>
void fill_rhs(const View& d, std::size_t nsys, std::size_t n) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        bandsolve::at(d, k / n, k % n) = 1 + hash01(k);
      });
  host_exec().fence();
}

// Per-system diagonal 1.5 + 0.1 * (s & 7) with corners as interior rows: dominant, generated.
struct generated_diagonal {
  KOKKOS_INLINE_FUNCTION double operator()(bandsolve::index_t s, bandsolve::index_t) const {
    return t2 + 0.1 * static_cast<double>(s & 7);
  }
};

enum class solver { toeplitz_batch, shared_offdiag, thomas_general };

template <class Layout, solver Which>
void batched_benchmark(benchmark::State& state) {
  const std::size_t n = n_rows, nsys = n_systems;
  const host_exec exec;
  auto d = bandsolve::make_batch<Layout, double, host_exec::memory_space>("d", nsys, n);
  fill_rhs(d, nsys, n);
  Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
  iteration_timer t;
  double floor_bytes = 16.0;
  if constexpr (Which == solver::toeplitz_batch) {
    const auto f = bandsolve::factorize(exec, bandsolve::algo::toeplitz{}, t1, t2, t3, n);
    for (auto _ : state) {
      t.start();
      f.solve(exec, d);
      exec.fence();
      t.stop(state);
    }
  } else if constexpr (Which == solver::shared_offdiag) {
    const auto m = bandsolve::make_shared_offdiag(t1, t3, t3, t1, generated_diagonal{});
    for (auto _ : state) {
      t.start();
      bandsolve::solve(exec, bandsolve::algo::shared_offdiag{}, m, d, info);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  } else if constexpr (Which == solver::thomas_general) {
    floor_bytes = 40.0;
    auto a = bandsolve::make_batch<Layout, double, host_exec::memory_space>("a", nsys, n);
    auto b = bandsolve::make_batch<Layout, double, host_exec::memory_space>("b", nsys, n);
    auto c = bandsolve::make_batch<Layout, double, host_exec::memory_space>("c", nsys, n);
    Kokkos::deep_copy(a, t1);
    Kokkos::deep_copy(b, t2);
    Kokkos::deep_copy(c, t3);
    for (auto _ : state) {
      t.start();
      bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  } else {
    static_assert(Which == solver::toeplitz_batch, "bench_batched_toeplitz: unknown solver");
  }
  report(state, t, floor_bytes * double(n) * double(nsys), double(n) * double(nsys));
  auto& best = thomas_best();
  if (Which == solver::thomas_general) best[name_of<Layout>()] = t.best();
  else if (best.count(name_of<Layout>()) && t.best() > 0)
    state.counters["speedup_vs_thomas"] = best[name_of<Layout>()] / t.best();
}

template <class Layout>
void register_layout() {
  const std::string tail =
      "/" + name_of<Layout>() + "/double/n:" + std::to_string(n_rows) + "/nsys:" +
      std::to_string(n_systems);
  benchmark::RegisterBenchmark(("toeplitz/thomas_general" + tail).c_str(),
                               batched_benchmark<Layout, solver::thomas_general>)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("toeplitz/toeplitz_batch" + tail).c_str(),
                               batched_benchmark<Layout, solver::toeplitz_batch>)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("toeplitz/shared_offdiag" + tail).c_str(),
                               batched_benchmark<Layout, solver::shared_offdiag>)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

const bool registered = [] {
  register_layout<bandsolve::layout::column>();
  register_layout<bandsolve::layout::interleaved<8>>();
  register_layout<bandsolve::layout::row>();
  return true;
}();

}  // namespace
}  // namespace bandsolve_bench
