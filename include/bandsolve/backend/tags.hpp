#pragma once
// Backend tags, chosen at compile time from the Kokkos execution space:
//   Kokkos::Serial -> backend::serial       (one thread, SIMD across the systems of a chunk)
//   Kokkos::OpenMP -> backend::openmp_simd  (threads over chunks, `omp simd` across systems)
//   Kokkos::Threads -> backend::openmp_simd (the same threaded host code on Kokkos's C++
//                                            threads; `omp simd` needs only -fopenmp-simd)
//   Kokkos::Cuda   -> backend::device       (a thread per system, or a team per tile of systems;
//                                            backend/device/)
//   HIP            -> backend::device       (the same kernels on AMD GPUs; gpu_spaces.hpp)
// The device backend also runs on host execution spaces when a caller names it explicitly (the
// trailing backend argument of solve and factorize), so that its kernels are tested without a GPU.
#include <bandsolve/backend/gpu_spaces.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace bandsolve::backend {

struct serial {
  static constexpr const char* name = "serial";
};
struct openmp_simd {
  static constexpr const char* name = "openmp_simd";
};
struct device {
  static constexpr const char* name = "device";
};

// Whether T is one of the backend tags above.
template <class T>
inline constexpr bool is_backend_v = std::is_same_v<T, serial> || std::is_same_v<T, openmp_simd> ||
                                     std::is_same_v<T, device>;

namespace detail {
template <class>
inline constexpr bool always_false = false;
}

template <class ExecutionSpace, class = void>
struct default_for {
  static_assert(Kokkos::is_execution_space<ExecutionSpace>::value,
                "bandsolve: the first argument must be a Kokkos execution space instance");
  static_assert(detail::always_false<ExecutionSpace>,
                "bandsolve: no backend for this Kokkos execution space. Supported: "
                "Kokkos::Serial (backend::serial), Kokkos::OpenMP and Kokkos::Threads "
                "(backend::openmp_simd) and Kokkos::Cuda and Kokkos::HIP (backend::device), when "
                "Kokkos is built with them");
  using type = void;
};

#if defined(KOKKOS_ENABLE_SERIAL)
template <>
struct default_for<Kokkos::Serial> {
  using type = serial;
};
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
template <>
struct default_for<Kokkos::OpenMP> {
  using type = openmp_simd;
};
#endif
#if defined(KOKKOS_ENABLE_THREADS)
template <>
struct default_for<Kokkos::Threads> {
  using type = openmp_simd;
};
#endif
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct default_for<Kokkos::Cuda> {
  using type = device;
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
template <>
struct default_for<hip_space> {
  using type = device;
};
#endif

template <class ExecutionSpace>
using default_for_t = typename default_for<std::remove_cv_t<ExecutionSpace>>::type;

}  // namespace bandsolve::backend
