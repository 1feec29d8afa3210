#pragma once
// The symmetric solves of full packs of L systems (8 doubles or 16 floats) with unit row stride
// through the host backend's register sweeps (backend/host_simd/register_sweep.hpp). This file is
// the symmetric family's part: the one-shot forward elimination on three blocks per step (b, e,
// d) instead of Thomas's four (doubles four rows per step, floats row by row), with
// a_i = e_{i-1} taken from the block itself or, for a block's first row, from the previous
// block's last row, screening pivots as Thomas's register sweep does plus their sign; and the
// factored forward substitution y_i = d_i - c'_{i-1} y_{i-1}, z_i = r_i y_i. A flagged pack is
// left to the gathered sweeps (symmetric_kernel.hpp), which find the exact info codes.
#include <bandsolve/backend/host_simd/register_sweep.hpp>
#include <bandsolve/core/pivot.hpp>
#include <bandsolve/tridiag/symmetric_kernel.hpp>

#include <type_traits>

namespace bandsolve::detail {

// The one-shot forward elimination on vectors V of lanes of T, for simd::register_sweep: the
// rows of block q are in[0..2][j] (b, e, d of row q*L + j).
template <class T, class V>
struct symmetric_register_rows {
  V zero = V{}, one = zero + T(1), scale = zero + pivot_limits<T>::risk_scale,
    huge = zero + pivot_limits<T>::huge;
  V risk = zero, cp_carry = zero, dp_carry = zero, e_carry = zero;

  template <int L, class Emit>
  KOKKOS_FORCEINLINE_FUNCTION void forward(index_t q, V (&in)[3][static_cast<std::size_t>(L)],
                                           const Emit& emit) {
    // The carried vectors in locals while the block's rows are stored (see register_sweep.hpp).
    const V zero_ = zero, one_ = one, scale_ = scale, huge_ = huge;
    V risk_ = risk, cp = cp_carry, dp = dp_carry;
    const V *B = in[0], *E = in[1], *D = in[2];
    const auto screen = [&](const V& pivot, const V& r) {
      const V magnitude = r < zero_ ? -r : r;
      risk_ = (magnitude - r) * huge_ * huge_ + (magnitude * scale_ + (pivot * zero_ + risk_));
    };
    if constexpr (!std::is_same_v<T, double>) {
      // Row by row, as the gathered sweeps of floats (sym_next_row): the products of four
      // pivots would leave the float range for pivots beyond about 1e+-9.
      V e_prev = e_carry;  // e_{i-1}; e_{-1} = 0
      for (int j = 0; j < L; ++j) {
        const V pivot = B[j] - e_prev * cp;
        const V r = one_ / pivot;
        screen(pivot, r);
        cp = r * E[j];
        dp = r * (D[j] - e_prev * dp);
        emit(q * L + j, cp, dp);
        e_prev = E[j];
      }
    } else {
      for (int j = 0; j < L; j += 4) {
        const V a0 = j == 0 ? e_carry : E[j - 1];  // a_i = e_{i-1}; e_{-1} = 0
        const V q0 = B[j] - a0 * cp;
        const V q1 = B[j + 1] * q0 - E[j] * E[j];
        const V q2 = B[j + 2] * q1 - (E[j + 1] * E[j + 1]) * q0;
        const V q3 = B[j + 3] * q2 - (E[j + 2] * E[j + 2]) * q1;
        const V i0 = one_ / q0, i1 = one_ / q1, i2 = one_ / q2, i3 = one_ / q3;
        const V r[4] = {i0, q0 * i1, q1 * i2, q2 * i3};  // 1/p_{i+k}
        screen(q0, i0);
        screen(q1 * i0, r[1]);
        screen(q2 * i1, r[2]);
        screen(q3 * i2, r[3]);
        const V cps[4] = {i0 * E[j], r[1] * E[j + 1], r[2] * E[j + 2], (E[j + 3] * q2) * i3};
        const V as[4] = {a0, E[j], E[j + 1], E[j + 2]};
        for (int k = 0; k < 4; ++k) {
          dp = r[k] * D[j + k] - (r[k] * as[k]) * dp;
          emit(q * L + j + k, cps[k], dp);
        }
        cp = cps[3];
      }
    }
    e_carry = E[L - 1];
    risk = risk_, cp_carry = cp, dp_carry = dp;
  }
  inline bool clean() const { return risk_is_low_in_every_lane<T>(risk); }
  inline const V& last() const { return dp_carry; }
};

// The factored forward substitution on vectors V of lanes, for simd::register_factored_sweep:
// factor rows r and cp of `lanes` systems each (the stored packs), group g of V's lane count.
template <class T, class V>
struct symmetric_factored_register_rows {
  const T* r;
  const T* cp;
  index_t lanes;
  V y = V{};

  template <int L, class Emit, class Load>
  KOKKOS_FORCEINLINE_FUNCTION void forward(int g, index_t q,
                                           V (&in)[1][static_cast<std::size_t>(L)],
                                           const Emit& emit, const Load& load) {
    V y_ = y;  // in a local while z is stored (see register_sweep.hpp)
    for (int j = 0; j < L; ++j) {
      const index_t i = q * L + j;
      V ri;
      load(r + i * lanes + g * L, ri);
      if (i == 0) {
        y_ = in[0][0];
      } else {
        V c_prev;
        load(cp + (i - 1) * lanes + g * L, c_prev);
        y_ = in[0][j] - c_prev * y_;
      }
      emit(i, ri * y_);
    }
    y = y_;
  }
};

// As solve_pack_in_registers (thomas_register_sweep.hpp), for the symmetric solve: true when the
// pack was solved in registers (info all 0), false when the caller must run the gathered sweeps.
template <int L, class R, class C, class D, int MaxArrays>
KOKKOS_FORCEINLINE_FUNCTION bool sym_solve_pack_in_registers(
    index_t n, int nl, gathered_lanes<const R> b, gathered_lanes<const C> e,
    gathered_lanes<const D> d, gathered_lanes<D> x_out, C* scratch,
    const next_pack_prefetch<MaxArrays>& next) {
  if constexpr (std::is_same_v<R, D> && std::is_same_v<C, D>) {
    const gathered_lanes<const D> in[3] = {b, e, d};
    return register_sweep_pack<L, symmetric_register_rows, 3>(n, nl, in, x_out, scratch, next);
  } else {
    (void)n, (void)nl, (void)b, (void)e, (void)d, (void)x_out, (void)scratch, (void)next;
    return false;
  }
}

// The factored solve of a full gathered pack of GL systems in registers where it applies
// (register_factored_packs_v: doubles 8 systems at a time, floats in tiles of 16; factor rows of
// GL lanes); returns false, having written nothing, otherwise.
template <int GL, class R, class C, class D>
KOKKOS_INLINE_FUNCTION bool sym_factored_pack_in_registers(index_t n, int nl, const R* r,
                                                           const C* cp, gathered_lanes<D> d,
                                                           D* scratch) {
  if constexpr (std::is_same_v<R, D> && std::is_same_v<C, D>) {
    return register_factored_pack<GL, symmetric_factored_register_rows>(n, nl, r, cp, cp, d,
                                                                        scratch);
  } else {
    (void)n, (void)nl, (void)r, (void)cp, (void)d, (void)scratch;
    return false;
  }
}

}  // namespace bandsolve::detail
