// Bandwidth of the memory access patterns of the one-shot Thomas solves, next to the STREAM-like
// reference of the same binary: the ceiling each layout's solve runs against on this machine,
// whatever its arithmetic. Each benchmark goes once over 4 double arrays of 128 MiB:
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
// reference (4 reads and a write of a fifth array). The loops are SIMD reductions over
// restrict-qualified pointers, so that the loads, not the loop, set the pace.
#include "bench_support.hpp"

#include <cstddef>

namespace bandsolve_bench {
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

KOKKOS_FORCEINLINE_FUNCTION void prefetch_line(const double* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

#if defined(__GNUC__)
#define BANDSOLVE_BENCH_RESTRICT __restrict__
#else
#define BANDSOLVE_BENCH_RESTRICT
#endif
#if defined(_OPENMP)
#define BANDSOLVE_BENCH_SIMD_SUM _Pragma("omp simd reduction(+ : sum)")
#else
#define BANDSOLVE_BENCH_SIMD_SUM
#endif

// The sum of a[k] + b[k] + c[k] + d[k] over k in [first, last): one SIMD pass over pointers
// the compiler knows to be distinct, every load independent.
KOKKOS_FORCEINLINE_FUNCTION double sum_run(const double* BANDSOLVE_BENCH_RESTRICT a,
                                           const double* BANDSOLVE_BENCH_RESTRICT b,
                                           const double* BANDSOLVE_BENCH_RESTRICT c,
                                           const double* BANDSOLVE_BENCH_RESTRICT d,
                                           std::size_t first, std::size_t last) {
  double sum = 0;
  BANDSOLVE_BENCH_SIMD_SUM
  for (std::size_t k = first; k < last; ++k) sum += (a[k] + b[k]) + (c[k] + d[k]);
  return sum;
}

// The same, and d[k] = (a[k] + b[k] + c[k] + d[k]) / 4 written back in place.
KOKKOS_FORCEINLINE_FUNCTION double sum_run_write_d(const double* BANDSOLVE_BENCH_RESTRICT a,
                                                   const double* BANDSOLVE_BENCH_RESTRICT b,
                                                   const double* BANDSOLVE_BENCH_RESTRICT c,
                                                   double* BANDSOLVE_BENCH_RESTRICT d,
                                                   std::size_t first, std::size_t last) {
  double sum = 0;
  BANDSOLVE_BENCH_SIMD_SUM
  for (std::size_t k = first; k < last; ++k) {
    const double v = (a[k] + b[k]) + (c[k] + d[k]);
    sum += v;
    d[k] = 0.25 * v;  // stays in [0, 1) as a, b, c and d are
  }
  return sum;
}

struct pattern_pointers {
  const double *a, *b, *c;
  double* d;
};

// items work items; read(w, arrays) goes over work item w's part of the 4 arrays and returns a
// sum of what it read; consecutive items go to a thread in chains, as the solvers' packs do.
// `elements` of each array are gone over (all of it unless given), `bytes_per_element` counted
// for each.
template <class Read>
void pattern_benchmark(benchmark::State& state, std::size_t items, const Read& read,
                       std::size_t elements = pattern_count,
                       double bytes_per_element = 4.0 * sizeof(double)) {
  const pattern_arrays arrays;
  const pattern_pointers x{arrays.a.data(), arrays.b.data(), arrays.c.data(), arrays.d.data()};
  iteration_timer t;
  double sink = 0;
  // Chains of consecutive items, about 8 per thread, one per team: the solvers' launch
  // (for_each_pack, chain_length), so that the threads meet the memory in the same order.
  const std::size_t chains_wanted = 8 * static_cast<std::size_t>(host_exec().concurrency());
  const std::size_t chain = (items + chains_wanted - 1) / chains_wanted;
  const std::size_t chains = (items + chain - 1) / chain;
  using team_policy = Kokkos::TeamPolicy<host_exec>;
  for (auto _ : state) {
    t.start();
    double sum = 0;
    Kokkos::parallel_reduce(
        "pattern", team_policy(static_cast<int>(chains), 1),
        KOKKOS_LAMBDA(const team_policy::member_type& team, double& s) {
          const std::size_t first = static_cast<std::size_t>(team.league_rank()) * chain;
          const std::size_t last = first + chain < items ? first + chain : items;
          for (std::size_t w = first; w < last; ++w) s += read(w, x);
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
  pattern_benchmark(state, pattern_count / item, [](std::size_t w, const pattern_pointers& x) {
    return sum_run(x.a, x.b, x.c, x.d, w * item, (w + 1) * item);
  });
}

// The gathered forward sweep's order: per tile of 8 rows, every lane of array a, then b, c, d.
void row_tiles(benchmark::State& state) {
  const std::size_t lanes = static_cast<std::size_t>(state.range(0)), n = 256;
  pattern_benchmark(state, pattern_count / (lanes * n),
                    [=](std::size_t w, const pattern_pointers& x) {
                      const double* const arrays[4] = {x.a, x.b, x.c, x.d};
                      const std::size_t pack = w * lanes * n;
                      double acc[4][8] = {};  // one line of sums per array
                      for (std::size_t j = 0; j < n; j += 8)
                        for (int q = 0; q < 4; ++q) {
                          const double* BANDSOLVE_BENCH_RESTRICT p = arrays[q] + pack + j;
                          for (std::size_t l = 0; l < lanes; ++l)
                            for (int e = 0; e < 8; ++e) acc[q][e] += p[l * n + e];
                        }
                      double sum = 0;
                      for (int q = 0; q < 4; ++q)
                        for (int e = 0; e < 8; ++e) sum += acc[q][e];
                      return sum;
                    });
}

// The column blocks' order: per row, the run of `run_bytes` of a, b, c, d, for 65536 systems
// whose rows are `pitch` elements apart.
void column_runs_at(benchmark::State& state, std::size_t run_bytes, std::size_t pitch) {
  const std::size_t run = run_bytes / sizeof(double), nsys = 65536;
  const std::size_t rows = pattern_count / pitch;
  pattern_benchmark(
      state, nsys / run,
      [=](std::size_t w, const pattern_pointers& x) {
        double sum = 0;
        for (std::size_t i = 0; i < rows; ++i)
          sum += sum_run(x.a, x.b, x.c, x.d, i * pitch + w * run, i * pitch + (w + 1) * run);
        return sum;
      },
      nsys * rows);
}

void column_runs(benchmark::State& state) {
  column_runs_at(state, static_cast<std::size_t>(state.range(0)), 65536);
}

void column_runs_pitch(benchmark::State& state) {
  column_runs_at(state, static_cast<std::size_t>(state.range(0)),
                 static_cast<std::size_t>(state.range(1)));
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
      [=](std::size_t w, const pattern_pointers& x) {
        double sum = 0;
        for (std::size_t i = 0; i < rows; ++i) {
          const std::size_t first = i * pitch + w * run;
          if (i + 1 < rows)
            for (std::size_t k = first + pitch; k < first + pitch + run; k += 8) {
              prefetch_line(x.a + k);
              prefetch_line(x.b + k);
              prefetch_line(x.c + k);
              prefetch_line(x.d + k);
            }
          sum += sum_run_write_d(x.a, x.b, x.c, x.d, first, first + run);
        }
        return sum;
      },
      nsys * rows, 5.0 * sizeof(double));
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
}  // namespace bandsolve_bench
