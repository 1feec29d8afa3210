#pragma once
// Per-call buffers of the distributed solves' device passes (and of the host passes' one-shot
// and factored solves), carved from buffers kept between calls
// (backend/scratch.hpp): on the device the forward rows, reduced rows, interface values and
// codes; on the host the staging of the reduced rows and interface values, the exchange buffers
// and the reduced systems (pinned host memory for a GPU, so that the copies between the two run
// at the bus's speed). A call takes the device buffer first, then the host staging. Allocated
// afresh on every call, these buffers cost a cudaMalloc each, pageable copies and a page fault for
// every 4 KiB page on first touch: on an H200 with 2 ranks that was most of a 256^3 solve's time.
#include <bandsolve/backend/gpu_spaces.hpp>
#include <bandsolve/backend/scratch.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <mutex>
#include <stdexcept>

namespace bandsolve::mpi::detail {

// Host memory for staging the device passes' rows: pinned where the device is a GPU.
template <class DeviceMemorySpace>
using staging_space_t = backend::pinned_host_space_t<DeviceMemorySpace>;

// The kept buffers of the device passes' rows and of the host staging, apart from each other
// (on host spaces both are host memory) and from the one the solves inside the call take.
struct device_rows_tag {};
struct staging_tag {};
// The one-shot block solve's kept rows (block_solve.hpp), on any execution space.
struct block_rows_tag {};
// The scalar solves' buffers on host execution spaces: one-shot (solve.hpp, partitioned_solve;
// solve_along.hpp) and factored in batches (factorize.hpp, solve_host_batches).
struct host_passes_tag {};

// Consecutive pieces of one buffer, each aligned to 64 bytes; mark() and rewind() reuse the
// pieces taken after a mark (one batch's buffers, then the next batch's).
template <class MemorySpace>
class carved_buffer {
 public:
  static constexpr std::size_t alignment = 64;

  carved_buffer() = default;
  carved_buffer(char* base, std::size_t bytes) : base_(base), bytes_(bytes) {}

  // Bytes that take<T>(n) uses at most.
  template <class T>
  static constexpr std::size_t bytes_for(std::size_t n) {
    return (n * sizeof(T) + alignment - 1) / alignment * alignment;
  }

  // n values of T (unmanaged: the buffer owns them).
  template <class T>
  Kokkos::View<T*, MemorySpace> take(std::size_t n) {
    const std::size_t bytes = bytes_for<T>(n);
    if (bytes > bytes_ - used_)
      throw std::logic_error("bandsolve::mpi: a call's buffers outgrew the size computed for them");
    T* const at = reinterpret_cast<T*>(base_ + used_);
    used_ += bytes;
    return Kokkos::View<T*, MemorySpace>(at, n);
  }

  std::size_t mark() const { return used_; }
  void rewind(std::size_t mark) { used_ = mark; }

 private:
  char* base_ = nullptr;
  std::size_t bytes_ = 0, used_ = 0;
};

// `bytes` of the buffer kept for Tag in KeepSpace (backend/scratch.hpp), held and locked until
// this object goes, carved as CarveSpace memory. The lock is taken as the buffer is, and the View
// is built where it is declared (never assigned into a default-constructed View: see
// docs/development.md).
template <class KeepSpace, class Tag, class CarveSpace = KeepSpace>
class kept_carving {
 public:
  template <class ExecutionSpace>
  kept_carving(const ExecutionSpace& exec, const char* label, std::size_t bytes)
      : keep_(bandsolve::detail::scratch_buffer<KeepSpace, Tag>(exec, label, bytes, lock_)),
        carved_(keep_.data(), keep_.extent(0)) {}
  carved_buffer<CarveSpace>& carved() { return carved_; }

 private:
  std::unique_lock<std::mutex> lock_;  // before keep_: scratch_buffer takes it
  Kokkos::View<char*, KeepSpace> keep_;
  carved_buffer<CarveSpace> carved_;
};

// The host staging of a call whose device passes run in DeviceMemorySpace: `bytes` of the kept
// staging buffer (staging_space_t), carved as host memory.
template <class DeviceMemorySpace>
class host_staging
    : public kept_carving<staging_space_t<DeviceMemorySpace>, staging_tag, Kokkos::HostSpace> {
 public:
  host_staging(const char* label, std::size_t bytes)
      : kept_carving<staging_space_t<DeviceMemorySpace>, staging_tag, Kokkos::HostSpace>(
            Kokkos::DefaultHostExecutionSpace(), label, bytes) {}
};

}  // namespace bandsolve::mpi::detail
