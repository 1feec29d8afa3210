#pragma once
// Shared pieces of the benchmark suite: the STREAM-like reference bandwidth measured in this
// binary, cheap parallel fills, and the counters every solver benchmark reports.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstdint>
#include <string>

namespace bandsolve_bench {

using host_exec = Kokkos::DefaultHostExecutionSpace;

// Bandwidth (GB/s) of the STREAM-like kernel x = a + b + c + d (4 reads + 1 write), measured at
// start-up on arrays far larger than the caches; every solver benchmark divides by it.
double stream_gbps();
void set_stream_gbps(double gbps);

// Best-of-k timing of the STREAM-like kernel on arrays of `count` doubles or floats.
template <class T>
double measure_stream_gbps(std::size_t count, int repeats);

// Deterministic pseudo-random value in [0, 1) from an index (a hash: parallel fills stay cheap).
KOKKOS_INLINE_FUNCTION double hash01(std::uint64_t k) {
  k += 0x9E3779B97F4A7C15ull;
  k = (k ^ (k >> 30)) * 0xBF58476D1CE4E5B9ull;
  k = (k ^ (k >> 27)) * 0x94D049BB133111EBull;
  k ^= k >> 31;
  return static_cast<double>(k >> 11) * (1.0 / 9007199254740992.0);
}

// Wall-clock timer over the benchmark loop; the loop body fences before each iteration ends.
class loop_timer {
 public:
  void start() { t0_ = std::chrono::steady_clock::now(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

// GBps = floor bytes per iteration / time per iteration; frac_of_stream = GBps / stream GB/s;
// ns_per_unknown for the unknowns solved in one iteration.
inline void report(benchmark::State& state, double floor_bytes, double unknowns, double seconds) {
  const double iters = static_cast<double>(state.iterations());
  const double gbps = floor_bytes * iters / seconds / 1e9;
  state.counters["GBps"] = gbps;
  state.counters["frac_of_stream"] = gbps / stream_gbps();
  state.counters["ns_per_unknown"] = seconds / iters / unknowns * 1e9;
  state.SetBytesProcessed(static_cast<int64_t>(floor_bytes * iters));
}

}  // namespace bandsolve_bench
