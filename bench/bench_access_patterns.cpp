// Bandwidth of the memory access patterns of the one-shot Thomas solves, next to the STREAM-like
// reference of the same binary: a reference for each layout's solve, without its arithmetic (not
// a strict ceiling: how fast a pattern reads depends on how its loop is written, and on where
// the arrays lie; see docs/performance.md). Each benchmark goes once over 4 double
// arrays of 128 MiB:
//   pattern/sequential                 reads the 4 arrays in order, line by line side by side
//                                      (the interleaved layouts)
//   pattern/row_tiles/n:256/lanes:32   reads packs of 32 row-layout systems of 256 rows: per
//                                      tile of 8 rows, one line of every system of a, then of b,
//                                      c, d (the gathered forward sweep of the row layout)
//   pattern/column_runs/bytes:B        reads column-layout blocks, 65536 systems: per block of
//                                      B/8 systems, row after row, the run of B bytes of a, b,
//                                      c, d line by line (column blocks are 512 bytes wide;
//                                      wider runs show what longer runs would give)
//   pattern/column_runs_pitch:P/...    the same with rows P systems apart: at P = 65536 every
//                                      row's run lies at the same offset in its 4 KiB page, at
//                                      P = 65600 the offset moves 512 bytes a row
//   pattern/column_stream/bytes:B/pitch:P
//                                      the column solve's whole memory traffic in its order:
//                                      per row, the runs of a, b, c, d read and d's written back
//                                      in place (d = (a + b + c + d) / 4), the next row's runs
//                                      prefetched as the kernel does; B = 2048 is 4 blocks of
//                                      512 bytes in lockstep
// GBps counts the bytes of one pass: the 4 arrays read, and for column_stream d written too (40
// bytes per element, as the reference and the solvers count); frac_of_stream divides it by the
// reference (4 reads and a write of a fifth array). Sums go to one accumulator line per array,
// so that the loads, not a chain of additions, set the pace.
#include "bench_support.hpp"

#include <cstddef>

namespace bandsolve_bench {
namespace bench_access_patterns {  // each file its own: the test trees check them as one unit
namespace {

constexpr std::size_t pattern_count = std::size_t(1) << 24;  // doubles per array

struct pattern_arrays {
  using view = Kokkos::View<double*, host_exec::memory_space>;
  view a{"a", pattern_count}, b{"b", pattern_count}, c{"c", pattern_count},
      d{"d", pattern_count};
  pattern_arrays() {
    const view a_ = a, b_ = b, c_ = c, d_ = d;
    Kokkos::parallel_for(
        "fill", Kokkos::RangePolicy<host_exec>(0, pattern_count), KOKKOS_LAMBDA(std::size_t i) {
          a_(i) = hash01(i);
          b_(i) = hash01(i + pattern_count);
          c_(i) = hash01(i + 2 * pattern_count);
          d_(i) = hash01(i + 3 * pattern_count);
        });
    host_exec().fence();
  }
};

// Adds the 8 doubles of one cache line into acc (one accumulator line per array).
KOKKOS_FORCEINLINE_FUNCTION void add_line(const double* p, double* acc) {
#if defined(_OPENMP)
#pragma omp simd
#endif
  for (int e = 0; e < 8; ++e) acc[e] += p[e];
}

KOKKOS_FORCEINLINE_FUNCTION void prefetch_line(const double* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

// items work items; read(w, arrays, acc) reads work item w's lines of the 4 arrays (acc: 4
// accumulator lines of 8, one per array). `elements` of each array are gone over (all of it
// unless given), `bytes_per_element` counted for each.
template <class Read>
void pattern_benchmark(benchmark::State& state, std::size_t items, const Read& read,
                       std::size_t elements = pattern_count,
                       double bytes_per_element = 4.0 * sizeof(double)) {
  const pattern_arrays arrays;
  const double* const base[4] = {arrays.a.data(), arrays.b.data(), arrays.c.data(),
                                 arrays.d.data()};
  double* const d = arrays.d.data();  // column_stream writes it
  const double *a = base[0], *b = base[1], *c = base[2];
  iteration_timer t;
  double sink = 0;
  for (auto _ : state) {
    t.start();
    double sum = 0;
    Kokkos::parallel_reduce(
        "pattern", Kokkos::RangePolicy<host_exec>(0, items),
        KOKKOS_LAMBDA(std::size_t w, double& s) {
          double* const x[4] = {const_cast<double*>(a), const_cast<double*>(b),
                                const_cast<double*>(c), d};
          double acc[4][8] = {};
          read(w, x, acc);
          for (int q = 0; q < 4; ++q)
            for (int e = 0; e < 8; ++e) s += acc[q][e];
        },
        sum);
    t.stop(state);
    sink += sum;
  }
  benchmark::DoNotOptimize(sink);
  report(state, t, bytes_per_element * double(elements), double(elements));
}

void sequential(benchmark::State& state) {
  constexpr std::size_t item = 4096;  // 32 KiB of each array per work item
  pattern_benchmark(state, pattern_count / item,
                    [](std::size_t w, double* const* x, double (*acc)[8]) {
                      for (std::size_t k = w * item; k < (w + 1) * item; k += 8)
                        for (int q = 0; q < 4; ++q) add_line(x[q] + k, acc[q]);
                    });
}

// The gathered forward sweep's order: per tile of 8 rows, every lane of array a, then b, c, d.
void row_tiles(benchmark::State& state) {
  const std::size_t lanes = static_cast<std::size_t>(state.range(0)), n = 256;
  pattern_benchmark(state, pattern_count / (lanes * n),
                    [=](std::size_t w, double* const* x, double (*acc)[8]) {
                      const std::size_t pack = w * lanes * n;
                      for (std::size_t j = 0; j < n; j += 8)
                        for (int q = 0; q < 4; ++q)
                          for (std::size_t l = 0; l < lanes; ++l)
                            add_line(x[q] + pack + l * n + j, acc[q]);
                    });
}

// The column blocks' order: per row, each line of the run of `run_bytes` in a, b, c, d, for
// 65536 systems whose rows are `pitch` elements apart.
void column_runs_at(benchmark::State& state, std::size_t run_bytes, std::size_t pitch) {
  const std::size_t run = run_bytes / sizeof(double), nsys = 65536;
  const std::size_t rows = pattern_count / pitch;
  pattern_benchmark(
      state, nsys / run,
      [=](std::size_t w, double* const* x, double (*acc)[8]) {
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t k = i * pitch + w * run; k < i * pitch + (w + 1) * run; k += 8)
            for (int q = 0; q < 4; ++q) add_line(x[q] + k, acc[q]);
      },
      nsys * rows);
}

// The column solve's memory traffic in its order: per row, the run of `run_bytes` of a, b, c
// and d read, d's run written back in place, and the next row's runs prefetched (as the
// kernel's rows_ahead does), for 65536 systems whose rows are `pitch` elements apart.
void column_stream(benchmark::State& state) {
  const std::size_t run = static_cast<std::size_t>(state.range(0)) / sizeof(double);
  const std::size_t pitch = static_cast<std::size_t>(state.range(1)), nsys = 65536;
  const std::size_t rows = pattern_count / pitch;
  pattern_benchmark(
      state, nsys / run,
      [=](std::size_t w, double* const* x, double (*acc)[8]) {
        for (std::size_t i = 0; i < rows; ++i) {
          const std::size_t first = i * pitch + w * run;
          if (i + 1 < rows)
            for (std::size_t k = first + pitch; k < first + pitch + run; k += 8)
              for (int q = 0; q < 4; ++q) prefetch_line(x[q] + k);
          for (std::size_t k = first; k < first + run; k += 8) {
#if defined(_OPENMP)
#pragma omp simd
#endif
            for (int e = 0; e < 8; ++e) {
              const double v = (x[0][k + e] + x[1][k + e]) + (x[2][k + e] + x[3][k + e]);
              acc[0][e] += v;
              x[3][k + e] = 0.25 * v;  // stays in [0, 1): a, b, c and d are
            }
          }
        }
      },
      nsys * rows, 5.0 * sizeof(double));
}

void column_runs(benchmark::State& state) {
  column_runs_at(state, static_cast<std::size_t>(state.range(0)), 65536);
}

void column_runs_pitch(benchmark::State& state) {
  column_runs_at(state, static_cast<std::size_t>(state.range(0)),
                 static_cast<std::size_t>(state.range(1)));
}

BENCHMARK(sequential)
    ->Name("pattern/sequential/double")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(row_tiles)
    ->Name("pattern/row_tiles/double/n:256/lanes")
    ->Arg(32)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(column_runs)
    ->Name("pattern/column_runs/double/bytes")
    ->Arg(512)
    ->Arg(1024)
    ->Arg(4096)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(column_runs_pitch)
    ->Name("pattern/column_runs_pitch/double")
    ->ArgNames({"bytes", "pitch"})
    ->Args({512, 65536})
    ->Args({512, 65600})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(column_stream)
    ->Name("pattern/column_stream/double")
    ->ArgNames({"bytes", "pitch"})
    ->Args({512, 65536})
    ->Args({512, 65600})
    ->Args({2048, 65536})
    ->Args({2048, 65600})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace bench_access_patterns
}  // namespace bandsolve_bench
