// Toeplitz solvers against their peers in the same run.
//  - One system T = tridiag(-0.2, 1.5, -0.3), n = 2^24 and 2^26 doubles, and the same T rotated
//    into the complex plane (t1 and t3 times e^{+-i phi}), n = 2^23 and 2^25 complex doubles (the
//    same bytes): the divide and conquer against a plain sequential Thomas loop on the same
//    system (constant coefficients, c' in an array). Floor bytes: read f, write x (16 per
//    unknown, 32 complex). Besides the usual counters (4r1w STREAM), each reports frac_of_1r1w:
//    its GB/s over a 1-read-1-write pass (y = x on arrays of n values) sampled between its
//    iterations, and the D&C reports speedup_vs_thomas (best time of the Thomas benchmark of the
//    same n and type, which runs first, over its own).
//  - Batches sharing (t1, t2, t3) against the general batched Thomas (bench_batched_toeplitz.cpp).
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <chrono>
#include <map>
#include <string>

namespace bandsolve_bench {
namespace bench_toeplitz {  // each file its own: the test trees check them as one unit
namespace {

constexpr double t1 = -0.2, t2 = 1.5, t3 = -0.3;  // rows sum to 1: repeated solves stay near 1

template <class T>
using vec = Kokkos::View<T*, host_exec::memory_space>;
using zd = Kokkos::complex<double>;

// The coefficients in T's kind: complex ones rotated by e^{+-i phi} (|t1|, |t3| as in the real T).
template <class T>
struct coefficients {
  T a = T(t1), b = T(t2), c = T(t3);
};
template <>
struct coefficients<zd> {
  zd a = zd(t1) * zd(0.8, 0.6), b = zd(t2), c = zd(t3) * zd(0.8, -0.6);
};

template <class T>
void fill_rhs(const vec<T>& f) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, f.extent(0)), KOKKOS_LAMBDA(std::size_t i) {
        if constexpr (bandsolve::is_complex_v<T>) f(i) = T(1 + hash01(i), hash01(i + 1));
        else f(i) = 1 + hash01(i);
      });
  host_exec().fence();
}

// Best GB/s of a 1-read-1-write pass y = x over n values (2 sizeof(T) bytes per element).
template <class T>
class one_read_one_write {
 public:
  explicit one_read_one_write(const vec<T>& x) : x_(x), y_("y", x.extent(0)) {
    Kokkos::deep_copy(y_, T(0));
  }
  void sample() {
    const vec<T> x = x_, y = y_;
    const auto t0 = std::chrono::steady_clock::now();
    Kokkos::parallel_for(
        "1r1w", Kokkos::RangePolicy<host_exec>(0, x.extent(0)),
        KOKKOS_LAMBDA(std::size_t i) { y(i) = x(i); });
    host_exec().fence();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double gbps = 2.0 * sizeof(T) * x.extent(0) / s / 1e9;
    if (gbps > best_) best_ = gbps;
  }
  double best() const { return best_; }

 private:
  vec<T> x_, y_;
  double best_ = 0;
};

// Best Thomas time per (n, bytes per value).
std::map<std::pair<std::size_t, std::size_t>, double>& thomas_best() {
  static std::map<std::pair<std::size_t, std::size_t>, double> best;
  return best;
}

template <class T>
void report_1r1w(benchmark::State& state, const iteration_timer& t, one_read_one_write<T>& ref,
                 std::size_t n) {
  const double bytes = 2.0 * sizeof(T) * static_cast<double>(n);
  report(state, t, bytes, static_cast<double>(n));
  if (t.best() > 0 && ref.best() > 0) {
    state.counters["one_r_one_w_GBps"] = ref.best();
    state.counters["frac_of_1r1w"] = bytes / t.best() / 1e9 / ref.best();
  }
}

template <class T>
void sequential_thomas_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const coefficients<T> k;
  vec<T> f("f", n), cp("c'", n);
  fill_rhs(f);
  one_read_one_write<T> ref(f);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    T* x = f.data();
    T* c = cp.data();
    T prev_c = T(0), prev_y = T(0);
    for (std::size_t i = 0; i < n; ++i) {
      const T r = T(1) / (k.b - k.a * prev_c);
      c[i] = prev_c = k.c * r;
      x[i] = prev_y = (x[i] - k.a * prev_y) * r;
    }
    for (std::size_t i = n - 1; i-- > 0;) x[i] -= c[i] * x[i + 1];
    benchmark::ClobberMemory();
    t.stop(state);
    ref.sample();
  }
  report_1r1w(state, t, ref, n);
  thomas_best()[{n, sizeof(T)}] = t.best();
}

template <class T>
void divide_and_conquer_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const host_exec exec;
  const coefficients<T> k;
  vec<T> x("x", n);
  fill_rhs(x);
  one_read_one_write<T> ref(x);
  const auto plan = bandsolve::factorize(exec, bandsolve::algo::toeplitz_dc{}, k.a, k.b, k.c, n);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    plan.solve(exec, x);
    exec.fence();
    t.stop(state);
    ref.sample();
  }
  report_1r1w(state, t, ref, n);
  const auto thomas = thomas_best().find({n, sizeof(T)});
  if (thomas != thomas_best().end() && t.best() > 0)
    state.counters["speedup_vs_thomas"] = thomas->second / t.best();
}

BENCHMARK_TEMPLATE(sequential_thomas_benchmark, double)
    ->Name("toeplitz/sequential_thomas/double")
    ->ArgName("n")
    ->Arg(1 << 24)
    ->Arg(1 << 26)
    ->Iterations(4)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(divide_and_conquer_benchmark, double)
    ->Name("toeplitz/divide_and_conquer/double")
    ->ArgName("n")
    ->Arg(1 << 24)
    ->Arg(1 << 26)
    ->Iterations(10)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(sequential_thomas_benchmark, zd)
    ->Name("toeplitz/sequential_thomas/complex_double")
    ->ArgName("n")
    ->Arg(1 << 23)
    ->Arg(1 << 25)
    ->Iterations(4)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(divide_and_conquer_benchmark, zd)
    ->Name("toeplitz/divide_and_conquer/complex_double")
    ->ArgName("n")
    ->Arg(1 << 23)
    ->Arg(1 << 25)
    ->Iterations(10)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace bench_toeplitz
}  // namespace bandsolve_bench
