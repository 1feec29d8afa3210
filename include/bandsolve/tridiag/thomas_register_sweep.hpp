#pragma once
// One-shot Thomas on a full pack of L systems (8 doubles or 16 floats) with unit row stride (row
// layout, and lines along the unit-stride axis of an N-D array) through the host backend's
// register sweeps (backend/host_simd/register_sweep.hpp: tiles transposed straight into SIMD
// registers, the back substitution transposed straight into d). This file is Thomas's part: the
// forward elimination of a block of rows on vectors of lanes, four rows per step as
// thomas_four_rows does it for doubles and row by row for floats, with the same pivot screen.
// The gathered sweeps of thomas_kernel.hpp serve every other case and recompute a pack whose
// pivots this screen flags.
#include <bandsolve/backend/host_simd/register_sweep.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/tridiag/thomas_kernel.hpp>

#include <type_traits>

namespace bandsolve::detail {

// Thomas's forward elimination on vectors V of lanes of T (one system per lane), for
// simd::register_sweep: the rows of block q are in[0..3][j] (a, b, c, d of row q*L + j).
template <class T, class V>
struct thomas_register_rows {
  V zero = V{}, one = zero + T(1), scale = zero + pivot_limits<T>::risk_scale;
  V risk = zero, cp_carry = zero, dp_carry = zero;

  template <int L, class Emit>
  KOKKOS_FORCEINLINE_FUNCTION void forward(index_t q, V (&in)[4][static_cast<std::size_t>(L)],
                                           const Emit& emit) {
    // The carried vectors in locals while the block's rows are stored (see register_sweep.hpp).
    const V zero_ = zero, one_ = one, scale_ = scale;
    V risk_ = risk, cp = cp_carry, dp = dp_carry;
    V* A = in[0];
    const V *B = in[1], *C = in[2], *D = in[3];
    if (q == 0) A[0] = zero_;  // a of row 0 is not part of the system (maybe not even finite)
    const auto screen = [&](const V& pivot, const V& r) {
      const V magnitude = r < zero_ ? -r : r;
      risk_ = magnitude * scale_ + (pivot * zero_ + risk_);
    };
    if constexpr (!std::is_same_v<T, double>) {
      // Row by row, as the gathered sweeps of floats (thomas_next_row): the products of four
      // pivots would leave the float range for pivots beyond about 1e+-9 (see four_rows_v).
      for (int j = 0; j < L; ++j) {
        const V pivot = B[j] - A[j] * cp;
        const V r = one_ / pivot;
        screen(pivot, r);
        cp = r * C[j];
        dp = r * (D[j] - A[j] * dp);
        emit(q * L + j, cp, dp);
      }
    } else {
      for (int j = 0; j < L; j += 4) {
        // The arithmetic of thomas_four_rows (thomas_kernel.hpp), on vectors.
        const V q0 = B[j] - A[j] * cp;
        const V q1 = B[j + 1] * q0 - A[j + 1] * C[j];
        const V q2 = B[j + 2] * q1 - (A[j + 2] * C[j + 1]) * q0;
        const V q3 = B[j + 3] * q2 - (A[j + 3] * C[j + 2]) * q1;
        const V i0 = one_ / q0, i1 = one_ / q1, i2 = one_ / q2, i3 = one_ / q3;
        const V r[4] = {i0, q0 * i1, q1 * i2, q2 * i3};  // 1/p_{i+k}
        screen(q0, i0);
        screen(q1 * i0, r[1]);
        screen(q2 * i1, r[2]);
        screen(q3 * i2, r[3]);
        const V cps[4] = {i0 * C[j], r[1] * C[j + 1], r[2] * C[j + 2], (C[j + 3] * q2) * i3};
        for (int k = 0; k < 4; ++k) {
          dp = r[k] * D[j + k] - (r[k] * A[j + k]) * dp;
          emit(q * L + j + k, cps[k], dp);
        }
        cp = cps[3];
      }
    }
    risk = risk_, cp_carry = cp, dp_carry = dp;
  }
  inline bool clean() const { return risk_is_low_in_every_lane<T>(risk); }
  inline const V& last() const { return dp_carry; }
};

// The factored forward substitution d'_i = r_i d_i - l_i d'_{i-1} on vectors V of lanes, for
// simd::register_factored_sweep: factor rows r and lo of `lanes` systems each (the stored
// packs), group g of V's lane count.
template <class T, class V>
struct thomas_factored_register_rows {
  const T* r;
  const T* lo;
  index_t lanes;
  V dp = V{};

  template <int L, class Emit, class Load>
  KOKKOS_FORCEINLINE_FUNCTION void forward(int g, index_t q,
                                           V (&in)[1][static_cast<std::size_t>(L)],
                                           const Emit& emit, const Load& load) {
    V dp_ = dp;  // in a local while d' is stored (see register_sweep.hpp)
    for (int j = 0; j < L; ++j) {
      const index_t i = q * L + j;
      V ri;
      load(r + i * lanes + g * L, ri);
      if (i == 0) {
        dp_ = ri * in[0][0];
      } else {
        V li;
        load(lo + i * lanes + g * L, li);
        dp_ = ri * in[0][j] - li * dp_;
      }
      emit(i, dp_);
    }
    dp = dp_;
  }
};

// The factored solve of a full gathered pack of GL systems in registers where it applies
// (register_factored_packs_v: doubles 8 systems at a time, floats in tiles of 16; factor rows r,
// l, c' of GL lanes, d with unit row stride); returns false, having written nothing, otherwise
// (the caller runs the gathered sweeps). scratch holds n * GL values.
template <int GL, class C, class D>
KOKKOS_INLINE_FUNCTION bool thomas_factored_pack_in_registers(index_t n, int nl, const C* r,
                                                              const C* lo, const C* cp,
                                                              gathered_lanes<D> d, D* scratch) {
  if constexpr (std::is_same_v<C, D>) {
    return register_factored_pack<GL, thomas_factored_register_rows>(n, nl, r, lo, cp, d,
                                                                     scratch);
  } else {
    (void)n, (void)nl, (void)r, (void)lo, (void)cp, (void)d, (void)scratch;
    return false;
  }
}

// Solves a gathered pack with the register sweeps where they apply (8 double or 16 float lanes,
// all present, unit row stride, n a multiple of L, and a build with register sweeps): x into x_out,
// the pack's info codes all 0, and returns true. Otherwise, or if the screen flags a pivot
// (nothing written then but scratch), returns false and the caller runs the gathered sweeps.
// scratch holds 2 * n * L values; next is the next pack's prefetch (see next_pack_prefetch).
template <int L, class C, class D, int MaxArrays>
KOKKOS_FORCEINLINE_FUNCTION bool solve_pack_in_registers(
    index_t n, int nl, gathered_lanes<const C> a, gathered_lanes<const C> b,
    gathered_lanes<const C> c, gathered_lanes<const D> d, gathered_lanes<D> x_out, C* scratch,
    const next_pack_prefetch<MaxArrays>& next) {
  if constexpr (std::is_same_v<C, D>) {
    const gathered_lanes<const C> in[4] = {a, b, c, d};
    return register_sweep_pack<L, thomas_register_rows, 4>(n, nl, in, x_out, scratch, next);
  } else {
    (void)n, (void)nl, (void)a, (void)b, (void)c, (void)d, (void)x_out, (void)scratch, (void)next;
    return false;
  }
}

}  // namespace bandsolve::detail
