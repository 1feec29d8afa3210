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

// Bandwidth (GB/s) of the STREAM-like kernel x = a + b + c + d (4 reads + 1 write) on double
// arrays of 128 MiB each, far larger than the caches: the best of `repeats` passes. Every solver
// benchmark measures it right before it runs and divides by it, so both numbers see the same
// machine state (this machine is shared and its bandwidth drifts over minutes).
double stream_gbps(int repeats = 10);


// Deterministic pseudo-random value in [0, 1) from an index (a hash: parallel fills stay cheap).
KOKKOS_INLINE_FUNCTION double hash01(std::uint64_t k) {
  k += 0x9E3779B97F4A7C15ull;
  k = (k ^ (k >> 30)) * 0xBF58476D1CE4E5B9ull;
  k = (k ^ (k >> 27)) * 0x94D049BB133111EBull;
  k ^= k >> 31;
  return static_cast<double>(k >> 11) * (1.0 / 9007199254740992.0);
}

// Times every iteration of a benchmark loop (whose body fences before it ends) and keeps the
// total and the fastest. After each iteration it runs one STREAM-like pass (not timed: the
// benchmarks use manual time), so the reference bandwidth is sampled in the same minutes as the
// solver: this machine is shared and its memory bandwidth drifts.
class iteration_timer {
 public:
  iteration_timer() : stream_gbps_(stream_gbps(3)) {}
  void start() { t0_ = std::chrono::steady_clock::now(); }
  void stop(benchmark::State& state) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    state.SetIterationTime(s);
    total_ += s;
    if (best_ < 0 || s < best_) best_ = s;
    const double gbps = stream_gbps(1);
    if (gbps > stream_gbps_) stream_gbps_ = gbps;
  }
  double total() const { return total_; }
  double best() const { return best_; }
  double stream() const { return stream_gbps_; }

 private:
  std::chrono::steady_clock::time_point t0_;
  double total_ = 0, best_ = -1, stream_gbps_;
};

// Counters of every benchmark, from the floor bytes and unknowns of one iteration:
//   GBps            floor bytes / fastest iteration (best-of, as STREAM reports itself)
//   GBps_mean       floor bytes / mean iteration
//   stream_GBps     the STREAM-like reference, best pass sampled between this benchmark's
//                   iterations
//   frac_of_stream  GBps / stream_GBps
//   ns_per_unknown  fastest iteration / unknowns
inline void report(benchmark::State& state, const iteration_timer& t, double floor_bytes,
                   double unknowns) {
  const double iters = static_cast<double>(state.iterations());
  if (iters == 0 || t.best() <= 0) return;
  const double gbps = floor_bytes / t.best() / 1e9;
  state.counters["GBps"] = gbps;
  state.counters["GBps_mean"] = floor_bytes * iters / t.total() / 1e9;
  state.counters["stream_GBps"] = t.stream();
  state.counters["frac_of_stream"] = gbps / t.stream();
  state.counters["ns_per_unknown"] = t.best() / unknowns * 1e9;
  state.SetBytesProcessed(static_cast<int64_t>(floor_bytes * iters));
}

}  // namespace bandsolve_bench
