#pragma once
// Shared pieces of the benchmark suite: the STREAM-like reference bandwidth measured in this
// binary, cheap parallel fills, and the counters every solver benchmark reports.
#include <benchmark/benchmark.h>

#include <bandsolve/layout/layout_of.hpp>

#include <Kokkos_Core.hpp>

#include <sys/resource.h>

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

// Fills a tridiagonal batch whose rows sum to 1 (a, c in [-0.75, -0.25], b = 1 - a - c):
// diagonally dominant with ||A^-1|| <= 1 and A 1 = 1, so solving again on the previous solution
// stays in range (no drift into denormals). d in [1, 2).
template <class View>
void fill_rows_sum_to_one(const View& a, const View& b, const View& c, const View& d,
                          std::size_t nsys, std::size_t n) {
  Kokkos::parallel_for(
      "fill", Kokkos::RangePolicy<host_exec>(0, nsys * n), KOKKOS_LAMBDA(std::size_t k) {
        using T = typename View::value_type;
        const std::size_t s = k / n, i = k % n;
        const double lo = -0.25 - 0.5 * hash01(3 * k), up = -0.25 - 0.5 * hash01(3 * k + 1);
        bandsolve::at(a, s, i) = T(lo);
        bandsolve::at(c, s, i) = T(up);
        bandsolve::at(b, s, i) = T(1 - lo - up);
        bandsolve::at(d, s, i) = T(1 + hash01(3 * k + 2));
      });
  host_exec().fence();
}

// Minor page faults of this process so far (getrusage): the difference over repeated solves
// shows whether a call maps and first-touches fresh memory.
inline long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
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
