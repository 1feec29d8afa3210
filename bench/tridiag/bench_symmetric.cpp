// algo::symmetric against the general Thomas on the same symmetric positive definite batch
// (Thomas gets a[i] = e[i-1], c = e), in every layout, double and float, one-shot and factored.
// Floor bytes: symmetric 4 words per unknown (read diag, offdiag, d; write x) one-shot, 4 factored
// (r, c', d in; x out); Thomas 5 and 5. The ratio of their times is what the smaller floor buys.
// Shapes: 65536 systems of 256 rows, and few long systems (2^24 unknowns as 64 systems of 2^18
// rows and 4 of 2^22), whose factored row solves run as linear scans.
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <string>

namespace bandsolve_bench {
namespace bench_symmetric {  // each file its own: the test trees check them as one unit
namespace {

template <class T>
const char* sym_precision_name() {
  return sizeof(T) == 8 ? "double" : "float";
}

template <class Layout>
std::string sym_layout_name() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

// e in [-0.75, -0.25], b_i = 1 - e_{i-1} - e_i (e_{-1} = e_{n-1} = 0 in the sums): A 1 = 1 and
// ||A^-1||_inf <= 1, so solving again on the previous solution never drifts into denormals.
template <class Layout, class T>
struct symmetric_batch {
  using view = decltype(bandsolve::make_batch<Layout, T, host_exec::memory_space>("", 0, 0));
  std::size_t n, nsys;
  view a, b, e, d;
  explicit symmetric_batch(const benchmark::State& state)
      : n(static_cast<std::size_t>(state.range(0))),
        nsys(static_cast<std::size_t>(state.range(1))),
        a(make("a")), b(make("b")), e(make("e")), d(make("d")) {
    const view a_ = a, b_ = b, e_ = e, d_ = d;
    const std::size_t rows = n;
    Kokkos::parallel_for(
        "fill", Kokkos::RangePolicy<host_exec>(0, nsys), KOKKOS_LAMBDA(std::size_t s) {
          double prev = 0;
          for (std::size_t i = 0; i < rows; ++i) {
            const std::size_t k = s * rows + i;
            const double up = i + 1 < rows ? -0.25 - 0.5 * hash01(3 * k) : 0.0;
            bandsolve::at(e_, s, i) = T(up);
            bandsolve::at(a_, s, i) = T(prev);
            bandsolve::at(b_, s, i) = T(1 - prev - up);
            bandsolve::at(d_, s, i) = T(1 + hash01(3 * k + 2));
            prev = up;
          }
        });
    host_exec().fence();
  }
  view make(const char* label) const {
    return bandsolve::make_batch<Layout, T, host_exec::memory_space>(label, nsys, n);
  }
};

template <class Layout, class T, bool Symmetric, bool Factored>
void symmetric_benchmark(benchmark::State& state) {
  const symmetric_batch<Layout, T> batch(state);
  const std::size_t n = batch.n, nsys = batch.nsys;
  const host_exec exec;
  iteration_timer t;
  const double words = Symmetric ? 4.0 : 5.0;
  int failed = 0;
  if constexpr (!Factored) {
    Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
    for (auto _ : state) {
      t.start();
      if constexpr (Symmetric)
        bandsolve::solve(exec, bandsolve::algo::symmetric{}, batch.b, batch.e, batch.d, info);
      else
        bandsolve::solve(exec, bandsolve::algo::thomas{}, batch.a, batch.b, batch.e, batch.d,
                         info);
      exec.fence();
      t.stop(state);
    }
    failed = static_cast<int>(bandsolve::count_failed(info));
  } else {
    const auto run = [&](const auto& f) {
      exec.fence();
      for (auto _ : state) {
        t.start();
        f.solve(exec, batch.d);
        exec.fence();
        t.stop(state);
      }
      failed = static_cast<int>(bandsolve::count_failed(f.info()));
    };
    if constexpr (Symmetric)
      run(bandsolve::factorize(exec, bandsolve::algo::symmetric{}, batch.b, batch.e, nsys));
    else
      run(bandsolve::factorize(exec, bandsolve::algo::thomas{}, batch.a, batch.b, batch.e, nsys));
  }
  if (failed != 0) state.SkipWithError("a system failed");
  report(state, t, words * sizeof(T) * n * nsys, double(n) * nsys);
}

template <class Layout, class T>
void register_symmetric_layout(long n, long nsys) {
  const std::string tail = "/" + sym_layout_name<Layout>() + "/" + sym_precision_name<T>() +
                           "/n:" + std::to_string(n) + "/nsys:" + std::to_string(nsys);
  const auto add = [&](const std::string& name, auto fn) {
    benchmark::RegisterBenchmark((name + tail).c_str(), fn)
        ->Args({n, nsys})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  };
  add("symmetric/one_shot", symmetric_benchmark<Layout, T, true, false>);
  add("symmetric/thomas_one_shot", symmetric_benchmark<Layout, T, false, false>);
  add("symmetric/factored_solve", symmetric_benchmark<Layout, T, true, true>);
  add("symmetric/thomas_factored_solve", symmetric_benchmark<Layout, T, false, true>);
}

template <class T>
void register_symmetric_all() {
  register_symmetric_layout<bandsolve::layout::row, T>(256, 65536);
  register_symmetric_layout<bandsolve::layout::column, T>(256, 65536);
  register_symmetric_layout<bandsolve::layout::interleaved<8>, T>(256, 65536);
  // Column batches of many systems in runs of 2 KiB (doubles from 512 rows, floats from 2048).
  for (const long n : {1024L, 4096L})
    register_symmetric_layout<bandsolve::layout::column, T>(n, (1L << 24) / n);
  for (const long n : {1L << 18, 1L << 22}) {
    register_symmetric_layout<bandsolve::layout::row, T>(n, (1L << 24) / n);
    register_symmetric_layout<bandsolve::layout::column, T>(n, (1L << 24) / n);
    register_symmetric_layout<bandsolve::layout::interleaved<8>, T>(n, (1L << 24) / n);
  }
}

const bool registered = [] {
  register_symmetric_all<double>();
  register_symmetric_all<float>();
  return true;
}();

}  // namespace
}  // namespace bench_symmetric
}  // namespace bandsolve_bench
