#pragma once
// The Kokkos execution spaces that are GPUs, which the device backend serves: Kokkos::Cuda and
// AMD's HIP (Kokkos::Experimental::HIP before Kokkos 4.0, Kokkos::HIP from 4.0 on), and the
// pinned host memory that staging for each of them uses. BANDSOLVE_GPU_BACKEND is defined when
// Kokkos is built with one of them.
#include <Kokkos_Core.hpp>

#include <type_traits>

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
#define BANDSOLVE_GPU_BACKEND 1
#endif

namespace bandsolve::backend {

#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
using hip_space = Kokkos::HIP;
using hip_memory_space = Kokkos::HIPSpace;
using hip_host_pinned_space = Kokkos::HIPHostPinnedSpace;
#else
using hip_space = Kokkos::Experimental::HIP;
using hip_memory_space = Kokkos::Experimental::HIPSpace;
using hip_host_pinned_space = Kokkos::Experimental::HIPHostPinnedSpace;
#endif
#endif

// Whether ExecutionSpace is a GPU's execution space.
template <class ExecutionSpace>
inline constexpr bool is_gpu_space_v = false;
#if defined(KOKKOS_ENABLE_CUDA)
template <>
inline constexpr bool is_gpu_space_v<Kokkos::Cuda> = true;
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
inline constexpr bool is_gpu_space_v<hip_space> = true;
#endif

// Host memory that a GPU's memory space copies to and from at the bus's speed: pinned memory
// for a GPU's memory space, the plain host space otherwise.
template <class MemorySpace>
struct pinned_host_space {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct pinned_host_space<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct pinned_host_space<hip_memory_space> {
  using type = hip_host_pinned_space;
};
#endif
template <class MemorySpace>
using pinned_host_space_t = typename pinned_host_space<MemorySpace>::type;

}  // namespace bandsolve::backend
