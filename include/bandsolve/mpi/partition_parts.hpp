#pragma once
// Row steps of the factored local passes (partition_factor_kernel.hpp) for complex right-hand
// sides, on the real and imaginary parts of NL lanes whose values lie side by side (staged row
// packs, column packs read in place). With Kokkos::complex lanes GCC computed one complex value
// per 128-bit operation; on the parts the lane loops run as real SIMD arithmetic. Factors are
// real (complex d over real lines) or complex; the products are those of Kokkos::complex.
#include <bandsolve/core/config.hpp>
#include <bandsolve/core/scalar_traits.hpp>
#include <bandsolve/layout/layout_of.hpp>
#include <bandsolve/mpi/partition_kernel.hpp>

#include <type_traits>

namespace bandsolve::mpi::detail {

// Whether the row accessor's NL lanes of a row are consecutive values: staged rows always, rows
// in place for column batches (LayoutLeft: the systems of a row are contiguous).
template <class Rows>
struct lanes_side_by_side : std::false_type {};
template <class T, int NL>
struct lanes_side_by_side<rows_staged<T, NL>> : std::true_type {};
template <class View>
struct lanes_side_by_side<rows_in_place<View>>
    : std::bool_constant<std::is_same_v<layout_of_t<View>, layout::column>> {};

// Whether the passes over these rows of D values take the parts' row steps below.
template <int NL, class D, class Rows>
inline constexpr bool rhs_on_parts_v =
    NL > 1 && is_complex_v<D> && lanes_side_by_side<std::decay_t<Rows>>::value;

template <class D>
KOKKOS_FORCEINLINE_FUNCTION real_type_t<D>* parts(D* p) {
  return reinterpret_cast<real_type_t<D>*>(p);
}
template <class D>
KOKKOS_FORCEINLINE_FUNCTION const real_type_t<D>* parts(const D* p) {
  return reinterpret_cast<const real_type_t<D>*>(p);
}

// (re, im) = k_l (vr + i vi) for lane l of a row of factors k (real, or complex read as parts).
template <class T, class P>
KOKKOS_FORCEINLINE_FUNCTION void times_factor(const T* k, int l, P vr, P vi, P& re, P& im) {
  if constexpr (is_complex_v<T>) {
    const P* const kv = parts(k);
    const P kr = kv[2 * l], ki = kv[2 * l + 1];
    re = kr * vr - ki * vi;
    im = kr * vi + ki * vr;
  } else {
    re = k[l] * vr;
    im = k[l] * vi;
  }
}

// Forward row of the reduce pass: dp = r d - lo dp (dp the previous row's d', updated to this
// row's); also stored into out and, when not null, into d_out (d's row read in place).
template <int NL, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void forward_rhs_row_parts(const T* r, const T* lo, const D* d,
                                                       D* dp, D* out, D* d_out) {
  using P = real_type_t<D>;
  const P* const dv = parts(d);
  P* const q = parts(dp);
  P* const o = parts(out);
  if (d_out) {
    P* const w = parts(d_out);
    BANDSOLVE_SIMD
    for (int l = 0; l < NL; ++l) {
      P ur, ui, vr, vi;
      times_factor(r, l, dv[2 * l], dv[2 * l + 1], ur, ui);
      times_factor(lo, l, q[2 * l], q[2 * l + 1], vr, vi);
      q[2 * l] = o[2 * l] = w[2 * l] = ur - vr;
      q[2 * l + 1] = o[2 * l + 1] = w[2 * l + 1] = ui - vi;
    }
  } else {
    BANDSOLVE_SIMD
    for (int l = 0; l < NL; ++l) {
      P ur, ui, vr, vi;
      times_factor(r, l, dv[2 * l], dv[2 * l + 1], ur, ui);
      times_factor(lo, l, q[2 * l], q[2 * l + 1], vr, vi);
      q[2 * l] = o[2 * l] = ur - vr;
      q[2 * l + 1] = o[2 * l + 1] = ui - vi;
    }
  }
}

// Last forward row (not stored): dp = r d - lo dp.
template <int NL, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void last_rhs_row_parts(const T* r, const T* lo, const D* d, D* dp) {
  using P = real_type_t<D>;
  const P* const dv = parts(d);
  P* const q = parts(dp);
  BANDSOLVE_SIMD
  for (int l = 0; l < NL; ++l) {
    P ur, ui, vr, vi;
    times_factor(r, l, dv[2 * l], dv[2 * l + 1], ur, ui);
    times_factor(lo, l, q[2 * l], q[2 * l + 1], vr, vi);
    q[2 * l] = ur - vr;
    q[2 * l + 1] = ui - vi;
  }
}

// Backward row of the reduce pass: y = u - cf y (u the kept forward d' of the row).
template <int NL, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void backward_rhs_row_parts(const D* u, const T* cf, D* y) {
  using P = real_type_t<D>;
  const P* const uv = parts(u);
  P* const q = parts(y);
  BANDSOLVE_SIMD
  for (int l = 0; l < NL; ++l) {
    P vr, vi;
    times_factor(cf, l, q[2 * l], q[2 * l + 1], vr, vi);
    q[2 * l] = uv[2 * l] - vr;
    q[2 * l + 1] = uv[2 * l + 1] - vi;
  }
}

// Row of the finish pass: x = d' - af x0 - cf x (x the next row's solution, updated to this
// row's), written over d'.
template <int NL, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void finish_row_parts(D* d, const T* af, const D* x0, const T* cf,
                                                  D* x) {
  using P = real_type_t<D>;
  P* const dv = parts(d);
  const P* const z = parts(x0);
  P* const q = parts(x);
  BANDSOLVE_SIMD
  for (int l = 0; l < NL; ++l) {
    P ur, ui, vr, vi;
    times_factor(af, l, z[2 * l], z[2 * l + 1], ur, ui);
    times_factor(cf, l, q[2 * l], q[2 * l + 1], vr, vi);
    q[2 * l] = dv[2 * l] = (dv[2 * l] - ur) - vr;
    q[2 * l + 1] = dv[2 * l + 1] = (dv[2 * l + 1] - ui) - vi;
  }
}

}  // namespace bandsolve::mpi::detail
