#pragma once
// Compiler plumbing shared by every kernel: the SIMD-across-systems hint and index types.
#include <Kokkos_Core.hpp>

#include <cstddef>

// `#pragma omp simd` vectorizes the loops that run across systems on CPU backends.
// Device compilation passes never see it (one thread is one system there).
// BANDSOLVE_SIMD_IF(flag) applies it only where a constant flag holds (OpenMP 5 `if` clause).
#define BANDSOLVE_STRINGIZE(x) #x
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
#define BANDSOLVE_SIMD
#define BANDSOLVE_SIMD_IF(flag)
#else
#define BANDSOLVE_SIMD _Pragma("omp simd")
#define BANDSOLVE_SIMD_IF(flag) _Pragma(BANDSOLVE_STRINGIZE(omp simd if(flag)))
#endif
// BANDSOLVE_SIMD_ROLLED: BANDSOLVE_SIMD that host Clang may not unroll. Clang unrolls a lane
// loop of constant trip count completely before its loop vectorizer runs, and often leaves the
// unrolled code scalar; kept rolled, the loop is vectorized. Only where that was measured faster
// (docs/development.md, "Clang's vectorizer and the lane loops"): on every lane loop, some column
// and complex paths ran up to 2x slower.
// BANDSOLVE_SIMD_LANES(width): BANDSOLVE_SIMD for a lane loop whose trip count is `width` (a
// constant; a template parameter may be named) on full packs. Host Clang unrolls such a loop
// completely before its loop vectorizer runs when `width` is small (a pack of 8 interleaved lanes)
// and, unable to prove that the unrolled lanes' stores alias none of their loads, leaves them
// scalar; there the loop is kept rolled and vectorized `width` lanes wide, one straight run of
// vector instructions per row of a full pack (interleave_count(1): at width 1 Clang would ask to
// interleave the loop and warn that it cannot). Kernels reach it through BANDSOLVE_FOR_LANES
// (backend/host_simd/lane_loop.hpp), which keeps it to narrow packs.
#if defined(__clang__) && !defined(__CUDACC__) && !defined(__HIP_DEVICE_COMPILE__) && \
    !defined(__SYCL_DEVICE_ONLY__)
#define BANDSOLVE_SIMD_ROLLED BANDSOLVE_SIMD _Pragma("clang loop unroll(disable)")
#define BANDSOLVE_CLANG_LANES(width) \
  _Pragma(BANDSOLVE_STRINGIZE(clang loop unroll(disable) vectorize_width(width) \
                              interleave_count(1)))
#else
#define BANDSOLVE_SIMD_ROLLED BANDSOLVE_SIMD
#define BANDSOLVE_CLANG_LANES(width)
#endif
#define BANDSOLVE_SIMD_LANES(width) BANDSOLVE_SIMD BANDSOLVE_CLANG_LANES(width)

// A hint to start loading a cache line. The backward sweeps of the CPU kernels touch only cache,
// so they use it to fetch the next pack while memory would otherwise sit idle.
#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    !defined(__SYCL_DEVICE_ONLY__)
#define BANDSOLVE_PREFETCH(address) __builtin_prefetch(address)
#else
#define BANDSOLVE_PREFETCH(address) ((void)(address))
#endif

// Full unrolling of a loop with a constant trip count, so that recurrences stay in registers
// and GCC vectorizes the loop around it (host compilers only: the nvcc and hipcc front ends do not
// know the spelling, and their device passes unroll on their own).
#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__SYCL_DEVICE_ONLY__)
#define BANDSOLVE_UNROLL(count)
#elif defined(__clang__)
#define BANDSOLVE_UNROLL(count) _Pragma(BANDSOLVE_STRINGIZE(unroll count))
#elif defined(__GNUC__)
#define BANDSOLVE_UNROLL(count) _Pragma(BANDSOLVE_STRINGIZE(GCC unroll count))
#else
#define BANDSOLVE_UNROLL(count)
#endif

namespace bandsolve {
// Offsets into batches: systems times rows can exceed 2^31.
using index_t = std::ptrdiff_t;

namespace detail {
// p + k, or null where p is: a View without values (right-hand sides with no columns) may hold a
// null pointer that no loop reads, and pointer arithmetic on null is undefined.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T* offset_or_null(T* p, index_t k) {
  return p == nullptr ? p : p + k;
}
}  // namespace detail
}  // namespace bandsolve
