#pragma once
// The symmetric one-shot solve of a full pack of L double systems with unit row stride, in SIMD
// registers (and, below, the factored solve of such packs): thomas_register_sweep.hpp's sweep
// (transposed blocks, four rows per step, the next pack prefetched one line per row) on three
// blocks per step (b, e, d) instead of four, with a_{i} = e_{i-1} taken from the block itself
// or, for a block's first row, from the previous block's last row. Screens pivots as that sweep
// does, plus their sign; a flagged pack is left to the gathered sweeps (symmetric_kernel.hpp),
// which find the exact info codes.
#include <bandsolve/tridiag/symmetric_kernel.hpp>
#include <bandsolve/tridiag/thomas_register_sweep.hpp>

#include <type_traits>

#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
namespace bandsolve::detail::simd {

// System l of array k (b, e, d) starts at data[k] + l * system_stride[k]; rows are contiguous.
// Requires n a multiple of L, n >= L; cp and dp are scratch of n * L values each.
template <int L, class T, class Next>
inline bool sym_pack_registers(index_t n, const T* const* data, const index_t* system_stride,
                               T* x, index_t x_stride, T* cp, T* dp, Next& next) {
  static_assert(std::is_same_v<T, double> && L % 4 == 0,
                "bandsolve: register sweeps take double packs of a multiple of 4 lanes");
  using V = vec<T, L>;
  constexpr int ahead = register_sweep_prefetch_blocks;
  V zero, one, tiny, huge;
  for (int l = 0; l < L; ++l)
    zero[l] = T(0), one[l] = T(1), tiny[l] = pivot_limits<T>::tiny,
    huge[l] = pivot_limits<T>::huge;
  V risk = zero, cp_carry = zero, dp_carry = zero, e_carry = zero;
  const index_t blocks = n / L;
  for (index_t q = 0; q < blocks; ++q) {
    if (q + ahead < blocks)
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < L; ++l)
          __builtin_prefetch(data[k] + (q + ahead) * L + l * system_stride[k]);
    V B[L], E[L], D[L];
    const auto load_block = [&](int k, V* r) {
      const T* base = data[k] + q * L;
      const index_t ss = system_stride[k];
      load_transpose<L, T>([&](int l) { return base + l * ss; }, r);
    };
    load_block(0, B);
    load_block(1, E);
    load_block(2, D);
    const auto screen = [&](const V& pivot, const V& r) {
      const V magnitude = r < zero ? -r : r;
      risk = (magnitude - r) * huge + (magnitude * tiny + (pivot * zero + risk));
    };
    for (int j = 0; j < L; j += 4) {
      const V a0 = j == 0 ? e_carry : E[j - 1];  // a_i = e_{i-1}; e_{-1} = 0
      const V q0 = B[j] - a0 * cp_carry;
      const V q1 = B[j + 1] * q0 - E[j] * E[j];
      const V q2 = B[j + 2] * q1 - (E[j + 1] * E[j + 1]) * q0;
      const V q3 = B[j + 3] * q2 - (E[j + 2] * E[j + 2]) * q1;
      const V i0 = one / q0, i1 = one / q1, i2 = one / q2, i3 = one / q3;
      const V r[4] = {i0, q0 * i1, q1 * i2, q2 * i3};  // 1/p_{i+k}
      screen(q0, i0);
      screen(q1 * i0, r[1]);
      screen(q2 * i1, r[2]);
      screen(q3 * i2, r[3]);
      const V cps[4] = {i0 * E[j], r[1] * E[j + 1], r[2] * E[j + 2], (E[j + 3] * q2) * i3};
      const V as[4] = {a0, E[j], E[j + 1], E[j + 2]};
      for (int k = 0; k < 4; ++k) {
        next();
        const index_t i = q * L + j + k;
        dp_carry = r[k] * D[j + k] - (r[k] * as[k]) * dp_carry;
        store<T, L>(cp + i * L, cps[k]);
        store<T, L>(dp + i * L, dp_carry);
      }
      cp_carry = cps[3];
    }
    e_carry = E[L - 1];
  }
  bool clean = true;
  for (int l = 0; l < L; ++l) clean = clean && risk_is_low(risk[l]);
  if (!clean) return false;
  V x_next = dp_carry;
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

// The factored solve of one full pack of GL row-layout systems with unit row stride, L systems
// at a time in registers: d's blocks transposed in, y_i = d_i - c'_{i-1} y_{i-1} carried, z_i =
// r_i y_i into scratch (n * L values), then x_i = z_i - c'_i x_{i+1} transposed straight back into
// d. Factor rows are GL lanes apart (the stored packs; GL = L keeps them contiguous). Requires n
// a multiple of L, n >= L.
template <int L, int GL, class T>
inline void sym_factored_pack_registers(index_t n, const T* r, const T* cp, T* d,
                                        index_t system_stride, T* z) {
  static_assert(std::is_same_v<T, double> && L % 4 == 0 && GL % L == 0,
                "bandsolve: register sweeps take double packs of a multiple of 4 lanes");
  using V = vec<T, L>;
  constexpr int ahead = register_sweep_prefetch_blocks;
  const index_t blocks = n / L;
  for (int g = 0; g < GL / L; ++g) {
    T* base = d + g * L * system_stride;
    V y;
    for (int l = 0; l < L; ++l) y[l] = T(0);
    for (index_t q = 0; q < blocks; ++q) {
      if (q + ahead < blocks)
        for (int l = 0; l < L; ++l) __builtin_prefetch(base + (q + ahead) * L + l * system_stride);
      V D[L];
      load_transpose<L, T>([&](int l) { return base + q * L + l * system_stride; }, D);
      for (int j = 0; j < L; ++j) {
        const index_t i = q * L + j;
        V ri;
        load<T, L>(r + i * GL + g * L, ri);
        if (i == 0) {
          y = D[0];
        } else {
          V c_prev;
          load<T, L>(cp + (i - 1) * GL + g * L, c_prev);
          y = D[j] - c_prev * y;
        }
        store<T, L>(z + i * L, ri * y);
      }
    }
    V x;
    load<T, L>(z + (n - 1) * L, x);
    for (index_t q = blocks - 1; q >= 0; --q) {
      V X[L];
      for (int j = L - 1; j >= 0; --j) {
        const index_t i = q * L + j;
        if (i < n - 1) {
          V c_i, z_i;
          load<T, L>(cp + i * GL + g * L, c_i);
          load<T, L>(z + i * L, z_i);
          x = z_i - c_i * x;
        }
        X[j] = x;
      }
      transpose<L>(X);
      for (int l = 0; l < L; ++l) store<T, L>(base + q * L + l * system_stride, X[l]);
    }
  }
}

}  // namespace bandsolve::detail::simd
#endif

namespace bandsolve::detail {

// As solve_pack_in_registers (thomas_register_sweep.hpp), for the symmetric solve: true when the
// pack was solved in registers (info all 0), false when the caller must run the gathered sweeps.
template <int L, class R, class C, class D, int MaxArrays>
KOKKOS_INLINE_FUNCTION bool sym_solve_pack_in_registers(
    index_t n, int nl, gathered_lanes<const R> b, gathered_lanes<const C> e,
    gathered_lanes<const D> d, gathered_lanes<D> x_out, C* scratch,
    const next_pack_prefetch<MaxArrays>& next) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
  if constexpr (std::is_same_v<R, double> && std::is_same_v<C, double> &&
                std::is_same_v<D, double> && L == 8) {
    if (nl != L || n < L || n % L != 0 || b.row_stride != 1 || e.row_stride != 1 ||
        d.row_stride != 1 || x_out.row_stride != 1)
      return false;
    spread_prefetch<MaxArrays> spread;
    for (int k = 0; k < next.arrays; ++k) spread.base[k] = next.base[k];
    spread.arrays = next.arrays;
    spread.bytes = next.bytes;
    spread.step = (next.bytes + n - 1) / n;
    const double* data[3] = {b.base, e.base, d.base};
    const index_t strides[3] = {b.system_stride, e.system_stride, d.system_stride};
    return simd::sym_pack_registers<L>(n, data, strides, x_out.base, x_out.system_stride, scratch,
                                       scratch + n * L, spread);
  }
#endif
  (void)n, (void)nl, (void)b, (void)e, (void)d, (void)x_out, (void)scratch, (void)next;
  return false;
}

// The factored solve of a full gathered pack of GL double systems in registers where it applies
// (see sym_factored_pack_registers); returns false, having written nothing, otherwise.
template <int GL, class R, class C, class D>
KOKKOS_INLINE_FUNCTION bool sym_factored_pack_in_registers(index_t n, int nl, const R* r,
                                                           const C* cp, gathered_lanes<D> d,
                                                           D* scratch) {
#if BANDSOLVE_HAS_SIMD_TRANSPOSE && BANDSOLVE_REGISTER_SWEEPS
  if constexpr (std::is_same_v<R, double> && std::is_same_v<C, double> &&
                std::is_same_v<D, double> && GL % 8 == 0) {
    if (nl != GL || n < 8 || n % 8 != 0 || d.row_stride != 1) return false;
    simd::sym_factored_pack_registers<8, GL>(n, r, cp, d.base, d.system_stride, scratch);
    return true;
  }
#endif
  (void)n, (void)nl, (void)r, (void)cp, (void)d, (void)scratch;
  return false;
}

}  // namespace bandsolve::detail
