// Shared by the GPU benchmarks (bench/cuda/): CUDA error checks, cudaEvent timing on the stream
// of Kokkos::Cuda(), the device-to-device copy that is the bandwidth reference, and the counters
// every case reports (GBps, GBps_mean, copy_GBps, frac_of_copy, ns_per_unknown).
#pragma once

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace bandsolve_bench_cuda {

using exec = Kokkos::Cuda;
using mem = Kokkos::CudaSpace;

inline void check_cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

inline cudaStream_t stream() { return exec().cuda_stream(); }

// cudaEvent timing of iterations on the stream of Kokkos::Cuda(), keeping the best and the total.
class event_timer {
 public:
  event_timer() {
    check_cuda(cudaEventCreate(&start_), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~event_timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;

  void start() { check_cuda(cudaEventRecord(start_, stream()), "cudaEventRecord"); }
  // Waits for the work enqueued since start(); returns its seconds.
  double stop() {
    check_cuda(cudaEventRecord(stop_, stream()), "cudaEventRecord");
    check_cuda(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    const double s = ms * 1e-3;
    total_ += s;
    if (best_ < 0 || s < best_) best_ = s;
    return s;
  }
  void stop(benchmark::State& state) { state.SetIterationTime(stop()); }
  double best() const { return best_; }
  double total() const { return total_; }

 private:
  cudaEvent_t start_{}, stop_{};
  double best_ = -1, total_ = 0;
};

// Bandwidth (GB/s, bytes read + bytes written) of a device-to-device cudaMemcpyAsync that moves
// `bytes` in all: the best of `repeats`.
inline double copy_gbps(double bytes, int repeats = 10) {
  const std::size_t half = static_cast<std::size_t>(bytes / 2);
  Kokkos::View<char*, mem> src("copy_src", half), dst("copy_dst", half);
  Kokkos::deep_copy(src, 1);
  event_timer t;
  for (int r = 0; r < repeats; ++r) {
    t.start();
    check_cuda(cudaMemcpyAsync(dst.data(), src.data(), half, cudaMemcpyDeviceToDevice, stream()),
               "cudaMemcpyAsync");
    t.stop();
  }
  return 2.0 * half / t.best() / 1e9;
}

inline void report(benchmark::State& state, const event_timer& t, double bytes, double unknowns,
            double copy) {
  const double iters = static_cast<double>(state.iterations());
  if (iters == 0 || t.best() <= 0) return;
  const double gbps = bytes / t.best() / 1e9;
  state.counters["GBps"] = gbps;
  state.counters["GBps_mean"] = bytes * iters / t.total() / 1e9;
  state.counters["copy_GBps"] = copy;
  state.counters["frac_of_copy"] = gbps / copy;
  state.counters["ns_per_unknown"] = t.best() / unknowns * 1e9;
  state.SetBytesProcessed(static_cast<int64_t>(bytes * iters));
}

// Scratch of `bytes` for a cuSPARSE call, allocated before the timed loop.
struct device_buffer {
  void* p = nullptr;
  explicit device_buffer(std::size_t bytes) {
    check_cuda(cudaMalloc(&p, bytes > 0 ? bytes : 1), "cudaMalloc");
  }
  ~device_buffer() { cudaFree(p); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
};

// The benchmark loop shared by every case: restore (untimed), time `solve`, report `bytes` (the
// floor bytes of the case) over `unknowns`.
template <class Restore, class Solve>
void run_timed(benchmark::State& state, double bytes, double unknowns, Restore restore, Solve solve) {
  const double copy = copy_gbps(bytes);
  event_timer t;
  for (auto _ : state) {
    restore();
    t.start();
    solve();
    t.stop(state);
  }
  Kokkos::fence();
  report(state, t, bytes, unknowns, copy);
}

// Registers the benchmarks of bench_families_device.cpp.
void register_family_benchmarks();
// Registers the benchmarks of bench_axis_device.cpp.
void register_axis_benchmarks();

}  // namespace bandsolve_bench_cuda
