// GPU benchmarks of batched Thomas on Kokkos::Cuda, with cuSPARSE's tridiagonal solvers on the
// same data in the same binary and a device-to-device copy as the bandwidth reference:
//   batch  n = 256, 65536 systems: row layout (View<T**, LayoutRight>(nsys, n)) against
//          gtsv2StridedBatch; column layout (LayoutLeft) against gtsvInterleavedBatch (algo 0,
//          Thomas) and gpsvInterleavedBatch (pentadiagonal with zero outer diagonals);
//   long   one system of n = 2^22 against gtsv2_nopivot;
//   sweep  n = 2 to 2^22 at 2^24 unknowns (nsys = 2^24 / n), row and column layouts, through
//          algo::automatic one-shot and factorize(algo::automatic) (the factored solve timed),
//          against gtsv2StridedBatch (row) and gtsvInterleavedBatch (column) from n = 3, and
//          for n >= 4096 in column layout the chunk method with teams on one system's chunks,
//          and from 2^20 with teams across systems from 4 systems on; up to n = 256 a thread per
//          system instead of register chunks, both layouts, and from n = 4 in row layout
//          register chunks reading each thread's own rows instead of through tiles (one-shot and
//          factored; the batch's row case too);
// each in double and float (the other families: bench_families_device.cpp; lines along an axis:
// bench_axis_device.cpp). Names: thomas_device/<layout>/<shape>/<T>,
// cusparse_<routine>/<layout>/<shape>/<T>, copy/<shape>/<T>, and for the sweep
// sweep/<case>/<layout>/n:<n>/<T>, case automatic, automatic_factored, automatic_by_chunk,
// automatic_across4, automatic_per_system, automatic_unstaged, automatic_factored_unstaged or
// cusparse_<routine>.
//
// Timing: cudaEvents recorded on the stream of Kokkos::Cuda() around each call (the copy, the
// cuSPARSE handle and the solve all run on it), then a synchronization on the stop event, so
// every iteration ends with its work finished; the inputs are restored before each iteration,
// outside the timed region, and the cuSPARSE buffers are allocated before the loop. Counters, from
// the floor bytes of one-shot Thomas (docs/algorithms.md: 5 words per unknown, 40 B in double,
// 20 in float) and the best iteration: GBps, GBps_mean, copy_GBps (a cudaMemcpyAsync moving the
// same bytes, half read and half written, best of 10 right before the case), frac_of_copy,
// ns_per_unknown.
//
// Usage on a GPU machine: bandsolve_bench_cuda --benchmark_filter=thomas_device
//   --benchmark_out=results.json --benchmark_out_format=json
#include "bench_support.hpp"
#include "cuda/device_bench_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using namespace bandsolve_bench_cuda;

void check_cusparse(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: %s\n", what, cusparseGetErrorString(s));
    std::exit(1);
  }
}

// The batch shapes: nsys systems of n unknowns.
struct shape {
  int nsys, n;
  const char* name;
};
constexpr shape batch_shape{65536, 256, "batch"};
constexpr shape long_shape{1, 1 << 22, "long"};
// The shape sweep: rows per system at a fixed 2^24 unknowns.
constexpr int sweep_unknowns = 1 << 24;
constexpr int sweep_rows[] = {2, 3, 8, 64, 256, 4096, 16384, 65536, 262144, 1 << 20, 1 << 22};

// Floor bytes of one one-shot Thomas solve: a, b, c, d read, x written over d.
template <class T>
double floor_bytes(const shape& s) {
  return 5.0 * sizeof(T) * s.nsys * s.n;
}

// Fills row-dominant systems: a, c in [-1, 1), b = 2 + |a| + |c| (well conditioned, so repeated
// solves stay finite), d in [-1, 1); a = 0 in each first row and c = 0 in each last row (cuSPARSE
// needs them so). A flat range over the unknowns: Kokkos 3.4's CUDA MDRangePolicy left every
// element of a (64, 262144) or (1, 2^22) range unfilled, without an error.
template <class View>
struct fill_systems {
  View a, b, c, d;
  std::uint64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t k) const {
    using T = typename View::non_const_value_type;
    const std::uint64_t s = k / n, i = k % n;
    const double av = i == 0 ? 0.0 : 2 * bandsolve_bench::hash01(4 * k) - 1;
    const double cv = i + 1 == n ? 0.0 : 2 * bandsolve_bench::hash01(4 * k + 1) - 1;
    a(s, i) = T(av);
    c(s, i) = T(cv);
    b(s, i) = T(2 + (av < 0 ? -av : av) + (cv < 0 ? -cv : cv));
    d(s, i) = T(2 * bandsolve_bench::hash01(4 * k + 2) - 1);
  }
};

// The smallest of the entries it is given (a functor: nvcc takes no extended lambda in a
// function of internal linkage).
template <class T>
struct smallest_entry {
  const T* data;
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint64_t k, T& m) const {
    if (data[k] < m) m = data[k];
  }
};

// The systems of one case in one layout: the inputs as filled (a0 .. d0) and the working copies
// the solvers read and overwrite (restored before each iteration), plus two zero diagonals for
// gpsvInterleavedBatch.
template <class T, class Layout>
struct problem {
  using view = Kokkos::View<T**, Layout, mem>;
  shape sh;
  view a0, b0, c0, d0, a, b, c, d;
  Kokkos::View<int*, mem> info;

  explicit problem(const shape& s)
      : sh(s),
        a0("a0", s.nsys, s.n), b0("b0", s.nsys, s.n), c0("c0", s.nsys, s.n), d0("d0", s.nsys, s.n),
        a("a", s.nsys, s.n), b("b", s.nsys, s.n), c("c", s.nsys, s.n), d("d", s.nsys, s.n),
        info("info", s.nsys) {
    const std::uint64_t count = std::uint64_t(s.nsys) * std::uint64_t(s.n);
    Kokkos::parallel_for("fill",
                         Kokkos::RangePolicy<exec, Kokkos::IndexType<std::uint64_t>>(0, count),
                         fill_systems<view>{a0, b0, c0, d0, std::uint64_t(s.n)});
    restore_all();
    Kokkos::fence();
  }
  // Whether every diagonal entry was filled (b >= 2): a case on unfilled inputs would time
  // the solvers on zero matrices.
  bool filled() const {
    T smallest = 0;
    Kokkos::parallel_reduce(
        "filled", Kokkos::RangePolicy<exec, Kokkos::IndexType<std::uint64_t>>(0, b0.span()),
        smallest_entry<T>{b0.data()}, Kokkos::Min<T>(smallest));
    return smallest >= T(2);
  }
  // Enqueued on the stream of Kokkos::Cuda(), before the start event of an iteration.
  void restore_d() const { Kokkos::deep_copy(exec(), d, d0); }
  void restore_all() const {
    Kokkos::deep_copy(exec(), a, a0);
    Kokkos::deep_copy(exec(), b, b0);
    Kokkos::deep_copy(exec(), c, c0);
    Kokkos::deep_copy(exec(), d, d0);
  }
};

cusparseHandle_t handle() {
  static cusparseHandle_t h = [] {
    cusparseHandle_t made{};
    check_cusparse(cusparseCreate(&made), "cusparseCreate");
    return made;
  }();
  check_cusparse(cusparseSetStream(h, stream()), "cusparseSetStream");
  return h;
}

// The cuSPARSE routines of one precision.
template <class T>
struct cusparse;

template <>
struct cusparse<double> {
  static constexpr auto strided_size = cusparseDgtsv2StridedBatch_bufferSizeExt;
  static constexpr auto strided = cusparseDgtsv2StridedBatch;
  static constexpr auto interleaved_size = cusparseDgtsvInterleavedBatch_bufferSizeExt;
  static constexpr auto interleaved = cusparseDgtsvInterleavedBatch;
  static constexpr auto penta_size = cusparseDgpsvInterleavedBatch_bufferSizeExt;
  static constexpr auto penta = cusparseDgpsvInterleavedBatch;
  static constexpr auto nopivot_size = cusparseDgtsv2_nopivot_bufferSizeExt;
  static constexpr auto nopivot = cusparseDgtsv2_nopivot;
};
template <>
struct cusparse<float> {
  static constexpr auto strided_size = cusparseSgtsv2StridedBatch_bufferSizeExt;
  static constexpr auto strided = cusparseSgtsv2StridedBatch;
  static constexpr auto interleaved_size = cusparseSgtsvInterleavedBatch_bufferSizeExt;
  static constexpr auto interleaved = cusparseSgtsvInterleavedBatch;
  static constexpr auto penta_size = cusparseSgpsvInterleavedBatch_bufferSizeExt;
  static constexpr auto penta = cusparseSgpsvInterleavedBatch;
  static constexpr auto nopivot_size = cusparseSgtsv2_nopivot_bufferSizeExt;
  static constexpr auto nopivot = cusparseSgtsv2_nopivot;
};

// The loop of every case of this file: restore (untimed), time `solve`, report the floor bytes.
template <class T, class Problem, class Restore, class Solve>
void run(benchmark::State& state, const Problem& p, Restore restore, Solve solve) {
  if (!p.filled()) {
    state.SkipWithError("the inputs were not filled");
    return;
  }
  run_timed(state, floor_bytes<T>(p.sh), double(p.sh.nsys) * p.sh.n, restore, solve);
}

template <class T, class Layout>
void thomas_device(benchmark::State& state, shape sh) {
  const problem<T, Layout> p(sh);
  run<T>(state, p, [&] { p.restore_d(); },
         [&] { bandsolve::solve(exec(), bandsolve::algo::thomas{}, p.a, p.b, p.c, p.d, p.info); });
}

// The sweep's one-shot solve: the path algo::automatic picks for the shape.
template <class T, class Layout>
void automatic_device(benchmark::State& state, shape sh) {
  const problem<T, Layout> p(sh);
  run<T>(state, p, [&] { p.restore_d(); }, [&] {
    bandsolve::solve(exec(), bandsolve::algo::automatic{}, p.a, p.b, p.c, p.d, p.info);
  });
}

// Runs `run` with a tuning variable of the device backend set to `value`, then restores it.
template <class Setting, class Run>
void with_setting(Setting& setting, Setting value, Run run) {
  const Setting saved = setting;
  setting = value;
  run();
  setting = saved;
}

// The same with the chunk method's teams on 32 chunks of one system, whatever the layout
// (device::long_across_systems off): the comparison for systems that lie side by side.
template <class T, class Layout>
void automatic_device_by_chunk(benchmark::State& state, shape sh) {
  with_setting(bandsolve::detail::device::long_across_systems, false,
               [&] { automatic_device<T, Layout>(state, sh); });
}

// The same with teams across systems from 4 systems on (device::long_across_min_systems 4).
template <class T, class Layout>
void automatic_device_across4(benchmark::State& state, shape sh) {
  with_setting(bandsolve::detail::device::long_across_min_systems, bandsolve::index_t(4),
               [&] { automatic_device<T, Layout>(state, sh); });
}

// The same with a thread per system for short systems too (device::chunked_thomas off): the
// comparison for tiny systems.
template <class T, class Layout>
void automatic_device_per_system(benchmark::State& state, shape sh) {
  with_setting(bandsolve::detail::device::chunked_thomas, false,
               [&] { automatic_device<T, Layout>(state, sh); });
}

// The sweep's factored solve: factorize(algo::automatic) once, the solve of d timed (the same
// 5 floor words: the factors read in place of a, b, c).
template <class T, class Layout>
void automatic_factored_device(benchmark::State& state, shape sh) {
  const problem<T, Layout> p(sh);
  const auto f = bandsolve::factorize(exec(), bandsolve::algo::automatic{}, p.a, p.b, p.c);
  Kokkos::fence();
  run<T>(state, p, [&] { p.restore_d(); }, [&] { f.solve(exec(), p.d); });
}

// The same with a thread per system (device::chunked_thomas off), which keeps c' and d' in
// memory between its sweeps: the comparison that chose register chunks for short systems.
template <class T, class Layout>
void thomas_device_per_system(benchmark::State& state, shape sh) {
  with_setting(bandsolve::detail::device::chunked_thomas, false,
               [&] { thomas_device<T, Layout>(state, sh); });
}

// Case with register chunks of systems whose rows are contiguous read and written by each
// thread's own rows (device::chunk_stage_rows off) instead of through tiles in team scratch:
// the comparison that chose the tiles, one-shot and factored.
template <void (*Case)(benchmark::State&, shape)>
void without_row_tiles(benchmark::State& state, shape sh) {
  with_setting(bandsolve::detail::device::chunk_stage_rows, false, [&] { Case(state, sh); });
}

// A thread per system loading one row at a time (device::load_rows_ahead off): the comparison
// that chose the rows-ahead loads.
template <class T, class Layout>
void thomas_device_row_by_row(benchmark::State& state, shape sh) {
  with_setting(bandsolve::detail::device::load_rows_ahead, false,
               [&] { thomas_device_per_system<T, Layout>(state, sh); });
}

// Register chunks in teams of Threads threads instead of device::chunk_team_threads (column)
// and device::chunk_team_threads_rows (row).
template <class T, class Layout, int Threads>
void thomas_device_team(benchmark::State& state, shape sh) {
  namespace dev = bandsolve::detail::device;
  const int saved = dev::chunk_team_threads, saved_rows = dev::chunk_team_threads_rows;
  dev::chunk_team_threads = dev::chunk_team_threads_rows = Threads;
  thomas_device<T, Layout>(state, sh);
  dev::chunk_team_threads = saved;
  dev::chunk_team_threads_rows = saved_rows;
}

// Row layout: system s at s * n, gtsv2StridedBatch.
template <class T>
void cusparse_strided(benchmark::State& state, shape sh) {
  const problem<T, Kokkos::LayoutRight> p(sh);
  std::size_t size = 0;
  check_cusparse(cusparse<T>::strided_size(handle(), sh.n, p.a.data(), p.b.data(), p.c.data(),
                                           p.d.data(), sh.nsys, sh.n, &size),
                 "gtsv2StridedBatch_bufferSizeExt");
  const device_buffer buf(size);
  run<T>(state, p, [&] { p.restore_d(); }, [&] {
    check_cusparse(cusparse<T>::strided(handle(), sh.n, p.a.data(), p.b.data(), p.c.data(),
                                        p.d.data(), sh.nsys, sh.n, buf.p),
                   "gtsv2StridedBatch");
  });
}

// Column layout: row i of system s at i * nsys + s, gtsvInterleavedBatch with algo 0 (Thomas),
// which may overwrite the coefficients: all four arrays are restored.
template <class T>
void cusparse_interleaved(benchmark::State& state, shape sh) {
  const problem<T, Kokkos::LayoutLeft> p(sh);
  std::size_t size = 0;
  check_cusparse(cusparse<T>::interleaved_size(handle(), 0, sh.n, p.a.data(), p.b.data(),
                                               p.c.data(), p.d.data(), sh.nsys, &size),
                 "gtsvInterleavedBatch_bufferSizeExt");
  const device_buffer buf(size);
  run<T>(state, p, [&] { p.restore_all(); }, [&] {
    check_cusparse(cusparse<T>::interleaved(handle(), 0, sh.n, p.a.data(), p.b.data(), p.c.data(),
                                            p.d.data(), sh.nsys, buf.p),
                   "gtsvInterleavedBatch");
  });
}

// Column layout, gpsvInterleavedBatch (algo 0) with zero second sub- and super-diagonals; GB/s
// from the tridiagonal floor, as for every solver of this problem.
template <class T>
void cusparse_penta(benchmark::State& state, shape sh) {
  const problem<T, Kokkos::LayoutLeft> p(sh);
  const Kokkos::View<T**, Kokkos::LayoutLeft, mem> s("ds", sh.nsys, sh.n), w("dw", sh.nsys, sh.n);
  std::size_t size = 0;
  check_cusparse(cusparse<T>::penta_size(handle(), 0, sh.n, s.data(), p.a.data(), p.b.data(),
                                         p.c.data(), w.data(), p.d.data(), sh.nsys, &size),
                 "gpsvInterleavedBatch_bufferSizeExt");
  const device_buffer buf(size);
  run<T>(state, p, [&] {
    p.restore_all();
    Kokkos::deep_copy(exec(), s, T(0));
    Kokkos::deep_copy(exec(), w, T(0));
  }, [&] {
    check_cusparse(cusparse<T>::penta(handle(), 0, sh.n, s.data(), p.a.data(), p.b.data(),
                                      p.c.data(), w.data(), p.d.data(), sh.nsys, buf.p),
                   "gpsvInterleavedBatch");
  });
}

// One long system, gtsv2_nopivot with one right-hand side.
template <class T>
void cusparse_nopivot(benchmark::State& state, shape sh) {
  const problem<T, Kokkos::LayoutRight> p(sh);
  std::size_t size = 0;
  check_cusparse(cusparse<T>::nopivot_size(handle(), sh.n, 1, p.a.data(), p.b.data(), p.c.data(),
                                           p.d.data(), sh.n, &size),
                 "gtsv2_nopivot_bufferSizeExt");
  const device_buffer buf(size);
  run<T>(state, p, [&] { p.restore_d(); }, [&] {
    check_cusparse(cusparse<T>::nopivot(handle(), sh.n, 1, p.a.data(), p.b.data(), p.c.data(),
                                        p.d.data(), sh.n, buf.p),
                   "gtsv2_nopivot");
  });
}

// The reference itself: a device-to-device copy moving the floor bytes of the case.
template <class T>
void copy(benchmark::State& state, shape sh) {
  const double bytes = floor_bytes<T>(sh);
  const std::size_t half = static_cast<std::size_t>(bytes / 2);
  Kokkos::View<char*, mem> src("copy_src", half), dst("copy_dst", half);
  Kokkos::deep_copy(src, 1);
  event_timer t;
  for (auto _ : state) {
    t.start();
    check_cuda(cudaMemcpyAsync(dst.data(), src.data(), half, cudaMemcpyDeviceToDevice, stream()),
               "cudaMemcpyAsync");
    t.stop(state);
  }
  report(state, t, bytes, double(sh.nsys) * sh.n, 2.0 * half / t.best() / 1e9);
}

template <class T>
const char* type_name() {
  return sizeof(T) == 8 ? "double" : "float";
}

// One case, timed by cudaEvents (manual time), in microseconds.
void reg(const std::string& name, void (*fn)(benchmark::State&, shape), shape sh) {
  benchmark::RegisterBenchmark(name.c_str(), fn, sh)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

template <class T>
void register_type() {
  const std::string t = type_name<T>();
  const std::string batch = std::string("/") + batch_shape.name + "/" + t;
  const std::string one = std::string("/") + long_shape.name + "/" + t;
  reg("thomas_device/row" + batch, thomas_device<T, Kokkos::LayoutRight>, batch_shape);
  reg("thomas_device/column" + batch, thomas_device<T, Kokkos::LayoutLeft>, batch_shape);
  reg("thomas_device_unstaged/row" + batch,
      without_row_tiles<thomas_device<T, Kokkos::LayoutRight>>, batch_shape);
  reg("thomas_device_per_system/row" + batch, thomas_device_per_system<T, Kokkos::LayoutRight>,
      batch_shape);
  reg("thomas_device_per_system/column" + batch,
      thomas_device_per_system<T, Kokkos::LayoutLeft>, batch_shape);
  reg("thomas_device_row_by_row/column" + batch, thomas_device_row_by_row<T, Kokkos::LayoutLeft>,
      batch_shape);
  reg("thomas_device_team64/column" + batch, thomas_device_team<T, Kokkos::LayoutLeft, 64>,
      batch_shape);
  reg("thomas_device_team128/column" + batch, thomas_device_team<T, Kokkos::LayoutLeft, 128>,
      batch_shape);
  reg("thomas_device_team256/row" + batch, thomas_device_team<T, Kokkos::LayoutRight, 256>,
      batch_shape);
  reg("thomas_device/row" + one, thomas_device<T, Kokkos::LayoutRight>, long_shape);
  reg("cusparse_gtsv2StridedBatch/row" + batch, cusparse_strided<T>, batch_shape);
  reg("cusparse_gtsvInterleavedBatch/column" + batch, cusparse_interleaved<T>, batch_shape);
  reg("cusparse_gpsvInterleavedBatch/column" + batch, cusparse_penta<T>, batch_shape);
  reg("cusparse_gtsv2_nopivot/row" + one, cusparse_nopivot<T>, long_shape);
  reg("copy" + batch, copy<T>, batch_shape);
  reg("copy" + one, copy<T>, long_shape);
}

// The sweep, ours first and cuSPARSE after (run them with separate filters: a cuSPARSE error
// ends the process); cuSPARSE's tridiagonal solvers take n >= 3.
template <class T>
void register_sweep() {
  const std::string t = type_name<T>();
  for (const int n : sweep_rows) {
    const shape sh{sweep_unknowns / n, n, "sweep"};
    const std::string tail = "/n:" + std::to_string(n) + "/" + t;
    reg("sweep/automatic/row" + tail, automatic_device<T, Kokkos::LayoutRight>, sh);
    reg("sweep/automatic/column" + tail, automatic_device<T, Kokkos::LayoutLeft>, sh);
    reg("sweep/automatic_factored/row" + tail, automatic_factored_device<T, Kokkos::LayoutRight>,
        sh);
    reg("sweep/automatic_factored/column" + tail,
        automatic_factored_device<T, Kokkos::LayoutLeft>, sh);
    if (n >= 4 && n <= 256) {
      reg("sweep/automatic_unstaged/row" + tail,
          without_row_tiles<automatic_device<T, Kokkos::LayoutRight>>, sh);
      reg("sweep/automatic_factored_unstaged/row" + tail,
          without_row_tiles<automatic_factored_device<T, Kokkos::LayoutRight>>, sh);
    }
    if (n <= 256) {
      reg("sweep/automatic_per_system/row" + tail,
          automatic_device_per_system<T, Kokkos::LayoutRight>, sh);
      reg("sweep/automatic_per_system/column" + tail,
          automatic_device_per_system<T, Kokkos::LayoutLeft>, sh);
    }
    if (n >= 4096)
      reg("sweep/automatic_by_chunk/column" + tail,
          automatic_device_by_chunk<T, Kokkos::LayoutLeft>, sh);
    if (n >= (1 << 20))
      reg("sweep/automatic_across4/column" + tail,
          automatic_device_across4<T, Kokkos::LayoutLeft>, sh);
  }
  for (const int n : sweep_rows) {
    if (n < 3) continue;
    const shape sh{sweep_unknowns / n, n, "sweep"};
    const std::string tail = "/n:" + std::to_string(n) + "/" + t;
    reg("sweep/cusparse_gtsv2StridedBatch/row" + tail, cusparse_strided<T>, sh);
    reg("sweep/cusparse_gtsvInterleavedBatch/column" + tail, cusparse_interleaved<T>, sh);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
      Kokkos::finalize();
      return 1;
    }
    register_type<double>();
    register_type<float>();
    register_family_benchmarks();
    register_axis_benchmarks();
    register_sweep<double>();
    register_sweep<float>();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    check_cusparse(cusparseDestroy(handle()), "cusparseDestroy");
  }
  Kokkos::finalize();
  return 0;
}
