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

using bandsolve::detail::real_parts;

// (re, im) = k_l (vr + i vi) for lane l of a row of factors k (real, or complex read as parts).
template <class T, class P>
KOKKOS_FORCEINLINE_FUNCTION void times_factor(const T* k, int l, P vr, P vi, P& re, P& im) {
  if constexpr (is_complex_v<T>) {
    const P* const kv = real_parts(k);
    bandsolve::detail::product_parts(kv[2 * l], kv[2 * l + 1], vr, vi, re, im);
  } else {
    re = k[l] * vr;
    im = k[l] * vi;
  }
}

// One row of a recurrence y = u - k y on the parts of NL lanes: u_l from u(l, ur, ui), y the
// previous row's values, updated to this row's, and each lane's new value handed to
// store(l, yr, yi) as well.
template <int NL, class T, class D, class U, class Store>
KOKKOS_FORCEINLINE_FUNCTION void recurrence_row_parts(const T* k, D* y, const U& u,
                                                      const Store& store) {
  using P = real_type_t<D>;
  P* const q = real_parts(y);
  BANDSOLVE_SIMD
  for (int l = 0; l < NL; ++l) {
    P ur, ui, vr, vi;
    u(l, ur, ui);
    times_factor(k, l, q[2 * l], q[2 * l + 1], vr, vi);
    const P yr = ur - vr, yi = ui - vi;
    q[2 * l] = yr;
    q[2 * l + 1] = yi;
    store(l, yr, yi);
  }
}

// Stores of a row's new values: none, or into one or two rows of D values.
struct store_nothing {
  template <class P>
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int, P, P) const {}
};
template <class P>
struct store_parts {
  P* out;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int l, P re, P im) const {
    out[2 * l] = re;
    out[2 * l + 1] = im;
  }
};
template <class P>
struct store_parts_twice {
  P *out, *also;
  KOKKOS_FORCEINLINE_FUNCTION void operator()(int l, P re, P im) const {
    out[2 * l] = also[2 * l] = re;
    out[2 * l + 1] = also[2 * l + 1] = im;
  }
};

// Forward row of the reduce pass: dp = r d - lo dp (dp the previous row's d', updated to this
// row's); also stored into out unless null and, when not null, into d_out (d's row read in
// place). The rows may be the same (staged d).
template <int NL, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void forward_rhs_row_parts(const T* r, const T* lo, const D* d,
                                                       D* dp, D* out, D* d_out) {
  using P = real_type_t<D>;
  const P* const dv = real_parts(d);
  const auto r_d = [&](int l, P& ur, P& ui) {
    times_factor(r, l, dv[2 * l], dv[2 * l + 1], ur, ui);
  };
  if (!out)
    recurrence_row_parts<NL>(lo, dp, r_d, store_nothing{});
  else if (!d_out)
    recurrence_row_parts<NL>(lo, dp, r_d, store_parts<P>{real_parts(out)});
  else
    recurrence_row_parts<NL>(lo, dp, r_d, store_parts_twice<P>{real_parts(out), real_parts(d_out)});
}

// Backward row of the reduce pass: y = u - cf y (u the kept forward d' of the row), also stored
// into out unless null.
template <int NL, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void backward_rhs_row_parts(const D* u, const T* cf, D* y, D* out) {
  using P = real_type_t<D>;
  const P* const uv = real_parts(u);
  const auto kept = [&](int l, P& ur, P& ui) { ur = uv[2 * l], ui = uv[2 * l + 1]; };
  if (out)
    recurrence_row_parts<NL>(cf, y, kept, store_parts<P>{real_parts(out)});
  else
    recurrence_row_parts<NL>(cf, y, kept, store_nothing{});
}

// Row of the finish pass: x = d' - af x0 - cf x (x the next row's solution, updated to this
// row's), written over d'.
template <int NL, class T, class D>
KOKKOS_FORCEINLINE_FUNCTION void finish_row_parts(D* d, const T* af, const D* x0, const T* cf,
                                                  D* x) {
  using P = real_type_t<D>;
  P* const dv = real_parts(d);
  const P* const z = real_parts(x0);
  const auto d_minus = [&](int l, P& ur, P& ui) {
    P vr, vi;
    times_factor(af, l, z[2 * l], z[2 * l + 1], vr, vi);
    ur = dv[2 * l] - vr, ui = dv[2 * l + 1] - vi;
  };
  recurrence_row_parts<NL>(cf, x, d_minus, store_parts<P>{dv});
}

}  // namespace bandsolve::mpi::detail
