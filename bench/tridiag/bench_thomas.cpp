// Batched Thomas in every layout and precision against LAPACK ?gtsv looped over the batch with
// OpenMP, in the same run. Floor bytes: 5 words per unknown (read a, b, c, d; write x) for the
// one-shot solve, and 5 for a solve with a stored factorization (r, l, c', d in; x out).
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <omp.h>

#include <string>
#include <vector>

extern "C" {
void dgtsv_(const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
            const int* ldb, int* info);
void sgtsv_(const int* n, const int* nrhs, float* dl, float* d, float* du, float* b,
            const int* ldb, int* info);
}

namespace bandsolve_bench {
namespace bench_thomas {  // each file its own: the test trees check them as one unit
namespace {

template <class T>
const char* precision_name() {
  return sizeof(T) == 8 ? "double" : "float";
}

template <class Layout>
std::string layout_name() {
  if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

// The benchmark's batch: nsys = range(1) systems of n = range(0) rows, allocated (by make_batch,
// or make_padded_batch when Padded) and filled.
template <class Layout, class T, bool Padded = false>
struct filled_batch {
  using view = decltype(bandsolve::make_batch<Layout, T, host_exec::memory_space>("", 0, 0));
  std::size_t n, nsys;
  view a, b, c, d;
  explicit filled_batch(const benchmark::State& state)
      : n(static_cast<std::size_t>(state.range(0))),
        nsys(static_cast<std::size_t>(state.range(1))),
        a(make("a")), b(make("b")), c(make("c")), d(make("d")) {
    fill_rows_sum_to_one(a, b, c, d, nsys, n);
  }
  view make(const char* label) const {
    if constexpr (Padded)
      return bandsolve::make_padded_batch<Layout, T, host_exec::memory_space>(label, nsys, n);
    else
      return bandsolve::make_batch<Layout, T, host_exec::memory_space>(label, nsys, n);
  }
};

// The one-shot solve of a filled batch over the benchmark's iterations, then its floor bytes.
template <class View>
void one_shot_iterations(benchmark::State& state, const View& a, const View& b, const View& c,
                         const View& d, std::size_t nsys, std::size_t n) {
  using T = typename View::value_type;
  const host_exec exec;
  Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);
    exec.fence();
    t.stop(state);
  }
  if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  report(state, t, 5.0 * sizeof(T) * n * nsys, double(n) * nsys);
}

template <class Layout, class T, bool Factored, bool Padded = false>
void thomas_benchmark(benchmark::State& state) {
  const filled_batch<Layout, T, Padded> batch(state);
  const std::size_t n = batch.n, nsys = batch.nsys;
  if constexpr (!Factored) {
    one_shot_iterations(state, batch.a, batch.b, batch.c, batch.d, nsys, n);
  } else {
    const host_exec exec;
    iteration_timer t;
    const auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, batch.a, batch.b,
                                        batch.c, nsys);
    exec.fence();
    for (auto _ : state) {
      t.start();
      f.solve(exec, batch.d);
      exec.fence();
      t.stop(state);
    }
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
    report(state, t, 5.0 * sizeof(T) * n * nsys, double(n) * nsys);
  }
}

template <class T>
void gtsv(int n, T* dl, T* dd, T* du, T* rhs, int* info) {
  const int one = 1;
  if constexpr (sizeof(T) == 8) dgtsv_(&n, &one, dl, dd, du, rhs, &n, info);
  else sgtsv_(&n, &one, dl, dd, du, rhs, &n, info);
}

// The peer: LAPACK ?gtsv on each system of a row-layout batch, systems spread over OpenMP
// threads. ?gtsv overwrites the matrix, so each thread copies it into its own buffers first (what
// a user must do to keep the coefficients), which stays in L1.
template <class T>
void lapack_gtsv_benchmark(benchmark::State& state) {
  const filled_batch<bandsolve::layout::row, T> batch(state);
  const std::size_t n = batch.n, nsys = batch.nsys;
  const auto &a = batch.a, &b = batch.b, &c = batch.c, &d = batch.d;
  const int threads = host_exec::concurrency();
  std::vector<std::vector<T>> work(threads, std::vector<T>(3 * n));
  int failures = 0;
  iteration_timer t;
  for (auto _ : state) {
    t.start();
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : failures)
    for (std::size_t s = 0; s < nsys; ++s) {
      T* w = work[omp_get_thread_num()].data();
      T *dl = w, *dd = w + n, *du = w + 2 * n;
      for (std::size_t i = 0; i + 1 < n; ++i) {
        dl[i] = a(s, i + 1);
        du[i] = c(s, i);
      }
      for (std::size_t i = 0; i < n; ++i) dd[i] = b(s, i);
      int info = 0;
      gtsv<T>(static_cast<int>(n), dl, dd, du, &d(s, 0), &info);
      failures += info != 0;
    }
    t.stop(state);
  }
  if (failures) state.SkipWithError("gtsv reported a singular system");
  report(state, t, 5.0 * sizeof(T) * n * nsys, double(n) * nsys);
}

template <class Layout, class T>
void register_layout(long n, long nsys) {
  const std::string tail = "/" + layout_name<Layout>() + "/" + precision_name<T>() +
                           "/n:" + std::to_string(n) + "/nsys:" + std::to_string(nsys);
  benchmark::RegisterBenchmark(("thomas/one_shot" + tail).c_str(),
                               thomas_benchmark<Layout, T, false>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("thomas/factored_solve" + tail).c_str(),
                               thomas_benchmark<Layout, T, true>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

template <class T>
void register_all() {
  const long nsys = 65536;
  for (long n : {64, 256, 1024}) {
    register_layout<bandsolve::layout::row, T>(n, nsys);
    register_layout<bandsolve::layout::column, T>(n, nsys);
    register_layout<bandsolve::layout::interleaved<8>, T>(n, nsys);
    benchmark::RegisterBenchmark(("lapack_gtsv/row/" + std::string(precision_name<T>()) +
                                  "/n:" + std::to_string(n) + "/nsys:" + std::to_string(nsys))
                                     .c_str(),
                                 lapack_gtsv_benchmark<T>)
        ->Args({n, nsys})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  }
}

const bool registered = [] {
  register_all<double>();
  register_all<float>();
  // The column layout at a batch width that is not a multiple of 4 KiB, and 65536 systems from
  // make_padded_batch (rows 65600 doubles apart): when the rows of a column batch lie a multiple
  // of 4 KiB apart, every row's run of a block sits at the same offset in its page (docs/api.md,
  // "Layouts"; layout/padding.hpp).
  register_layout<bandsolve::layout::column, double>(256, 65600);
  using column = bandsolve::layout::column;
  benchmark::RegisterBenchmark("thomas/one_shot/column_padded/double/n:256/nsys:65536",
                               thomas_benchmark<column, double, false, true>)
      ->Args({256, 65536})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("thomas/factored_solve/column_padded/double/n:256/nsys:65536",
                               thomas_benchmark<column, double, true, true>)
      ->Args({256, 65536})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
}  // namespace bench_thomas
}  // namespace bandsolve_bench
