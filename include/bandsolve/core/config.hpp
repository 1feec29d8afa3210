#pragma once
// Compiler plumbing shared by every kernel: the SIMD-across-systems hint and index types.
#include <Kokkos_Core.hpp>

#include <cstddef>

// `#pragma omp simd` vectorizes the loops that run across systems on CPU backends.
// Device compilation passes never see it (one thread is one system there).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
#define BANDSOLVE_SIMD
#else
#define BANDSOLVE_SIMD _Pragma("omp simd")
#endif

namespace bandsolve {
// Offsets into batches: systems times rows can exceed 2^31.
using index_t = std::ptrdiff_t;
}  // namespace bandsolve
