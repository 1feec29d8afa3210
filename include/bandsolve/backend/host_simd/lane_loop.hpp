#pragma once
// BANDSOLVE_FOR_LANES(l, lanes, W, simd) { body(l) };  the lane loop of a host kernel over lanes
// 0 .. lanes-1 of a pack of W lanes (lanes = W on full packs), with `omp simd` where the constant
// simd holds (false for Kokkos::complex lanes, left scalar). Host Clang unrolls a lane loop of a
// few lanes completely before its loop vectorizer runs and, unable to prove that the unrolled
// lanes' stores alias none of their loads, leaves it scalar (interleaved<8> Thomas ran 1.2-2.1x
// slower than with the loop vectorized). There the body becomes a lambda that lane_loop runs
// under BANDSOLVE_SIMD_LANES(W) for packs of 2 to clang_rolled_lanes_max lanes, and under plain
// `omp simd` for wider ones, where Clang vectorizes first and its own unrolling measured 1.1-1.35x
// faster (column blocks of 64 doubles). Other compilers get the plain loop: the statement ends in
// `;` only for the lambda's sake.
#include <bandsolve/core/config.hpp>

namespace bandsolve::detail {

inline constexpr int clang_rolled_lanes_max = 16;

template <int W, bool Simd>
struct lane_loop {
  int lanes;
  template <class Body>
  KOKKOS_FORCEINLINE_FUNCTION void operator->*(const Body& body) const {
    // One lane has nothing to vectorize: Clang would warn that it did not.
    if constexpr (Simd && W > 1 && W <= clang_rolled_lanes_max) {
      BANDSOLVE_SIMD_LANES(W)
      for (int l = 0; l < lanes; ++l) body(l);
    } else {
      BANDSOLVE_SIMD_IF(Simd)
      for (int l = 0; l < lanes; ++l) body(l);
    }
  }
};

}  // namespace bandsolve::detail

// The lambda is inlined at every optimization level: at -O1 Clang left a call in the loop, which
// stopped its vectorizer.
#if defined(__clang__) && !defined(__CUDACC__) && !defined(__HIPCC__) && \
    !defined(__SYCL_DEVICE_ONLY__)
#define BANDSOLVE_FOR_LANES(l, lanes, W, simd) \
  ::bandsolve::detail::lane_loop<(W), (simd)>{(lanes)}->*[&](int l) __attribute__((always_inline))
#else
#define BANDSOLVE_FOR_LANES(l, lanes, W, simd) \
  BANDSOLVE_SIMD_IF(simd) for (int l = 0; l < (lanes); ++l)
#endif
