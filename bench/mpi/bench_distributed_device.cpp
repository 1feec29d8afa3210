// Distributed tridiagonal solves with the device backend's local passes (bandsolve::mpi on
// Kokkos::DefaultExecutionSpace with backend::device{}: the GPU in CUDA builds, the host's
// threads otherwise), against each rank solving whole lines on the same device, in one run.
//
//   mpiexec -n 2 build/bench/bandsolve_bench_mpi_device [--benchmark_filter=...]
//
// An N^3 field of doubles (N = 256, or BANDSOLVE_BENCH_MPI_N) split over the P ranks along the
// lines' axis, as in bench_distributed.cpp: x (a rank's part is a column batch of N^2 lines of
// N/P rows) and z (a row batch). Cases, each timed from a barrier to the last rank's end:
//   mpi_device/<x_column|z_row>/local/<one_shot|factored>
//                          each rank solves N^2/P whole lines of N rows with the single-process
//                          device solve (no communication): the reference for the time per unknown;
//   mpi_device/<x_column|z_row>/partitioned/<one_shot|factored>
//                          mpi::solve, and f.solve of mpi::factorize, on the parts as they lie;
//   mpi_device/copy        a device copy of one part-sized array: the memory bandwidth reference.
// Counters: ns_per_unknown (the field's N^3 unknowns), vs_local (time over the local case of the
// same axis and kind), frac_of_copy (5 words per unknown, what Thomas moves, over the time and the
// copy's bandwidth; the device passes move 14 one-shot and 10 factored), words_per_line_rank
// (values sent to other ranks per line, MPI's profiling interface).
#include <bandsolve/bandsolve.hpp>
#include <bandsolve/mpi.hpp>

#include "mpi_bench_support.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace {

using bandsolve_bench_mpi::time_collective;
using exec_space = Kokkos::DefaultExecutionSpace;
using memory_space = exec_space::memory_space;
using T = double;

int field_n() {
  const char* s = std::getenv("BANDSOLVE_BENCH_MPI_N");
  return s ? std::atoi(s) : 256;
}

// Bytes per second of a device copy, measured by the copy case (0 until it ran).
double copy_bytes_per_second = 0;
// Seconds of the local case of each (axis, kind), for vs_local.
double local_seconds[2][2] = {{0, 0}, {0, 0}};

// d(s, i) from a hash of (line s, global row first_row + i), a flat range over the lines (a 2-D
// MDRangePolicy of such extents wrote nothing on Kokkos 3.4's CUDA backend).
template <class View>
void fill_rhs(const View& d, std::size_t lines, std::size_t rows, std::size_t first_row) {
  const std::uint64_t n = rows, first = first_row;
  Kokkos::parallel_for(
      "fill d", Kokkos::RangePolicy<exec_space>(0, lines), KOKKOS_LAMBDA(const std::size_t s) {
        for (std::uint64_t i = 0; i < n; ++i) {
          std::uint64_t k = (s * 1000003u + first + i) * 0x9E3779B97F4A7C15ull;
          k ^= k >> 29;
          d(s, i) = static_cast<T>(k % 1000) / 500.0 - 1.0;
        }
      });
  Kokkos::fence();
}

// A rank's lines in Layout on the device, d kept in d0 for restoring it outside the timed region.
// Diagonally dominant: a = c = -1, b = 4, d from a hash of (line, global row).
template <class Layout>
struct device_part {
  using view = decltype(bandsolve::make_batch<Layout, T, memory_space>("", 0, 0));
  view a, b, c, d, d0;
  Kokkos::View<int*, memory_space> info;
  device_part(std::size_t lines, std::size_t rows, std::size_t first_row)
      : a(bandsolve::make_batch<Layout, T, memory_space>("a", lines, rows)),
        b(bandsolve::make_batch<Layout, T, memory_space>("b", lines, rows)),
        c(bandsolve::make_batch<Layout, T, memory_space>("c", lines, rows)),
        d(bandsolve::make_batch<Layout, T, memory_space>("d", lines, rows)),
        d0(bandsolve::make_batch<Layout, T, memory_space>("d0", lines, rows)),
        info("info", lines) {
    Kokkos::deep_copy(a, -1.0);
    Kokkos::deep_copy(b, 4.0);
    Kokkos::deep_copy(c, -1.0);
    fill_rhs(d0, lines, rows, first_row);
  }
  void restore() const {
    Kokkos::deep_copy(d, d0);
    Kokkos::fence();
  }
};

template <class Layout>
void run(benchmark::State& state, bool partitioned, bool factored) {
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const std::size_t N = static_cast<std::size_t>(field_n()), ranks = static_cast<std::size_t>(P);
  const std::size_t lines = N * N, m = N / ranks;
  if (N % ranks != 0) {
    state.SkipWithError("N must be a multiple of the number of ranks");
    for (auto _ : state) {}
    return;
  }
  const exec_space exec;
  const device_part<Layout> data(partitioned ? lines : lines / ranks, partitioned ? m : N,
                                 partitioned ? static_cast<std::size_t>(me) * m : 0);
  const bandsolve::backend::device on_device;
  const bandsolve::mpi::options opts;
  bandsolve::mpi::factorization<T, exec_space> dist;
  bandsolve::thomas_device_factorization<T, Layout, exec_space> single;
  if (factored) {
    if (partitioned)
      dist = bandsolve::mpi::factorize(exec, MPI_COMM_WORLD, bandsolve::algo::thomas{}, data.a,
                                       data.b, data.c, data.info.extent(0), opts, on_device);
    else
      single = bandsolve::factorize(exec, bandsolve::algo::thomas{}, data.a, data.b, data.c,
                                    data.info.extent(0), on_device);
    exec.fence();
  }
  const auto timed = time_collective(state, [&] { data.restore(); }, [&] {
    if (partitioned && factored)
      dist.solve(exec, data.d);
    else if (partitioned)
      bandsolve::mpi::solve(exec, MPI_COMM_WORLD, bandsolve::algo::thomas{}, data.a, data.b,
                            data.c, data.d, data.info, opts, on_device);
    else if (factored)
      single.solve(exec, data.d);
    else
      bandsolve::solve(exec, bandsolve::algo::thomas{}, data.a, data.b, data.c, data.d, data.info,
                       on_device);
    exec.fence();
  });
  const int axis = std::is_same_v<Layout, bandsolve::layout::column> ? 0 : 1;
  double& local = local_seconds[axis][factored ? 1 : 0];
  if (!partitioned) local = timed.seconds;
  const double unknowns = double(N) * double(N) * double(N);
  state.counters["ranks"] = P;
  state.counters["ns_per_unknown"] = timed.seconds * 1e9 / unknowns;
  if (partitioned && local > 0) state.counters["vs_local"] = timed.seconds / local;
  if (copy_bytes_per_second > 0)
    state.counters["frac_of_copy"] =
        5.0 * sizeof(T) * unknowns / double(P) / timed.seconds / copy_bytes_per_second;
  state.counters["words_per_line_rank"] =
      timed.first_call.exchange / sizeof(T) / double(lines);
}

// A device copy of one array of a rank's part (N^3 / P values): bytes read and written per second.
void copy(benchmark::State& state) {
  int P = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const std::size_t N = static_cast<std::size_t>(field_n());
  const std::size_t count = N * N * N / static_cast<std::size_t>(P);
  const Kokkos::View<T*, memory_space> from("from", count), to("to", count);
  Kokkos::deep_copy(from, 1.0);
  const exec_space exec;
  const auto timed = time_collective(state, [] {}, [&] {
    Kokkos::deep_copy(exec, to, from);
    exec.fence();
  });
  copy_bytes_per_second = 2.0 * sizeof(T) * double(count) / timed.seconds;
  state.counters["GBps"] = copy_bytes_per_second * 1e-9;
}

void register_all(int iterations) {
  benchmark::RegisterBenchmark("mpi_device/copy", copy)
      ->UseManualTime()
      ->Iterations(iterations)
      ->Unit(benchmark::kMillisecond);
  for (const bool factored : {false, true})
    for (const bool partitioned : {false, true})
      for (const bool column : {true, false}) {
        const std::string name = std::string("mpi_device/") + (column ? "x_column/" : "z_row/") +
                                 (partitioned ? "partitioned/" : "local/") +
                                 (factored ? "factored" : "one_shot");
        benchmark::RegisterBenchmark(name.c_str(),
                                     [=](benchmark::State& s) {
                                       if (column)
                                         run<bandsolve::layout::column>(s, partitioned, factored);
                                       else
                                         run<bandsolve::layout::row>(s, partitioned, factored);
                                     })
            ->UseManualTime()
            ->Iterations(iterations)  // the same on every rank: the loop is collective
            ->Unit(benchmark::kMillisecond);
      }
}

}  // namespace

int main(int argc, char** argv) {
  return bandsolve_bench_mpi::run_main(argc, argv, [] {
    const char* it = std::getenv("BANDSOLVE_BENCH_MPI_ITERATIONS");
    register_all(it ? std::atoi(it) : 20);
  });
}
