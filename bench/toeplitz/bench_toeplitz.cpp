// Toeplitz solvers against their peers in the same run.
//  - One system T = tridiag(-0.2, 1.5, -0.3), n = 2^24 and 2^26: the divide and conquer against a
//    plain sequential Thomas loop on the same system (constant coefficients, c' in an array).
//    Floor bytes: 16 per unknown (read f, write x). Besides the usual counters (4r1w STREAM), each
//    reports frac_of_1r1w: its GB/s over a 1-read-1-write pass (y = x on arrays of n doubles)
//    sampled between its iterations, and the D&C reports speedup_vs_thomas (best time of the
//    Thomas benchmark of the same n, which runs first, over its own).
//  - Batches sharing (t1, t2, t3) against the general batched Thomas (bench_batched_toeplitz.cpp).
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <chrono>
#include <map>
#include <string>

namespace bandsolve_bench {
namespace {

constexpr double t1 = -0.2, t2 = 1.5, t3 = -0.3;  // rows sum to 1: repeated solves stay near 1

using vec = Kokkos::View<double*, host_exec::memory_space>;

void fill_rhs(const vec& f) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, f.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) { f(i) = 1 + hash01(i); });
  host_exec().fence();
}

// Best GB/s of a 1-read-1-write pass y = x over n doubles (16 bytes per element).
class one_read_one_write {
 public:
  explicit one_read_one_write(const vec& x) : x_(x), y_("y", x.extent(0)) {
    Kokkos::deep_copy(y_, 0.0);
  }
  void sample() {
    const vec x = x_, y = y_;
    const auto t0 = std::chrono::steady_clock::now();
    Kokkos::parallel_for(
        "1r1w", Kokkos::RangePolicy<host_exec>(0, x.extent(0)),
        KOKKOS_LAMBDA(std::size_t i) { y(i) = x(i); });
    host_exec().fence();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double gbps = 16.0 * x.extent(0) / s / 1e9;
    if (gbps > best_) best_ = gbps;
  }
  double best() const { return best_; }

 private:
  vec x_, y_;
  double best_ = 0;
};

std::map<std::size_t, double>& thomas_best() {
  static std::map<std::size_t, double> best;
  return best;
}

void report_1r1w(benchmark::State& state, const iteration_timer& t, one_read_one_write& ref,
                 std::size_t n) {
  report(state, t, 16.0 * n, static_cast<double>(n));
  if (t.best() > 0 && ref.best() > 0) {
    state.counters["one_r_one_w_GBps"] = ref.best();
    state.counters["frac_of_1r1w"] = 16.0 * n / t.best() / 1e9 / ref.best();
  }
}

void sequential_thomas_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  vec f("f", n), cp("c'", n);
  fill_rhs(f);
  one_read_one_write ref(f);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    double* x = f.data();
    double* c = cp.data();
    double prev_c = 0, prev_y = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double r = 1 / (t2 - t1 * prev_c);
      c[i] = prev_c = t3 * r;
      x[i] = prev_y = (x[i] - t1 * prev_y) * r;
    }
    for (std::size_t i = n - 1; i-- > 0;) x[i] -= c[i] * x[i + 1];
    benchmark::ClobberMemory();
    t.stop(state);
    ref.sample();
  }
  report_1r1w(state, t, ref, n);
  thomas_best()[n] = t.best();
}

void divide_and_conquer_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const host_exec exec;
  vec x("x", n);
  fill_rhs(x);
  one_read_one_write ref(x);
  const auto plan = bandsolve::factorize(exec, bandsolve::algo::toeplitz_dc{}, t1, t2, t3, n);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    plan.solve(exec, x);
    exec.fence();
    t.stop(state);
    ref.sample();
  }
  report_1r1w(state, t, ref, n);
  const auto thomas = thomas_best().find(n);
  if (thomas != thomas_best().end() && t.best() > 0)
    state.counters["speedup_vs_thomas"] = thomas->second / t.best();
}

BENCHMARK(sequential_thomas_benchmark)
    ->Name("toeplitz/sequential_thomas/double")
    ->ArgName("n")
    ->Arg(1 << 24)
    ->Arg(1 << 26)
    ->Iterations(4)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(divide_and_conquer_benchmark)
    ->Name("toeplitz/divide_and_conquer/double")
    ->ArgName("n")
    ->Arg(1 << 24)
    ->Arg(1 << 26)
    ->Iterations(10)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace bandsolve_bench
