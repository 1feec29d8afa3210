// Benchmark driver: initializes Kokkos, measures the same-binary STREAM-like bandwidth that every
// solver benchmark is divided by, then runs Google Benchmark (usual --benchmark_* flags).
#include "bench_support.hpp"

#include <cstdio>
#include <memory>

namespace bandsolve_bench {

// The STREAM-like arrays of one precision, allocated and filled once.
template <class T>
struct stream_arrays {
  using view = Kokkos::View<T*, host_exec::memory_space>;
  view a, b, c, d, x;
  explicit stream_arrays(std::size_t count)
      : a("a", count), b("b", count), c("c", count), d("d", count), x("x", count) {
    view a_ = a, b_ = b, c_ = c, d_ = d;
    Kokkos::parallel_for(
        "fill", Kokkos::RangePolicy<host_exec>(0, count), KOKKOS_LAMBDA(std::size_t i) {
          a_(i) = T(hash01(i));
          b_(i) = T(hash01(i + count));
          c_(i) = T(hash01(i + 2 * count));
          d_(i) = T(hash01(i + 3 * count));
        });
    host_exec().fence();
  }
  // One pass of x = a + b + c + d; returns its seconds.
  double pass() const {
    const view a_ = a, b_ = b, c_ = c, d_ = d, x_ = x;
    const auto t0 = std::chrono::steady_clock::now();
    Kokkos::parallel_for(
        "stream", Kokkos::RangePolicy<host_exec>(0, a.extent(0)),
        KOKKOS_LAMBDA(std::size_t i) { x_(i) = a_(i) + b_(i) + c_(i) + d_(i); });
    host_exec().fence();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

namespace {
// The reference arrays (double, 128 MiB each), alive between Kokkos::initialize and finalize.
std::unique_ptr<stream_arrays<double>> g_reference;
}  // namespace

double stream_gbps(int repeats) {
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    const double gbps = 5.0 * sizeof(double) * g_reference->a.extent(0) / g_reference->pass() / 1e9;
    if (gbps > best) best = gbps;
  }
  return best;
}

void create_reference() { g_reference = std::make_unique<stream_arrays<double>>(std::size_t(1) << 24); }
void destroy_reference() { g_reference.reset(); }


// The reference kernel as a benchmark of its own, with the same counters as the solvers.
template <class T>
void stream_benchmark(benchmark::State& state) {
  const std::size_t count = static_cast<std::size_t>(state.range(0));
  const stream_arrays<T> arrays(count);
  iteration_timer t;
  for (auto _ : state) {
    t.start();
    arrays.pass();
    t.stop(state);
  }
  report(state, t, 5.0 * sizeof(T) * count, static_cast<double>(count));
}

BENCHMARK_TEMPLATE(stream_benchmark, double)
    ->Name("stream/4r1w/double/count:16777216")
    ->Arg(1 << 24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(stream_benchmark, float)
    ->Name("stream/4r1w/float/count:33554432")
    ->Arg(1 << 25)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace bandsolve_bench

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    bandsolve_bench::create_reference();
    const double gbps = bandsolve_bench::stream_gbps(20);
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
    bandsolve_bench::destroy_reference();
  }
  Kokkos::finalize();
  return 0;
}
