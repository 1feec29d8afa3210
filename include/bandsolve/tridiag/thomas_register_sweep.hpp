#pragma once
// One-shot Thomas on a full pack of L double systems with unit row stride (row layout, and lines
// along the unit-stride axis of an N-D array), with every tile transposed straight into SIMD
// registers: L x L blocks of a, b, c and d become L vectors each (one system per lane), the
// forward elimination runs on them four rows per step, and the back substitution transposes its
// result straight into d. Only c' and d' go through scratch. The gathered sweeps of
// thomas_kernel.hpp (tiles through a stack buffer, then a separate write-back) serve every other
// case and recompute a pack whose pivots this screen flags.
//
// Where it runs: BANDSOLVE_REGISTER_SWEEPS, 1 by default where AVX-512 is enabled (its 32 vector
// registers hold the four transposed blocks), else 0; define it to choose. On the test machine
// (Zen 5, 2 threads, 65536 x 256 doubles) it took 0.72-0.79 ns per unknown against 0.86-0.93 for
// the gathered sweeps (the suite: 0.73 against 0.92), and 1.0-1.2 against 1.6-1.7 in L2 on one
// thread. With AVX2 only (16 registers) the blocks spill: 2.4 against 1.6.
//
// Memory: a thread's software prefetches are bounded by its outstanding L1 misses (scattered
// lines: 8-14 GB/s on one thread, whatever the hint or distance), so the next pack's lines are
// requested a few at a time, one line of each array per row, over the whole forward sweep;
// issued as a burst per block, or during the (short) back substitution, the solve takes
// 0.93-1.27 ns per unknown. The current pack's lines four blocks ahead are requested as well.
#include <bandsolve/backend/host_simd/simd_transpose.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/tridiag/thomas_kernel.hpp>

#include <type_traits>

#ifndef BANDSOLVE_REGISTER_SWEEPS
#if defined(__AVX512F__)
#define BANDSOLVE_REGISTER_SWEEPS 1
#else
#define BANDSOLVE_REGISTER_SWEEPS 0
#endif
#endif

namespace bandsolve::detail {

// The next pack's blocks (see next_pack_prefetch), one line of each per call, at offsets
// `step` bytes apart: with step = bytes / n rounded up, n calls (one per row) walk the whole
// block. When a row of the pack spans more than a line (padded strides), a line is skipped now and
// then and left to the demand loads.
template <int MaxArrays>
struct spread_prefetch {
  const char* base[MaxArrays] = {};
  int arrays = 0;
  index_t bytes = 0, step = 0, offset = 0;

  KOKKOS_FORCEINLINE_FUNCTION void operator()() {
    if (offset < bytes)
      for (int k = 0; k < MaxArrays; ++k)
        if (k < arrays) BANDSOLVE_PREFETCH(base[k] + offset);
    offset += step;
  }
};

}  // namespace bandsolve::detail

#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
namespace bandsolve::detail::simd {

// The pack: system l of array k starts at data[k] + l * system_stride[k]; rows are contiguous.
template <class T>
struct register_pack {
  const T* data[4];  // a, b, c, d
  index_t system_stride[4];
};

inline constexpr int register_sweep_prefetch_blocks = 4;

// Solves the pack into x (system l at x + l * x_stride; may be d itself) and returns true, or
// returns false having written nothing but scratch if a pivot may be bad (zero, tiny, not
// finite, or a product of four pivots out of range, as thomas_four_rows screens them).
// Requires n a multiple of L, n >= L; cp and dp are scratch of n * L values each.
template <int L, class T, class Next>
inline bool thomas_pack_registers(index_t n, const register_pack<T>& p, T* x, index_t x_stride,
                                  T* cp, T* dp, Next& next) {
  static_assert(std::is_same_v<T, double> && L % 4 == 0,
                "bandsolve: register sweeps take double packs of a multiple of 4 lanes");
  using V = vec<T, L>;
  constexpr int ahead = register_sweep_prefetch_blocks;
  V zero, one, tiny;
  for (int l = 0; l < L; ++l) zero[l] = T(0), one[l] = T(1), tiny[l] = pivot_limits<T>::tiny;
  V risk = zero, cp_carry = zero, dp_carry = zero;
  const index_t blocks = n / L;
  for (index_t q = 0; q < blocks; ++q) {
    if (q + ahead < blocks)
      for (int k = 0; k < 4; ++k)
        for (int l = 0; l < L; ++l)
          __builtin_prefetch(p.data[k] + (q + ahead) * L + l * p.system_stride[k]);
    V A[L], B[L], C[L], D[L];
    const auto load_block = [&](int k, V* r) {
      const T* base = p.data[k] + q * L;
      const index_t ss = p.system_stride[k];
      load_transpose<L, T>([&](int l) { return base + l * ss; }, r);
    };
    load_block(0, A);
    load_block(1, B);
    load_block(2, C);
    load_block(3, D);
    if (q == 0) A[0] = zero;  // a of row 0 is not part of the system (maybe not even finite)
    const auto screen = [&](const V& pivot, const V& r) {
      const V magnitude = r < zero ? -r : r;
      risk = magnitude * tiny + (pivot * zero + risk);
    };
    for (int j = 0; j < L; j += 4) {
      // The arithmetic of thomas_four_rows (thomas_kernel.hpp), on registers.
      const V q0 = B[j] - A[j] * cp_carry;
      const V q1 = B[j + 1] * q0 - A[j + 1] * C[j];
      const V q2 = B[j + 2] * q1 - (A[j + 2] * C[j + 1]) * q0;
      const V q3 = B[j + 3] * q2 - (A[j + 3] * C[j + 2]) * q1;
      const V i0 = one / q0, i1 = one / q1, i2 = one / q2, i3 = one / q3;
      const V r[4] = {i0, q0 * i1, q1 * i2, q2 * i3};  // 1/p_{i+k}
      screen(q0, i0);
      screen(q1 * i0, r[1]);
      screen(q2 * i1, r[2]);
      screen(q3 * i2, r[3]);
      const V cps[4] = {i0 * C[j], r[1] * C[j + 1], r[2] * C[j + 2], (C[j + 3] * q2) * i3};
      for (int k = 0; k < 4; ++k) {
        next();
        const index_t i = q * L + j + k;
        dp_carry = r[k] * D[j + k] - (r[k] * A[j + k]) * dp_carry;
        store<T, L>(cp + i * L, cps[k]);
        store<T, L>(dp + i * L, dp_carry);
      }
      cp_carry = cps[3];
    }
  }
  bool clean = true;
  for (int l = 0; l < L; ++l) clean = clean && risk_is_low(risk[l]);
  if (!clean) return false;
  V x_next = dp_carry;  // x_{n-1} = d'_{n-1}
  for (index_t q = blocks - 1; q >= 0; --q) {
    V X[L];
    for (int j = L - 1; j >= 0; --j) {
      const index_t i = q * L + j;
      if (i < n - 1) {
        V c_i, d_i;
        load<T, L>(cp + i * L, c_i);
        load<T, L>(dp + i * L, d_i);
        x_next = d_i - c_i * x_next;
      }
      X[j] = x_next;
    }
    transpose<L>(X);
    for (int l = 0; l < L; ++l) store<T, L>(x + q * L + l * x_stride, X[l]);
  }
  return true;
}

}  // namespace bandsolve::detail::simd
#endif

namespace bandsolve::detail {

// Solves a gathered pack with the register sweeps where they apply (double, L = 8 lanes all
// present, unit row stride, n a multiple of L; CPUs with BANDSOLVE_REGISTER_SWEEPS): x into
// x_out, the pack's info codes all 0, and returns true. Otherwise, or if the screen flags a pivot
// (nothing written then but scratch), returns false and the caller runs the gathered sweeps.
// scratch holds 2 * n * L values; next is the next pack's prefetch (see next_pack_prefetch).
template <int L, class C, class D, int MaxArrays>
KOKKOS_INLINE_FUNCTION bool solve_pack_in_registers(
    index_t n, int nl, gathered_lanes<const C> a, gathered_lanes<const C> b,
    gathered_lanes<const C> c, gathered_lanes<const D> d, gathered_lanes<D> x_out, C* scratch,
    const next_pack_prefetch<MaxArrays>& next) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
  if constexpr (std::is_same_v<C, double> && std::is_same_v<D, double> && L == 8) {
    if (nl != L || n < L || n % L != 0 || a.row_stride != 1 || b.row_stride != 1 ||
        c.row_stride != 1 || d.row_stride != 1 || x_out.row_stride != 1)
      return false;
    spread_prefetch<MaxArrays> spread;
    for (int k = 0; k < next.arrays; ++k) spread.base[k] = next.base[k];
    spread.arrays = next.arrays;
    spread.bytes = next.bytes;
    spread.step = (next.bytes + n - 1) / n;
    const simd::register_pack<double> pack{{a.base, b.base, c.base, d.base},
                                           {a.system_stride, b.system_stride, c.system_stride,
                                            d.system_stride}};
    return simd::thomas_pack_registers<L>(n, pack, x_out.base, x_out.system_stride, scratch,
                                          scratch + n * L, spread);
  }
#endif
  (void)n, (void)nl, (void)a, (void)b, (void)c, (void)d, (void)x_out, (void)scratch, (void)next;
  return false;
}

}  // namespace bandsolve::detail
