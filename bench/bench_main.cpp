// Benchmark driver: initializes Kokkos, measures the same-binary STREAM-like bandwidth that every
// solver benchmark is divided by, then runs Google Benchmark (usual --benchmark_* flags).
#include "bench_support.hpp"

#include <cstdio>
#include <thread>

namespace bandsolve_bench {

namespace {
double g_stream_gbps = 0;
}

double stream_gbps() { return g_stream_gbps; }
void set_stream_gbps(double gbps) { g_stream_gbps = gbps; }

template <class T>
double measure_stream_gbps(std::size_t count, int repeats) {
  using view = Kokkos::View<T*, host_exec::memory_space>;
  view a("a", count), b("b", count), c("c", count), d("d", count), x("x", count);
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, count), KOKKOS_LAMBDA(std::size_t i) {
        a(i) = T(hash01(i));
        b(i) = T(hash01(i + count));
        c(i) = T(hash01(i + 2 * count));
        d(i) = T(hash01(i + 3 * count));
      });
  host_exec().fence();
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    loop_timer t;
    t.start();
    Kokkos::parallel_for(
        "stream", Kokkos::RangePolicy<host_exec>(0, count),
        KOKKOS_LAMBDA(std::size_t i) { x(i) = a(i) + b(i) + c(i) + d(i); });
    host_exec().fence();
    const double gbps = 5.0 * sizeof(T) * count / t.seconds() / 1e9;
    if (gbps > best) best = gbps;
  }
  return best;
}

template double measure_stream_gbps<float>(std::size_t, int);
template double measure_stream_gbps<double>(std::size_t, int);

// The reference kernel as a benchmark of its own, with the same counters as the solvers.
template <class T>
void stream_benchmark(benchmark::State& state) {
  const std::size_t count = static_cast<std::size_t>(state.range(0));
  using view = Kokkos::View<T*, host_exec::memory_space>;
  view a("a", count), b("b", count), c("c", count), d("d", count), x("x", count);
  Kokkos::deep_copy(a, T(1));
  Kokkos::deep_copy(b, T(2));
  Kokkos::deep_copy(c, T(3));
  Kokkos::deep_copy(d, T(4));
  loop_timer t;
  t.start();
  for (auto _ : state) {
    Kokkos::parallel_for(
        "stream", Kokkos::RangePolicy<host_exec>(0, count),
        KOKKOS_LAMBDA(std::size_t i) { x(i) = a(i) + b(i) + c(i) + d(i); });
    host_exec().fence();
  }
  report(state, 5.0 * sizeof(T) * count, static_cast<double>(count), t.seconds());
}

BENCHMARK_TEMPLATE(stream_benchmark, double)
    ->Name("stream/4r1w/double/count:16777216")
    ->Arg(1 << 24)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(stream_benchmark, float)
    ->Name("stream/4r1w/float/count:33554432")
    ->Arg(1 << 25)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace bandsolve_bench

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    // 128 MiB per array: far beyond every cache level.
    const double gbps = bandsolve_bench::measure_stream_gbps<double>(std::size_t(1) << 24, 20);
    bandsolve_bench::set_stream_gbps(gbps);
    char text[64];
    std::snprintf(text, sizeof text, "%.2f", gbps);
    benchmark::AddCustomContext("stream_4r1w_GBps", text);
    benchmark::AddCustomContext("kokkos_execution_space", bandsolve_bench::host_exec::name());
    benchmark::AddCustomContext("kokkos_concurrency", std::to_string(bandsolve_bench::host_exec::concurrency()));
    benchmark::AddCustomContext("kokkos_version", std::to_string(KOKKOS_VERSION));
    std::fprintf(stderr, "stream (4 reads + 1 write, double, 5 x 128 MiB): %.2f GB/s\n", gbps);

    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  }
  Kokkos::finalize();
  return 0;
}
