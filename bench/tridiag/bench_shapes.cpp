// Shape sweep: a fixed 2^24 unknowns split into nsys = 2^24 / n systems, for n from 2 to 2^22,
// in every layout (row, column, interleaved<W> at the SIMD width, strided), float and double,
// solved one-shot through algo::automatic and factored through it (factorize(automatic): Thomas's
// factors, or the partition method's for fewer systems than one Thomas work item; the label
// names the pick). Floor bytes: 5 words per unknown for both (one-shot: a, b, c, d in, x out;
// factored: Thomas's 1/pivot, a/pivot, c/pivot and d in, x out: the partition method reads d
// twice and 4 factor arrays, 8 words, but the floor is the problem's, not the method's), divided
// by the same-binary STREAM-like bandwidth (bench_support.hpp).
// Also counts the page faults per call (after one untimed call): scratch that a solve allocates
// and first-touches on every call shows up there.
//   shapes/<one_shot|factored>/<layout>/<precision>/n:<n>/nsys:<nsys>
// The single-system group times one system of n rows against one LAPACK ?gtsv call:
//   shapes/single/<thomas|automatic|lapack_gtsv>/<precision>/n:<n>
#include "bench_support.hpp"

#include <bandsolve/bandsolve.hpp>


#include <string>
#include <vector>

extern "C" {
void dgtsv_(const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
            const int* ldb, int* info);
void sgtsv_(const int* n, const int* nrhs, float* dl, float* d, float* du, float* b,
            const int* ldb, int* info);
}

namespace bandsolve_bench {
namespace bench_shapes {  // each file its own: the test trees check them as one unit
namespace {

constexpr long total_unknowns = 1L << 24;

template <class T>
const char* shape_precision() {
  return sizeof(T) == 8 ? "double" : "float";
}

// interleaved<W> at the width docs/api.md recommends on CPUs: 8 doubles, 16 floats (one 64-byte
// vector per row of a pack).
template <class T>
using simd_interleaved = bandsolve::layout::interleaved<64 / sizeof(T)>;

// The strided case is the library's own source of strided Views: make_padded_array's padded
// LayoutRight storage, one system per row (rows of 4 KiB or more are padded to an odd multiple
// of 512 bytes; shorter ones are contiguous, as a row batch).
struct strided_tag {};

template <class Layout>
std::string shape_layout_name() {
  if constexpr (std::is_same_v<Layout, strided_tag>) return "strided";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::row>) return "row";
  else if constexpr (std::is_same_v<Layout, bandsolve::layout::column>) return "column";
  else return "interleaved" + std::to_string(Layout::width);
}

template <class Layout, class T>
auto make_shape_view(const char* label, std::size_t nsys, std::size_t n) {
  if constexpr (std::is_same_v<Layout, strided_tag>)
    return bandsolve::make_padded_array<T**, host_exec::memory_space>(label, nsys, n);
  else
    return bandsolve::make_batch<Layout, T, host_exec::memory_space>(label, nsys, n);
}

// The timed loop shared by both solve kinds: one untimed call first (first touch of anything the
// call allocates and keeps), then the iterations, then the counters.
template <class T, class Call>
void timed_calls(benchmark::State& state, std::size_t n, std::size_t nsys, const Call& call) {
  call();
  iteration_timer t;
  const long faults0 = minor_faults();
  for (auto _ : state) {
    t.start();
    call();
    t.stop(state);
  }
  const long faults = minor_faults() - faults0;
  report(state, t, 5.0 * sizeof(T) * double(n) * double(nsys), double(n) * double(nsys));
  if (state.iterations() > 0)
    state.counters["page_faults_per_call"] =
        double(faults) / static_cast<double>(state.iterations());
}

template <class Layout, class T, bool Factored>
void shape_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::size_t nsys = static_cast<std::size_t>(state.range(1));
  const auto a = make_shape_view<Layout, T>("a", nsys, n);
  const auto b = make_shape_view<Layout, T>("b", nsys, n);
  const auto c = make_shape_view<Layout, T>("c", nsys, n);
  const auto d = make_shape_view<Layout, T>("d", nsys, n);
  fill_rows_sum_to_one(a, b, c, d, nsys, n);
  const host_exec exec;
  if constexpr (!Factored) {
    Kokkos::View<int*, host_exec::memory_space> info("info", nsys);
    timed_calls<T>(state, n, nsys, [&] {
      bandsolve::solve(exec, bandsolve::algo::automatic{}, a, b, c, d, info);
      exec.fence();
    });
    if (bandsolve::count_failed(info) != 0) state.SkipWithError("a system failed");
  } else {
    const auto f = bandsolve::factorize(exec, bandsolve::algo::automatic{}, a, b, c, nsys);
    exec.fence();
    state.SetLabel(bandsolve::name_of(f.choice()));
    timed_calls<T>(state, n, nsys, [&] {
      f.solve(exec, d);
      exec.fence();
    });
    if (bandsolve::count_failed(f.info()) != 0) state.SkipWithError("a system failed");
  }
}

template <class T>
void single_gtsv(int n, T* dl, T* dd, T* du, T* rhs, int* info) {
  const int one = 1;
  if constexpr (sizeof(T) == 8) dgtsv_(&n, &one, dl, dd, du, rhs, &n, info);
  else sgtsv_(&n, &one, dl, dd, du, rhs, &n, info);
}

// One system of n rows (row layout), timed per call: 0 Thomas, 1 automatic, 2 one ?gtsv call on
// copies of the matrix (?gtsv overwrites it; the copy is what a caller who keeps the
// coefficients pays, and it is part of the time).
template <class T, int Which>
void single_benchmark(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  using row = bandsolve::layout::row;
  const auto a = bandsolve::make_batch<row, T, host_exec::memory_space>("a", 1, n);
  const auto b = bandsolve::make_batch<row, T, host_exec::memory_space>("b", 1, n);
  const auto c = bandsolve::make_batch<row, T, host_exec::memory_space>("c", 1, n);
  const auto d = bandsolve::make_batch<row, T, host_exec::memory_space>("d", 1, n);
  fill_rows_sum_to_one(a, b, c, d, 1, n);
  Kokkos::View<int*, host_exec::memory_space> info("info", 1);
  std::vector<T> work(3 * n);
  const host_exec exec;
  int failures = 0;
  for (auto _ : state) {
    if constexpr (Which == 0) {
      bandsolve::solve(exec, bandsolve::algo::thomas{}, a, b, c, d, info);
      exec.fence();
    } else if constexpr (Which == 1) {
      bandsolve::solve(exec, bandsolve::algo::automatic{}, a, b, c, d, info);
      exec.fence();
    } else {
      T *dl = work.data(), *dd = dl + n, *du = dd + n;
      for (std::size_t i = 0; i + 1 < n; ++i) {
        dl[i] = a(0, i + 1);
        du[i] = c(0, i);
      }
      for (std::size_t i = 0; i < n; ++i) dd[i] = b(0, i);
      int code = 0;
      single_gtsv<T>(static_cast<int>(n), dl, dd, du, &d(0, 0), &code);
      failures += code != 0;
    }
  }
  if (failures != 0 || bandsolve::count_failed(info) != 0) state.SkipWithError("singular");
}

template <class Layout, class T>
void register_shape(long n) {
  const long nsys = total_unknowns / n;
  const std::string tail = "/" + shape_layout_name<Layout>() + "/" + shape_precision<T>() +
                           "/n:" + std::to_string(n) + "/nsys:" + std::to_string(nsys);
  // Each case moves 2^24 unknowns (about 30-250 ms); a few iterations give a best-of that is
  // steady, and keep the 256 cases to minutes.
  benchmark::RegisterBenchmark(("shapes/one_shot" + tail).c_str(),
                               shape_benchmark<Layout, T, false>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->MinTime(0.15)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("shapes/factored" + tail).c_str(),
                               shape_benchmark<Layout, T, true>)
      ->Args({n, nsys})
      ->UseManualTime()
      ->MinTime(0.15)
      ->Unit(benchmark::kMillisecond);
}

template <class T>
void register_shapes() {
  for (long n : {2L, 3L, 4L, 5L, 7L, 8L, 16L, 64L, 256L, 1024L, 4096L, 1L << 14, 1L << 16,
                 1L << 18, 1L << 20, 1L << 22}) {
    register_shape<bandsolve::layout::row, T>(n);
    register_shape<bandsolve::layout::column, T>(n);
    register_shape<simd_interleaved<T>, T>(n);
    register_shape<strided_tag, T>(n);
  }
  const std::string p = shape_precision<T>();
  for (long n : {16L, 64L, 256L, 1024L, 4096L}) {
    const std::string tail = "/" + p + "/n:" + std::to_string(n);
    benchmark::RegisterBenchmark(("shapes/single/thomas" + tail).c_str(), single_benchmark<T, 0>)
        ->Arg(n)
        ->MinTime(0.05);
    benchmark::RegisterBenchmark(("shapes/single/automatic" + tail).c_str(),
                                 single_benchmark<T, 1>)
        ->Arg(n)
        ->MinTime(0.05);
    benchmark::RegisterBenchmark(("shapes/single/lapack_gtsv" + tail).c_str(),
                                 single_benchmark<T, 2>)
        ->Arg(n)
        ->MinTime(0.05);
  }
}

const bool shapes_registered = [] {
  register_shapes<double>();
  register_shapes<float>();
  return true;
}();

}  // namespace
}  // namespace bench_shapes
}  // namespace bandsolve_bench
