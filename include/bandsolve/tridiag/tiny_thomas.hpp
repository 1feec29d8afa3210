#pragma once
// Thomas on runs of tiny systems (n = 2 .. tiny_max_rows rows) stored back to back: system s,
// row i at s*n + i in each of a, b, c and d (a row-layout batch without padding, or a strided
// View with unit row stride and system stride n). A run of such systems is one contiguous block
// per array, so it streams like a copy; the gathered packs of thomas_kernel.hpp read each tiny
// system as a short row of its own (under a third of STREAM at n = 2 and 3).
//
// Each system is solved with its rows unrolled (n is a template parameter), one system per SIMD
// lane: for n <= 4 GCC 12 vectorizes the loop over systems itself (the stride-n accesses become
// shuffles); for n = 5 .. 7 it does not, and tiles of one register of systems are moved into
// rows of lanes first (docs/performance.md, "Tiny systems"). Info codes are exact (the first bad
// row per system, 1-based), as the other Thomas kernels report them. Valid device code.
#include <bandsolve/backend/host_simd/work_shape.hpp>
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/core/scalar_traits.hpp>

#include <type_traits>

namespace bandsolve::detail {

// Largest n solved as tiny: from 8 rows on, the gathered packs read a whole cache line (8
// doubles) per system and row tile and run near the stream (0.92 at n = 8, double).
inline constexpr index_t tiny_max_rows = 7;

// Systems per work item of the tiny path: 256 systems of 7 rows are 14 KiB of doubles per array,
// a contiguous block that the hardware prefetchers stream, and about 8 items per thread at the
// smallest batches worth a parallel launch.
inline constexpr index_t tiny_tile_systems = 256;

// The info code of one tiny system (rows at a, b, c): the 1-based row of its first bad pivot, or
// 0. The exact rescan of a system the screening in tiny_thomas_run flagged.
template <int N, class C>
KOKKOS_INLINE_FUNCTION int tiny_first_bad_pivot(const C* a, const C* b, const C* c) {
  int code = update_info(0, b[0], 0);
  C cp = reciprocal(b[0]) * c[0];
  for (int i = 1; i < N; ++i) {
    const C pivot = b[i] - a[i] * cp;
    code = update_info(code, pivot, i);
    cp = reciprocal(pivot) * c[i];
  }
  return code;
}

// Solves `count` systems of N rows stored back to back from a, b, c, d, x into d, one system per
// iteration of a SIMD loop; info[s] = 0, or -1 where the pivot screen (pivot_risk: two
// multiply-adds per row, where the selects of update_info keep GCC from vectorizing the loop)
// is not low.
template <int N, class C, class D>
KOKKOS_INLINE_FUNCTION void tiny_thomas_systems(index_t count, const C* a, const C* b, const C* c,
                                            D* d, int* info) {
  static_assert(N >= 1, "bandsolve tiny_thomas_run: N >= 1");
  using R = real_type_t<C>;
  BANDSOLVE_SIMD_IF((!is_complex_v<C> && !is_complex_v<D>))
  for (index_t s = 0; s < count; ++s) {
    const C* as = a + s * N;
    const C* bs = b + s * N;
    const C* cs = c + s * N;
    D* ds = d + s * N;
    C cp[static_cast<std::size_t>(N)];
    D dp[static_cast<std::size_t>(N)];
    C r = reciprocal(bs[0]);
    R risk = pivot_risk(bs[0], r, R(0));
    cp[0] = r * cs[0];
    dp[0] = r * ds[0];
    BANDSOLVE_UNROLL(8)
    for (int i = 1; i < N; ++i) {
      const C pivot = bs[i] - as[i] * cp[i - 1];
      r = reciprocal(pivot);
      risk = pivot_risk(pivot, r, risk);
      cp[i] = r * cs[i];
      dp[i] = r * (ds[i] - as[i] * dp[i - 1]);
    }
    D x = dp[N - 1];
    ds[N - 1] = x;
    BANDSOLVE_UNROLL(8)
    for (int i = N - 2; i >= 0; --i) {
      x = dp[i] - cp[i] * x;
      ds[i] = x;
    }
    info[s] = risk_is_low(risk) ? 0 : -1;
  }
}

// The same for W systems of N = 5 .. 7 rows, for which GCC 12 does
// not vectorize the loop above: the tile is moved into rows of W lanes (strided loads from the
// block, gathers where the target has them), swept row by row across the lanes, and stored back.
// In L1 on one Zen 5 core: 1.4 ns per unknown at n = 5 and 7 (double) against 2.8 and 3.6.
template <int N, int W, class C, class D>
KOKKOS_INLINE_FUNCTION void tiny_thomas_tile(const C* a, const C* b, const C* c, D* d,
                                             int* info) {
  using R = real_type_t<C>;
  constexpr auto rows = static_cast<std::size_t>(N), lanes = static_cast<std::size_t>(W);
  C ta[rows][lanes], tb[rows][lanes], tc[rows][lanes], cp[rows][lanes];
  D td[rows][lanes];
  R risk[lanes];
  BANDSOLVE_UNROLL(8)
  for (int i = 0; i < N; ++i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < W; ++l) {
      ta[i][l] = a[l * N + i];
      tb[i][l] = b[l * N + i];
      tc[i][l] = c[l * N + i];
      td[i][l] = d[l * N + i];
    }
  }
  BANDSOLVE_SIMD
  for (int l = 0; l < W; ++l) {
    const C r = reciprocal(tb[0][l]);
    risk[l] = pivot_risk(tb[0][l], r, R(0));
    cp[0][l] = r * tc[0][l];
    td[0][l] = r * td[0][l];
  }
  BANDSOLVE_UNROLL(8)
  for (int i = 1; i < N; ++i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < W; ++l) {
      const C pivot = tb[i][l] - ta[i][l] * cp[i - 1][l];
      const C r = reciprocal(pivot);
      risk[l] = pivot_risk(pivot, r, risk[l]);
      cp[i][l] = r * tc[i][l];
      td[i][l] = r * (td[i][l] - ta[i][l] * td[i - 1][l]);
    }
  }
  BANDSOLVE_UNROLL(8)
  for (int i = N - 2; i >= 0; --i) {
    BANDSOLVE_SIMD
    for (int l = 0; l < W; ++l) td[i][l] = td[i][l] - cp[i][l] * td[i + 1][l];
  }
  BANDSOLVE_UNROLL(8)
  for (int i = 0; i < N; ++i)
    for (int l = 0; l < W; ++l) d[l * N + i] = td[i][l];
  for (int l = 0; l < W; ++l) info[l] = risk_is_low(risk[l]) ? 0 : -1;
}

// Solves `count` systems of N rows stored back to back from a, b, c, d (see the top), x into d,
// the info code of system s into info[s]: screened sweeps (tiles of W lanes for real N >= 5),
// then the exact code of every flagged system from a rescan.
template <int N, class C, class D>
KOKKOS_INLINE_FUNCTION void tiny_thomas_run(index_t count, const C* a, const C* b, const C* c,
                                            D* d, int* info) {
  index_t done = 0;
  if constexpr (N >= 5 && !is_complex_v<C> && !is_complex_v<D>) {
    constexpr int W = tiny_tile_lanes_v<D>;  // the host backend's tile of tiny systems
    for (; done + W <= count; done += W)
      tiny_thomas_tile<N, W>(a + done * N, b + done * N, c + done * N, d + done * N,
                             info + done);
  }
  tiny_thomas_systems<N>(count - done, a + done * N, b + done * N, c + done * N, d + done * N,
                         info + done);
  for (index_t s = 0; s < count; ++s)
    if (info[s] != 0) info[s] = tiny_first_bad_pivot<N>(a + s * N, b + s * N, c + s * N);
}

// tiny_thomas_run for a run-time n in [1, tiny_max_rows].
template <class C, class D>
KOKKOS_INLINE_FUNCTION void tiny_thomas_run(index_t n, index_t count, const C* a, const C* b,
                                            const C* c, D* d, int* info) {
  switch (n) {
    case 1: tiny_thomas_run<1>(count, a, b, c, d, info); break;
    case 2: tiny_thomas_run<2>(count, a, b, c, d, info); break;
    case 3: tiny_thomas_run<3>(count, a, b, c, d, info); break;
    case 4: tiny_thomas_run<4>(count, a, b, c, d, info); break;
    case 5: tiny_thomas_run<5>(count, a, b, c, d, info); break;
    case 6: tiny_thomas_run<6>(count, a, b, c, d, info); break;
    default: tiny_thomas_run<7>(count, a, b, c, d, info); break;
  }
}

// Largest n whose factored solve takes tiny_factored_solve_run: GCC 12 vectorizes its loop over
// systems up to n = 4; from 5 rows on the scalar loop is slower than the gathered packs (0.33-0.56
// of STREAM against 0.69-0.94, double, shape sweep).
inline constexpr index_t tiny_factored_max_rows = 4;

// The solve with a stored factorization (thomas_factorization: r = 1/pivot, l = a/pivot and c'
// in packs of L lanes, row i of the pack at r + i*L) of the first nl systems of one pack whose
// right-hand sides lie back to back from d (system l, row i at d[l*N + i]), in place.
template <int N, int L, class C, class D>
KOKKOS_INLINE_FUNCTION void tiny_factored_solve_run(int nl, const C* r, const C* lo,
                                                    const C* cp, D* d) {
  BANDSOLVE_SIMD_IF((!is_complex_v<C> && !is_complex_v<D>))
  for (int l = 0; l < nl; ++l) {
    D* ds = d + l * N;
    D dp[static_cast<std::size_t>(N)];
    dp[0] = r[l] * ds[0];
    BANDSOLVE_UNROLL(8)
    for (int i = 1; i < N; ++i) dp[i] = r[i * L + l] * ds[i] - lo[i * L + l] * dp[i - 1];
    D x = dp[N - 1];
    ds[N - 1] = x;
    BANDSOLVE_UNROLL(8)
    for (int i = N - 2; i >= 0; --i) {
      x = dp[i] - cp[i * L + l] * x;
      ds[i] = x;
    }
  }
}

// tiny_factored_solve_run for a run-time n in [1, tiny_factored_max_rows].
template <int L, class C, class D>
KOKKOS_INLINE_FUNCTION void tiny_factored_solve_run(index_t n, int nl, const C* r, const C* lo,
                                                    const C* cp, D* d) {
  switch (n) {
    case 1: tiny_factored_solve_run<1, L>(nl, r, lo, cp, d); break;
    case 2: tiny_factored_solve_run<2, L>(nl, r, lo, cp, d); break;
    case 3: tiny_factored_solve_run<3, L>(nl, r, lo, cp, d); break;
    default: tiny_factored_solve_run<4, L>(nl, r, lo, cp, d); break;
  }
}

// Whether Views a, b, c, d (rank 2, (nsys, n)) hold their systems back to back: unit row stride,
// system stride n. Row-layout Views with padded rows and other strided Views are not.
template <class... Views>
bool tiny_systems_back_to_back(index_t n, const Views&... v) {
  return ((static_cast<index_t>(v.stride(1)) == 1 &&
           (v.extent(0) <= 1 || static_cast<index_t>(v.stride(0)) == n)) &&
          ...);
}

}  // namespace bandsolve::detail
